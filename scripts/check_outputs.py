#!/usr/bin/env python3
"""Record what a checkout's systems, assessor and scorer write, and compare two recordings.

A change that should not change behaviour (a refactoring, a renamed setting, a moved module) is
checked by recording before and after and comparing::

    python scripts/check_outputs.py record --out BEFORE [--repo CHECKOUT] [--sets sample,ebay,tac2013,xl]
        [--vectors-from INDEX]
    python scripts/check_outputs.py record --out AFTER
    python scripts/check_outputs.py compare BEFORE AFTER

``record`` drives the checkout's own command line (``python -m bolt.cli`` with the checkout as the
working folder), so it works on any checkout, old or new. Per topic set it indexes the set's
collection, runs ``main``, ``lead`` and ``bm25-sentences``, judges the runs with ``bolt assess``
and scores them with ``bolt score`` twice: with the assessor's judgments and with the careful
judgments carried to these runs by bullet text (``scripts/carry_judgments.py``). The sets:
``sample`` (the bundled sample, always there), ``ebay``, ``tac2013``, ``xl`` (the real threads in
``../shared/real-samples``; a set whose files are absent is skipped and says so).

``compare`` reads both folders and reports every file that differs. The parts that name what
wrote a file are left out of the comparison: the run's header (``<run>``'s attributes, its
settings and signature, and the header comments that hold them), the judgments' header line, and the score signature; every bullet, citation, judgment
line and figure must be the same byte for byte. Exit status 0 when nothing differs, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SYSTEMS = ("main", "lead", "bm25-sentences")


def _sets(repo: Path) -> dict[str, dict]:
    """Per set: topics, collection files, careful judgments, the encoding policy."""
    shared = repo.parent / "shared" / "real-samples"
    if not shared.is_dir():
        shared = REPO.parent / "shared" / "real-samples"
    careful = repo / "tests" / "data" / "careful"
    ebay = shared / "bolt-eng-DF-215.xml"
    return {
        "sample": {"topics": "topics/sample.queries.xml", "facets": "topics/sample.xml",
                   "corpus": ["bolt/data/sample_corpus"], "judgments": [careful / "sample.judgments.jsonl"], "enc": None},
        "ebay": {"topics": "topics/ebay-dev.xml", "facets": "topics/ebay-dev.xml", "corpus": [ebay],
                 "judgments": sorted(careful.glob("ebay-dev*.judgments.jsonl")), "enc": None},
        "tac2013": {"topics": "topics/tac2013-dev.xml", "facets": "topics/tac2013-dev.xml",
                    "corpus": [shared / "bolt-eng-DF-tac2013-sentiment.xml", ebay],
                    "judgments": [careful / "tac2013-dev.judgments.jsonl"], "enc": "cp1252"},
        "xl": {"topics": "topics/xl-dev.xml", "facets": "topics/xl-dev.xml",
               "corpus": [shared / "arz-youm7-comments-2010.xml", shared / "cmn-ptt-stock-2025.xml", ebay],
               "judgments": [careful / "xl-dev.judgments.jsonl"], "enc": None},
    }


def _bolt(repo: Path, python: str, *argv) -> subprocess.CompletedProcess:
    cmd = [python, "-m", "bolt.cli", *map(str, argv)]
    r = subprocess.run(cmd, cwd=repo, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd[2:])} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return r


def record(repo: Path, out: Path, names: list[str], python: str, vectors_from: list[Path] = ()) -> int:
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    sets = _sets(repo)
    for name in names:
        s = sets[name]
        corpus = [str(c if Path(c).is_absolute() else repo / c) for c in s["corpus"]]
        missing = [c for c in corpus if not Path(c).exists()]
        if missing:
            print(f"{name}: skipped ({missing[0]} is absent)", file=sys.stderr)
            continue
        enc = ["--encoding-errors", s["enc"]] if s["enc"] else []
        t0 = time.time()
        index = out / f"{name}.index"
        if not index.is_dir():
            reuse = [a for v in vectors_from for a in ("--vectors-from", v)]
            _bolt(repo, python, "index", *corpus, "--out", index, "--quiet", *enc, *reuse)
        runs = []
        for system in SYSTEMS:
            run = out / f"{name}.{system}.xml"
            if not run.is_file():
                _bolt(repo, python, "run", "--index", index, "--topics", s["topics"], "--out", run,
                      "--run-id", f"{name}-{system}", "--system", system, "--quiet")
            runs.append(run)
            print(f"{name}: {system} done ({time.time() - t0:.0f} s)", file=sys.stderr)
        auto = out / f"{name}.auto.jsonl"
        _bolt(repo, python, "assess", *runs, "--topics", s["facets"], "--index", index, "--out", auto, "--quiet")
        score = _bolt(repo, python, "score", *runs, "--topics", s["facets"], "--judgments", auto, "--index", index,
                      "--json")
        (out / f"{name}.scores.auto.json").write_text(score.stdout, encoding="utf-8")
        judgments = [j for j in s["judgments"] if Path(j).is_file()]
        if judgments:
            carried = out / f"{name}.careful.jsonl"
            carried.write_text("".join(Path(j).read_text(encoding="utf-8") for j in judgments), encoding="utf-8")
            subprocess.run([python, str(repo / "scripts" / "carry_judgments.py"), *map(str, runs), "--judgments",
                            str(carried), "--corpus", *corpus, "--todo", str(out / f"{name}.todo.jsonl"), *enc],
                           cwd=repo, capture_output=True, text=True)
            score = _bolt(repo, python, "score", *runs, "--topics", s["facets"], "--judgments", carried,
                          "--index", index, "--json")
            (out / f"{name}.scores.careful.json").write_text(score.stdout, encoding="utf-8")
        print(f"{name}: recorded in {time.time() - t0:.0f} s", file=sys.stderr)
    return 0


_RUN_HEAD = re.compile(r"<run\b[^>]*>")
_SETTINGS = re.compile(r"<(settings|signature|provenance)\b.*?</\1>|<!-- (system|settings|signature): .*? -->\n?", re.S)


def _comparable(path: Path) -> str:
    """The file's text less what names the software that wrote it."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".xml":
        return _SETTINGS.sub("", _RUN_HEAD.sub("<run>", text))
    if path.suffix == ".jsonl":
        lines = [ln for ln in text.splitlines() if ln.strip()]
        body = []
        for ln in lines:
            obj = json.loads(ln)
            if isinstance(obj, dict) and ("_meta" in obj or "header" in obj):
                continue
            body.append(ln)
        return "\n".join(body)
    if path.suffix == ".json":
        return json.dumps(_strip_signature(json.loads(text)), sort_keys=True, indent=1)
    return text


