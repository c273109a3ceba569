"""``bolt index --add-vectors``: encode once what a system's encoders read, and store it with the index.

Every thread is read once; its units (headline, what it is about, sentences: cut exactly as the
system cuts them, by :class:`bolt.pipeline.systems.Distiller`) go into one table per encoder
(:mod:`indexing.vectors.table`). A text already in the encoder's table (or in ``reuse``: the tables
of an earlier build) is not encoded again, so adding threads encodes only the new ones. A language
with more than ``ann_min_rows`` sentences also gets an approximate index (:mod:`indexing.vectors.ann`).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Iterable

import numpy as np

from bolt.vectors.needs import embedding_spec, index_digest, needed, searched, text_settings
from indexing.atomic import atomic_write_text
from indexing.splits import FOLDER, recording
from indexing.vectors.ann import EXACT_MAX_ROWS
from indexing.vectors.encode import BATCH, EncoderSpec, encode_texts, tqdm_progress
from indexing.vectors.table import TablePlan, VectorTable, open_tables, write_table

LANG_ORDER = ("eng", "arz", "cmn")


def thread_units(d, thread_id: str, lang: str, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    """A thread's ``(kind, text)`` units, in row order: headline, what it is about, its sentences."""
    from bolt.pipeline.main.reading import thread_text

    th = d.thread(thread_id)
    out: list[tuple[str, str]] = []
    if "headline" in kinds:
        out.append(("headline", getattr(th, "headline", "") or ""))
    if "about" in kinds:
        out.append(("about", thread_text(d, thread_id, lang)))
    if "sentence" in kinds:
        out.extend(("sentence", s.text) for s in d.thread_sentences(thread_id, lang))
    if "pasted" in kinds and th is not None:
        out.extend(("pasted", text) for text in pasted_sentences(d, th, lang))
    return out


def pasted_sentences(d, th, lang: str) -> list[str]:
    """The sentences of the reports pasted into the thread's posts (``pasted_quotes``), as the
    candidate sentences cut them: what a run reads beyond the posts' own text."""
    from bolt.pipeline.candidates import CandidatePost, post_sentences
    from bolt.pipeline.pasted import pasted_maps

    own = {s.text for s in d.thread_sentences(th.id, lang)}
    out = []
    for rank, post in enumerate(th.posts):
        if not pasted_maps(th, post):  # most posts paste nothing: their sentences are the thread's own
            continue
        cand = CandidatePost(th.id, post.id, lang, 0.0, rank, 0.0)
        out.extend(s.text for s in post_sentences(th, cand, d.config.clause_limits(), True) if s.text not in own)
    return out


def plan_tables(d, store, need: dict[EncoderSpec, dict[str, tuple[str, ...]]], progress: bool) -> dict[EncoderSpec, TablePlan]:
    """Read every thread the encoders need once and lay out each encoder's rows."""
    plans = {spec: TablePlan() for spec in need}
    langs = sorted({lg for per in need.values() for lg in per}, key=lambda lg: (LANG_ORDER + (lg,)).index(lg))
    listing = [(lang, store.ids(lang)) for lang in langs]
    update, close = tqdm_progress(sum(len(ids) for _, ids in listing), "reading threads", progress, " threads")
    try:
        for lang, ids in listing:
            specs = [s for s in need if lang in need[s]]
            for tid in ids:
                for spec in specs:
                    plans[spec].add(tid, lang, thread_units(d, tid, lang, need[spec][lang]))
                if update:
                    update(1)
    finally:
        close()
    return plans


def vectors_for(spec: EncoderSpec, plan: TablePlan, old: list[VectorTable], workers: int, address: str | None,
                progress: bool) -> tuple[np.ndarray, int, float]:
    """The plan's distinct vectors: from ``old`` tables of the same encoder when they hold the text,
    else encoded; returns them, how many were encoded and the seconds encoding took."""
    _, texts = plan.distinct()
    vectors: np.ndarray | None = None
    todo = np.ones(len(texts), dtype=bool)
    for table in old:
        at = table.find(texts)
        hit = (at >= 0) & todo
        if hit.any():
            if vectors is None:
                vectors = np.zeros((len(texts), table.vectors.shape[1]), dtype=np.float32)
            rows = np.flatnonzero(hit)
            for start in range(0, len(rows), 65536):  # in blocks: no second whole copy in memory
                block = rows[start:start + 65536]
                vectors[block] = table.vectors[at[block]]
            todo &= ~hit
    idx = np.flatnonzero(todo)
    t0 = time.perf_counter()
    if len(idx):
        update, close = tqdm_progress(len(idx), f"encoding ({spec.name})", progress)
        try:
            fresh = encode_texts(spec, [texts[i] for i in idx], workers=workers, address=address, progress=update)
        finally:
            close()
        if vectors is None:
            vectors = np.zeros((len(texts), fresh.shape[1]), dtype=np.float32)
        vectors[idx] = fresh
    if vectors is None:
        vectors = np.zeros((0, 0), dtype=np.float32)
    return vectors, len(idx), time.perf_counter() - t0


