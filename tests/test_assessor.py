"""The automatic assessor's decisions (SPEC §5), hand-checked on small threads read by the real reader.

The model is the bundled all-MiniLM-L6-v2 (offline), loaded once for the module. Every expected
value below was worked out by hand from the texts (term sets, word counts, offsets).
"""
from __future__ import annotations

import pytest

from bolt.formats.submission import Bullet, Result, Run, Source
from bolt.formats.topics import Facet, Nugget, Topic
from evaluation.assessor import AssessorConfig, Assessor, assess_runs
from evaluation.matching import lexical
from evaluation.matching.text import count_chars, count_words, script_lang
from indexing.corpus import open_corpus

ENG = "bolt-eng-DF-1-2-3"
CMN = "bolt-cmn-DF-1-2-4"
P1 = "Well, as you know, Bain Capital bought Ampad from Mead Corporation in 1992. The weather was nice that year."
P2 = "In October 1993 Bain Capital became the majority shareholder of a steel mill in Kansas City."
NUG1 = "Bain Capital bought Ampad from Mead Corporation in 1992."
CP1 = "中国派出了救援队前往灾区。"
ENG_XML = f"""<doc id="{ENG}">
<headline>
Bain Capital history
</headline>
<post author="a" datetime="2012-01-01T00:00:00" id="p1">
{P1}
</post>
<post author="b" datetime="2012-01-02T00:00:00" id="p2">
{P2}
</post>
</doc>
"""
CMN_XML = f"""<doc id="{CMN}">
<headline>
救援
</headline>
<post author="c" datetime="2013-04-20T00:00:00" id="p1">
{CP1}
</post>
</doc>
"""


def at(xml: str, text: str) -> int:
    i = xml.find(text)
    assert i >= 0, text
    return i


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    d = tmp_path_factory.mktemp("threads")
    (d / "eng.xml").write_text(ENG_XML, encoding="utf-8")
    (d / "cmn.xml").write_text(CMN_XML, encoding="utf-8")
    return open_corpus([d])


@pytest.fixture(scope="module")
def topic():
    return Topic("1.001", "What did Bain Capital do in the 1990s?", facets=(
        Facet("1", "vital", "Acquisition of Ampad from Mead Corporation.",
              (Nugget(NUG1, ENG, at(ENG_XML, "Bain Capital bought")),)),
        Facet("2", "vital", "Purchase of a steel mill."),
        Facet("3", "okay", "China sent a rescue team.", (Nugget(CP1, CMN, at(CMN_XML, CP1)),)),
    ))


def judge(corpus, topic, bullets, config=None):
    """Judgments of one run with the given (text, [(thread, offset), ...]) bullets."""
    bl = tuple(Bullet(i, text, tuple(Source(t, o) for t, o in srcs)) for i, (text, srcs) in enumerate(bullets, 1))
    run = Run("r1", "r1.xml", {topic.topic_id: Result(topic.topic_id, bl)})
    return list(assess_runs([run], [topic], corpus, config or AssessorConfig(decision="overlap")))


def rules(j, facet):
    return {e["rule"] for e in j.extra["evidence"] if e["facet"] == facet}


# ------------------------------------------------------------------------------ decisions

def test_anchored_source_gives_the_nugget_facet_and_supports(corpus, topic):
    (j,) = judge(corpus, topic, [("The deal closed quickly.", [(ENG, at(ENG_XML, "Bain Capital bought"))])])
    # "The deal closed quickly." shares no term with facet 1 (cosine ~0.25): the citation alone carries it.
    assert j.facets == ("1",)
    assert "anchor" in rules(j, "1") and "lexical" not in rules(j, "1")
    anchor = next(e for e in j.extra["evidence"] if e["rule"] == "anchor")
    assert (anchor["nugget"], anchor["score"], anchor["threshold"], anchor["source"]) == (1, 0, 3, 1)
    (s,) = j.sources
    assert s.supports and s.unit == "p1" and s.facets == ("1",)
    assert j.assessor == "auto:bolt-0.6 anchor+lexical+semantic+crosslingual"


def test_three_words_before_the_nugget_anchors_four_do_not(corpus, topic):
    three, four = at(ENG_XML, "as you know"), at(ENG_XML, "Well, as")
    j3, j4 = judge(corpus, topic, [("The deal closed quickly.", [(ENG, three)]), ("The deal closed quickly.", [(ENG, four)])])
    assert j3.facets == ("1",) and j3.sources[0].supports
    assert next(e for e in j3.extra["evidence"] if e["rule"] == "anchor")["score"] == 3
    assert j4.facets == () and not j4.sources[0].supports


