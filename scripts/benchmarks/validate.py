"""Validation throughput (bullets/s) with and without the corpus checks, and peak memory.

Generates, in a work folder: a corpus of LDC-layout threads (concatenated ``<doc>`` files, raw
offsets known by construction), a 1,000-topic query-only topic file, and a 1,000-topic,
50,000-bullet submission whose every citation points at (or up to three words before) its text.
Each measurement runs in its own subprocess so peak RSS (``ru_maxrss``) belongs to that run alone.
A second, larger submission (``--stream-factor`` times the bullets, tens of MB) is validated
without the corpus to show that memory does not grow with the file (streaming).
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_BULLETS_PER_S_STRUCTURE = 20_000
TARGET_BULLETS_PER_S_CORPUS = 5_000
TARGET_PEAK_RSS_MB = 400
TARGET_STREAM_RSS_GROWTH_MB = 50  # the large file may not need more than this over the small one

WORDS = ("bridge committee council river budget vote mayor plan road school water city traffic "
         "tax park station market debate report street harbor tower rail police court museum "
         "library office project repair design contract summer winter spring autumn north south").split()


def add_arguments(p) -> None:
    p.add_argument("--topics", type=int, default=1_000)
    p.add_argument("--bullets", type=int, default=50_000, help="bullets in the submission (spread over the topics)")
    p.add_argument("--threads", type=int, default=300, help="threads in the generated corpus")
    p.add_argument("--stream-factor", type=int, default=6,
                   help="the streaming run has this many times the bullets (0: skip it)")
    p.add_argument("--workdir", default=None, help="keep the generated files here (default: a temp folder)")
    p.add_argument("--seed", type=int, default=13)


def _sentence(rng: random.Random) -> str:
    n = rng.randint(8, 18)
    words = [rng.choice(WORDS) for _ in range(n)]
    words[0] = words[0].capitalize()
    i = rng.randrange(1, n)
    words[i] = words[i] + " &amp;"  # an entity: raw offsets count it as 5 characters
    return " ".join(words) + f" {rng.randint(1900, 2030)}."


def make_corpus(folder: Path, n_threads: int, rng: random.Random) -> list[tuple[str, int, str]]:
    """Write threads (SPEC §2 layout, several <doc> per file); return (thread, offset, text) citations."""
    folder.mkdir(parents=True, exist_ok=True)
    cites: list[tuple[str, int, str]] = []
    per_file = 25
    for f in range(0, n_threads, per_file):
        chunks = []
        for t in range(f, min(f + per_file, n_threads)):
            tid = f"bolt-eng-DF-900-{200000 + t}-{3000000 + t}"
            raw = f'<doc id="{tid}">\n<headline>\nThread {t}\n</headline>\n'
            for p in range(1, 6):
                raw += f'<post author="user{p}" datetime="2013-01-0{p}T10:00:00" id="p{p}">\n'
                for _ in range(rng.randint(3, 6)):
                    s = _sentence(rng)
                    cites.append((tid, len(raw), s.replace("&amp;", "&")))
                    raw += s + "\n"
                raw += "</post>\n"
            raw += "</doc>\n"
            chunks.append(raw)
        (folder / f"threads-{f // per_file:03d}.xml").write_text("".join(chunks), encoding="utf-8")
    return cites


def make_topics(path: Path, n: int) -> list[str]:
    numbers = [f"{1 + i // 1000}.{i % 1000 + 1:03d}" for i in range(n)]
    body = "".join(f'<topic number="{num}">\n  <query>What happened to the {WORDS[i % len(WORDS)]}?</query>\n</topic>\n'
                   for i, num in enumerate(numbers))
    path.write_text(f"<topics>\n{body}</topics>\n", encoding="utf-8")
    return numbers


def _esc(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;")


def make_run(path: Path, numbers: list[str], n_bullets: int, cites, rng: random.Random) -> int:
    """Write the submission with a streaming writer (no list of bullets in memory)."""
    per = max(1, n_bullets // len(numbers))
    written = 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<results run="bench">\n')
        for num in numbers:
            fh.write(f'<result number="{num}">\n<response>\n')
            for tid, off, text in rng.sample(cites, min(per, len(cites))):
                words = text.split()
                skip = rng.randint(0, 3)  # the citation may point up to three words before the text
                shown = " ".join(words[skip:])
                fh.write(f'  <bullet>{_esc(shown)}\n    <source post="{tid}" offset="{off}"/>\n  </bullet>\n')
                written += 1
            fh.write("</response>\n</result>\n")
        fh.write("</results>\n")
    return written


_CHILD = r"""
import json, resource, sys, time
from bolt.formats.validate import validate_runs
run, topics, corpus_dir = sys.argv[1], sys.argv[2], sys.argv[3]
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
corpus = None
t0 = time.perf_counter()
if corpus_dir:
    from indexing.corpus import open_corpus
    corpus = open_corpus(paths=[corpus_dir])
