"""scripts/train_ranker.py and scripts/dev_rounds.py: rounds, the simulated selection and the F_GD proxy
the ranker's hyperparameters are chosen with (hand-computed expectations)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def _script(name: str):
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


train = _script("train_ranker")
rounds = _script("dev_rounds")


def test_round_of_follows_the_rounds_first_topics():
    assert [rounds.round_of(t) for t in ("2.001", "2.009", "2.010", "2.023", "2.024", "2.047", "2.048", "2.051")] \
        == [1, 1, 2, 3, 4, 7, 8, 8]
    # tac2013 rounds A-F are rounds 9-14; nothing after 3.050 is development data
    assert [rounds.round_of(t) for t in ("3.001", "3.014", "3.015", "3.022", "3.023", "3.033", "3.050")] \
        == [9, 10, 11, 11, 12, 13, 14]
    assert rounds.is_dev("3.050") and not rounds.is_dev("3.051")


def _c(text, post="p1", label=None, words=None):
    return {"thread": "t", "post": post, "text": text, "label": label, "words": words or len(text.split())}


def test_simulate_takes_best_first_skips_repeats_and_a_third_of_one_post_and_stops():
    cands = [_c("the fee is ten percent", "p1"), _c("the fee is ten percent here", "p2"),  # near repeat
             _c("ship within two days", "p1"), _c("use tracking every time", "p1"),  # third of p1
             _c("call the buyer first", "p3"), _c("nothing to see", "p4")]
    probs = [0.9, 0.8, 0.7, 0.6, 0.5, 0.1]
    assert train.simulate(cands, probs, 0.0, 0.0) == [0, 2, 4, 5]
    # stop 0.3: the last one goes; stop_rel 0.6 x 0.9 = 0.54: the 0.5 one goes too
    assert train.simulate(cands, probs, 0.3, 0.0) == [0, 2, 4]
    assert train.simulate(cands, probs, 0.0, 0.6) == [0, 2]
    # a cut above the best keeps the best one
    assert train.simulate(cands, probs, 0.95, 0.0) == [0]


def test_proxy_f_counts_new_facets_and_wasted_words():
    cands = [_c("a b c d", label=(("1",), 4, 4)), _c("e f g h i j", label=(("1",), 6, 6)),
             _c("k l", label=(("2",), 2, 1)), _c("m n o p")]
    # facets 1 and 2 of m = 4; wasted words: 6 (repeat of facet 1) + 1 (struck) + 4 (unjudged) = 11;
    # avg nugget 5.5 -> e = 2; P = 2 / 4, R = 2 / 4, F = 0.5
    assert train.proxy_f(cands, [0, 1, 2, 3], 4, 5.5) == pytest.approx(0.5)
    assert train.proxy_f(cands, [3], 4, 5.5) == 0.0


def _x(score, focus_top=0.0):
    from bolt.pipeline.ranker import FEATURES

    x = [0.0] * len(FEATURES)
    x[FEATURES.index("score")], x[FEATURES.index("focus_top")] = score, focus_top
    return x


def test_simulate_blend_keeps_mains_cuts_on_the_reweighed_scores():
    cands = [dict(_c("alpha beta gamma", "p1"), x=_x(0.9)), dict(_c("delta epsilon zeta", "p2"), x=_x(0.7)),
             dict(_c("eta theta iota", "p3"), x=_x(0.5, focus_top=1.0)), dict(_c("kappa lambda mu", "p4"), x=_x(0.4))]
    probs = [0.5, 1.0, 1.0, 1.0]
    # alpha 0: main's scores 0.9, 0.7, 0.5, 0.4; cut 0.7 x 0.9 = 0.63, the answering thread's 0.45
    assert train.simulate_blend(cands, probs, 0.0, 0.0, 0.0) == [0, 1, 2]
    # alpha 1: 0.45, 0.7, 0.5, 0.4; best 0.7: cut 0.49, answering thread 0.35 -> 1, 2 (0.5), 0 (0.45 < 0.49)
    assert train.simulate_blend(cands, probs, 1.0, 0.0, 0.0) == [1, 2]
    # stop 0.6: the first (p 0.5) is gone before main's cuts
    assert train.simulate_blend(cands, probs, 0.0, 0.6, 0.0) == [1, 2]
