"""A run's English queries without torch (indexing/models/query_onnx.py): the bundled model exported
to ONNX once per machine gives the torch model's vectors to float rounding, and only a model made of
a transformer, mean pooling and normalisation is exported."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

pytest.importorskip("onnxruntime")
pytest.importorskip("onnx")

QUERIES = [
    "What can a buyer do when a package arrives empty?",
    "Is eating feseekh on Sham el-Nessim dangerous? What do Egyptians say?",
    "Why did the TSMC chairman say the Arizona fab was on schedule?",
    "a",
    "How do I relist an item on eBay after the buyer never paid, and will the final value fee come back? " * 12,
]


def test_exported_queries_match_the_torch_model(tmp_path, monkeypatch):
    from indexing.models.embedding import bundled_model_path, get_embedder
    from indexing.models.query_onnx import OnnxQueryEncoder

    folder = bundled_model_path()
    if folder is None:
        pytest.skip("the bundled all-MiniLM-L6-v2 package is not installed")
    monkeypatch.setenv("BOLT_CACHE_DIR", str(tmp_path / "cache"))
    onnx = OnnxQueryEncoder(folder, "all-MiniLM-L6-v2", "id")
    assert len(list((tmp_path / "cache").glob("query-*.onnx"))) == 1  # exported once, into the cache
    torch_vectors = get_embedder(None).encode_batch(QUERIES)
    ours = np.stack([onnx.encode_query(q) for q in QUERIES])
    assert onnx.dimension == 384 and ours.dtype == np.float32
    # the same vectors to float rounding (the last query is cut at the model's 256 tokens, as there)
    assert np.abs(ours - torch_vectors).max() < 1e-5
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)
    assert OnnxQueryEncoder(folder, "all-MiniLM-L6-v2", "id").session is not None  # the cached export is read


def test_only_a_mean_pooled_normalised_model_is_exported(tmp_path):
    from indexing.models.embedding import bundled_model_path
    from indexing.models.query_onnx import exportable

    folder = bundled_model_path()
    if folder is None:
        pytest.skip("the bundled all-MiniLM-L6-v2 package is not installed")
    assert exportable(folder)
    cls = tmp_path / "cls"
    shutil.copytree(folder, cls, ignore=shutil.ignore_patterns("*.safetensors"))
    pooling = cls / "1_Pooling" / "config.json"
    config = json.loads(pooling.read_text(encoding="utf-8"))
    pooling.write_text(json.dumps({**config, "pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False}),
                       encoding="utf-8")
    assert not exportable(cls)
    assert not exportable(tmp_path / "absent")


def test_adding_vectors_makes_the_machines_export(tmp_path, monkeypatch):
    """``bolt index`` (add_vectors) makes the export while torch is loaded, so the first run after it
    needs no torch; a model that cannot be exported is left alone."""
    from bolt.vectors.build import _export_query_model
    from indexing.models.embedding import bundled_model_path

    if bundled_model_path() is None:
        pytest.skip("the bundled all-MiniLM-L6-v2 package is not installed")
    monkeypatch.setenv("BOLT_CACHE_DIR", str(tmp_path / "cache"))
    _export_query_model(str(tmp_path / "no-such-model"))
    assert not (tmp_path / "cache").exists()
    _export_query_model(None)
    assert len(list((tmp_path / "cache").glob("query-*.onnx"))) == 1
