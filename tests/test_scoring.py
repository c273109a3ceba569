"""Scoring from judgments: the pool, every branch of SPEC §6 on a hand-computed two-run example."""
from __future__ import annotations

from typing import NamedTuple

import pytest

from bolt.formats.topics import Facet, Nugget, Topic, TopicProperties
from evaluation.judgments import HolisticJudgment, JudgedSource, Judgment, JudgmentSet
from evaluation.metrics import ERR, F_GD, F_c, P_c, P_n, R_c, R_n, nugget_F, pyramid_F
from evaluation.metrics.citation import reduce_citations
from evaluation.metrics.facet import reduce_facets
from evaluation.metrics.holistic import reduce_holistic
from evaluation.metrics.nugget import reduce_nuggets
from evaluation.scoring import (build_stats, choose_metrics, condition_groups, count_words, report,
                                series_scores, settings_dict, signature, zero_median_topics)
from indexing.errors import ToolkitError


# Minimal records with the fields of bolt.formats.submission the scorer reads.
class Source(NamedTuple):
    post: str
    offset: int
    line: int = 0


class Bullet(NamedTuple):
    position: int
    text: str
    sources: tuple
    line: int = 0


class Result(NamedTuple):
    number: str
    bullets: tuple
    line: int = 0


class Run(NamedTuple):
    run_id: str
    path: str
    results: dict


def _run(run_id, results):
    return Run(run_id, f"{run_id}.xml", {n: Result(n, tuple(Bullet(i + 1, t, tuple(Source(*s) for s in srcs))
                                                           for i, (t, srcs) in enumerate(bs)))
                                         for n, bs in results.items()})


def J(topic, run, k, facets, words, resp, sources):
    return Judgment(topic, run, k, "tester", tuple(facets), words, resp,
                    tuple(JudgedSource(p, o, u, s, tuple(f) if f is not None else None, {})
                          for p, o, u, s, f in sources), {})


TOPICS = [
    Topic("1.001", "q1", properties=TopicProperties("organization", "information-about", frozenset({"eng"}), False),
          facets=(Facet("1", "vital", "d1", (Nugget("a b c d", "T1", 100),)),
                  Facet("2", "vital", "d2", (Nugget("a b c d e f", "T2", 50),)),
                  Facet("3", "okay", "d3", (Nugget("x y"),)))),
    Topic("1.002", "q2", properties=TopicProperties("person", "information-about", frozenset({"eng", "cmn"}), True),
          facets=(Facet("1", "okay", "only okay", (Nugget("p q r s"),)),)),
    Topic("2.001", "q3", facets=(Facet("1", "vital", "v", (Nugget("k l m n"),)),)),
]

RUN_A = _run("A", {
    "1.001": [("中国派出了 rescue team a b c", [("T1", 100)]), ("c1 c2 c3 c4 c5", [("T3", 10)]), ("d e f g", [("T2", 50)]),
              ("one two three", [("T9", 1)])],
    "1.002": [("z z", [("T5", 3)])],
})
# The judgments' word counts are the texts' by the one word rule (each Han character a word): the
# scorer counts W_k from the text itself.
RUN_B = _run("B", {"1.001": [(" ".join(["x" * 42] * 5 + ["x" * 40]), [("T2", 60), ("T4", 5)])], "2.001": []})

JUDGMENTS = [
    J("1.001", "A", 1, ["1"], 10, 8, [("T1", 100, "p2", True, None)]),      # covers 1, 2 struck words
    J("1.001", "A", 2, ["1"], 5, 5, [("T3", 10, "p1", True, None)]),        # facet covered twice: redundant
    J("1.001", "A", 3, ["2"], 4, 4, [("T2", 50, "p1", False, None)]),       # no supporting source
    # bullet 4 of A is not judged: irrelevant, 3 words, 1 unsupported source
    J("1.002", "A", 1, ["1", "9"], 2, 2, [("T5", 3, "p1", False, None)]),   # all sources unsupported; "9" unknown
    J("1.001", "B", 1, ["2", "3"], 6, 3, [("T2", 60, "p1", True, ["2"]), ("T4", 5, "p3", True, None)]),
    J("9.999", "B", 1, ["1"], 1, 1, []),                                    # topic not scored: ignored
]
VOTES = {"1.001": {"1": {"vital": 3, "okay": 0}, "2": {"vital": 1, "okay": 2}, "3": {"vital": 0, "okay": 3}}}