def test_lexical_match_scores_the_stemmed_term_fraction(corpus, topic):
    # desc terms {acquisit, ampad, mead, corpor}; bullet terms {mead, corpor, sold, ampad, bain}: 3/4.
    (j,) = judge(corpus, topic, [("Mead Corporation sold Ampad to Bain.", [(ENG, at(ENG_XML, P2))])])
    assert j.facets == ("1",)
    lex = next(e for e in j.extra["evidence"] if e["rule"] == "lexical")
    assert (lex["facet"], lex["nugget"], lex["score"], lex["threshold"], lex["sentence"]) == ("1", "desc", 0.75, 0.4, 1)
    # The citation (the steel-mill post) does not say this: 1 of 5 bullet terms ("bain") is there.
    assert not j.sources[0].supports and j.sources[0].extra["evidence"]["lexical"] == 0.2


def test_semantic_paraphrase_matches_without_shared_terms(corpus, topic):
    text = "A steelworks was purchased by the investment firm."
    # desc terms {purchas, steel, mill}: only "purchas" is shared, 1/3 < 0.4, so lexical fails.
    assert lexical.overlap(lexical.content_terms("Purchase of a steel mill."), lexical.content_terms(text)).shared == 1
    (j,) = judge(corpus, topic, [(text, [(ENG, at(ENG_XML, P2))])])
    assert j.facets == ("2",)
    assert rules(j, "2") == {"semantic"}
    sem = next(e for e in j.extra["evidence"] if e["rule"] == "semantic")
    assert sem["nugget"] == "desc" and sem["score"] >= sem["threshold"] == AssessorConfig().semantic_threshold
    assert j.responsive_words == j.words == 8


def test_unrelated_bullet_matches_nothing_and_keeps_no_words(corpus, topic):
    (j,) = judge(corpus, topic, [("The weather was nice that year.", [(ENG, at(ENG_XML, "The weather"))])])
    assert j.facets == () and j.extra["evidence"] == []
    assert (j.words, j.responsive_words, j.extra["chars"], j.extra["responsive_chars"]) == (6, 0, 26, 0)
    # The cited text is exactly the bullet: the source supports it, though it answers no facet.
    assert j.sources[0].supports and j.sources[0].extra["evidence"]["rule"] == "lexical"


def test_sentence_matching_no_facet_is_struck(corpus, topic):
    text = f"{NUG1} The weather was nice that year."
    (j,) = judge(corpus, topic, [(text, [(ENG, at(ENG_XML, P2))])])
    assert j.facets == ("1",)
    assert (j.words, j.responsive_words) == (15, 9)
    assert j.extra["responsive_chars"] == count_chars(NUG1) == 48
    assert "struck sentence 2" in j.extra["notes"]


def test_nothing_is_struck_when_a_facet_comes_from_anchoring_alone(corpus, topic):
    text = "The deal closed quickly. The weather was nice that year."
    (j,) = judge(corpus, topic, [(text, [(ENG, at(ENG_XML, "Bain Capital bought"))])])
    assert j.facets == ("1",) and j.responsive_words == j.words == 10


def test_cross_language_bullet_is_matched_by_anchoring(corpus, topic):
    cited = at(CMN_XML, CP1)
    anchored, elsewhere = judge(corpus, topic, [("中国派出了救援队。", [(CMN, cited)]),
                                                ("中国派出了救援队。", [(CMN, cited + 9)])])
    assert anchored.facets == ("3",) and anchored.sources[0].supports and anchored.sources[0].unit == "p1"
    assert anchored.words == anchored.responsive_words == 8  # one word per Han character
    # Nine characters later is past the nugget's start, still inside its span: anchored too.
    assert elsewhere.facets == ("3",)
    assert "cross-language" in anchored.extra["notes"]


def test_english_bullet_citing_a_chinese_thread_off_the_nugget_is_not_text_matched(corpus, topic):
    # Same words as facet 3's description, but its only citation is in a cmn thread and not on a
    # nugget: anchoring must carry a cross-language match, and here it cannot.
    (j,) = judge(corpus, topic, [("China sent a rescue team.", [(CMN, at(CMN_XML, "<headline>"))])])
    assert j.facets == () and not j.sources[0].supports and j.sources[0].unit is None


