"""Build and search an index folder; the one search API of the toolkit (CLI and pipeline alike).

An index folder holds::

    manifest.json     inputs (sizes, SHA-256), settings, versions, counts (indexing.manifest)
    threads.sqlite    the raw threads (indexing.thread_store), so nothing else is needed later
    units.sqlite      every retrieval unit with its raw offsets and text (indexing.units)
    lucene/<lang>/    one Lucene index per language, every unit tagged with its kind (lucene backend only)
    vocabulary-arz.json  the words of the Arabic threads with their thread counts (indexing.vocabulary)

Searching several languages at once: BM25 scores from different analysers are not comparable,
so each language is searched on its own and the ranked lists are *interleaved by rank*: all
languages' first hits, then all second hits, and so on (within one rank: score, then thread id,
then offset). Every language with a match is therefore represented in the top ``k``. Within a
language, hits are ordered by score (descending), then thread id, then offset.
"""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Iterable, NamedTuple

from indexing.analysis import AnalysisConfig
from indexing.atomic import swap_folder
from indexing.encoding import MANIFEST_KEY, STRICT
from indexing.errors import RuntimeUnavailable, ToolkitError
from indexing.manifest import (MANIFEST, describe_inputs, make_manifest, read_manifest,
                               write_json_atomic)
from indexing.thread_store import ThreadStore
from indexing.units import PASSAGE, POST, UNIT_KINDS, UnitConfig, UnitTable, iter_units, kind_of
from indexing.vocabulary import write_vocabularies

BACKENDS = ("lucene", "bm25")
THREADS_DB = "threads.sqlite"
UNITS_DB = "units.sqlite"


class Hit(NamedTuple):
    """One search result; ``raw[offset:end]`` of the thread holds ``text`` (see indexing.units)."""

    thread: str
    post: str
    lang: str
    score: float
    offset: int
    end: int
    text: str
    unit: str  # 'post' | 'passage'
    quoted: bool

    def to_json(self) -> dict:
        """The ``bolt search --json`` object (SPEC §8), with ``end``, ``unit``, ``quoted`` added."""
        return self._asdict()


# ----------------------------------------------------------------------------------- building

def build_index(paths, out, backend: str = "lucene", force: bool = False, progress: bool = True,
                lang: str | None = None, skip_bad: bool = False, *,
                analysis: AnalysisConfig = AnalysisConfig(), units: UnitConfig = UnitConfig(),
                encoding_errors: str = STRICT) -> dict:
    """Read ``paths`` and build an index folder at ``out``; returns the manifest.

    Built beside the target (``<out>.tmp-<pid>``) and swapped in at the end, so an interrupted
    build leaves any previous index whole. Refuses to replace an existing index unless ``force``.
    ``encoding_errors`` (``indexing.encoding``) is how bytes that are not UTF-8 are read; it is
    recorded in the manifest's settings (the stored threads hold the repaired text), with the
    reader's warnings (repaired threads, identical repeats read once) under ``warnings``.
    """
    from indexing.reader import BadThreads, iter_threads

    paths = [str(p) for p in paths]
    inputs = describe_inputs(paths)
    bad = BadThreads()
    threads = iter_threads(paths, lang=lang, skip_bad=skip_bad, bad=bad, encoding_errors=encoding_errors)
    manifest = build_from_threads(threads, out, backend=backend, force=force, progress=progress,
                                  analysis=analysis, units=units,
                                  inputs=inputs, roots=[str(Path(p).resolve()) for p in paths],
                                  bad_report=bad.messages, read_log=bad)
    return manifest