@pytest.fixture(scope="module")
def table():
    return build_stats(TOPICS, [RUN_A, RUN_B], [JUDGMENTS], avg_nugget_words=4.0, votes=VOTES,
                       holistic_judgments=[HolisticJudgment("1.001", "A", "x", 6, 4),
                                           HolisticJudgment("1.001", "A", "y", 2, 10)])


def test_statistics_of_run_a(table):
    s = table.stats["A"]["1.001"]
    fs, cs = s.of(reduce_facets), s.of(reduce_citations)
    assert fs.covered == ("1",)
    assert fs.wasted_words == 2 + 5 + 4 + 3         # struck, redundant, unsupported, unjudged
    assert (cs.sources_total, cs.sources_supporting) == (4, 2)
    # pool: (T1,p2) nugget+A, (T2,p1) nugget+B, (T3,p1) A, (T4,p3) B
    assert cs.units_relevant == 4 and cs.units_cited == 2
    assert s.of(reduce_nuggets).length == 18 + 10 + 4 + 11
    assert table.unjudged_bullets == {"A": 1, "B": 0}
    assert table.unknown_facets == 1
    assert table.ignored_judgments == 1
    assert table.nugget_units == {"corpus": 0, "judgments": 2, "offset": 0}


def test_hand_computed_scores_run_a(table):
    s = table.stats["A"]["1.001"]
    p_n = 1 / (1 + 14 / 4)
    assert P_n.score(s) == pytest.approx(p_n)
    assert R_n.score(s) == pytest.approx(1 / 3)
    assert P_c.score(s) == pytest.approx(0.5)
    assert R_c.score(s) == pytest.approx(0.5)
    f_c = 0.5 ** 0.25
    assert F_c.score(s) == pytest.approx(f_c)
    assert F_GD.score(s) == pytest.approx(2 * p_n * f_c * (1 / 3) / (p_n + f_c / 3))
    # ERR facet 1, C_1 = {(T1,p2), (T3,p1)}: q1 = 1/2 * 8/10 = 0.4; q2 = 1/1 * 1 = 1 -> S = 0.4 + 0.6
    assert ERR.score(s) == pytest.approx(1.0 / 3)
    # |C_1| reading: q2 = 1/2 -> S = 0.4 + 0.5 * 0.6
    assert ERR(denominator="total").score(s) == pytest.approx(0.7 / 3)
    # r=1 of R=2; 43 characters < allowance 100 -> P=1
    assert nugget_F.score(s) == pytest.approx(10 * 0.5 / 9.5)
    # pyramid weights 1, 1/3, 0 -> recall 1 / (4/3)
    assert pyramid_F.score(s) == pytest.approx(10 * 0.75 / (9 + 0.75))
    assert s.of(reduce_holistic) == pytest.approx(((30 + 12) + (10 + 10)) / 2)


def test_hand_computed_scores_run_b(table):
    s = table.stats["B"]["1.001"]
    assert s.of(reduce_facets).covered == ("2", "3")                # source 1 supports only 2, source 2 all
    assert P_n.score(s) == pytest.approx(2 / (2 + 3 / 4))
    assert R_c.score(s) == pytest.approx(2 / 4)
    assert F_c.score(s) == pytest.approx((2 * 1 * 0.5 / 1.5) ** 0.25)
    # facet 2: 2 new units of 2, 3/6 responsive -> 0.5; facet 3: 1 of 1 -> 0.5
    assert ERR.score(s) == pytest.approx(1.0 / 3)
    # 250 chars, allowance 200 -> P = 0.8; r = 1 of 2
    assert nugget_F.score(s) == pytest.approx(10 * 0.8 * 0.5 / (9 * 0.8 + 0.5))