def add_vectors(index_dir: str | Path, cfg, *, workers: int = 1, address: str | None = None,
                progress: bool = True, ann_min_rows: int = EXACT_MAX_ROWS,
                reuse: list[str | Path] = ()) -> dict[str, dict]:
    """Encode and store the vectors ``cfg`` reads from the index at ``index_dir``; per encoder, what
    its table holds and what encoding it cost (texts, encoded, seconds, texts/s)."""
    from bolt.provenance import encoder_identity

    index_dir = Path(index_dir)
    need, plans = plan_index(index_dir, cfg, progress)
    report: dict[str, dict] = {}
    for spec, plan in plans.items():
        identity = encoder_identity(spec)
        # a text's vector is the same whatever cut it, so any table of the same encoder serves
        old = [t for t in (*open_tables(index_dir).values(), *(v for r in reuse for v in open_tables(r).values()))
               if t.manifest.get("identity") == identity]
        vectors, encoded, seconds = vectors_for(spec, plan, old, workers, address, progress)
        report[spec.key] = store_table(index_dir, cfg, spec, plan, vectors, {
            "encoder": spec.name, "family": spec.family, "identity": identity,
            "batch": BATCH, "workers": max(1, workers) if not address else address,
            "encoded": encoded, "reused": len(plan.texts) - encoded, "encode_seconds": round(seconds, 2),
            "texts_per_second": round(encoded / seconds, 1) if encoded and seconds > 0 else None},
            need[spec], ann_min_rows, progress)
    if embedding_spec(cfg) in plans:
        _export_query_model(cfg.model)
    return report


def plan_index(index_dir: Path, cfg, progress: bool) -> tuple[dict, dict[EncoderSpec, TablePlan]]:
    """What ``cfg``'s encoders read of the index (:func:`bolt.vectors.needs.needed`) and each one's
    table laid out; the posts' cuts made meanwhile are stored in the index (:mod:`indexing.splits`)."""
    from bolt.pipeline.systems import Distiller
    from indexing.corpus import open_corpus
    from indexing.manifest import read_manifest

    need = needed(cfg, read_manifest(index_dir).get("counts", {}))
    if not need:
        return need, {}
    corpus = open_corpus(index_dir=index_dir)
    with recording() as cuts:  # every post the encoders read is cut here, as a run cuts it: kept for runs
        plans = plan_tables(Distiller(None, corpus, cfg), corpus.store, need, progress)
    cuts.write(index_dir / FOLDER)
    return need, plans


def store_table(index_dir: Path, cfg, spec: EncoderSpec, plan: TablePlan, vectors: np.ndarray, manifest: dict,
                units: dict[str, tuple[str, ...]], ann_min_rows: int, progress: bool) -> dict:
    """Write ``spec``'s table (``manifest`` plus the index's digest, the text settings and the
    ``units`` per language) and its approximate indexes; returns the manifest written."""
    table_dir = index_dir / "vectors" / spec.key
    written = write_table(table_dir, plan, vectors, {
        **manifest, "index": index_digest(index_dir), "settings": text_settings(cfg),
        "units": {lg: list(k) for lg, k in units.items()}})
    written["ann"] = build_ann(table_dir, searched(cfg, spec), ann_min_rows, progress)
    if written["ann"]:
        atomic_write_text(table_dir / "manifest.json", json.dumps(written, indent=2, ensure_ascii=False) + "\n")
    return written


def _export_query_model(name: str | None) -> None:
    """Make this machine's ONNX export of the English model now, while torch is loaded anyway, so
    the first run after ``bolt index`` encodes its queries without torch (a failure costs only that)."""
    from indexing.errors import RuntimeUnavailable
    from indexing.models.embedding import onnx_folder
    from indexing.models.query_onnx import exported

    folder = onnx_folder(name)
    if folder is not None:
        try:
            exported(folder)
        except (ImportError, RuntimeUnavailable, OSError):
            pass


def build_ann(table_dir: Path, langs: Iterable[str], min_rows: int, progress: bool) -> dict[str, dict]:
    """The approximate index of each of ``langs`` (:func:`bolt.vectors.needs.searched`) with more
    than ``min_rows`` sentences."""
    from indexing.vectors.ann import build

    table = VectorTable(table_dir)
    out: dict[str, dict] = {}
    for lang in sorted(langs):
        _, rows = table.kind_rows(lang, "sentence")
        if len(rows) <= min_rows or not len(rows):
            continue
        if progress:
            print(f"vectors: approximate index of {len(rows)} {lang} sentences ({table.encoder})", file=sys.stderr)
        t0 = time.perf_counter()
        at = np.asarray(table.row_vec[rows])
        out[lang] = {**build(table_dir, lang, table.vectors, at, rows), "seconds": round(time.perf_counter() - t0, 2)}
    return out
