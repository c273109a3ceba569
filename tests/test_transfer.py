"""Held out by source (``evaluation.matching.transfer``): rules are chosen on training sources only."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from evaluation.matching import pairlabels as pl
from fitting import pairfit as pf
from fitting import transfer as tr
from evaluation.matching.statement import FEATURES, load_model

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def _data(source: str, rows) -> pl.PairData:
    """rows: (topic, label, [coverage of each comparison]); every other feature 0 (idf_coverage = coverage)."""
    pairs, feats, subs = [], [], []
    for k, (topic, label, covs) in enumerate(rows):
        comps = [dict(dict.fromkeys(FEATURES, 0.0), coverage=c, idf_coverage=c) for c in covs]
        pairs.append(pl.PairLabel(f"{source}{k}", topic, label, "p", "s"))
        subs.append(comps)
        feats.append(max(comps, key=lambda f: f["coverage"]))
    return pl.PairData(pairs, feats, [False] * len(pairs), subs)


def _separable(source: str) -> tr.Matrix:
    # label = coverage >= 0.5 on every topic
    return tr.Matrix(source, _data(source, [(f"{t}_1", c >= 0.5, [c]) for t in range(4) for c in (0.1, 0.3, 0.6, 0.9)]))


def test_instances_count_each_pair_once():
    m = tr.Matrix("x", _data("x", [("1_1", False, [0.2, 0.4]), ("1_1", True, [0.1, 0.8, 0.3])]))
    X, y, w = m.instances(["coverage"], np.ones(2, dtype=bool))
    # the negative pair gives both comparisons at weight 1/2; the positive one its most specific (0.8) only
    assert X[:, 0].tolist() == [0.2, 0.4, 0.8] and y.tolist() == [0, 0, 1] and w.tolist() == [0.5, 0.5, 1.0]
    assert m.groups == ["x:1", "x:1"]


def test_word_overlap_threshold_comes_from_the_training_sources():
    a, b = _separable("a"), _separable("b")
    # c: a pair at coverage 0.55 that people say states the unit, one at 0.95, one at 0.2
    c = tr.Matrix("c", _data("c", [("1_1", True, [0.55]), ("1_1", True, [0.95]), ("2_1", False, [0.2])]))
    # on a and b every threshold in (0.3, 0.6] gives kappa 1; ties go to the highest, 0.6: 0.55 is missed
    decided = tr.rule_overlap({"a": a, "b": b}, {"a": np.ones(a.n, bool), "b": np.ones(b.n, bool)}, c,
                              np.ones(c.n, bool))
    assert decided.tolist() == [False, True, False]
    res = tr.leave_one_source_out({"a": a, "b": b, "c": c}, {"overlap": tr.rule_overlap})
    assert res["overlap"]["c"]["accuracy"] == pytest.approx(2 / 3, abs=1e-4)
    assert res["overlap"]["a"]["kappa"] == 1.0  # from b and c: a threshold in (0.3, 0.55] separates a
    assert len(res["overlap"]["c"]["kappa_ci"]) == 2


def test_statement_procedure_chooses_inside_its_training_data():
    a, b = _separable("a"), _separable("b")
    model = tr.choose_and_fit({"a": a, "b": b}, menu=(("coverage",),), C_grid=(10.0,))
    assert model.features == ("coverage",) and model.threshold in tr.THRESHOLD_GRID
    assert model.fit_notes["sources"] == {"a": {"pairs": 16, "positives": 8, "topics": 4},
                                          "b": {"pairs": 16, "positives": 8, "topics": 4}}
    # separable training data: the fitted rule separates both sources
    for m in (a, b):
        assert ((m.scores(model) >= model.threshold) == m.y).all()
    by_topic = tr.within_source({"a": a}, {"statement": tr.rule_statement(menu=(("coverage",),), C_grid=(10.0,))})
    assert by_topic["statement"]["a"]["kappa"] == 1.0


def test_the_shipped_model_records_its_sources_and_held_out_agreement():
    m = load_model()
    notes = m.fit_notes
    assert set(notes["sources"]) == {"ikat", "realsumm", "forum"}
    assert notes["sources"]["ikat"]["pairs"] == 386 and notes["sources"]["realsumm"]["pairs"] == 26_400
    held = notes["held_out_by_source"]
    assert set(held) == {"ikat", "realsumm", "forum"}
    assert all(f["kappa_ci"][0] <= f["kappa"] <= f["kappa_ci"][1] for f in held.values())
    assert not m.needs_embeddings  # decided without an encoder: cheap, and the same on every machine
    assert tuple(m.features) in {tuple(f) for f in tr.MENU}


@pytest.mark.slow
def test_forum_source_reads_every_careful_file():
    root = Path(__file__).resolve().parents[1]
    topics = root / "topics/ebay-dev.xml"
    files = [root / "tests/data/careful/ebay-dev.judgments.jsonl", root / "tests/data/careful/ebay-dev.round2.judgments.jsonl"]
    if not all(f.is_file() for f in [topics, *files]):
        pytest.skip("forum judgments absent")
    data = pf.prepare_judged(topics, files, None)
    assert len(data.pairs) == load_model().fit_notes["sources"]["forum"]["pairs"]
    assert len(set(data.groups)) == load_model().fit_notes["sources"]["forum"]["topics"]
