"""The HTML report from small hand-made inputs: no JVM, no model, every value computed by hand."""
from __future__ import annotations

import base64
import re
from html.parser import HTMLParser

import pytest

from bolt.formats.submission import Bullet, Result, Run, Source
from bolt.formats.topics import Facet, Nugget, Topic, TopicProperties
from evaluation import plots
from evaluation.judgments import JudgedSource, Judgment
from evaluation.report import citation_context, cite_id, metric_tau, newly_covered, render_report, write_report
from evaluation.results import ScoreReport
from indexing.reader import parse_thread_text

TID = "bolt-eng-DF-1-2-3"
RAW = (f'<doc id="{TID}">\n<headline>\nA thread\n</headline>\n'
       '<post author="a" datetime="2012-01-01T00:00:00" id="p1">\n'
       'Bain Capital bought Ampad in 1992. Tom &amp; Jerry laughed.\n</post>\n'
       '<post author="b" datetime="2012-01-02T00:00:00" id="p2">\n'
       'The steel mill deal came in 1993. <b>evil</b> &lt;script&gt; text.\n</post>\n</doc>\n')


class Corpus:
    def __init__(self, threads):
        self._t = {t.id: t for t in threads}

    def get(self, tid):
        return self._t.get(tid)


@pytest.fixture(scope="module")
def thread():
    # "<b>" is not a forum tag, so the raw XML is rewritten into an escaped form the reader accepts
    raw = RAW.replace("<b>evil</b>", "&lt;b&gt;evil&lt;/b&gt;")
    return parse_thread_text(raw, path="t.xml")


@pytest.fixture(scope="module")
def inputs(thread):
    off_ampad = thread.raw.index("Bain Capital")
    off_steel = thread.raw.index("The steel mill")
    off_tom = thread.raw.index("Tom &amp;")
    topics = [
        Topic("1.001", "What did Bain Capital do?", "desc",
              TopicProperties("organization", "information-about", frozenset({"eng"}), False),
              (Facet("1", "vital", "Bought Ampad", (Nugget("Bain Capital bought Ampad in 1992.", TID, off_ampad),)),
               Facet("2", "okay", "Steel mill <deal>"))),
        Topic("1.002", "Second topic?", None,
              TopicProperties(None, None, frozenset({"eng", "cmn"}), True),
              (Facet("1", "vital", "x"),)),
    ]
    run_a = Run("runA", "a.xml", {
        "1.001": Result("1.001", (
            Bullet(1, "Bain Capital bought Ampad in 1992.", (Source(TID, off_ampad),)),
            Bullet(2, "Bain bought Ampad <script>alert(1)</script>", (Source(TID, off_ampad), Source(TID, off_tom))),
            Bullet(3, "The steel mill deal came in 1993.", (Source(TID, off_steel),)),
        )),
    })
    run_b = Run("run<B>", "b.xml", {
        "1.001": Result("1.001", (Bullet(1, "Tom & Jerry laughed.", (Source(TID, off_tom),)),)),
        "1.002": Result("1.002", (Bullet(1, "nothing", (Source("bolt-eng-DF-9-9-9", 5),)),)),
    })

    def j(run, topic, k, facets, sources, words=6, resp=6):
        return Judgment(topic, run, k, "test", tuple(facets), words, resp,
                        tuple(JudgedSource(p, o, u, s) for p, o, u, s in sources))

    judgments = [
        j("runA", "1.001", 1, ["1"], [(TID, off_ampad, "p1", True)]),
        j("runA", "1.001", 2, ["1"], [(TID, off_ampad, "p1", True), (TID, off_tom, "p1", False)], 7, 4),
        j("runA", "1.001", 3, ["2"], [(TID, off_steel, "p2", True)]),
        j("run<B>", "1.001", 1, [], [(TID, off_tom, "p1", False)], 3, 0),
        # run<B> 1.002 bullet 1 left unjudged on purpose
    ]
    scores = {
        "settings": {"metrics": ["P_n", "R_n"], "avg_nugget_words": 6.0, "version": "0.1"},
        "signature": "avg_nugget_words:6|version:0.1",
        "runs": {
            "runA": {"mean": {"P_n": 0.5, "R_n": 0.5, "F_GD": 0.4},
                     "topics": {"1.001": {"P_n": 1.0, "R_n": 1.0, "F_GD": 0.8},
                                "1.002": {"P_n": 0.0, "R_n": 0.0, "F_GD": 0.0}},
                     "conditions": {"language:cmn": {"topics": 1, "P_n": 0.0, "R_n": 0.0, "F_GD": 0.0},
                                    "threads:single": {"topics": 1, "P_n": 1.0, "R_n": 1.0, "F_GD": 0.8}}},
            "run<B>": {"mean": {"P_n": 0.25, "R_n": 0.0, "F_GD": 0.0},
                       "topics": {"1.001": {"P_n": 0.0, "R_n": 0.0, "F_GD": 0.0},
                                  "1.002": {"P_n": 0.5, "R_n": 0.0, "F_GD": 0.0}},
                       "conditions": {"language:cmn": {"topics": 1, "P_n": 0.5, "R_n": 0.0, "F_GD": 0.0},
                                      "threads:single": {"topics": 1, "P_n": 0.0, "R_n": 0.0, "F_GD": 0.0}}},
        },
        "zero_median_topics": {"F_GD": {"count": 1, "topics": ["1.002"]}},
    }
    return dict(topics=topics, runs=[run_a, run_b], judgments=judgments, scores=scores,
                corpus=Corpus([thread]), offsets=(off_ampad, off_steel, off_tom))


