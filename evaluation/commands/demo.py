"""``bolt demo``: the whole loop on the bundled sample, ending in a leaderboard and an HTML report.

Steps, each timed: index the sample collection; run the ``main`` system and the two reference
systems (``lead``, ``bm25-sentences``) on the sample topics (query-only form); validate the three
runs against the topics and the collection; assess them automatically; score them (SPEC §6); compare
them (rankings and Kendall's tau between metrics); write ``report.html``. Everything goes into the
work folder, which ``demo.json`` marks as the demo's own (so a second run may overwrite it).

All steps call the toolkit's Python API in this process, so the JVM and the embedding model start
once. A failing step raises one ``ToolkitError`` naming the step and what to do.
"""
from __future__ import annotations

from indexing.atomic import atomic_write_text

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from bolt.commands.output_options import add_output_options, show_progress
from indexing.exit_codes import SUCCESS
from evaluation.metrics import METRIC_ORDER

SYSTEMS = ("main", "lead", "bm25-sentences")
MARKER = "demo.json"
LEADERBOARD = METRIC_ORDER


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workdir", default="bolt-demo", metavar="DIR",
                        help="folder for everything the demo makes (index, runs, judgments, scores, report)")
    parser.add_argument("--backend", choices=("lucene", "bm25"), default="lucene",
                        help="index backend: Lucene via pyserini (Java) or pure-Python rank-bm25")
    parser.add_argument("--force", action="store_true",
                        help="use DIR even if it holds other files, and rebuild the index instead of reusing it")
    parser.add_argument("--metric", default="F_GD", help="metric the leaderboard and the comparison rank by")
    parser.add_argument("--no-semantic", action="store_true",
                        help="assess with anchoring and lexical matching only (no embedding model)")
    add_output_options(parser)  # --quiet: only the leaderboard and the paths (standard output)
    parser.add_argument("--debug", action="store_true", help="show the traceback of an unexpected failure")


# ----------------------------------------------------------------------------- the steps


