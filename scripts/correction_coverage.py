#!/usr/bin/env python3
"""How the sample-corrected estimate behaves over repeated random samples (docs/assessor.md).

    python scripts/correction_coverage.py MACHINE.jsonl PEOPLE.jsonl --topics FILE [--sizes 20 40 100]

``PEOPLE`` judges every bullet ``MACHINE`` judges (e.g. the careful judgments of the bundled
sample, ``tests/data/careful/sample.judgments.jsonl``, against ``bolt demo``'s judgments): their
scores are the truth. For each sample size, draws random samples of bullets (seed 1), corrects
the machine's scores with each (``evaluation.correction.estimate``) and reports per run and
metric the truth, the machine's score, the mean estimate, its root mean squared error, and how
often the 95% interval held the truth.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))


def coverage(sw, truth: dict, keys: list, topics, size: int, reps: int, seed: int = 1) -> dict:
    """Per run and metric over ``reps`` samples of ``size`` keys: mean estimate, RMSE, coverage."""
    import numpy as np

    from evaluation.correction import estimate

    rng = random.Random(seed)
    got: dict = {}
    for _ in range(reps):
        for r, by_m in estimate(sw, rng.sample(keys, size), topics).items():
            for m, c in by_m.items():
                if c.ci is not None:
                    got.setdefault(r, {}).setdefault(m, []).append((c.estimate, c.ci[0] <= truth[r][m] <= c.ci[1]))
    out: dict = {}
    for r, by_m in got.items():
        for m, rows in by_m.items():
            e = np.array([x for x, _ in rows])
            out.setdefault(r, {})[m] = {"truth": round(truth[r][m], 4), "machine": round(sw.machine[r][m], 4),
                                        "mean_estimate": round(float(e.mean()), 4),
                                        "rmse": round(float(np.sqrt(((e - truth[r][m]) ** 2).mean())), 4),
                                        "coverage": round(sum(ok for _, ok in rows) / len(rows), 3),
                                        "samples": len(rows)}
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("machine")
    p.add_argument("people")
    p.add_argument("--topics", required=True)
    p.add_argument("--sizes", type=int, nargs="+", default=[20, 40, 100])
    p.add_argument("--reps", type=int, default=2000)
    a = p.parse_args()
    from bolt.formats.topics import read_topics
    from evaluation.agreement import AGREEMENT_METRICS, run_means
    from evaluation.correction import swaps
    from evaluation.judgments import read_judgments

    topics = read_topics(a.topics)
    machine, people = read_judgments(a.machine), read_judgments(a.people)
    keys = sorted({j.key for j in machine})
    sw = swaps(topics, machine, people)
    truth = run_means(topics, people, keys)
    result = {str(n): coverage(sw, truth, sorted(sw.delta), topics, n, a.reps) for n in a.sizes}
    print(json.dumps({"metrics": list(AGREEMENT_METRICS), "bullets": len(keys), "by_sample_size": result}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
