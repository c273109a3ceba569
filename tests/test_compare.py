"""Comparing runs: Kendall's tau against the AQUAINT pilot table (seed 000), ties, tests, stability."""
from __future__ import annotations

import itertools
import math

import pytest

from evaluation.compare import (adjacent_swaps_tau, kendall_tau, kendall_tau_rankings, paired_test, paired_tests,
                                rank_runs, stability)

# Seed 000 (AQUAINT definition pilot README): holistic rankings and its table of tau values.
RANKINGS = {"contractor": "FGEADBHC", "author": "FADEBGCH", "other": "FAEGDBHC", "random": "CDBGEAFH",
            "constant": "ABCDEFGH"}
TABLE = {("contractor", "author"): 0.50, ("author", "other"): 0.71, ("other", "random"): -0.50,
         ("contractor", "other"): 0.79, ("author", "random"): -0.21, ("other", "constant"): 0.00,
         ("contractor", "random"): -0.28, ("author", "constant"): 0.29, ("random", "constant"): 0.36,
         ("contractor", "constant"): -0.21}
MINUS_G = {("contractor", "author"): 0.71, ("contractor", "other"): 0.90, ("author", "other"): 0.81}


@pytest.mark.parametrize("pair", sorted(TABLE))
def test_seed_000_tau_table(pair):
    a, b = pair
    tau = kendall_tau_rankings(RANKINGS[a], RANKINGS[b])
    assert abs(tau - TABLE[pair]) <= 0.01
    assert tau == pytest.approx(adjacent_swaps_tau(RANKINGS[a], RANKINGS[b]))   # no ties: same number


@pytest.mark.parametrize("pair", sorted(MINUS_G))
def test_seed_000_tau_without_system_g(pair):
    a, b = (RANKINGS[x].replace("G", "") for x in pair)
    assert abs(kendall_tau_rankings(a, b) - MINUS_G[pair]) <= 0.01


def test_ten_pairs_covered():
    assert len(TABLE) == len(list(itertools.combinations(RANKINGS, 2))) == 10


def test_ties_use_tau_b():
    a = {"r1": 0.9, "r2": 0.5, "r3": 0.5, "r4": 0.1}
    b = {"r1": 0.8, "r2": 0.6, "r3": 0.4, "r4": 0.2}
    # concordant 5, discordant 0, one tie in a: tau_b = 5 / sqrt(5 * 6)
    assert kendall_tau(a, b) == pytest.approx(5 / math.sqrt(30))
    assert rank_runs(a) == ["r1", "r2", "r3", "r4"]
    assert rank_runs({"b": 0.5, "a": 0.5}) == ["a", "b"]
    assert math.isnan(kendall_tau({"x": 1.0}, {"x": 2.0}))


def test_tau_uses_shared_runs_only():
    assert kendall_tau({"a": 3, "b": 2, "c": 1}, {"a": 1, "b": 2, "z": 0}) == pytest.approx(-1.0)


def test_paired_randomization_test_exact_small_case():
    # 4 topics, all differences +1: sign flips give 16 arrangements, 2 as extreme -> p = 2/16
    x = [1.0, 1.0, 1.0, 1.0]
    y = [0.0, 0.0, 0.0, 0.0]
    assert paired_test(x, y, test="randomization") == pytest.approx(2 / 16)
    assert paired_test(x, x) == 1.0


def test_paired_bootstrap_test():
    x = [0.9, 0.8, 0.85, 0.95, 0.7, 0.9, 0.88, 0.92] * 3
    y = [0.1, 0.2, 0.15, 0.05, 0.3, 0.1, 0.12, 0.08] * 3
    assert paired_test(x, y, test="bootstrap", n_resamples=2000) < 0.01
    noisy = paired_test([0.5, 0.6, 0.4, 0.55], [0.52, 0.58, 0.45, 0.5], test="bootstrap", n_resamples=2000)
    assert noisy > 0.2
    with pytest.raises(ValueError, match="randomization"):
        paired_test(x, y, test="t")


def test_paired_tests_pairs_best_first():
    per = {"a": {"1": 0.1, "2": 0.2}, "b": {"1": 0.9, "2": 0.8}, "c": {"1": 0.5, "2": 0.5}}
    res = paired_tests(per, n_resamples=100)
    assert [(r.a, r.b) for r in res] == [("b", "c"), ("b", "a"), ("c", "a")]
    assert res[0].diff == pytest.approx(0.35) and res[0].topics == 2


def test_stability_counts_swaps_by_bin():
    # Two runs; on topics 0-1 run a wins by 0.5, on topics 2-3 run b wins by 0.5: splits of size 2 either
    # agree or disagree; with identical per-topic scores there are no swaps.
    same = {"a": {str(i): 0.5 for i in range(4)}, "b": {str(i): 0.5 for i in range(4)}}
    rows = stability(same, trials=10)
    assert [(r.low, r.pairs, r.swaps) for r in rows] == [(0.0, 10, 0)]
    far = {"a": {str(i): 1.0 for i in range(6)}, "b": {str(i): 0.0 for i in range(6)}}
    rows = stability(far, trials=5, bin_width=0.1)
    assert len(rows) == 1 and rows[0].pairs == 5 and rows[0].swaps == 0 and rows[0].low == pytest.approx(1.0)
    mixed = {"a": {"0": 1.0, "1": 1.0, "2": 0.0, "3": 0.0}, "b": {"0": 0.0, "1": 0.0, "2": 1.0, "3": 1.0}}
    rows = stability(mixed, trials=200, bin_width=0.5, seed=1)
    # a split {0,1}|{2,3} disagrees at difference 1.0; a mixed split ties (difference 0): never a swap
    by_low = {r.low: r for r in rows}
    assert by_low[1.0].swaps == by_low[1.0].pairs > 0
    assert by_low[0.0].swaps == 0
    assert sum(r.pairs for r in rows) == 200