class Demo:
    """The state the steps share (paths, open index, records), so each step is a small method."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.workdir = Path(args.workdir).expanduser().resolve()
        self.index_dir = self.workdir / "index"
        self.runs_dir = self.workdir / "runs"
        self.paths = {
            "index": self.index_dir,
            "runs": self.runs_dir,
            "judgments": self.workdir / "judgments.jsonl",
            "scores": self.workdir / "scores.json",
            "scores_csv": self.workdir / "scores.csv",
            "compare": self.workdir / "compare.json",
            "report": self.workdir / "report.html",
        }
        self.timings: dict[str, float] = {}
        self.notes: dict[str, str] = {}
        self.searcher = None
        self.corpus = None
        self.run_paths: list[Path] = []
        self.runs: list = []
        self.judgments: list = []
        self.scores = None  # the ScoreReport
        self.compare: dict = {}

    # -- inputs
    def inputs(self) -> tuple[Path, Path, Path, Path | None]:
        """The bundled collection and topic files (full, query-only, votes)."""
        from indexing.errors import ToolkitError

        try:
            from bolt.data import sample_corpus_path, topic_path
        except ImportError as exc:
            raise ToolkitError(f"the bundled sample collection is missing ({exc})",
                               hint="reinstall the toolkit with 'pip install -e .'") from None
        corpus = Path(sample_corpus_path())
        full, queries = topic_path("sample.xml"), topic_path("sample.queries.xml")
        votes = topic_path("sample.votes.tsv")
        for p in (corpus, full, queries):
            if not p.exists():
                raise ToolkitError("a bundled sample file is missing", file=str(p),
                                   hint="reinstall the toolkit with 'pip install -e .'")
        return corpus, full, queries, (votes if votes.exists() else None)

    def prepare_workdir(self) -> None:
        from indexing.errors import ToolkitError

        w = self.workdir
        if w.exists() and not w.is_dir():
            raise ToolkitError(f"{w} exists and is not a folder", file=str(w), hint="choose another --workdir")
        if w.is_dir() and any(w.iterdir()) and not (w / MARKER).exists() and not self.args.force:
            raise ToolkitError(f"{w} holds files the demo did not make", file=str(w),
                               hint="choose an empty or new --workdir, or pass --force to write into it")
        try:
            self.runs_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ToolkitError(f"cannot create the work folder ({exc.strerror or exc})", file=str(w),
                               hint="choose a writable --workdir") from None

    def step_index(self, corpus_path: Path) -> str:
        from indexing.manifest import check_manifest, read_manifest
        from indexing.search import build_index, open_index

        reuse = False
        if self.index_dir.is_dir() and not self.args.force:
            try:
                m = read_manifest(self.index_dir)
                reuse = m.get("backend") == self.args.backend and not check_manifest(self.index_dir)
            except Exception:  # an unreadable or foreign folder: rebuild it
                reuse = False
        if not reuse:
            build_index([corpus_path], self.index_dir, backend=self.args.backend, force=True, progress=False)
        self.searcher = open_index(self.index_dir)
        self.corpus = self.searcher.corpus
        counts = self.searcher.manifest.get("counts", {})
        what = ", ".join(f"{lang} {_count(v)}" for lang, v in sorted(counts.items()))
        return f"{'reused' if reuse else 'built'} {self.args.backend} index ({what})"

    def step_run(self, queries_path: Path) -> str:
        from bolt.pipeline.config import parse_config
        from bolt.pipeline.run import make_distiller, run_topics
        from bolt.provenance import system_signature
        from bolt.formats.submission import write_run
        from bolt.formats.topics import read_topics

        queries = read_topics(queries_path)
        self.run_paths = []
        parts = []
        for name in SYSTEMS:
            cfg = parse_config(name)
            distiller = make_distiller(str(self.index_dir), cfg, searcher=self.searcher)
            t0 = time.perf_counter()
            results = run_topics(queries, distiller, progress=False)
            path = self.runs_dir / f"{name}.xml"
            settings = f"{cfg!r} index={self.index_dir.name} topics={len(queries)} (bolt demo)"
            write_run(name, results, path, system=cfg.name, settings=settings, signature=system_signature(cfg))
            self.run_paths.append(path)
            n = sum(len(r.bullets) for r in results)
            parts.append(f"{name} {n} bullets in {time.perf_counter() - t0:.1f} s")
        return f"{len(queries)} topics; " + ", ".join(parts)

    def step_validate(self, topics_path: Path) -> str:
        from bolt.formats.validate import validate_runs
        from indexing.errors import ToolkitError

        report = validate_runs(self.run_paths, topics_path, corpus=self.corpus)
        if not report.valid:
            first = report.errors[0]
            raise ToolkitError(f"{len(report.errors)} validation error(s); first: {first.message} [{first.rule}]",
                               file=first.file, line=first.line,
                               hint="a system wrote an invalid run; run 'bolt validate' on it for every finding")
        skipped = f", skipped {', '.join(report.skipped_checks)}" if report.skipped_checks else ""
        return f"{len(self.run_paths)} runs valid, {len(report.warnings)} warning(s){skipped}"

    def step_assess(self, topics_path: Path) -> str:
        from bolt.formats.submission import read_run
        from bolt.formats.topics import read_topics
        from evaluation.assessor import Assessor, AssessorConfig
        from evaluation.judgments import write_judgments

        self.topics = read_topics(topics_path)
        self.runs = [read_run(p) for p in self.run_paths]
        config = AssessorConfig(semantic=not self.args.no_semantic)
        assessor = Assessor(self.topics, self.corpus, config)
        self.judgments = list(assessor.assess(self.runs))
        write_judgments(self.judgments, self.paths["judgments"], assessor.header())
        matched = sum(1 for j in self.judgments if j.facets)
        return f"{len(self.judgments)} bullets judged, {matched} match a facet ({config.name})"

    def step_score(self, topics_path: Path, votes: Path | None) -> str:
        from evaluation.api import score

        rep = score(self.run_paths, topics_path, [self.paths["judgments"]], votes=votes, index=str(self.index_dir))
        self.scores = rep
        rep.write_json(self.paths["scores"])
        rep.write_csv(self.paths["scores_csv"])
        return f"{len(rep.metrics)} metrics over {len(rep.means)} runs"

    def step_compare(self) -> str:
        from evaluation.compare import compare_reports
        from evaluation.results import ScoreReport

        self.compare = compare_reports([ScoreReport.read(self.paths["scores"])], metric=self.args.metric,
                                       resamples=2000, trials=20)
        _write_text(self.paths["compare"], json.dumps(self.compare, indent=2, ensure_ascii=False) + "\n")
        ranking = self.compare.get("rankings", {}).get(self.args.metric, [])
        return f"by {self.args.metric}: " + " > ".join(ranking)

    def step_report(self) -> str:
        from evaluation.report import write_report

        files = {k: _rel(v, self.workdir) for k, v in self.paths.items() if k != "report"}
        files.update({f"run {p.stem}": _rel(p, self.workdir) for p in self.run_paths})
        write_report(self.paths["report"], topics=self.topics, runs=self.runs, judgments=self.judgments,
                     scores=self.scores, compare=self.compare, corpus=self.corpus,
                     title="bolt demo: the bundled sample",
                     subtitle=f"{len(self.runs)} runs × {len(self.topics)} topics, "
                              f"{len(self.judgments)} judged bullets, {self.args.backend} index",
                     files=files)
        return f"{self.paths['report'].stat().st_size // 1024} KiB"

    def write_marker(self, total: float) -> None:
        doc = {"command": "bolt demo", "backend": self.args.backend, "seconds": round(total, 2),
               "steps": {k: round(v, 2) for k, v in self.timings.items()}, "notes": self.notes,
               "files": {k: _rel(v, self.workdir) for k, v in self.paths.items()}}
        _write_text(self.workdir / MARKER, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


# ----------------------------------------------------------------------------- running


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    # the model loader's own progress bars would interleave with the step lines (the user may re-enable them)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    err = Console(stderr=True, quiet=args.quiet, highlight=False, soft_wrap=True)
    out = Console(highlight=False)
    if not out.is_terminal:  # piped or captured: wide enough that the leaderboard is never cut
        out = Console(highlight=False, width=max(out.width, 132))
    demo = Demo(args)
    t_start = time.perf_counter()
    corpus_path, full, queries, votes = _step(demo, err, "inputs", demo.inputs, quiet=True)
    demo.prepare_workdir()
    err.print(f"bolt demo: writing into [bold]{demo.workdir}[/bold]")
    plan: list[tuple[str, Callable[[], str]]] = [
        ("index", lambda: demo.step_index(corpus_path)),
        ("run", lambda: demo.step_run(queries)),
        ("validate", lambda: demo.step_validate(full)),
        ("assess", lambda: demo.step_assess(full)),
        ("score", lambda: demo.step_score(full, votes)),
        ("compare", demo.step_compare),
        ("report", demo.step_report),
    ]
    try:
        for i, (name, fn) in enumerate(plan, 1):
            _step(demo, err, name, fn, label=f"[{i}/{len(plan)}] {name}")
    finally:
        if demo.searcher is not None:
            try:
                demo.searcher.close()
            except Exception:  # closing must not hide the step's own error
                pass
    total = time.perf_counter() - t_start
    demo.write_marker(total)
    _leaderboard(out, demo.scores, args.metric)
    out.print(f"\nEverything is in {demo.workdir} ({total:.1f} s):")
    for key in ("report", "scores", "scores_csv", "compare", "judgments", "runs", "index"):
        out.print(f"  {key:<10} {demo.paths[key]}")
    out.print(f"\nOpen the report: file://{demo.paths['report']}")
    return SUCCESS


def _step(demo: Demo, console, name: str, fn: Callable[[], Any], label: str | None = None, quiet: bool = False):
    """Run one step under a status line; its failure becomes one ToolkitError naming the step."""
    from indexing.errors import ToolkitError

    t0 = time.perf_counter()
    try:
        if quiet or not show_progress(demo.args):
            result = fn()
        else:
            with console.status(f"{label or name} …"):
                result = fn()
    except ToolkitError as exc:
        hint = exc.hint or _HINTS.get(name)
        raise ToolkitError(f"demo step '{name}' failed: {exc.message}", file=exc.file, line=exc.line,
                           hint=hint, thread=exc.thread) from exc
    except Exception as exc:
        if demo.args.debug:
            raise
        raise ToolkitError(f"demo step '{name}' failed: {type(exc).__name__}: {exc}",
                           hint=_HINTS.get(name, "") + "; rerun with --debug for the traceback") from exc
    seconds = time.perf_counter() - t0
    if not quiet:
        demo.timings[name] = seconds
        demo.notes[name] = str(result)
        console.print(f"[green]✓[/green] {label or name:<16} {seconds:6.1f} s  {result}")
    return result


_HINTS = {
    "inputs": "reinstall the toolkit with 'pip install -e .'",
    "index": "run 'bolt doctor' to check Java and Lucene, or try --backend bm25",
    "run": "run 'bolt doctor' to check the embedding model and the index",
    "validate": "run 'bolt validate' on the run for every finding",
    "assess": "run 'bolt doctor' to check the embedding model, or try --no-semantic",
    "score": "check the judgments file; 'bolt score' on it shows the problem",
    "compare": "check scores.json; 'bolt compare' on it shows the problem",
    "report": "check that the work folder is writable",
}


def _leaderboard(console, scores, metric: str) -> None:
    from rich.table import Table

    from evaluation.compare import rank_runs
    from evaluation.results import as_report

    rep = as_report(scores)
    metrics = [m for m in LEADERBOARD if m in rep.metrics]
    key = metric if metric in rep.metrics else (metrics[0] if metrics else None)
    order = rank_runs({r: rep.means[r].get(key) or 0.0 for r in rep.runs}) if key else rep.runs
    table = Table(title=f"Leaderboard (mean over topics, ranked by {key})")
    table.add_column("run", no_wrap=True)
    for m in metrics:
        table.add_column(m, justify="right", no_wrap=True)
    for r in order:
        mean = rep.means[r]
        table.add_row(r, *(f"{mean[m]:.3f}" if isinstance(mean.get(m), (int, float)) else "–" for m in metrics))
    console.print(table)
    if rep.signature:
        console.print(rep.signature, soft_wrap=True)


def _count(v: Any) -> str:
    if isinstance(v, dict):
        return str(v.get("threads", sum(x for x in v.values() if isinstance(x, int))))
    return str(v)


def _rel(p: Path, base: Path) -> str:
    try:
        return str(Path(p).relative_to(base))
    except ValueError:
        return str(p)


def _write_text(path: Path, text: str) -> None:
    """Atomic write: temp file beside the target, then ``os.replace``."""
    atomic_write_text(path, text)