def _strip_signature(obj):
    if isinstance(obj, dict):
        return {k: _strip_signature(v) for k, v in obj.items() if k not in ("signature", "settings", "version")}
    if isinstance(obj, list):
        return [_strip_signature(v) for v in obj]
    return obj


def compare(before: Path, after: Path) -> int:
    names = sorted({p.name for p in before.iterdir() if p.is_file() and not p.name.endswith(".todo.jsonl")})
    differ, checked = [], 0
    for name in names:
        a, b = before / name, after / name
        if not b.is_file():
            differ.append(f"{name}: missing in {after}")
            continue
        checked += 1
        if _comparable(a) != _comparable(b):
            differ.append(f"{name}: differs")
    for line in differ:
        print(line)
    print(f"{checked} files compared, {len(differ)} differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="run, assess and score the topic sets; write everything to --out")
    r.add_argument("--out", type=Path, required=True, help="folder for indexes, runs, judgments and scores")
    r.add_argument("--repo", type=Path, default=REPO, help="the checkout to record (default: this one)")
    r.add_argument("--sets", default="sample,ebay,tac2013,xl", help="comma-separated: sample, ebay, tac2013, xl")
    r.add_argument("--python", default=sys.executable, help="the Python with the toolkit's dependencies")
    r.add_argument("--vectors-from", type=Path, action="append", default=[], metavar="DIR",
                   help="an index whose vectors 'bolt index' reuses (repeatable): texts it holds are not encoded again")
    c = sub.add_parser("compare", help="compare two recordings (headers and signatures aside)")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = p.parse_args(argv)
    if args.cmd == "record":
        names = [n.strip() for n in args.sets.split(",") if n.strip()]
        bad = sorted(set(names) - set(_sets(args.repo)))
        if bad:
            p.error(f"unknown set(s) {', '.join(bad)}; choose from sample, ebay, tac2013, xl")
        return record(args.repo.resolve(), args.out, names, args.python, [v.resolve() for v in args.vectors_from])
    return compare(args.before, args.after)


if __name__ == "__main__":
    raise SystemExit(main())
