"""Vectors in the index: build cost per encoder, and main's latency and memory when it reads them.

``python scripts/bench.py vectors [--corpus PATH...] [--topics FILE...] [--workdir DIR] [--workers N]
[--ann-min-rows N]``

*build*: ``bolt index`` of ``--corpus`` (default: every file of ``../shared/real-samples``, bad
threads skipped, bytes that are not UTF-8 replaced) with main's vectors, in a fresh process:
wall time, CPU seconds, peak memory, the folder's size, and per encoder the texts encoded and its
throughput (texts/s on this machine). ``--workers N`` encodes on N local Ray workers. A folder
made by ``scripts/gen_corpus.py`` is read as its ``corpus/`` and its ``topics.xml`` gives the queries.

*run*: main over the topics (default: the eBay, tac2013 and cross-language dev sets' queries, each
asked of the one index) in one fresh process, one distiller for all as ``bolt run`` has: the first
topic's time (the models' loading included; since the process started apart), p50 and p95 of the
others, peak memory (after the first topic and at the end), the seconds per stage, the texts
encoded beyond the index's vectors, and the run's ``xl-stages`` signature field. Targets: first topic <= 3 s, p50 <= 1 s, peak <= 1.5 GB.
Other engineers share the machine: the load average before and after is recorded.

*stand-in* (``--stand-in``, for a ``scripts/gen_corpus.py`` folder at BOLT size): encoding a BOLT-size
collection takes hours on this machine (the *build* figures give the rate), so the index is built
with ``--no-vectors`` and its tables are filled with main's real units (every headline, thread and
sentence, cut as main cuts them) but random unit vectors of each encoder's size, with the
approximate index built as for real vectors. A run then does all its real work (every
cross-language stage, the approximate search, the exact rescoring) on a table of the real shape:
its latency and memory are BOLT-size figures; its bullets mean nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REAL = REPO.parent / "shared" / "real-samples"
DEV_TOPICS = [REPO / "topics" / f"{n}-dev.xml" for n in ("ebay", "tac2013", "xl")]
TARGETS = {"first_topic_s": 3.0, "p50_s": 1.0, "peak_gb": 1.5}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus", nargs="+", help="files or folders to index (default: ../shared/real-samples)")
    p.add_argument("--topics", nargs="+", help="topic files whose queries are run (default: the dev sets)")
    p.add_argument("--max-topics", type=int, default=40, help="run at most this many topics")
    p.add_argument("--workdir", help="keep the index here (an index already there is reused)")
    p.add_argument("--workers", type=int, default=1, help="encode on this many local Ray workers")
    p.add_argument("--ann-min-rows", type=int, help="passed to bolt index (0: approximate search everywhere)")
    p.add_argument("--stand-in", action="store_true",
                   help="index without encoding, fill the tables with random vectors (latency at BOLT size)")
    p.add_argument("--child", help=argparse.SUPPRESS)  # INDEX:TOPICS.json, in the timed process


def _timed(cmd: list[str]) -> dict:
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    return {"wall_s": round(time.perf_counter() - t0, 2),
            "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
            "peak_gb": round(after.ru_maxrss / 2**20, 2), "stdout": proc.stdout}


def _size_mb(path: Path) -> float:
    return round(sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20, 1)


def build(args, index: Path) -> dict:
    corpus = [Path(c) for c in (args.corpus or [REAL])]
    corpus = [c / "corpus" if (c / "corpus").is_dir() else c for c in corpus]
    cmd = [sys.executable, "-m", "bolt.cli", "index", *map(str, corpus), "--out", str(index), "--force",
           "--skip-bad", "--encoding-errors", "replace", "--no-progress", "--json", "--workers", str(args.workers)]
    if args.ann_min_rows is not None:
        cmd += ["--ann-min-rows", str(args.ann_min_rows)]
    res = _timed(cmd)
    manifest = json.loads(res.pop("stdout"))
    enc = {k: {f: m.get(f) for f in ("distinct", "rows", "encoded", "encode_seconds", "texts_per_second", "ann")}
           for k, m in manifest.get("vectors", {}).items()}
    return {**res, "size_mb": _size_mb(index), "vectors_mb": _size_mb(index / "vectors"),
            "threads": {lg: c["threads"] for lg, c in manifest["counts"].items()}, "encoders": enc}


def stand_in(args, index: Path) -> dict:
    """Index ``--corpus`` without vectors, then write tables of random vectors for main's real units."""
    import numpy as np

    from bolt.pipeline import SystemConfig
    from bolt.provenance import encoder_identity
    from bolt.vectors.build import plan_index, store_table
    from indexing.models.multilingual import DIMENSIONS
    from indexing.vectors.ann import EXACT_MAX_ROWS

    corpus = [Path(c) for c in args.corpus]
    corpus = [c / "corpus" if (c / "corpus").is_dir() else c for c in corpus]
    res = _timed([sys.executable, "-m", "bolt.cli", "index", *map(str, corpus), "--out", str(index), "--force",
                  "--no-vectors", "--no-progress", "--json"])
    res.pop("stdout")
    t0 = time.perf_counter()
    cfg = SystemConfig()
    need, plans = plan_index(index, cfg, progress=True)
    rng = np.random.default_rng(0)
    tables = {}
    for spec, plan in plans.items():
        dim = DIMENSIONS.get(spec.name, 384)  # the English model's 384 otherwise
        vecs = rng.standard_normal((len(plan.texts), dim), dtype=np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        m = store_table(index, cfg, spec, plan, vecs, {
            "encoder": spec.name, "family": spec.family, "identity": encoder_identity(spec), "stand_in": True},
            need[spec], args.ann_min_rows if args.ann_min_rows is not None else EXACT_MAX_ROWS, progress=True)
        tables[spec.key] = {"rows": m["rows"], "distinct": m["distinct"], "ann": m["ann"]}
    return {"index_no_vectors": res, "tables_s": round(time.perf_counter() - t0, 1), "tables": tables,
            "size_mb": _size_mb(index), "vectors_mb": _size_mb(index / "vectors")}


def child(spec: str) -> None:
    """In a fresh process: open the index as ``bolt run`` does (one distiller for every topic), run
    main on each topic, one at a time, and print the times and the peak memory after each."""
    t0 = time.perf_counter()
    from bolt import api
    from bolt.formats.topics import read_topics
    from bolt.pipeline.run import make_distiller
    from bolt.vectors.needs import vector_fields

    index, topics_file = spec.split(":", 1)
    topics = read_topics(topics_file)
    cfg = api.config("main")
    distiller = make_distiller(index, cfg)
    times, peaks = [], []
    first_since_start = 0.0
    for i, topic in enumerate(topics):
        t = time.perf_counter()
        distiller.distill(topic.query)
        times.append(time.perf_counter() - t)
        peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20)
        if i == 0:
            first_since_start = time.perf_counter() - t0
    stages = dict(vector_fields(index, cfg)).get("xl-stages")
    print(json.dumps({"times": times, "first_since_start": first_since_start, "peak_gb": peaks[-1],
                      "peak_after_first_gb": peaks[0], "encoded_here": distiller.encoded_here,
                      "timings": distiller.timings, "xl_stages": stages}))