def test_unsupported_source_beside_a_supporting_one(corpus, topic):
    (j,) = judge(corpus, topic, [(NUG1, [(ENG, at(ENG_XML, P2)), (ENG, at(ENG_XML, "Bain Capital bought"))])])
    first, second = j.sources
    assert (first.unit, first.supports, first.extra["evidence"]["rule"]) == ("p2", False, None)
    assert (second.unit, second.supports) == ("p1", True)
    assert second.facets is None  # supported by its text: all of the bullet's facets
    assert second.extra["evidence"]["rule"] == "lexical" and second.extra["evidence"]["score"] == 1.0


def test_offset_outside_every_post_has_no_unit_and_does_not_support(corpus, topic):
    (j,) = judge(corpus, topic, [(NUG1, [(ENG, 0), ("bolt-eng-DF-9-9-9", 5)])])
    outside, missing = j.sources
    assert (outside.unit, outside.supports) == (None, False)
    assert "outside every <post>" in outside.extra["evidence"]["note"]
    assert (missing.unit, missing.supports) == (None, False)
    assert "not in the corpus" in missing.extra["evidence"]["note"]
    assert j.facets == ("1",)  # text still matches; the scorer drops it for want of support


def test_semantic_off_changes_the_assessor_name_and_loses_the_paraphrase(corpus, topic):
    cfg = AssessorConfig(semantic=False, decision="overlap")
    (j,) = judge(corpus, topic, [("A steelworks was purchased by the investment firm.", [(ENG, at(ENG_XML, P2))])],
                 cfg)
    assert j.assessor == "auto:bolt-0.6 anchor+lexical+crosslingual" and j.facets == ()


def test_thresholds_are_parameters(corpus, topic):
    strict = AssessorConfig(lexical_threshold=0.8, semantic=False, decision="overlap")
    (j,) = judge(corpus, topic, [("Mead Corporation sold Ampad to Bain.", [(ENG, at(ENG_XML, P2))])], strict)
    assert j.facets == ()  # 0.75 < 0.8


def test_repeated_texts_are_embedded_once(corpus, topic):
    bullet = Bullet(1, "A steelworks was purchased by the investment firm.", (Source(ENG, at(ENG_XML, P2)),))
    runs = [Run(f"r{i}", "", {"1.001": Result("1.001", (bullet,))}) for i in range(5)]
    a = Assessor([topic], corpus, AssessorConfig(decision="overlap"))
    js = list(a.assess(runs))
    assert [j.run for j in js] == ["r0", "r1", "r2", "r3", "r4"] and len({j.facets for j in js}) == 1
    # The English facet texts (3 descriptions + nugget 1 of facet 1; the Chinese nugget is not
    # text-matched), the bullet, and for support (none of its 4 terms is in the cited sentence, so
    # lexical support fails) the cited sentence: 4 + 1 + 1 distinct texts, each embedded once
    # although five runs hold the bullet.
    refs = {r.text for r in a._preps["1.001"].refs}
    assert refs == {"Acquisition of Ampad from Mead Corporation.", NUG1, "Purchase of a steel mill.",
                    "China sent a rescue team."}
    assert a.stats.texts_embedded == len(a.table) == 6
    assert all(t in a.table for t in refs | {bullet.text, P2})


def test_header_records_version_thresholds_and_model(corpus, topic):
    a = Assessor([topic], corpus, AssessorConfig(semantic_threshold=0.55))
    h = a.header()
    assert h["assessor"] == "auto:bolt-0.6 anchor+statement+crosslingual" and h["assessor_version"] == "0.6"
    assert h["config"] == "AssessorConfig(semantic_threshold=0.55)"
    assert h["thresholds"]["semantic_threshold"] == 0.55 and h["thresholds"]["lexical_threshold"] == 0.4
    assert h["model"].startswith("all-MiniLM-L6-v2@") and h["stemmer"].startswith("snowballstemmer-3")


# ------------------------------------------------------------------------------ value objects and text rules

def test_config_repr_round_trips_and_rejects_bad_values():
    c = AssessorConfig(lexical_threshold=0.3, model="/models/x")
    assert repr(c) == "AssessorConfig(lexical_threshold=0.3, model='/models/x')"
    assert AssessorConfig.parse(repr(c)) == c and repr(AssessorConfig()) == "AssessorConfig()"
    with pytest.raises(ValueError, match="lexical_threshold"):
        AssessorConfig(lexical_threshold=1.5)
    with pytest.raises(ValueError, match="no parameter 'beta'"):
        AssessorConfig.parse("AssessorConfig(beta=3)")
    with pytest.raises(ValueError):
        AssessorConfig.parse("__import__('os').system('true')")


