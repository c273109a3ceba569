"""The learned sentence ranker (bolt.pipeline.ranker): forum cues, features, the model file.

Expected values are computed by hand from the definitions in the module.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bolt.pipeline.ranker import (FEATURES, RankerModel, SentenceEvidence, addressed_to_member, feature_rows,
                                  forum_cues, load_model)


@pytest.mark.parametrize("text, plan", [
    ("I'd like to move to Portland next year.", 1.0),
    ("If it were me I would want to go to Austin first.", 1.0),
    ("I'm going to list them again on Sunday.", 1.0),
    ("We plan to open a second store in spring.", 1.0),
    ("The final value fee is 10% of the sale price.", 0.0),
    ("I sold 40 of them last year.", 0.0),  # history, not a plan
])
def test_plans_and_wishes_of_the_writer(text, plan):
    assert forum_cues(text)["plan_wish"] == plan


@pytest.mark.parametrize("text, meta", [
    ("I can defend my opinion and you can defend yours.", 1.0),
    ("Go back and read my post before you answer.", 1.0),
    ("This is getting off topic, but the weather is nice.", 1.0),
    ("You said the fee was refunded, it was not.", 1.0),
    ("Print the label from the order page and tape it flat.", 0.0),
])
def test_meta_argument(text, meta):
    assert forum_cues(text)["meta"] == meta


def test_addressed_to_a_member_of_the_thread():
    members = frozenset({"sandy", "bob_123"})
    assert addressed_to_member("Sandy, if you go to page 19 you will see it.", members)
    assert addressed_to_member("That is the rule, bob_123, read it again.", members)
    assert addressed_to_member("@bob_123 the rule changed last month.", members)
    # a name that is not a member of the thread, and no members at all
    assert not addressed_to_member("Mary, if you go to page 19 you will see it.", members)
    assert not addressed_to_member("Sandy, if you go to page 19 you will see it.", frozenset())
    # a member's name late in the sentence and not before a comma is not an address
    assert not addressed_to_member("The seller in the listing I saw today was called Sandy", members)


def test_other_cues():
    c = forum_cues("You should call them at 555 1234!")
    assert (c["second_person"], c["number"], c["exclaim"], c["link"], c["first_person"]) == (1.0, 1.0, 1.0, 0.0, 0.0)
    c = forum_cues("My store is at http://example.com now")
    assert (c["first_person"], c["link"], c["second_person"]) == (1.0, 1.0, 0.0)


def _ev(score: float, **kw) -> SentenceEvidence:
    base = dict(lexical=0.5, semantic=0.4, embedded=True, bm25=1.0, focus=1.0, retrieval=0.2, info=0.85,
                position_w=1.0, role_w=1.0, score=score, words=8, sent_pos=2, opening=False)
    base.update(kw)
    return SentenceEvidence(**base)


def test_feature_rows_are_relative_to_the_topics_best():
    rows = feature_rows([_ev(0.2), _ev(0.4, embedded=False, focus=0.5, opening=True)],
                        ["I'd like to go.", "Call them."], [frozenset(), frozenset()])
    assert len(rows) == 2 and len(rows[0]) == len(FEATURES)
    r0, r1 = (dict(zip(FEATURES, r)) for r in rows)
    assert r0["score_rel"] == pytest.approx(0.5) and r1["score_rel"] == pytest.approx(1.0)
    assert r0["rank_log"] == pytest.approx(math.log(2)) and r1["rank_log"] == 0.0
    assert r0["words_log"] == pytest.approx(math.log(8)) and r0["sent_pos_log"] == pytest.approx(math.log(3))
    assert (r0["plan_wish"], r1["plan_wish"]) == (1.0, 0.0)
    assert (r1["embedded"], r1["focus_top"], r1["opening"], r0["focus_top"]) == (0.0, 0.0, 1.0, 1.0)


def test_probabilities_are_the_logistic_of_the_standardised_sum():
    m = RankerModel(("a", "b"), (0.0, 1.0), (2.0, 1.0), (1.0, -0.5), 0.25)
    # z = 0.25 + 1 x (2 - 0) / 2 - 0.5 x (3 - 1) / 1 = 0.25
    assert m.probabilities([(2.0, 3.0)]) == [pytest.approx(1 / (1 + math.exp(-0.25)))]


def test_blend_reweighs_main_scores_by_the_relative_probability_and_cuts():
    from bolt.pipeline.ranker import blend

    scores, probs = [0.8, 0.6, 0.5], [0.2, 0.8, 0.4]
    # best probability 0.8: factors (1/4) ** 1, 1, (1/2) ** 1 -> 0.2, 0.6, 0.25
    assert blend(scores, probs, 1.0) == [pytest.approx(0.2), pytest.approx(0.6), pytest.approx(0.25)]
    # alpha 0.5: 0.8 x 0.5, 0.6, 0.5 x 0.7071 = 0.35355
    assert blend(scores, probs, 0.5) == [pytest.approx(0.4), pytest.approx(0.6), pytest.approx(0.353553, abs=1e-6)]
    # alpha 0 and no cut: main's scores; a cut of 0.3 zeroes the 0.2 one
    assert blend(scores, probs, 0.0) == scores
    assert blend(scores, probs, 0.0, cut=0.3) == [0.0, 0.6, 0.5]


def test_reorder_spreads_the_passing_sentences_between_the_cut_and_the_best_by_probability():
    from bolt.pipeline.ranker import reorder

    # top 0.9, cut 0.63: probabilities 0.2, 0.8, 0.4 -> 0.63 + 0.27 x (1/4, 1, 1/2)
    assert reorder(0.9, 0.63, [0.2, 0.8, 0.4]) == [pytest.approx(0.6975), pytest.approx(0.9), pytest.approx(0.765)]
    assert reorder(0.9, 0.63, [0.0, 0.0]) == [0.9, 0.9]
    assert reorder(0.9, 0.63, []) == []


def test_the_stopping_cut_is_at_most_the_best_probability():
    m = RankerModel(("a",), (0.0,), (1.0,), (1.0,), 0.0, stop=0.3, stop_rel=0.5)
    assert m.cut([0.9, 0.2]) == pytest.approx(0.45)  # max(0.3, 0.5 x 0.9)
    assert m.cut([0.2, 0.1]) == pytest.approx(0.2)  # max(0.3, 0.1) = 0.3 > best: the best passes
    assert m.cut([0.9], stop=0.0, stop_rel=0.0) == pytest.approx(1e-9)


def test_a_reranker_model_keeps_alpha_through_json(tmp_path):
    m = RankerModel(FEATURES, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES), (0.0,) * len(FEATURES), 0.0,
                    0.1, 0.0, {"C": 1}, alpha=2.0)
    p = tmp_path / "r.json"
    p.write_text(m.to_json())
    assert load_model(str(p)).alpha == 2.0
    q = tmp_path / "old.json"  # models are read once per path
    q.write_text(RankerModel(FEATURES, m.mean, m.scale, m.coef, 0.0).to_json())
    assert load_model(str(q)).alpha is None  # rounds 10 and 10b: the probability replaces the score


def test_the_shipped_model_loads_and_a_bad_file_is_a_clear_error(tmp_path):
    from indexing.errors import ToolkitError

    m = load_model("rerank")
    assert m.features == FEATURES and len(m.coef) == len(FEATURES) and 0.0 <= m.stop <= 1.0
    bad = tmp_path / "m.json"
    bad.write_text(json.dumps({"features": ["x"], "mean": [0], "scale": [1], "coef": [1], "intercept": 0}))
    with pytest.raises(ToolkitError, match="features differ"):
        load_model(str(bad))
    with pytest.raises(ToolkitError, match="cannot read"):
        load_model(str(tmp_path / "missing.json"))


def test_a_shipped_model_is_named_and_a_path_is_still_a_path(tmp_path):
    from bolt.pipeline.ranker import DEFAULT_MODEL, model_path

    assert model_path("rerank") == DEFAULT_MODEL == DEFAULT_MODEL.with_name("ranker_model_rerank.json")
    assert model_path(str(tmp_path / "rerank")) == tmp_path / "rerank"
    # the shipped model was trained on all 14 development rounds
    rerank = load_model("rerank")
    assert rerank.meta["trained_on_rounds"] == list(range(1, 15))
    assert (rerank.alpha, rerank.stop, rerank.stop_rel) == (0.5, 0.0, 0.0)
    assert model_path("nosuchmodel") == Path("nosuchmodel")