def run_topics(args, index: Path, work: Path) -> dict:
    from bolt.formats.topics import read_topics, write_topics

    gen_topics = [Path(c) / "topics.xml" for c in (args.corpus or []) if (Path(c) / "topics.xml").is_file()]
    files = [Path(t) for t in args.topics] if args.topics else (gen_topics or DEV_TOPICS)
    topics = [t for f in files if f.is_file() for t in read_topics(f)]
    step = max(1, len(topics) // args.max_topics)
    chosen = topics[::step][: args.max_topics]
    path = work / "bench-topics.xml"
    write_topics(chosen, path)
    res = _timed([sys.executable, str(Path(__file__)), "--child", f"{index}:{path}"])
    out = json.loads(res["stdout"].strip().splitlines()[-1])
    times = out["times"]
    later = times[1:] or times
    return {"topics": len(times), "first_topic_s": round(times[0], 2),
            "first_topic_since_start_s": round(out["first_since_start"], 2),
            "p50_s": round(statistics.median(later), 3),
            "p95_s": round(sorted(later)[int(0.95 * (len(later) - 1))], 3),
            "peak_gb": round(out["peak_gb"], 2), "peak_after_first_topic_gb": round(out["peak_after_first_gb"], 2),
            "process_wall_s": res["wall_s"], "cpu_s": res["cpu_s"], "encoded_at_run": out["encoded_here"],
            "stage_s": {k: round(v, 1) for k, v in out["timings"].items()}, "xl_stages": out["xl_stages"]}


def run(args) -> dict:
    import tempfile

    work = Path(args.workdir or tempfile.mkdtemp(prefix="bolt-bench-vectors-"))
    work.mkdir(parents=True, exist_ok=True)
    index = work / "index"
    load = os.getloadavg()[0]
    result: dict = {"load_before": round(load, 2)}
    if not (index / "vectors").is_dir():
        result["build"] = stand_in(args, index) if args.stand_in else build(args, index)
    result["run"] = run_topics(args, index, work)
    result["load_after"] = round(os.getloadavg()[0], 2)
    result["failed_targets"] = [k for k, limit in TARGETS.items() if result["run"].get(k, 0) > limit]
    return result


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    a = parser.parse_args()
    if a.child:
        child(a.child)
