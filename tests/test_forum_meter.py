"""The forum operating point's fit (``fitting.forum_meter``): the re-read decision and the choice,
on cells whose answers are computed by hand."""
from __future__ import annotations

import numpy as np

from evaluation.judgments import JudgedSource, Judgment
from fitting import forum_meter as fm


def _j(facets, probs, evidence=(), words=10, responsive=None):
    return Judgment("1", "r", 1, "auto:x", tuple(facets), words, responsive if responsive is not None else
                    (words if facets else 0), (JudgedSource("t", 1, "p1", True),),
                    {"probability": probs, "evidence": list(evidence)})


def test_relabel_reads_the_decision_at_another_threshold():
    j = _j(["2"], {"1": 0.35, "2": 0.5}, [{"facet": "3", "rule": "anchor"}], responsive=6)
    assert fm.relabel(j, 0.3).facets == ("1", "2", "3")  # anchored facets stay whatever the threshold
    assert fm.relabel(j, 0.3).responsive_words == 6  # it had facets: the assessor's own struck words
    assert fm.relabel(j, 0.6).facets == ("3",)
    bare = _j([], {"1": 0.35})
    assert fm.relabel(bare, 0.3).facets == ("1",) and fm.relabel(bare, 0.3).responsive_words == 10
    assert fm.relabel(_j(["1"], {"1": 0.5}), 0.6).responsive_words == 0  # lost its last facet


def test_choose_minimises_the_squared_run_bias_with_ties_to_today():
    grid = len(fm.GRID)
    c = fm.Cells()
    # two runs on two topics; run a reads 0.1 low at every threshold below 0.5 and right above it;
    # run b (two topics) reads right below 0.5 and 0.1 high above: weighted loss below 0.5 is
    # (1·0.01 + 2·0)/3, above (1·0 + 2·0.01)/3, so below 0.5 wins; every threshold below 0.5 ties
    # and the one nearest today's (0.3) is chosen
    low = np.array([g < 0.5 for g in fm.GRID])
    for topic, run, bias in (("s:1", "s:a", np.where(low, -0.1, 0.0)), ("s:1", "s:b", np.where(low, 0.0, 0.1)),
                             ("s:2", "s:b", np.where(low, 0.0, 0.1))):
        c.topic.append(topic)
        c.run.append(run)
        c.careful.append([0.5, 0.5, 0.5])
        c.machine.append(np.repeat((0.5 + bias)[:, None], 3, axis=1).reshape(grid, 3))
    assert fm.choose(c, {"s:1", "s:2"}, today=0.3) == 0.3
    assert fm.choose(c, {"s:1", "s:2"}, today=0.7) == 0.49
    # without topic 2, run b weighs as much as run a: both sides lose 0.005, the tie goes to today's
    assert fm.choose(c, {"s:1"}, today=0.7) == 0.7
    # held out: each fold's topics get the point chosen on the other fold: without topic 1 only run
    # b is left, right below 0.5 (0.49, nearest today's 0.7); without topic 2 everything ties (0.7)
    assert fm.held_out(c, {"s:1": "x", "s:2": "y"}, today=0.7) == {"s:1": 0.49, "s:2": 0.7}


def test_family_names():
    assert [fm.family(r) for r in ("v6-main", "main", "r2h-lead", "round16-bm25", "s13-e5s")] == \
        ["main", "main", "lead", "bm25-sentences", "other"]


def test_subset_keeps_one_sites_cells_and_bullets():
    c = fm.Cells()
    for topic, run, car in (("a:1", "a:main", 0.5), ("b:7", "b:main", 0.2), ("a:2", "a:lead", 0.0)):
        c.topic.append(topic)
        c.run.append(run)
        c.careful.append([car, car, car])
        c.machine.append(np.full((len(fm.GRID), 3), car + 0.1))
    for topic, yes in (("a:1", True), ("b:7", False), ("a:2", False)):
        c.b_topic.append(topic)
        c.b_careful.append(yes)
        c.b_machine.append(np.array([g < 0.5 for g in fm.GRID]))
    c.round_of.update({"a:1": "r1", "a:2": "r2", "b:7": "r1"})
    c.board_of.update({"a:1": "youm7", "a:2": "youm7", "b:7": "alriyadh-alghad"})
    s = fm.subset(c, {t for t, b in c.board_of.items() if b == "youm7"})
    assert s.topic == ["a:1", "a:2"] and s.run == ["a:main", "a:lead"] and s.careful == [[0.5] * 3, [0.0] * 3]
    assert s.b_topic == ["a:1", "a:2"] and s.b_careful == [True, False]
    assert s.round_of == {"a:1": "r1", "a:2": "r2"} and s.board_of == {"a:1": "youm7", "a:2": "youm7"}
    # on the site alone each run reads 0.1 high at every threshold: main and lead, two runs
    bias, runs, n = fm.run_bias(s, set(s.topic))
    assert runs == ["a:lead", "a:main"] and list(n) == [1, 1] and np.allclose(bias, 0.1)


def test_scores_per_threshold_equal_scoring_every_topic_at_every_threshold():
    # the bundled sample's careful judgments, each facet given a made-up probability: rescoring only
    # the topics whose decisions change must give the scorer's figures for every cell and threshold
    import dataclasses
    import random

    from bolt.data import topic_path
    from bolt.formats.topics import read_topics
    from evaluation.agreement import topic_scores
    from evaluation.judgments import read_judgments
    from tests.conftest import REPO

    topics = read_topics(topic_path("sample.xml"))
    facets = {t.topic_id: [f.id for f in t.facets] for t in topics}
    careful = read_judgments(REPO / "tests" / "data" / "careful" / "sample.judgments.jsonl")
    rng = random.Random(7)
    machine = {j.key: dataclasses.replace(j, extra={**j.extra, "probability": {
        f: round(rng.random(), 2) for f in facets[j.topic_id]}}) for j in careful}
    keys = sorted(machine)
    own = set(keys[::2])  # half the bullets re-read, as bullets in another language are not
    fast = fm._scores_per_threshold(topics, machine, own, keys)
    assert len(fast) == len(fm.GRID)
    changed = 0
    for i in range(0, len(fm.GRID), 6):
        js = [fm.relabel(j, fm.GRID[i]) if k in own else j for k, j in machine.items()]
        slow = topic_scores(topics, js, keys)
        for t, r, _ in keys:
            assert fast[i][r][t] == slow[r][t]
        changed += fast[i] != fast[0]
    assert changed  # the thresholds do change the scores