class Collect(HTMLParser):
    """Ids, hrefs, img srcs, table count, and the text of each citation block."""

    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.imgs, self.tables, self.scripts = set(), [], [], 0, 0
        self.cite_text: dict[str, str] = {}
        self.marks: dict[str, str] = {}
        self._stack: list[tuple[str, str | None]] = []
        self._cite: str | None = None
        self._in_mark = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag == "img":
            self.imgs.append(a.get("src", ""))
        if tag == "table":
            self.tables += 1
        if tag == "script":
            self.scripts += 1
        if tag == "div" and a.get("id", "").startswith("cite-"):
            self._cite = a["id"]
            self.cite_text[self._cite] = ""
            self.marks[self._cite] = ""
        if tag == "mark":
            self._in_mark = True
        self._stack.append((tag, a.get("id")))

    def handle_endtag(self, tag):
        if tag == "mark":
            self._in_mark = False
        while self._stack:
            t, i = self._stack.pop()
            if t == tag:
                if i is not None and i == self._cite:
                    self._cite = None
                break

    def handle_data(self, data):
        if self._cite:
            self.cite_text[self._cite] += data
            if self._in_mark:
                self.marks[self._cite] += data


@pytest.fixture(scope="module")
def html(inputs):
    return render_report(**{k: v for k, v in inputs.items() if k != "offsets"},
                         compare={"metric": "F_GD", "rankings": {"scores": ["runA", "run<B>"]},
                                  "kendall_tau": {}})


def test_citation_context_marks_the_cited_text(thread, inputs):
    off_ampad, off_steel, off_tom = inputs["offsets"]
    corpus = inputs["corpus"]
    c = citation_context(corpus, TID, off_ampad, "Bain Capital bought Ampad in 1992.")
    assert (c.unit, c.marked, c.found) == ("p1", "Bain Capital bought Ampad in 1992.", True)
    assert c.after.startswith(" Tom & Jerry laughed.")  # decoded text: &amp; shown as &
    # bullet text not in the post: the mark runs from the offset to the end of the sentence
    c = citation_context(corpus, TID, off_tom, "something else entirely")
    assert (c.unit, c.marked, c.found) == ("p1", "Tom & Jerry laughed.", False)
    assert c.before.endswith("in 1992. ")
    # an offset inside an entity starts at the character it encodes
    c = citation_context(corpus, TID, off_tom + 5, "")
    assert c.marked.startswith("& Jerry")
    # narrow context: ellipses show the cut
    c = citation_context(corpus, TID, off_steel, "The steel mill deal came in 1993.", width=5)
    assert c.marked == "The steel mill deal came in 1993." and c.after.endswith("…") and c.before == ""
    assert citation_context(corpus, "bolt-eng-DF-9-9-9", 5).problem == "the thread is not in the collection"
    assert "outside every <post>" in citation_context(corpus, TID, 3).problem
    assert citation_context(None, TID, 3).problem == "no collection was given"


def test_newly_covered_follows_bullet_order_and_support(inputs):
    js = [j for j in inputs["judgments"] if j.run == "runA"]
    assert newly_covered(js, [1, 2, 3]) == {1: ("1",), 2: (), 3: ("2",)}
    # a bullet whose sources all fail covers nothing, so the next bullet covers facet 1
    first = js[0]
    unsupported = Judgment(first.topic_id, first.run, 1, "t", ("1",), 6, 6,
                           (JudgedSource(TID, 1, "p1", False),))
    assert newly_covered([unsupported] + js[1:], [1, 2, 3]) == {1: (), 2: ("1",), 3: ("2",)}
    assert newly_covered([], [1]) == {1: ()}


