#!/usr/bin/env python3
"""Several selections of main on a dev set from one pass of the stages before them.

    python scripts/selection_variants.py --dev-set ebay --workdir DIR base=main "C=main(max_per_post=1)" ...

The first spec is traced through every stage once per topic (``MainSystem.trace``); each spec that
differs from it only in settings of the selection and output sections re-runs only the clustering,
selection and bullets stages on those records; a spec that differs elsewhere (a sentence setting, say) is
traced through every stage on its own. Writes ``DIR/NAME.xml`` per spec, carries the careful
judgments over to them (``DIR/judgments.jsonl``; the bullets nobody judged go to
``DIR/todo-NAME.jsonl``, counted on stdout), and scores all runs together with ``bolt score``
(``DIR/scores.json``; one pool of supporting posts for every run). ``scripts/thread_reach.py``
reads the runs and scores for the per-group table. The index is built in DIR as the bench's dev
part builds it.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SECTIONS = ("selection", "output")  # the settings only the clustering, selection and bullets stages read


def _module(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check_specs(specs: dict[str, str]) -> list:
    """The specs' configs; ValueError naming a spec that is not main's."""
    from bolt.pipeline import parse_config

    configs = [parse_config(s) for s in specs.values()]
    for name, cfg in zip(specs, configs):
        if cfg.name != "main":
            raise ValueError(f"{name}: only main has a selection stage, got {cfg.name}")
    return configs


def same_records(cfg, base) -> bool:
    """Whether ``cfg`` differs from ``base`` only in settings of ``SECTIONS`` (so ``base``'s records
    before the selection are its own)."""
    for f in fields(cfg):
        setting = f.metadata.get("setting")
        if setting and setting.section not in SECTIONS and getattr(cfg, f.name) != getattr(base, f.name):
            return False
    return True


def reselect(d, tr) -> list:
    """The bullets of ``d``'s settings from a trace's records up to the scores: the clustering,
    selection and bullets stages re-run (the clustering reads selection settings too)."""
    from bolt.pipeline.main.bullets import bullets
    from bolt.pipeline.main.selection import clustering, select

    if tr.selection is None:
        return list(tr.bullets)
    cl = clustering(d, tr.sentences, tr.similarity, tr.scores)
    return list(bullets(d, select(d, tr.candidates, tr.threads, tr.sentences, tr.scores, cl)))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("specs", nargs="+", metavar="NAME=SPEC")
    p.add_argument("--dev-set", default="ebay", choices=["ebay", "tac2013", "xl"])
    p.add_argument("--workdir", type=Path, required=True)
    a = p.parse_args()
    specs = dict(s.split("=", 1) for s in a.specs)
    try:
        configs = check_specs(specs)
    except ValueError as exc:
        p.error(str(exc))
    bench = _module("bench_run", REPO / "scripts" / "benchmarks" / "run.py")
    carry = _module("carry_judgments", REPO / "scripts" / "carry_judgments.py")
    from bolt.formats.submission import write_run
    from bolt.formats.topics import read_topics
    from bolt.pipeline import Distiller
    from bolt.pipeline.main.system import MainSystem
    from bolt.pipeline.run import to_result
    from indexing.search import open_index

    ds = bench.DEV_SETS[a.dev_set]
    a.workdir.mkdir(parents=True, exist_ok=True)
    searcher = open_index(bench._index(list(ds.corpora), a.workdir / f"{a.dev_set}-index", "lucene", ds.encoding_errors))
    topics = read_topics(ds.topics)
    system = MainSystem(Distiller(searcher, searcher.corpus, configs[0]))
    traces = {t.topic_id: system.trace(t.query) for t in topics}
    runs = []
    for name, cfg in zip(specs, configs):
        d = Distiller(searcher, searcher.corpus, cfg)
        own = traces if same_records(cfg, configs[0]) else None
        tracer = MainSystem(d)
        results = []
        for t in topics:
            tr = own[t.topic_id] if own is not None else tracer.trace(t.query)
            results.append(to_result(t.topic_id, reselect(d, tr)))
        out = a.workdir / f"{name}.xml"
        write_run(name, results, out, system=cfg.name, settings=repr(cfg))
        runs.append(out)
    judgments = a.workdir / "judgments.jsonl"
    judgments.write_text("".join(p.read_text(encoding="utf-8") for p in ds.judgments if p.is_file()), encoding="utf-8")
    corpora = [str(c) for c in ds.corpora]
    for name, run in zip(specs, runs):
        todo = a.workdir / f"todo-{name}.jsonl"
        with contextlib.redirect_stderr(io.StringIO()):
            carry.carry([run], judgments, corpora, todo, "careful:carried", encoding_errors=ds.encoding_errors)
        print(f"{name}: {sum(1 for line in todo.read_text(encoding='utf-8').splitlines() if line.strip())} unjudged")
    enc = ["--encoding-errors", ds.encoding_errors] if ds.encoding_errors else []
    s = subprocess.run([sys.executable, "-m", "bolt.cli", "score", *map(str, runs), "--topics", str(ds.topics),
                        "--judgments", str(judgments), "--corpus", *corpora, *enc, "--json"],
                       capture_output=True, text=True, cwd=REPO)
    if s.returncode != 0:
        print(s.stderr.strip()[-2000:], file=sys.stderr)
        return 1
    (a.workdir / "scores.json").write_text(s.stdout, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
