"""scripts/xl_site_refit.py: the candidate feature and the folds' plumbing (each held-out topic is
scored by the model fitted and the threshold chosen without it), on hand-computed values."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


@pytest.fixture(scope="module")
def mod():
    sys.path.insert(0, str(SCRIPTS))
    spec = importlib.util.spec_from_file_location("xl_site_refit", SCRIPTS / "xl_site_refit.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    yield m
    sys.path.remove(str(SCRIPTS))


def test_bullet_coverage_is_the_share_of_the_bullets_own_terms(mod):
    from evaluation.matching.crosslingual import native_coverage

    m = mod
    # bullet bigrams (folded to Simplified) {台积, 积电, 电营, 营收}; the nugget's {台积, 积电, 电的, 的营,
    # 营收, 收创, 创新, 新高} hold three of the four: 0.75, where ncov (the nugget's share) is 3 / 8
    bullet, nuggets = "台積電營收", ["台积电的营收创新高", "完全无关的话"]
    assert m.bullet_coverage(bullet, nuggets, "cmn") == 0.75
    assert native_coverage(bullet, nuggets, "cmn") == 0.375
    # Arabic: {سبب, انتحار} both in the bullet's {ان, انتحار, سبب, مايبغ, يتزوج}: 2 of 5 the other way
    assert m.bullet_coverage("سبب انتحاره انه مايبغى يتزوج", ["سبب الانتحار"], "arz") == 0.4
    assert m.bullet_coverage("سبب", [], "arz") == 0.0


def test_each_fold_is_scored_by_the_model_and_threshold_chosen_without_it(mod, monkeypatch):
    from fitting import forum_meter as fm

    # a stand-in fit that records how many training pairs it saw: fold x holds 5 pairs, fold y 3
    monkeypatch.setattr(mod, "fit_lang", lambda rows: ((float(len(rows)),), 0.0, 0.5))
    rows = [{"topic": "s:1", "lang": "arz"}] * 5 + [{"topic": "s:2", "lang": "arz"}] * 3

    class Data:
        def __init__(self):
            self.rows = rows

        def cells(self, model, langs=("arz", "cmn")):
            # R_n is right (0.5) only at the threshold 0.02 x (pairs the model was fitted on), 0.1 low
            # elsewhere; today's model (None) reads 0.3 everywhere
            n = 0 if model is None else model["arz"][0][0]
            c = fm.Cells()
            for t in ("s:1", "s:2"):
                c.topic.append(t)
                c.run.append("s:main")
                c.careful.append([0.5, 0.5, 0.5])
                r = np.array([0.3 if model is None else (0.5 if abs(g - 0.02 * n) < 1e-9 else 0.4) for g in fm.GRID])
                c.machine.append(np.repeat(r[:, None], 3, axis=1))
                c.round_of[t] = "r"
                c.board_of[t] = "b"
            return {"arz": c}

    held, thresholds, chosen = mod.refit_held_out(Data(), {"s:1": "x", "s:2": "y"}, {"arz": 0.5, "cmn": 0.1})
    # without fold x the model saw fold y's 3 pairs: threshold 0.06, and topic s:1 is scored by it
    assert thresholds == {"arz": {"s:1": 0.06, "s:2": 0.1}}
    assert chosen["x"]["arz"]["coefficients"] == (3.0,) and chosen["y"]["arz"]["coefficients"] == (5.0,)
    gi = {g: i for i, g in enumerate(fm.GRID)}
    assert held["arz"].machine[0][gi[0.06], 0] == 0.5 and held["arz"].machine[0][gi[0.1], 0] == 0.4
    assert held["arz"].machine[1][gi[0.1], 0] == 0.5 and held["arz"].machine[1][gi[0.06], 0] == 0.4