def test_all_sources_unsupported_and_no_vital_facet(table):
    s = table.stats["A"]["1.002"]
    cs = s.of(reduce_citations)
    assert s.of(reduce_facets).covered == () and cs.sources_supporting == 0 and cs.units_relevant == 0
    for m in (P_n, R_n, P_c, R_c, F_c, F_GD, ERR, nugget_F):
        assert m.score(s) == 0.0
    assert s.of(reduce_nuggets).n_vital == 0


def test_missing_and_empty_responses_are_counted_with_default(table):
    assert not table.stats["B"]["1.002"].responded      # no <result>
    assert not table.stats["B"]["2.001"].responded      # empty response
    assert not table.stats["A"]["2.001"].responded
    rep = report(TOPICS, table, choose_metrics(), {"params": {}, "version": "x"})
    assert set(rep.topics["B"]) == {"1.001", "1.002", "2.001"}
    assert rep.means["B"]["nugget_F"] == pytest.approx((10 * 0.8 * 0.5 / (9 * 0.8 + 0.5)) / 3)


def test_err_depends_on_bullet_order():
    swapped = _run("A", {"1.001": [("c1 c2 c3 c4 c5", [("T3", 10)]), ("中国派出了 rescue team a b c", [("T1", 100)])]})
    js = [J("1.001", "A", 1, ["1"], 5, 5, [("T3", 10, "p1", True, None)]),
          J("1.001", "A", 2, ["1"], 10, 8, [("T1", 100, "p2", True, None)])]
    units = {("T1", 100): "p2", ("T2", 50): "p1"}   # the collection, as far as these citations go
    s = build_stats(TOPICS[:1], [swapped], [js], avg_nugget_words=4.0,
                    unit_of=lambda t, o: units.get((t, o))).stats["A"]["1.001"]
    # C_1 = {(T3,p1), (T1,p2)}: q1 = 1/2 * 1 = 0.5; q2 = 1/1 * 0.8 -> S = 0.5 + 0.8 * 0.5 = 0.9
    assert ERR.score(s) == pytest.approx(0.9 / 3)
    assert s.of(reduce_facets).wasted_words == 10   # the second bullet is now the redundant one


def test_series_conditions_and_zero_median(table):
    rep = report(TOPICS, table, choose_metrics(), {"params": {}, "version": "x"})
    a = rep.topics["A"]
    assert rep.series["A"]["1"]["R_n"] == pytest.approx((a["1.001"]["R_n"] + a["1.002"]["R_n"]) / 2)
    assert rep.series_means["A"]["R_n"] == pytest.approx(((1 / 3 + 0) / 2 + 0) / 2)
    groups = condition_groups(TOPICS)
    assert groups["language:eng"] == ["1.001", "1.002"] and groups["language:cmn"] == ["1.002"]
    assert groups["threads:multiple"] == ["1.002"] and groups["asks_about:person"] == ["1.002"]
    assert rep.conditions["A"]["threads:single"]["R_n"] == pytest.approx(1 / 3)
    # R_n medians over runs A, B: 1.001 -> (1/3 + 2/3)/2, others 0
    assert zero_median_topics(rep.topics, "R_n") == ["1.002", "2.001"]


def test_trec2004_series_weights():
    per = {"1.1": 1.0, "1.2": 0.0, "1.3": 0.5, "2.1": 1.0, "2.2": 0.4}
    types = {"1.1": "factoid", "1.2": "list", "1.3": "other", "2.1": "factoid", "2.2": "other"}
    out = series_scores(per, types)
    assert out["1"] == pytest.approx(0.5 * 1 + 0.25 * 0 + 0.25 * 0.5)
    assert out["2"] == pytest.approx((0.5 * 1 + 0.25 * 0.4) / 0.75)   # 0.67 factoid + 0.33 other
    assert series_scores(per)["2"] == pytest.approx(0.7)


