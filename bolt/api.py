"""The system from Python: one call per job, returning the records the file readers return.

For notebooks and scripts; ``bolt run`` and ``bolt validate`` are thin layers over these calls,
so both ways give the same runs, headers and findings::

    from bolt import api
    run = api.run("sample.index", "topics/sample.queries.xml", system="main")
    run.header.signature["embed"]          # what wrote it
    api.write_run(run, "sample-main.xml")  # the file 'bolt run' writes
    report = api.validate(["sample-main.xml"], "topics/sample.queries.xml", index="sample.index")

Bad input raises :class:`indexing.errors.ToolkitError` (a bad system spec, a missing index) or
:class:`indexing.problems.ProblemsError` (a bad topic file); :func:`validate` never raises on a
bad run: its findings are in the report.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from bolt.formats.signature import Signature
from bolt.formats.submission import Run, RunHeader

if TYPE_CHECKING:  # pragma: no cover - annotations only
    from bolt.formats.topics import Topic
    from bolt.formats.validate import Report
    from bolt.pipeline.config import SystemConfig

PathLike = str | os.PathLike


def config(system: "str | SystemConfig" = "main", *, model: str | None = None, translate: bool = True,
           translator: str | None = None) -> "SystemConfig":
    """The system's settings: a spec (``"main"``, ``"main(abs_floor=0.3)"``) with the options
    ``bolt run`` offers beside ``--system`` applied; ToolkitError naming the spec when it is bad."""
    from bolt.pipeline.config import SystemConfig, parse_config
    from indexing.errors import ToolkitError

    try:
        cfg = system if isinstance(system, SystemConfig) else parse_config(system)
        changes: dict = {}
        if model:
            changes["model"] = model
        if not translate:
            changes["translate"] = False
        if translator:
            changes["translator"] = translator
        return replace(cfg, **changes) if changes else cfg
    except (ValueError, TypeError) as exc:
        raise ToolkitError(f"bad --system {str(system)!r}: {exc}",
                           hint="use main, lead or bm25-sentences, optionally with (key=value, ...)") from exc


def signature(system: "str | SystemConfig" = "main", **options) -> Signature:
    """What a run of ``system`` would record as its writer (``bolt run --print-config``); nothing
    is loaded or run. ``options`` are :func:`config`'s."""
    from bolt.provenance import system_signature

    return system_signature(config(system, **options))


def run_settings(cfg: "SystemConfig", index: PathLike, n_topics: int, policy: str) -> str:
    """The run header's ``settings`` line: the system, the index folder's name, the number of
    topics, the reading policy when not strict and, for main, the embedding model's id."""
    from indexing.encoding import STRICT

    text = f"{cfg!r} index={Path(index).resolve().name} topics={n_topics}"
    if policy != STRICT:
        text += f" encoding_errors={policy}"
    if cfg.name == "main":
        from indexing.models.embedding import model_id

        text += f" model={model_id(cfg.model)}"
    return text


def run(index: PathLike, topics: "PathLike | Sequence[Topic]", system: "str | SystemConfig" = "main", *,
        run_id: str | None = None, encoding_errors: str | None = None, progress: bool = False,
        on_note: Callable[[str], None] | None = None, **options) -> Run:
    """Run ``system`` over the topics (a topic file, or ``Topic`` records) with the index folder
    ``index``; the :class:`Run` that :func:`bolt.formats.submission.read_run` would read back from
    :func:`write_run`'s file, with its header (``run.header.signature``) and ``path`` empty.

    ``run_id`` defaults to the system's name; ``encoding_errors`` to the index's recorded policy
    (``on_note`` hears a note when that is not strict); ``options`` are :func:`config`'s.
    """
    from bolt.formats.topics import read_topics
    from bolt.pipeline.run import make_distiller, run_topics
    from bolt.provenance import system_signature, with_fields
    from bolt.vectors.needs import vector_fields
    from indexing.encoding import resolve_policy
    from indexing.errors import ToolkitError
    from indexing.manifest import recorded_policy

    cfg = config(system, **options)
    if not Path(index).is_dir():
        raise ToolkitError(f"index folder {index} does not exist", file=str(index),
                           hint="build one with 'bolt index PATH... --out DIR'")
    policy, note = resolve_policy(encoding_errors, [(recorded_policy(index), str(index))])
    if note and on_note:
        on_note(note)
    topic_list = read_topics(topics) if isinstance(topics, (str, os.PathLike)) else list(topics)
    distiller = make_distiller(str(index), cfg)
    results = run_topics(topic_list, distiller, progress=progress)
    if distiller.encoded_here and on_note:
        on_note(f"encoded {distiller.encoded_here} texts the index's vectors lack (its sentences are cut as this "
                "system cuts them, so this should be none; rebuild them with 'bolt index --add-vectors')")
    header = RunHeader(cfg.name, run_settings(cfg, index, len(topic_list), policy),
                       with_fields(system_signature(cfg), vector_fields(index, cfg)))
    return Run(run_id or cfg.name, "", {r.topic_id: r for r in results}, header)


def write_run(run: Run, path: PathLike, *, run_id: str | None = None) -> Path:
    """Write ``run`` (from :func:`run`, or read from a file) to ``path`` with its header, atomically;
    ProblemsError when it would not validate. ``run_id`` overrides the run's own. The path written."""
    from bolt.formats.submission import write_run as write

    h = run.header
    write(run_id or run.run_id, list(run.results.values()), path, system=h.system, settings=h.settings,
          signature=h.signature)
    return Path(path)


def validate(runs: PathLike | Iterable[PathLike], topics: PathLike | None, *,
             corpus: "PathLike | Sequence[PathLike] | object | None" = None, index: PathLike | None = None,
             encoding_errors: str | None = None) -> "Report":
    """Check run files against the topic file and, given ``corpus`` (thread files or folders, or an
    opened corpus) or ``index``, against the threads; the report holds every finding and each
    run's header (``report.headers[file].signature``). Never raises on a bad run."""
    from bolt.formats.validate import validate_runs

    paths = [runs] if isinstance(runs, (str, os.PathLike)) else list(runs)
    opened = corpus is not None and hasattr(corpus, "get")
    if not opened and (corpus is not None or index is not None):
        from indexing.corpus import open_corpus

        given = [corpus] if isinstance(corpus, (str, os.PathLike)) else corpus
        corpus = open_corpus(paths=[str(p) for p in given] if given else None,
                             index_dir=str(index) if index is not None else None, encoding_errors=encoding_errors)
    return validate_runs(paths, topics, corpus)