t1 = time.perf_counter()
report = validate_runs([run], topics, corpus)
t2 = time.perf_counter()
print(json.dumps({"open_corpus_s": t1 - t0, "validate_s": t2 - t1, "bullets": report.bullets,
                  "results": report.results, "errors": len(report.errors), "warnings": len(report.warnings),
                  "rules": dict(report.counts()), "skipped": report.skipped_checks,
                  "rss_before_mb": base / 1024, "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _measure(run: Path, topics: Path, corpus: Path | None) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(run), str(topics), str(corpus or "")],
                         capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    r["bullets_per_s"] = round(r["bullets"] / r["validate_s"]) if r["validate_s"] else None
    r["file_mb"] = round(run.stat().st_size / 2**20, 1)
    for k in ("open_corpus_s", "validate_s", "rss_before_mb", "peak_rss_mb"):
        r[k] = round(r[k], 2)
    return r


def run(args) -> dict:
    rng = random.Random(args.seed)
    tmp = None
    if args.workdir:
        work = Path(args.workdir)
        work.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="bolt-bench-validate-")
        work = Path(tmp.name)
    try:
        t0 = time.perf_counter()
        cites = make_corpus(work / "corpus", args.threads, rng)
        numbers = make_topics(work / "topics.xml", args.topics)
        n = make_run(work / "run.xml", numbers, args.bullets, cites, rng)
        gen_s = time.perf_counter() - t0
        structure = _measure(work / "run.xml", work / "topics.xml", None)
        with_corpus = _measure(work / "run.xml", work / "topics.xml", work / "corpus")
        result = {
            "setup": {"topics": args.topics, "bullets": n, "threads": args.threads, "citations_available": len(cites),
                      "generate_s": round(gen_s, 1), "python": sys.version.split()[0], "cpus": os.cpu_count()},
            "structure_only": structure,
            "with_corpus": with_corpus,
        }
        failed = []
        if structure["bullets_per_s"] < TARGET_BULLETS_PER_S_STRUCTURE:
            failed.append(f"structure-only throughput >= {TARGET_BULLETS_PER_S_STRUCTURE} bullets/s")
        if with_corpus["bullets_per_s"] < TARGET_BULLETS_PER_S_CORPUS:
            failed.append(f"with-corpus throughput >= {TARGET_BULLETS_PER_S_CORPUS} bullets/s")
        if max(structure["peak_rss_mb"], with_corpus["peak_rss_mb"]) > TARGET_PEAK_RSS_MB:
            failed.append(f"peak RSS <= {TARGET_PEAK_RSS_MB} MB")
        if with_corpus["errors"] or with_corpus["warnings"]:
            failed.append("the generated run validates with no findings")
        if args.stream_factor:
            big = work / "run-large.xml"
            nb = make_run(big, numbers, args.bullets * args.stream_factor, cites, random.Random(args.seed + 1))
            stream = _measure(big, work / "topics.xml", None)
            stream["bullets_written"] = nb
            stream["rss_growth_over_small_mb"] = round(stream["peak_rss_mb"] - structure["peak_rss_mb"], 2)
            result["streaming_large_file"] = stream
            if stream["rss_growth_over_small_mb"] > TARGET_STREAM_RSS_GROWTH_MB:
                failed.append(f"large-file RSS growth <= {TARGET_STREAM_RSS_GROWTH_MB} MB")
        result["targets"] = {"structure_bullets_per_s": TARGET_BULLETS_PER_S_STRUCTURE,
                             "corpus_bullets_per_s": TARGET_BULLETS_PER_S_CORPUS,
                             "peak_rss_mb": TARGET_PEAK_RSS_MB,
                             "stream_rss_growth_mb": TARGET_STREAM_RSS_GROWTH_MB}
        result["failed_targets"] = failed
        result["met"] = not failed
        return result
    finally:
        if tmp is not None:
            tmp.cleanup()