def test_duplicate_judgment_across_files_is_refused():
    j = JUDGMENTS[0]
    with pytest.raises(ToolkitError, match="judged twice"):
        build_stats(TOPICS, [RUN_A], [JudgmentSet("a.jsonl", None, (j,), "0"),
                                      JudgmentSet("b.jsonl", None, (j,), "1")], avg_nugget_words=4.0)


def test_average_nugget_words_from_topics():
    t = build_stats(TOPICS, [RUN_A], [JUDGMENTS])
    assert t.avg_nugget_words == pytest.approx((4 + 6 + 2 + 4 + 4) / 5)
    assert t.avg_nugget_words_source == "topics"
    assert count_words("中国派出了 rescue team") == 7


def test_signature_is_generated_from_all_params(table):
    sets = [JudgmentSet("j.jsonl", {"version": "0.1", "embedding_model": "all-MiniLM-L6-v2"}, tuple(JUDGMENTS),
                        "ab" * 32)]
    s3 = settings_dict(choose_metrics(), table, judgments=sets, topics_count=3)
    s5 = settings_dict(choose_metrics(beta=5, err_denominator="total"), table, judgments=sets, topics_count=3)
    assert s3["params"]["nugget_F.beta"] == 3.0 and s5["params"]["nugget_F.beta"] == 5.0
    assert s5["params"]["ERR.denominator"] == "total"
    sig3, sig5 = signature(s3), signature(s5)
    assert sig3 != sig5
    assert "nugget_F.beta:3" in sig3 and "ERR.denominator:total" in sig5
    assert "judgments:abababababab" in sig3 and "embedding_model:all-MiniLM-L6-v2" in sig3
    assert "avg_nugget_words:4" in sig3 and sig3.endswith(f"version:{s3['version']}")


def test_nugget_F_at_two_betas_together_keyed_by_repr(table):
    """Two metrics of one name are asked for together; their results are keyed by repr."""
    metrics = choose_metrics(also=["nugget_F(beta=5)", "nugget_F"])        # nugget_F is already there
    assert [repr(m) for m in metrics][-2:] == ["nugget_F", "nugget_F(beta=5)"]
    rep = report(TOPICS, table, metrics, {"params": {}, "version": "x"})
    b = rep.topics["B"]["1.001"]
    # run B: 250 chars, allowance 200 -> P = 0.8; r = 1 of 2 (hand-computed in test_hand_computed_scores_run_b)
    assert b["nugget_F"] == pytest.approx(10 * 0.8 * 0.5 / (9 * 0.8 + 0.5))
    assert b["nugget_F(beta=5)"] == pytest.approx(26 * 0.8 * 0.5 / (25 * 0.8 + 0.5))
    assert "P_n" in b and rep.metrics[-2:] == ["nugget_F", "nugget_F(beta=5)"]
    sets = [JudgmentSet("j.jsonl", None, (), "0" * 64)]
    s = settings_dict(metrics, table, judgments=sets, topics_count=3)
    assert s["params"]["nugget_F.beta"] == 3.0 and s["params"]["nugget_F(beta=5).beta"] == 5.0
    with pytest.raises(ValueError, match="asked for twice"):
        report(TOPICS, table, [nugget_F, nugget_F], {"params": {}, "version": "x"})


