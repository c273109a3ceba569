"""Which vectors a system reads from an index, and the refusal of an index that lacks them.

``main`` reads, per language, from each encoder (:func:`needed`):
- English: what a thread is about (``w_thread_semantic``) and every sentence (``embed_top``), from
  the sentence-transformers ``model``;
- Arabic and Chinese: what a thread is about, from ``xl_encoder`` (language focus, thread
  relevance, dense threads), and English's too when the language focus compares languages;
- the swept languages (``xl_sweep_langs``): every headline and sentence, from the sweep's encoder.
An index built without them would make a run encode the collection in its own process (hours at
BOLT size), so :func:`check_vectors` refuses it and names the command that adds them.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Iterable

from indexing.errors import ToolkitError
from indexing.vectors.encode import EncoderSpec

def embedding_spec(cfg) -> EncoderSpec:
    from indexing.models.embedding import DEFAULT_MODEL

    return EncoderSpec("embedding", cfg.model or DEFAULT_MODEL)


def needed(cfg, langs: Iterable[str]) -> dict[EncoderSpec, dict[str, tuple[str, ...]]]:
    """Per encoder, per language of the index: the kinds of unit ``cfg`` reads ({} for a system without encoders)."""
    out: dict[EncoderSpec, dict[str, set[str]]] = {}

    def add(spec: EncoderSpec, lang: str, *kinds: str) -> None:
        out.setdefault(spec, {}).setdefault(lang, set()).update(kinds)

    if cfg.name != "main":
        return {}
    langs = set(langs)
    pasted = ("pasted",) if cfg.pasted_quotes else ()
    if "eng" in langs:
        if cfg.w_thread_semantic > 0:
            add(embedding_spec(cfg), "eng", "about")
        if cfg.embed_top > 0:
            add(embedding_spec(cfg), "eng", "sentence", *pasted)
    if cfg.xl_encoder:  # every language: the language focus compares English threads with the others
        for lang in sorted(langs if cfg.lang_floor > 0 and len(langs) > 1 else langs - {"eng"}):
            add(EncoderSpec("multilingual", cfg.xl_encoder), lang, "about")
    for lang in cfg.sweep_langs():
        if lang in langs and cfg.sweep_encoder():
            add(EncoderSpec("multilingual", cfg.sweep_encoder()), lang, "headline", "sentence", *pasted)
    return {spec: {lg: tuple(sorted(k)) for lg, k in per.items()} for spec, per in out.items()}


def searched(cfg, spec: EncoderSpec) -> frozenset[str]:
    """The languages whose sentences in ``spec``'s table a stage searches for the query's nearest
    (the sweep): only those get an approximate index when they are large."""
    if cfg.name != "main" or spec != EncoderSpec("multilingual", cfg.sweep_encoder() or ""):
        return frozenset()
    return frozenset(cfg.sweep_langs())


def index_digest(index_dir: str | Path) -> str:
    """What identifies an index's threads: the digest of its manifest's inputs, settings and counts
    (a rebuilt index with other threads has another; vectors made for it no longer fit)."""
    from indexing.manifest import read_manifest

    m = read_manifest(index_dir)
    text = json.dumps([m.get("inputs"), m.get("settings"), m.get("counts")], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def text_settings(cfg) -> str:
    """The settings that decide a unit's text (the clause limits cut sentences; ``pasted_quotes`` adds
    the pasted reports'): part of a table's identity."""
    return f"{cfg.clause_limits()!r} pasted_quotes={cfg.pasted_quotes}"


def problems(index_dir: str | Path, cfg) -> list[str]:
    """What the index lacks for ``cfg`` (empty when its vectors serve it)."""
    from indexing.manifest import read_manifest
    from indexing.vectors.table import open_tables

    need = needed(cfg, read_manifest(index_dir).get("counts", {}))
    if not need:
        return []
    tables = open_tables(index_dir)
    digest = index_digest(index_dir)
    out = []
    for spec, per in need.items():
        table = tables.get(spec.key)
        what = ", ".join(f"{lang}: {'/'.join(kinds)}" for lang, kinds in sorted(per.items()))
        if table is None:
            out.append(f"no {spec.name} vectors ({what})")
            continue
        m = table.manifest
        if m.get("index") != digest:
            out.append(f"the {spec.name} vectors were made for another build of this index")
        elif m.get("settings") != text_settings(cfg):
            out.append(f"the {spec.name} vectors were cut with the settings {m.get('settings')}, "
                       f"the system cuts with {text_settings(cfg)}")
        else:
            lacking = [f"{lang}: {k}" for lang, kinds in per.items() for k in kinds if k not in table.units(lang)]
            if lacking:
                out.append(f"the {spec.name} vectors lack " + ", ".join(lacking))
    return out


def check_vectors(index_dir: str | Path, cfg) -> None:
    """Raise when the index lacks vectors ``cfg`` reads, with the command that adds them."""
    found = problems(index_dir, cfg)
    if found:
        extra = f" --system '{cfg!r}'" if repr(cfg) != "main" else ""
        raise ToolkitError(f"the index {index_dir} lacks vectors the system {cfg.name} reads: " + "; ".join(found),
                           file=str(index_dir),
                           hint=f"add them (once; encoded with a progress bar): bolt index --add-vectors {index_dir}{extra}")


def stages(cfg, langs: Iterable[str], tables: dict) -> str:
    """The cross-language stages ``cfg`` runs over an index of ``langs`` (for a run's signature):
    ``lang-focus``, ``dense:LANGS``, ``sweep:LANG(exact|approximate)``, ``sweep-read``; "none" without them."""
    langs = set(langs)
    if cfg.name != "main" or not cfg.xl_encoder or not langs - {"eng"}:
        return "none"
    out = []
    if cfg.lang_floor > 0 and len(langs) > 1:
        out.append("lang-focus")
    dense = [lg for lg in cfg.dense_langs() if lg in langs]
    if dense:
        out.append("dense:" + "+".join(dense))
    table = tables.get(EncoderSpec("multilingual", cfg.sweep_encoder() or "").key)
    for lang in (lg for lg in cfg.sweep_langs() if lg in langs):
        how = "approximate" if table is not None and lang in table.manifest.get("ann", {}) else "exact"
        out.append(f"sweep:{lang}({how})")
        if cfg.xl_sweep_read:
            out.append(f"sweep-read:{lang}")
    return " ".join(out) or "none"


def vector_fields(index_dir: str | Path, cfg) -> list[tuple[str, str]]:
    """The run signature's fields about the index's vectors: each table read (encoder ``ID#HASH`` and
    the build it was made for) and the cross-language stages that ran."""
    from indexing.manifest import read_manifest
    from indexing.vectors.table import open_tables

    if cfg.name != "main":  # the reference systems read no encoder
        return []
    langs = read_manifest(index_dir).get("counts", {})
    tables = open_tables(index_dir)
    fields = [(f"vectors-{spec.key.lower()}", f"{tables[spec.key].manifest['identity']}@{tables[spec.key].manifest['index']}")
              for spec in needed(cfg, langs) if spec.key in tables]
    return fields + [("xl-stages", stages(cfg, langs, tables))]
