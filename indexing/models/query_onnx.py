"""The English encoder's queries without torch: the model exported once per machine to ONNX.

A run that reads an index's vectors encodes only its queries, yet loading torch, transformers and
sentence-transformers for them took about 5 s of every run's first topic. A sentence-transformers
model made of a transformer, mean pooling and normalisation (all-MiniLM-L6-v2 is) is exported to
ONNX once per machine (:mod:`indexing.cache`, named by its weight and config files and this code)
and run by onnxruntime with the model's own tokenizer (``tokenizer.json``, the ``tokenizers``
library): neither import pulls in torch. Its vectors differ from torch's in their last bits (at
most about 2e-7 per component on the dev queries); main's bullets on the dev topics are the same
(docs/benchmarks.md, "Vectors"). Exporting needs torch, transformers and ``onnx``, once.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Sequence

import numpy as np

from indexing.errors import RuntimeUnavailable

NAMES = ("input_ids", "attention_mask", "token_type_ids")
SHAPE = ["sentence_transformers.models.Transformer", "sentence_transformers.models.Pooling",
         "sentence_transformers.models.Normalize"]


def exportable(folder: Path) -> bool:
    """Whether the model folder is a transformer, mean pooling and normalisation with a fast tokenizer."""
    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
        pooling = json.loads((folder / modules[1]["path"] / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return False
    means = pooling.get("pooling_mode_mean_tokens") and not any(
        v for k, v in pooling.items() if k.startswith("pooling_mode_") and k != "pooling_mode_mean_tokens")
    return [m.get("type") for m in modules] == SHAPE and bool(means) and (folder / "tokenizer.json").is_file()


def exported(folder: Path) -> Path:
    """The ONNX file of the model in ``folder``, exported on this machine's first use."""
    from indexing.cache import cache_dir, digest

    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in (".json", ".safetensors", ".bin", ".txt"))
    path = cache_dir() / f"query-{folder.name}-{digest(str(folder), files, [Path(__file__)])}.onnx"
    if not path.is_file():
        _export(folder, path)
    return path


def _export(folder: Path, path: Path) -> None:
    try:
        import torch
        from transformers import AutoModel
    except ImportError as exc:  # pragma: no cover - both are dependencies
        raise RuntimeUnavailable(f"cannot export {folder} to ONNX: {exc}", hint="pip install torch transformers onnx") from exc
    from indexing.atomic import atomic_open

    class Hidden(torch.nn.Module):
        def __init__(self, model) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.model(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    model = Hidden(AutoModel.from_pretrained(str(folder)).eval())
    sample = tuple(torch.ones((1, 4), dtype=torch.long) for _ in NAMES)
    axes = {n: {0: "batch", 1: "tokens"} for n in (*NAMES, "hidden")}
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path, "wb") as fh, torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tracer's notes on Python control flow: nothing for a user to do
        torch.onnx.export(model, sample, fh, input_names=list(NAMES), output_names=["hidden"],
                          dynamic_axes=axes, opset_version=17, dynamo=False)


class OnnxQueryEncoder:
    """Queries (one at a time) through the exported model: the mean of the token states, normalised."""

    def __init__(self, folder: Path, name: str, model_id: str) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # one query at a time: more threads only spin
        options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(str(exported(folder)), options, providers=["CPUExecutionProvider"])
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        limit = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8")).get("max_seq_length", 256)
        self.tokenizer.enable_truncation(int(limit))
        self.tokenizer.no_padding()
        self.name, self.model_id = name, model_id
        self.dimension = int(self.encode_query("a").shape[0])

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised vectors, one row per text (each encoded alone, as a query is)."""
        rows = [self.encode_query(t) for t in texts]
        return np.stack(rows) if rows else np.zeros((0, self.dimension), dtype=np.float32)

    def encode_query(self, query: str) -> np.ndarray:
        enc = self.tokenizer.encode(query)
        feed = {n: np.asarray([ids], dtype=np.int64)
                for n, ids in zip(NAMES, (enc.ids, enc.attention_mask, enc.type_ids))}
        hidden = self.session.run(None, feed)[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        v = (hidden * mask).sum(axis=1) / np.clip(mask.sum(axis=1), 1e-9, None)
        v = v / np.linalg.norm(v, axis=1, keepdims=True)
        return v[0].astype(np.float32)
