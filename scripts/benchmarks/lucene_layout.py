"""Lucene index layouts: Anserini's IndexCollection over the same units, laid out several ways.

Why ``bolt index`` builds one Lucene index per language with a ``kind`` tag (docs/index.md): this
times Java alone (no XML reading, no Python work), each layout in a fresh process, over the JSON
documents and units that ``scripts/bench.py index --workdir W`` leaves in ``W`` (``json/<lang>/``
and ``idx-lucene/units.sqlite``). Layouts:

- ``language``: one index per language, documents as they are (the index benchmark's reference);
- ``tagged``: one index per language, each document with its ``kind`` tag (``-fields kind``; now);
- ``per-kind``: one index per language, unit kind and quote status (12), a language's indexes built
  at once (the first design);
- ``per-kind-sequential``: the same 12 indexes, one after the other;
- ``post-passage``: one index per language and unit kind (6), quotes tagged, built at once;
- ``fields``: one index per language, each kind in a field of its own.

Every index: 2 threads (one input file each), 256 MB buffer, the language's analyzer. CPU seconds
(all threads) are less disturbed by other load than wall time; ``--repeat`` alternates layouts.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

LAYOUTS = ("language", "tagged", "per-kind", "per-kind-sequential", "post-passage", "fields")
STREAMS = 2


def add_arguments(p) -> None:
    p.add_argument("--workdir", required=True,
                   help="the --workdir of a finished 'scripts/bench.py index' run (its json/ and idx-lucene/)")
    p.add_argument("--layouts", nargs="+", choices=LAYOUTS, default=list(LAYOUTS))
    p.add_argument("--repeat", type=int, default=1, help="runs per layout, alternated")


def _prepare(work: Path, layouts) -> dict[str, list[tuple[str, str, list[str]]]]:
    """Write each layout's JSON files under ``work/layouts/<layout>/<index>/``; return, per layout,
    its build groups: lists of ``(index name, language, extra IndexCollection args)`` built at once."""
    import sqlite3

    from indexing.units import kind_of

    db = sqlite3.connect(work / "idx-lucene" / "units.sqlite")
    units = {uid: (unit, bool(quoted)) for uid, unit, quoted in db.execute("SELECT id, unit, quoted FROM units")}
    db.close()
    root = work / "layouts"
    shutil.rmtree(root, ignore_errors=True)
    files: dict[tuple[str, str], list] = {}
    counts: dict[tuple[str, str], int] = {}

    def write(layout: str, index: str, line: str) -> None:
        key = (layout, index)
        fs = files.get(key)
        if fs is None:
            d = root / layout / index
            d.mkdir(parents=True)
            fs = files[key] = [open(d / f"docs-{i}.jsonl", "w", encoding="utf-8") for i in range(STREAMS)]
        n = counts.get(key, 0)
        counts[key] = n + 1
        fs[n % STREAMS].write(line)

    langs = sorted(p.name for p in (work / "json").iterdir() if p.is_dir())
    for lang in langs:
        for f in sorted((work / "json" / lang).iterdir()):
            for line in open(f, encoding="utf-8"):
                doc = json.loads(line)
                unit, quoted = units[int(doc["id"])]
                kind = kind_of(unit, quoted)
                tagged = json.dumps({**doc, "kind": kind}, ensure_ascii=False) + "\n"
                for layout in layouts:
                    if layout == "language":
                        write(layout, lang, line)
                    elif layout == "tagged":
                        write(layout, lang, tagged)
                    elif layout in ("per-kind", "per-kind-sequential"):
                        write(layout, f"{lang}.{kind}", line)
                    elif layout == "post-passage":
                        write(layout, f"{lang}.{unit}", tagged)
                    elif layout == "fields":
                        own = {"id": doc["id"], "contents": doc["contents"]} if kind == "post" else \
                            {"id": doc["id"], "contents": ".", kind: doc["contents"]}  # "." has no terms
                        write(layout, lang, json.dumps(own, ensure_ascii=False) + "\n")
    for fs in files.values():
        for f in fs:
            f.close()
    groups: dict[str, list] = {}
    for layout in layouts:
        names = sorted(p.name for p in (root / layout).iterdir())
        extra = {"tagged": ["-fields", "kind"], "post-passage": ["-fields", "kind"],
                 "fields": ["-fields", "passage", "quotedpost", "quotedpassage"]}.get(layout, [])
        by_lang: dict[str, list] = {}
        for name in names:
            by_lang.setdefault(name.split(".")[0], []).append((name, name.split(".")[0], extra))
        if layout == "per-kind-sequential":
            groups[layout] = [[x] for lang in langs for x in by_lang.get(lang, [])]
        else:
            groups[layout] = [by_lang[lang] for lang in langs if lang in by_lang]
    return groups


def _build(root: str, out: str, groups) -> dict:
    """One layout (run in a fresh process): each group's indexes at once, groups one after the other."""
    from indexing import jvm
    from indexing.analysis import AnalysisConfig

    L = jvm.lucene()
    index_collection = L.autoclass("io.anserini.index.IndexCollection")
    analysis = AnalysisConfig()

    def one(name: str, lang: str, extra: list[str]) -> None:
        index_collection.main(["-collection", "JsonCollection", "-input", str(Path(root) / name),
                               "-index", str(Path(out) / name), "-generator", "DefaultLuceneDocumentGenerator",
                               "-threads", str(STREAMS), "-language", analysis.lucene_language(lang),
                               "-memoryBuffer", "256", "-quiet", *extra])

    r0 = resource.getrusage(resource.RUSAGE_SELF)
    load0, t0 = os.getloadavg()[0], time.perf_counter()
    for group in groups:
        threads = [threading.Thread(target=one, args=g) for g in group]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    return {"seconds": round(time.perf_counter() - t0, 2),
            "cpu_s": round(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime, 1),
            "load": [round(load0, 2), round(os.getloadavg()[0], 2)]}


def run(args) -> dict:
    work = Path(args.workdir)
    if not (work / "json").is_dir() or not (work / "idx-lucene" / "units.sqlite").is_file():
        raise SystemExit(f"{work} holds no json/ and idx-lucene/units.sqlite; "
                         f"run 'python scripts/bench.py index --corpus DIR --workdir {work}' first")
    groups = _prepare(work, args.layouts)
    runs: dict[str, list[dict]] = {layout: [] for layout in args.layouts}
    for _ in range(max(1, args.repeat)):
        for layout in args.layouts:
            out = work / "layouts-idx" / layout
            shutil.rmtree(out, ignore_errors=True)
            payload = json.dumps([str(work / "layouts" / layout), str(out), groups[layout]])
            r = subprocess.run([sys.executable, __file__, payload], capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"layout {layout} failed:\n{r.stderr[-3000:]}")
            result = json.loads(r.stdout.strip().splitlines()[-1])
            result["mb_on_disk"] = round(sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6, 1)
            runs[layout].append(result)
    return {"benchmark": "lucene_layout", "workdir": str(work), "runs": runs,
            "median_cpu_s": {k: statistics.median(r["cpu_s"] for r in v) for k, v in runs.items()},
            "median_seconds": {k: statistics.median(r["seconds"] for r in v) for k, v in runs.items()}}


if __name__ == "__main__":
    print(json.dumps(_build(*json.loads(sys.argv[1]))))