def test_bullet_facts_are_what_the_statistics_reduce(table):
    """Per-bullet facts (N_k, wasted words, supporting units, w_k/W_k) by hand, and their sums are the statistics."""
    from evaluation.scoring import bullet_facts

    by_k = {j.bullet: j for j in JUDGMENTS if j.run == "A" and j.topic_id == "1.001"}
    facts, dropped = bullet_facts(RUN_A.results["1.001"].bullets, by_k.get, known={"1", "2", "3"})
    assert [b.newly_covered for b in facts] == [("1",), (), (), ()]
    assert [b.wasted_words for b in facts] == [2, 5, 4, 3]          # struck; redundant; unsupported; unjudged
    assert [b.judged for b in facts] == [True, True, True, False]
    assert [b.responsive_fraction for b in facts] == [0.8, 1.0, 1.0, 0.0]
    assert facts[0].supporting == ((("T1", "p2"), ("1",)),) and facts[2].supporting == ()
    s = table.stats["A"]["1.001"]
    assert tuple(f for b in facts for f in b.newly_covered) == s.of(reduce_facets).covered
    assert sum(b.wasted_words for b in facts) == s.of(reduce_facets).wasted_words == 14
    assert sum(len(b.supporting) for b in facts) == s.of(reduce_citations).sources_supporting == 2
    assert sum(b.length for b in facts) == s.of(reduce_nuggets).length and dropped == 0
    by_k = {j.bullet: j for j in JUDGMENTS if j.run == "B" and j.topic_id == "1.001"}
    [b] = bullet_facts(RUN_B.results["1.001"].bullets, by_k.get, known={"1", "2", "3"})[0]
    assert b.facets == ("2", "3") and b.newly_covered == ("2", "3") and b.wasted_words == 3   # source 1 narrows to 2


def test_a_new_metric_is_one_module_and_a_registration(monkeypatch):
    """A toy metric with its own reducer over the per-bullet facts is scored by the library call,
    beside a second instance of itself, with no change to scoring or to a shared record."""
    from evaluation.metrics import Metric, ParamInfo, Response, TopicContext, base, register
    from evaluation.api import score

    monkeypatch.setattr(base, "REGISTRY", base.Registry(dict(base.REGISTRY.metrics), dict(base.REGISTRY.aliases)))

    def reduce_supporting(response: Response, topic: TopicContext) -> tuple[int, ...]:
        return tuple(len(b.supporting) for b in response.bullets)

    class SupportedShare(Metric):
        """Share of the bullets with at least ``min_sources`` supporting sources."""

        NAME = "supported_share"
        SUPPORTED_PARAMS = {"min_sources": ParamInfo(int, None, 1, "supporting sources a bullet needs")}
        REDUCERS = (reduce_supporting,)

        def compute(self, per_bullet: tuple[int, ...]) -> float:
            return sum(n >= self.params["min_sources"] for n in per_bullet) / len(per_bullet)

    register(SupportedShare())
    rep = score([RUN_A, RUN_B], TOPICS, [JudgmentSet("j.jsonl", None, tuple(JUDGMENTS), "0")], avg_nugget_words=4.0,
                also=["supported_share", "supported_share(min_sources=2)"])
    one, two = "supported_share", "supported_share(min_sources=2)"
    assert rep.metrics[-2:] == [one, two]
    # A on 1.001: bullets 1 and 2 have one supporting source each, 3 none, 4 is unjudged -> 2/4;
    # B on 1.001: its one bullet has two supporting sources. 1.002 of A: no support; unanswered: 0.
    assert rep.topics["A"]["1.001"][one] == 0.5 and rep.topics["A"]["1.001"][two] == 0.0
    assert rep.topics["B"]["1.001"][one] == 1.0 and rep.topics["B"]["1.001"][two] == 1.0
    assert rep.topics["A"]["1.002"][one] == 0.0 and rep.topics["B"]["2.001"][one] == 0.0
    assert rep.means["A"][one] == pytest.approx(0.5 / 3) and rep.means["B"][two] == pytest.approx(1 / 3)
    assert rep.settings["params"][f"{two}.min_sources"] == 2
    # The default metrics are unchanged beside it.
    assert rep.topics["A"]["1.001"]["R_n"] == pytest.approx(1 / 3)
