"""Wall time of ``bolt convert import trec-rag`` and ``bolt convert score autonuggetizer`` at track scale.

Target: a TREC-RAG-sized set, 50 runs x 300 topics x 10 sentences (15,000 answers, 150,000 sentences,
~29 MB) with its AutoNuggetizer nuggets (10 per topic) and 15,000 assignments, converted in at most
30 s and scored in at most 10 s on the 2-core machine. The data are generated (seeded) in a temp
folder; the commands run in-process through the library calls the CLI uses.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

TARGET_IMPORT_SECONDS = 30.0
TARGET_SCORE_SECONDS = 10.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--topics", type=int, default=300)
    p.add_argument("--sentences", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)


def _generate(folder: Path, runs: int, topics: int, sentences: int, seed: int) -> list[Path]:
    rnd = random.Random(seed)
    grades = ("support", "partial_support", "not_support")
    paths = [folder / "nuggets.jsonl", folder / "answers.jsonl", folder / "assignments.jsonl"]
    with open(paths[0], "w") as fh:
        for t in range(topics):
            fh.write(json.dumps({"qid": f"t{t}", "query": f"question {t}", "nuggets": [
                {"text": f"nugget {t} {k}", "importance": "vital" if k < 4 else "okay"} for k in range(10)]}) + "\n")
    with open(paths[1], "w") as fa, open(paths[2], "w") as fg:
        for r in range(runs):
            for t in range(topics):
                fa.write(json.dumps({"run_id": f"run{r}", "topic_id": f"t{t}",
                                     "references": [f"d{t}_{i}" for i in range(5)],
                                     "answer": [{"text": f"sentence {i} of run {r} on topic {t} with some words",
                                                 "citations": [i % 5]} for i in range(sentences)]}) + "\n")
                fg.write(json.dumps({"qid": f"t{t}", "run_id": f"run{r}", "nuggets": [
                    {"text": f"nugget {t} {k}", "importance": "vital" if k < 4 else "okay",
                     "assignment": rnd.choice(grades)} for k in range(10)]}) + "\n")
    return paths


def run(args) -> dict:
    from evaluation.convert.rag import import_rag
    from evaluation.convert.track_metrics import score_autonuggetizer

    with tempfile.TemporaryDirectory(prefix="bolt-convert-bench-") as tmp:
        folder = Path(tmp)
        inputs = _generate(folder, args.runs, args.topics, args.sentences, args.seed)
        size = sum(p.stat().st_size for p in inputs)
        t0 = time.perf_counter()
        conv = import_rag(inputs, folder / "conv")
        t1 = time.perf_counter()
        doc = score_autonuggetizer(conv.topics, conv.judgments)
        t2 = time.perf_counter()
    failed = []
    if t1 - t0 > TARGET_IMPORT_SECONDS:
        failed.append(f"import {t1 - t0:.1f} s > {TARGET_IMPORT_SECONDS} s")
    if t2 - t1 > TARGET_SCORE_SECONDS:
        failed.append(f"score {t2 - t1:.1f} s > {TARGET_SCORE_SECONDS} s")
    return {"answers": args.runs * args.topics, "sentences": args.runs * args.topics * args.sentences,
            "input_bytes": size, "import_seconds": round(t1 - t0, 2), "score_seconds": round(t2 - t1, 2),
            "runs_scored": len(doc["runs"]), "load_average": os.getloadavg()[0],
            "targets": {"import_seconds": TARGET_IMPORT_SECONDS, "score_seconds": TARGET_SCORE_SECONDS},
            "failed_targets": failed}