def test_word_counts_and_script_detection():
    assert count_words("Bain Capital - 1992 ok") == 4  # a lone dash is not a word
    assert count_words("中国派出了救援队。") == 8
    assert count_words("GDP 增长 7%") == 4
    assert [script_lang(t) for t in ("hello world", "中国派出了救援队", "مرحبا بكم", "2012")] == ["eng", "cmn", "arz", "eng"]


def test_unknown_topic_is_an_error_naming_the_run(corpus, topic):
    from indexing.errors import ToolkitError

    run = Run("r9", "r9.xml", {"9.999": Result("9.999", (Bullet(1, "x", (Source(ENG, 1),)),))})
    with pytest.raises(ToolkitError, match="9.999"):
        list(assess_runs([run], [topic], corpus))


def test_reworded_bullet_is_supported_semantically_and_the_support_threshold_applies(corpus, topic):
    text = "In late 1993 the firm Bain became the main owner of a Kansas steelworks."
    # Bullet terms {late, 1993, firm, bain, main, owner, kansa, steelwork}: 3 of 8 in the cited sentence
    # (0.375 < 0.6), so only the embedding can show that the post says this.
    (j,) = judge(corpus, topic, [(text, [(ENG, at(ENG_XML, P2))])])
    ev = j.sources[0].extra["evidence"]
    assert j.sources[0].supports and ev["rule"] == "semantic" and ev["lexical"] == 0.375
    assert ev["score"] >= ev["threshold"] == 0.6
    (strict,) = judge(corpus, topic, [(text, [(ENG, at(ENG_XML, P2))])], AssessorConfig(support_semantic_threshold=0.95, decision="overlap"))
    assert not strict.sources[0].supports and strict.sources[0].extra["evidence"]["rule"] is None


def test_repeated_bullets_share_one_decision_but_keep_their_own_keys(corpus, topic):
    b = (Bullet(1, NUG1, (Source(ENG, at(ENG_XML, "Bain Capital bought")),)),
         Bullet(2, NUG1, (Source(ENG, at(ENG_XML, P2)),)))
    runs = [Run(r, "", {"1.001": Result("1.001", b)}) for r in ("x", "y")]
    js = list(assess_runs(runs, [topic], corpus))
    assert [(j.run, j.bullet) for j in js] == [("x", 1), ("x", 2), ("y", 1), ("y", 2)]
    # Same text, different citation: different support.
    assert [j.sources[0].supports for j in js] == [True, False, True, False]


def test_real_ldc_thread_offsets_entities_and_anchoring(real_samples):
    """A real LDC thread: the nugget is found at its raw offset, escaped text is decoded for support."""
    path = real_samples / "ENG_DF_000200_20061121_G00A06WU8.xml"
    raw = path.read_text(encoding="utf-8")
    corpus = open_corpus([path])
    tid = "ENG_DF_000200_20061121_G00A06WU8"
    nug = "The former can be found by calculating the variance and mean of A"
    topic = Topic("9.001", "How is E(A^2) computed?", facets=(
        Facet("1", "vital", "Compute E(A^2) from the variance and the mean.", (Nugget(nug, tid, raw.find(nug)),)),))
    pdf = raw.find("f(x) = 2x for 0 &lt;=")
    (anchored, decoded, headline) = judge(corpus, topic, [
        ("E(A^2) can be found from the variance and mean of A.", [(tid, raw.find("The latter is simple"))]),
        ("f(x) = 2x for 0 <= x <= 1", [(tid, pdf)]),
        ("Random Variables Question", [(tid, raw.find("Random Variables"))]),
    ], None)
    # "The latter is simple." is 4 words before the nugget: not anchored, but the text matches.
    assert anchored.facets == ("1",) and "anchor" not in rules(anchored, "1")
    assert anchored.sources[0].unit == "p2" and anchored.sources[0].supports
    # The cited raw text holds "&lt;=", the bullet "<=": support reads decoded text (terms {2x, 0, 1}).
    assert decoded.sources[0].unit == "p1" and decoded.sources[0].supports
    assert decoded.sources[0].extra["evidence"]["lexical"] == 1.0
    # The headline lies outside every post.
    assert headline.sources[0].unit is None and not headline.sources[0].supports