def build_from_threads(threads: Iterable, out, *, backend: str = "lucene", force: bool = False,
                       progress: bool = False, analysis: AnalysisConfig = AnalysisConfig(),
                       units: UnitConfig = UnitConfig(), inputs: list[dict] | None = None,
                       roots: list[str] | None = None, bad_report=None, read_log=None) -> dict:
    """Build an index folder from ``Thread`` records (the reader's, or parsed in memory).

    ``read_log`` is the reader's ``BadThreads`` when the threads come from ``iter_threads``: its
    policy and counts go into the manifest once every thread is read."""
    if backend not in BACKENDS:
        raise ToolkitError(f"unknown backend {backend!r}", hint=f"choose one of {', '.join(BACKENDS)}")
    out = Path(out)
    _refuse_overwrite(out, force)
    tmp = out.parent / f"{out.name}.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    try:
        duplicates: list[str] = []
        counts = _fill(tmp, threads, backend, analysis, units, progress, duplicates)
        if not counts:
            raise ToolkitError("no threads were read, so there is nothing to index",
                               hint="give .xml, .xml.gz or .zip files (or folders) of LDC forum threads")
        settings = {**_settings(analysis, units),
                    MANIFEST_KEY: read_log.policy if read_log is not None else STRICT}
        manifest = make_manifest(backend=backend, roots=roots or [], inputs=inputs or [],
                                 settings=settings,
                                 counts=counts, bad=(bad_report() if bad_report else [])
                                 + [f"thread {t}: repeated thread id; only its first copy is indexed"
                                    for t in duplicates])
        if read_log is not None:
            manifest["read"] = read_log.counts()
            manifest["warnings"] = read_log.warnings()
        with ThreadStore(tmp / THREADS_DB) as store:  # the names' vocabulary, counted once here
            write_vocabularies(tmp, store)
        write_json_atomic(tmp / MANIFEST, manifest)
        swap_folder(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


def _settings(analysis: AnalysisConfig, units: UnitConfig) -> dict:
    """The manifest's settings: the analysis and unit reprs, and the Chinese script folding used."""
    from indexing.script_fold import describe

    out = {"analysis": repr(analysis), "units": repr(units)}
    if analysis.cmn_fold:
        out["script_fold"] = describe()
    return out


def _refuse_overwrite(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise ToolkitError(f"{out} exists and is not a folder", file=str(out), hint="choose another --out")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise ToolkitError(f"{out} already exists", file=str(out), hint="pass --force to replace it")


def _fill(folder: Path, threads: Iterable, backend: str, analysis: AnalysisConfig, config: UnitConfig,
          progress: bool, duplicates: list[str]) -> dict:
    from indexing.thread_store import ThreadStoreWriter

    counts: dict[str, dict] = {}
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(unit=" threads", desc="indexing", file=sys.stderr, dynamic_ncols=True)
    writer = _writer(folder, backend, analysis)
    try:
        with ThreadStoreWriter(folder / THREADS_DB) as store, UnitTable(folder / UNITS_DB, write=True) as table:
            for thread in threads:
                if bar is not None:
                    bar.update(1)
                if not store.add(thread):  # a repeated thread id keeps its first copy only
                    continue
                c = counts.setdefault(thread.lang, {"threads": 0, "posts": 0, "passages": 0, "post_units": 0,
                                                    "quoted_units": 0})
                c["threads"] += 1
                c["posts"] += len(thread.posts)
                units = list(iter_units(thread, config))
                if not units:
                    continue
                first = table.add_many(units)
                if writer is not None:
                    writer.add_many(first, units)
                passages = sum(u.unit == PASSAGE for u in units)
                c["passages"] += passages
                c["post_units"] += len(units) - passages
                c["quoted_units"] += sum(u.quoted for u in units)
            duplicates.extend(store.duplicates)
    finally:
        if writer is not None:
            writer.close()
        if bar is not None:
            bar.close()
    return dict(sorted(counts.items()))


def _writer(folder: Path, backend: str, analysis: AnalysisConfig):
    if backend == "lucene":
        from indexing.lucene_index import LuceneWriter

        return LuceneWriter(folder, analysis)
    return None  # rank-bm25 builds in memory when the index is opened


# ----------------------------------------------------------------------------------- searching

class Searcher:
    """An open index folder: ``search(query, k, lang, units, include_quotes) -> list[Hit]``."""

    def __init__(self, index_dir: str | os.PathLike) -> None:
        self.dir = Path(index_dir)
        self.manifest = read_manifest(self.dir)
        self.backend = self.manifest["backend"]
        self.analysis = _parse_config(self.manifest["settings"]["analysis"], AnalysisConfig)
        self.table = UnitTable(self.dir / UNITS_DB)
        if self.backend == "lucene":
            from indexing.lucene_index import LuceneIndexes

            self.indexes = LuceneIndexes(self.dir, self.analysis)
        elif self.backend == "bm25":
            from indexing.bm25_index import Bm25Languages

            self.indexes = Bm25Languages(self.table, self.analysis)
        else:
            raise ToolkitError(f"unknown backend {self.backend!r} in the manifest", file=str(self.dir / MANIFEST),
                               hint="rebuild the index with 'bolt index ... --force'")
        self.langs: tuple[str, ...] = tuple(sorted(self.manifest["counts"]))
        self._corpus = None

    @property
    def corpus(self):
        """An ``indexing.corpus.Corpus`` over the stored threads (whole posts for the pipeline)."""
        if self._corpus is None:
            from indexing.corpus import open_corpus

            self._corpus = open_corpus(index_dir=self.dir)
        return self._corpus

    def search(self, query: str, k: int = 10, lang: str | None = None, units: str = PASSAGE,
               include_quotes: bool = False) -> list[Hit]:
        """The top ``k`` units for ``query`` (all languages interleaved by rank when ``lang`` is None)."""
        if units not in UNIT_KINDS:
            raise ToolkitError(f"unknown unit kind {units!r}", hint=f"choose one of {', '.join(UNIT_KINDS)}")
        if k <= 0:
            return []
        if lang is not None and lang not in self.langs:
            raise ToolkitError(f"the index holds no {lang!r} threads",
                               hint=f"choose one of {', '.join(self.langs) or '(none)'}")
        langs = [lang] if lang else list(self.langs)
        ranked = [self._search_lang(query, k, lg, units, include_quotes) for lg in langs]
        if len(ranked) == 1:
            return ranked[0]
        merged: list[Hit] = []
        for rank in range(k):
            tier = [r[rank] for r in ranked if rank < len(r)]
            if not tier:
                break
            merged.extend(sorted(tier, key=_order))
        return merged[:k]

    def _search_lang(self, query: str, k: int, lang: str, units: str, include_quotes: bool) -> list[Hit]:
        kinds = (kind_of(units, False), kind_of(units, True)) if include_quotes else (kind_of(units, False),)
        pairs = self.indexes.search(lang, kinds, query, k)
        found = self.table.get_many(uid for uid, _ in pairs)
        hits = [Hit(u.thread, u.post, u.lang, score, u.offset, u.end, u.text, u.unit, u.quoted)
                for uid, score in pairs if (u := found.get(uid)) is not None]
        return sorted(hits, key=_order)[:k]

    def close(self) -> None:
        self.indexes.close()

    def __enter__(self) -> "Searcher":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _order(h: Hit) -> tuple:
    return (-round(h.score, 6), h.thread, h.offset)


def _parse_config(text: str, cls):
    """Rebuild a settings value object from its manifest repr (``ast``, never ``eval``)."""
    import ast

    try:
        call = ast.parse(text, mode="eval").body
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == cls.__name__):
            raise ValueError(text)
        return cls(**{kw.arg: ast.literal_eval(kw.value) for kw in call.keywords})
    except (SyntaxError, ValueError, TypeError) as exc:
        raise ToolkitError(f"unreadable settings {text!r} in the manifest",
                           hint="rebuild the index with this version of the toolkit") from exc


def open_index(index_dir: str | os.PathLike) -> Searcher:
    """Open an index folder built by :func:`build_index` (either backend)."""
    return Searcher(index_dir)


# ----------------------------------------------------------------------------------- doctor

_SMOKE = {
    "eng": ["The river flooded the old town after three days of rain.",
            "Prices at the market went up again this week.",
            "The football team won the cup final on Sunday."],
    "arz": ["الفيضان غرق البلد القديمة بعد تلات ايام مطر",
            "الاسعار في السوق غليت تاني الاسبوع ده",
            "الفريق كسب الكاس يوم الحد"],
    "cmn": ["大雨连续下了三天，河水淹没了老城。",
            "这个星期市场上的价格又涨了。",
            "足球队在星期天赢得了冠军。"],
}
_SMOKE_QUERY = {"eng": "flooded town", "arz": "الفيضان", "cmn": "老城"}


def smoke_test(tmpdir: str | os.PathLike) -> dict:
    """Build a three-thread Lucene index per language from in-memory XML and search each.

    Returns ``{"eng": hits, "arz": hits, "cmn": hits, "backend": "lucene"}``; raises
    ``RuntimeUnavailable`` (or ``ToolkitError``) with a plain-words diagnosis when a step fails.
    """
    from xml.sax.saxutils import escape

    from indexing.reader import parse_thread_text

    threads = []
    for lang, texts in _SMOKE.items():
        for i, text in enumerate(texts, 1):
            tid = f"bolt-{lang}-DF-1-1-{i}"
            raw = (f'<doc id="{tid}">\n<headline>\nsmoke {i}\n</headline>\n'
                   f'<post author="a" datetime="2012-01-01T00:00:00" id="p1">\n{escape(text)}\n</post>\n</doc>\n')
            threads.append(parse_thread_text(raw, path=f"<smoke:{tid}>"))
    out = Path(tmpdir) / "smoke-index"
    try:
        build_from_threads(threads, out, backend="lucene", force=True)
    except ToolkitError:
        raise
    except Exception as exc:
        raise RuntimeUnavailable(f"building a tiny Lucene index failed: {exc}",
                                 hint="check that Java 21 and pyserini 1.6.0 are installed") from exc
    result: dict = {"backend": "lucene"}
    with open_index(out) as s:
        for lang, query in _SMOKE_QUERY.items():
            try:
                hits = s.search(query, k=3, lang=lang)
            except Exception as exc:
                raise RuntimeUnavailable(f"searching the tiny {lang} Lucene index failed: {exc}",
                                         hint="run 'bolt doctor' again; rebuild pyserini if it persists") from exc
            if not hits or hits[0].thread != f"bolt-{lang}-DF-1-1-1":
                raise RuntimeUnavailable(f"the tiny {lang} index did not find its document for {query!r}",
                                         hint="the Lucene analyzers are not working; reinstall pyserini==1.6.0")
            result[lang] = len(hits)
    return result