def test_report_reads_the_score_report_and_tau_by_hand(inputs):
    rep = ScoreReport.from_json(inputs["scores"])
    assert rep.metrics == ["P_n", "R_n", "F_GD"] and rep.runs == ["runA", "run<B>"]
    assert rep.conditions["run<B>"]["language:cmn"]["P_n"] == 0.5
    assert rep.zero_median == {"F_GD": ["1.002"]} and rep.signature == "avg_nugget_words:6|version:0.1"
    assert ScoreReport.from_json(rep.to_json()) == rep  # writes and reads its own JSON
    scores = {"runs": {"a": {"mean": {"x": 0.1, "y": 0.3, "z": 0.5}},
                       "b": {"mean": {"x": 0.2, "y": 0.2, "z": 0.5}},
                       "c": {"mean": {"x": 0.3, "y": 0.1, "z": 0.5}}}}
    m = metric_tau(scores, ["x", "y", "z"])
    assert m[0][1] == pytest.approx(-1.0) and m[1][0] == pytest.approx(-1.0)
    assert m[0][0] == 1.0 and m[2][2] is None and m[0][2] is None  # z ties every run: tau undefined
    # the seed-000 rankings FGEADBHC vs FADEBGCH: tau = 0.5
    a, b = "FGEADBHC", "FADEBGCH"
    s = {"runs": {r: {"mean": {"m1": 8 - a.index(r), "m2": 8 - b.index(r)}} for r in a}}
    assert metric_tau(s, ["m1", "m2"])[0][1] == pytest.approx(0.5)


def test_report_has_every_section_run_plot_and_resolving_citation(html, inputs):
    p = Collect()
    p.feed(html)
    assert p.scripts == 0  # no script, and the untrusted <script> bullet is escaped
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "run<B>" not in html and "run&lt;B&gt;" in html
    for section in ("settings", "leaderboard", "per-topic", "conditions", "tau", "bullets"):
        assert section in p.ids
    # leaderboard + 2 per-topic + conditions + tau + compare ranking + settings
    assert p.tables >= 7
    # three plots (bars, precision/recall, tau heat-map x2), all embedded PNG data URIs
    assert len(p.imgs) == 4
    for src in p.imgs:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "http://" not in html.replace("http://www.w3.org", "") and "https://" not in html
    # the leaderboard ranks by F_GD: runA first
    board = html[html.index('id="leaderboard"'):html.index('id="per-topic"')]
    assert board.index("1. runA") < board.index("2. run&lt;B&gt;")
    assert "avg_nugget_words:6|version:0.1" in html
    assert "F_GD 1" in html  # zero-median line
    # every citation link resolves to a block; runA's blocks quote the post text around the offset
    cites = [x[1:] for x in p.hrefs if x.startswith("#cite-")]
    assert len(cites) == 6
    for c in cites:
        assert c in p.ids
    thread = inputs["corpus"].get(TID)
    post_text = "".join(thread.text_map(pp, quotes=None).text for pp in thread.posts)
    for c in cites[:5]:
        assert p.marks[c] and p.marks[c] in post_text
    assert p.marks[cite_id("runA", "1.001", 1, 1)] == "Bain Capital bought Ampad in 1992."
    assert "cited text unavailable: the thread is not in the collection" in p.cite_text[cite_id("run<B>", "1.002", 1, 1)]
    # post text with escaped markup stays text
    assert "&lt;b&gt;evil&lt;/b&gt;" in html
    # the scorer's own condition means, rendered (never recomputed): language first, then threads
    cond = html[html.index('id="conditions"'):html.index('id="tau"')]
    assert cond.index("language ∋ cmn") < cond.index("threads = single") and "language ∋ eng" not in cond
    assert re.search(r"run&lt;B&gt;</td><td[^>]*>0\.500</td>", cond)


def test_badges_show_new_repeated_and_unjudged(html):
    topic = html[html.index('id="topic-1.001"'):html.index('id="topic-1.002"')]
    assert len(re.findall(r'class="badge new vital"', topic)) == 1
    assert len(re.findall(r'class="badge new okay"', topic)) == 1
    assert len(re.findall(r'class="badge again vital"', topic)) == 1
    assert "no facet" in topic
    assert "not judged" in html[html.index('id="topic-1.002"'):]
    # W_k as the scorer counts it: the bullet's text holds 4 words; the judgment struck 3 of its own 7
    assert "1/4 responsive words" in topic


def test_write_report_is_atomic_and_plots_are_png(tmp_path, inputs):
    out = write_report(tmp_path / "sub" / "r.html", **{k: v for k, v in inputs.items() if k != "offsets"})
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in out.parent.iterdir()] == ["r.html"]
    png = plots.precision_recall({"a": (0.5, 0.5)})
    assert png[:4] == b"\x89PNG" and plots.data_uri(png).startswith("data:image/png;base64,")


def test_report_of_nothing_still_renders(inputs):
    """No scores, no judgments, no corpus: every section says so instead of failing."""
    html = render_report(topics=inputs["topics"], runs=[], judgments=[], scores={"runs": {}})
    assert html.startswith("<!DOCTYPE html>") and "<img" not in html
    assert 'id="leaderboard"' in html and 'id="bullets"' in html and 'id="tau"' not in html
    bare = [Topic("9", "q")]
    plain = {**inputs["scores"], "runs": {r: {k: v for k, v in d.items() if k != "conditions"}
                                          for r, d in inputs["scores"]["runs"].items()}}
    html = render_report(topics=bare, runs=inputs["runs"], judgments=[], scores=plain)
    assert "no properties" in html
    assert html.count("No response for this topic.") == 2  # topic 9: neither run answers it
