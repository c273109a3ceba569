"""Topic files: reading both forms, every structural problem, the corpus check, writing, votes."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from indexing.problems import ProblemsError
from bolt.formats.topics import (Facet, Nugget, Topic, TopicProperties, average_nugget_words, check_topics,
                         read_topics, read_votes, write_topics, write_votes)
from indexing.reader import parse_thread_text

FULL = """\
<?xml version="1.0" encoding="UTF-8"?>
<topic number="1.001">
  <query> What did Bain Capital do in the 1990s? </query>
  <!-- the fields below are hidden from systems -->
  <description>What the user wants.</description>
  <properties>
    <asks-about target="organization"/>
    <asks-for response="information-about"/>
    <languages eng="T" arz="F" cnm="T"/>
    <threads multiple="T"/>
  </properties>
  <facet id="a" importance="okay">
    <desc>Acquisition of Ampad.</desc>
    <nugget post="bolt-eng-DF-1-2-3" offset="101">One of these transactions
      involved Ampad &amp; co.</nugget>
    <nugget>A description-only nugget</nugget>
  </facet>
  <facet>
    <desc>Steel mill.</desc>
  </facet>
  <rules>Formal rules.</rules>
</topic>
<topic number="1.002"><query>Second?</query></topic>
"""


def write(tmp_path: Path, text: str, name: str = "t.xml") -> Path:
    p = tmp_path / name
    p.write_bytes(text.encode("utf-8"))
    return p


def rules_of(path: Path) -> list[tuple[int | None, str]]:
    return [(p.line, p.rule) for p in check_topics(path)]


def test_full_form_with_bare_topics(tmp_path):
    topics = read_topics(write(tmp_path, FULL))
    assert [t.topic_id for t in topics] == ["1.001", "1.002"]
    t = topics[0]
    assert t.query == "What did Bain Capital do in the 1990s?"
    assert t.line == 2
    assert t.properties == TopicProperties("organization", "information-about", frozenset({"eng", "cmn"}), True)
    assert [f.id for f in t.facets] == ["a", "2"]  # default id: 1-based position
    assert [f.importance for f in t.facets] == ["okay", "vital"]  # default importance: vital
    assert [f.id for f in t.vital_facets] == ["2"]
    assert t.facet("a").nuggets[0] == Nugget("One of these transactions involved Ampad & co.",
                                              "bolt-eng-DF-1-2-3", 101)
    assert t.facet("a").nuggets[0].line == 14
    assert t.facet("a").nuggets[1] == Nugget("A description-only nugget", None, None)
    assert t.facet("zzz") is None
    assert t.rules == "Formal rules."
    assert topics[1].facets == () and topics[1].properties == TopicProperties()


def test_topics_root_and_query_only_form(tmp_path):
    p = write(tmp_path, '<topics>\n<topic number="2.1">\n<query>Q?</query>\n</topic>\n</topics>\n')
    (t,) = read_topics(p)
    assert (t.topic_id, t.query, t.facets, t.line) == ("2.1", "Q?", (), 2)
    assert check_topics(p) == []


def test_round_trip_full_and_queries_only(tmp_path):
    topics = read_topics(write(tmp_path, FULL))
    out = tmp_path / "out.xml"
    write_topics(topics, out)
    assert read_topics(out) == topics
    q = tmp_path / "q.xml"
    write_topics(topics, q, queries_only=True)
    assert read_topics(q) == [t.summary() for t in topics]
    assert "facet" not in q.read_text() and "<languages eng=\"T\" arz=\"F\" cnm=\"T\"/>" in out.read_text()


def test_every_structural_problem_is_reported_with_its_line(tmp_path):
    bad = textwrap.dedent("""\
        <topics>
        <topic number="1.001">
          <query>Q one?</query>
          <properties>
            <asks-about target="person"/>
            <colour value="red"/>
            <languages eng="T" fra="T" arz="maybe"/>
          </properties>
          <facet id="1" importance="urgent"><desc>D</desc></facet>
          <facet id="1"><desc>dup</desc></facet>
          <facet id="3"><nugget post="x" offset="-4">text</nugget></facet>
          <facet id="4"><desc>d</desc><nugget post="x">no offset</nugget></facet>
          <summary>?</summary>
        </topic>
        <topic number="1.001"><query>again</query></topic>
        <topic><query>no number</query></topic>
        </topics>
        """)
    found = rules_of(write(tmp_path, bad))
    assert found == [
        (6, "unknown-property"),
        (7, "unknown-attribute"),
        (7, "bad-flag"),
        (9, "bad-importance"),
        (10, "duplicate-facet"),
        (11, "bad-offset"),
        (11, "facet-desc-missing"),
        (12, "nugget-citation-incomplete"),
        (13, "unknown-element"),
        (15, "duplicate-topic"),
        (16, "topic-number-missing"),
    ]
    with pytest.raises(ProblemsError) as exc:
        read_topics(tmp_path / "t.xml")
    assert len(exc.value.problems) == 11
    assert "(and 10 more errors)" in str(exc.value)
    msgs = {p.rule: p.format() for p in exc.value.problems}
    assert msgs["unknown-element"].startswith(f"error: {tmp_path / 't.xml'}:13: topic 1.001: ")
    assert "(did you mean" not in msgs["unknown-element"]


def test_suggestions_for_misspelt_names(tmp_path):
    p = write(tmp_path, '<topic number="1"><quer>Q</quer><query>Q</query>'
                        '<facet importnce="vital"><desc>d</desc></facet></topic>')
    messages = [pr.message for pr in check_topics(p)]
    assert any("did you mean query?" in m for m in messages)
    assert any("did you mean importance?" in m for m in messages)


@pytest.mark.parametrize("text,rule", [
    ("<topic number='1'><query>Q</query>", "not-well-formed"),
    ('<!DOCTYPE t [<!ENTITY x "y">]><topic number="1"><query>&x;</query></topic>', "doctype-refused"),
    ("", "no-topics"),
    ("<topics/>", "no-topics"),
    ("<runs><topic/></runs>", "unknown-element"),
])
def test_unreadable_files(tmp_path, text, rule):
    assert [p.rule for p in check_topics(write(tmp_path, text))] == [rule]


def test_not_utf8(tmp_path):
    p = tmp_path / "latin1.xml"
    p.write_bytes('<topic number="1">\n<query>caf\u00e9</query></topic>'.encode("latin-1"))
    (pr,) = check_topics(p)
    assert (pr.rule, pr.line) == ("invalid-utf8", 2)


def test_no_facets_with_description_is_a_warning(tmp_path):
    p = write(tmp_path, '<topic number="1"><query>Q</query><description>D</description></topic>')
    (pr,) = check_topics(p)
    assert (pr.severity, pr.rule) == ("warning", "no-facets")
    assert len(read_topics(p)) == 1  # warnings do not stop reading


# ------------------------------------------------------------------ the corpus check

THREAD = ('<doc id="bolt-eng-DF-1-2-3">\n<headline>\nh\n</headline>\n'
          '<post author="a" datetime="2012-01-01T00:00:00" id="p1">\n'
          'Some intro words here. Bain &amp; Capital bought Ampad in 1992.\n</post>\n'
          '<post author="b" datetime="2012-01-01T00:00:00" id="p2">\n'
          '<quote orig_author="a">\nBain &amp; Capital bought Ampad in 1992.\n</quote>\nAgreed.\n</post>\n</doc>\n')


class Corpus:
    def __init__(self, *threads):
        self.threads = {t.id: t for t in threads}

    def get(self, tid):
        return self.threads.get(tid)


@pytest.fixture(scope="module")
def corpus():
    return Corpus(parse_thread_text(THREAD, path="t.xml"))


def topic_with(tmp_path, post, offset, text="Bain &amp; Capital bought Ampad in 1992."):
    return write(tmp_path, f'<topic number="1"><query>Q</query><facet><desc>d</desc>'
                           f'<nugget post="{post}" offset="{offset}">{text}</nugget></facet></topic>')


def test_nugget_offsets_checked_against_the_corpus(tmp_path, corpus):
    start = THREAD.index("Bain &amp;")
    assert check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", start), corpus) == []
    # up to three words before the text is allowed ("words here." then the text)
    assert check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", THREAD.index("words here")), corpus) == []
    # inside the text is allowed too
    assert check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", start + 12), corpus) == []


def test_wrong_offset_suggests_the_nearest_exact_one(tmp_path, corpus):
    start = THREAD.index("Bain &amp;")
    quoted = THREAD.index("Bain &amp;", start + 1)
    (p,) = check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", THREAD.index("Some intro")), corpus)
    assert p.rule == "nugget-offset-mismatch"
    assert f"nearest exact offset is {start}" in p.message
    (p,) = check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", THREAD.index("Agreed")), corpus)
    assert f"nearest exact offset is {quoted}" in p.message
    (p,) = check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", 5), corpus)
    assert p.rule == "nugget-offset-outside-post" and f"offset is {start}" in p.message
    (p,) = check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", 99999), corpus)
    assert p.rule == "nugget-offset-outside-thread"
    (p,) = check_topics(topic_with(tmp_path, "bolt-eng-DF-9-9-9", 1), corpus)
    assert p.rule == "nugget-thread-unknown"
    (p,) = check_topics(topic_with(tmp_path, "bolt-eng-DF-1-2-3", start, "Text from elsewhere"), corpus)
    assert "is not in that thread" in p.message


# ------------------------------------------------------------------ metrics helpers and votes


def test_average_nugget_words():
    t = Topic("1", "Q", facets=(Facet("1", "vital", "d", (Nugget("three words here"), Nugget("中国派出"))),
                                Facet("2", "okay", "d", (Nugget("Bain & Capital, 1992."),))))
    assert average_nugget_words([t]) == pytest.approx((3 + 4 + 3) / 3)
    assert average_nugget_words([Topic("2", "Q")]) == 0.0


def test_votes_round_trip_and_errors(tmp_path):
    rows = [("1.001", "1", "A1", "vital"), ("1.001", "1", "A2", "okay"), ("1.001", "1", "A3", "vital"),
            ("1.001", "2", "A1", "okay"), ("1.002", "1", "A1", "vital")]
    p = tmp_path / "v.tsv"
    write_votes(rows, p)
    assert p.read_text().splitlines()[0] == "topic\tfacet\tassessor\tvote"
    assert read_votes(p) == {"1.001": {"1": {"vital": 2, "okay": 1}, "2": {"vital": 0, "okay": 1}},
                             "1.002": {"1": {"vital": 1, "okay": 0}}}
    bad = tmp_path / "bad.tsv"
    bad.write_text("# comment\ntopic\tfacet\tassessor\tvote\n1\t1\tA1\tvital\n1\t1\tA1\tokay\n"
                   "1\t2\tA1\tmaybe\n1\t3\n", encoding="utf-8")
    with pytest.raises(ProblemsError) as exc:
        read_votes(bad)
    assert [(pr.line, pr.rule) for pr in exc.value.problems] == [
        (4, "votes-duplicate"), (5, "votes-value"), (6, "votes-row")]
    nohead = tmp_path / "nohead.tsv"
    nohead.write_text("1\t1\tA1\tvital\n", encoding="utf-8")
    with pytest.raises(ProblemsError, match="header"):
        read_votes(nohead)


# ------------------------------------------------------------------ property: write then read is identity

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_text = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\ufeff"),
                min_size=1, max_size=30).map(lambda s: " ".join(s.split())).filter(bool)
_nugget = st.builds(Nugget, _text, st.one_of(st.none(), st.just("bolt-cmn-DF-1-2-3")),
                    st.one_of(st.none(), st.integers(0, 10**6))).map(
    lambda n: n if (n.post is None) == (n.offset is None) else Nugget(n.text))
_facet = st.builds(Facet, st.just("x"), st.sampled_from(["vital", "okay"]), _text,
                   st.lists(_nugget, max_size=3).map(tuple))
_props = st.builds(TopicProperties, st.one_of(st.none(), _text), st.one_of(st.none(), _text),
                   st.frozensets(st.sampled_from(["eng", "arz", "cmn"])), st.one_of(st.none(), st.booleans()))


@st.composite
def _topics(draw):
    n = draw(st.integers(1, 3))
    out = []
    for i in range(n):
        facets = draw(st.lists(_facet, min_size=1, max_size=3))
        facets = tuple(Facet(str(j + 1), f.importance, f.desc, f.nuggets) for j, f in enumerate(facets))
        out.append(Topic(f"1.{i:03d}", draw(_text), draw(st.one_of(st.none(), _text)), draw(_props), facets,
                         draw(st.one_of(st.none(), _text))))
    return out


@settings(max_examples=40, deadline=None)
@given(_topics())
def test_write_then_read_is_identity(tmp_path_factory, topics):
    p = tmp_path_factory.mktemp("rt") / "t.xml"
    write_topics(topics, p)
    assert read_topics(p) == topics
