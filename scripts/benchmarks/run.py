"""bolt run: quality of the three systems on the sample topics, and per-topic latency by stage.

``python scripts/bench.py run [--part quality] [--part latency] [--part dev] [--backend lucene]
[--workdir DIR] [--gen-dir DIR]``

*quality*: builds an index of the bundled sample collection, runs ``main``, ``lead``,
``bm25-sentences`` and ``main`` without query translation on ``topics/sample.queries.xml``,
validates each run, judges them with ``bolt assess`` and scores them with ``bolt score`` against
``topics/sample.xml``; reports P_n, R_n, F_c, F_GD, ERR per system, and for the topics whose
facets have nuggets in Arabic or Chinese threads, how many of them the run reaches (cites a post
that holds one of those nuggets), with and without translation.

*latency*: per-topic wall time (p50, p95) of ``main`` (``--main``) on the sample index, on the
real forum threads of the dev part (when ``../shared/real-samples`` is there: long threads make
thousands of candidate sentences) and, with ``--gen-dir`` (a folder made by
``scripts/gen_corpus.py``, indexed here unless ``DIR/index`` exists), on a generated collection;
the time spent in each stage. Targets: main beats both references on mean
F_GD and R_n; reach >= 80%; p50 <= 1 s per topic.

*dev* (real forum threads; skipped when the set's collection or careful judgments are absent; ``--dev-set
ebay|tac2013|xl``, default ebay, see ``DEV_SETS`` and docs/benchmarks.md): for ebay, indexes
``../shared/real-samples/bolt-eng-DF-215.xml``, runs the three systems on ``topics/ebay-dev.xml``,
carries the careful judgments of ``tests/data/careful/ebay-dev.judgments.jsonl`` (and of the later
``ebay-dev.round2.judgments.jsonl``, ``ebay-dev.round12.judgments.jsonl``) over to these runs by (topic, bullet text) (``scripts/carry_judgments.py``; bullets never judged are counted
and score as irrelevant), scores them with ``bolt score`` and averages per topic group
(``topics/ebay-dev.groups.tsv``: tuning / held-out). Targets, for each group (the held-out
topics are the honest figure; the tuning ones are in-sample): main beats both references on mean
F_GD and R_n; main F_GD >= 0.35 and R_n >= 0.5. It also judges the same runs with ``bolt assess``
and reports its agreement with the careful judgments (``assessor_vs_careful``) on all topics and on
the first careful file's and the later rounds' apart (all in the 0.5 statement model's fit).

Each index gets main's vectors as ``bolt index`` adds them; ``BOLT_VECTORS_FROM`` (index folders,
separated by ``os.pathsep``) names indexes whose vectors are reused for texts they hold, as
``bolt index --vectors-from`` does, so a machine encodes each text once.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import NamedTuple
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SYSTEMS = {"main": "main", "lead": "lead", "bm25-sentences": "bm25-sentences", "main-notrans": "main(translate=False)"}
METRICS = ("P_n", "R_n", "P_c", "R_c", "F_c", "F_GD", "ERR")
P50_TARGET = 1.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--part", action="append", choices=["quality", "latency", "dev"],
                   help="default: quality and latency (dev needs ../shared/real-samples)")
    p.add_argument("--backend", default="lucene", choices=["lucene", "bm25"])
    p.add_argument("--workdir", help="keep indexes and runs here (default: a temp folder)")
    p.add_argument("--gen-dir", help="folder made by scripts/gen_corpus.py, for the large-index latency")
    p.add_argument("--main", default="main", help="spec of the main system to measure, e.g. 'main(abs_floor=0.3)'")
    p.add_argument("--dev-set", default="ebay", choices=sorted(DEV_SETS),
                   help="the dev part's set of real threads (docs/benchmarks.md)")
    p.add_argument("--gen-topics", type=int, default=20, help="topics of the generated set to time")


def _bolt(*argv) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bolt.cli", *map(str, argv)], capture_output=True, text=True,
                          cwd=REPO)


def _index(corpus: Path | list[Path], out: Path, backend: str, encoding_errors: str | None = None) -> Path:
    """The index of ``corpus`` at ``out``, built unless one of this toolkit's format is there."""
    from indexing.errors import ToolkitError
    from indexing.manifest import read_manifest
    from indexing.search import build_index

    from bolt.pipeline import SystemConfig
    from bolt.vectors.build import add_vectors
    from bolt.vectors.needs import problems

    try:
        read_manifest(out)
    except ToolkitError:  # missing, unreadable or an older format
        build_index(corpus if isinstance(corpus, list) else [corpus], out, backend=backend, force=True,
                    progress=False, **({"encoding_errors": encoding_errors} if encoding_errors else {}))
    if problems(out, SystemConfig()):  # main's vectors, as bolt index adds them
        # BOLT_VECTORS_FROM: index folders (os.pathsep-separated) whose vectors are reused, not re-encoded
        reuse = [p for p in os.environ.get("BOLT_VECTORS_FROM", "").split(os.pathsep) if p]
        add_vectors(out, SystemConfig(), progress=False, reuse=reuse)
    return out


def _dev_index(args, work: Path) -> Path:
    """The index of the real forum threads (the dev part's and the real-thread latency's), in ``work``."""
    return _index(REAL_DEV, work / f"ebay-dev-{args.backend}", args.backend)


def _time_topics(distiller, topics) -> dict:
    from bolt.pipeline import STAGES

    distiller.distill(topics[0].query)  # warm-up: model, spaCy, lexicons, JVM are loaded once
    for s in STAGES:
        distiller.timings[s] = 0.0
    lat, cpu = [], []
    for t in topics:
        t0, c0 = time.perf_counter(), time.process_time()
        distiller.distill(t.query)
        lat.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    lat_sorted = sorted(lat)
    p95 = lat_sorted[min(len(lat) - 1, int(round(0.95 * (len(lat) - 1))))]
    total = sum(lat) or 1.0
    return {"topics": len(lat), "p50_s": round(statistics.median(lat), 4), "p95_s": round(p95, 4),
            "mean_s": round(total / len(lat), 4),
            # CPU seconds of this process (all its threads): a guide when other jobs share the cores
            "cpu_p50_s": round(statistics.median(cpu), 4), "load_avg_1m": round(_load(), 2),
            "stage_s_per_topic": {s: round(v / len(lat), 4) for s, v in distiller.timings.items()},
            "p50_target_s": P50_TARGET, "p50_met": statistics.median(lat) <= P50_TARGET}


def _load() -> float:
    import os

    try:
        return os.getloadavg()[0]
    except OSError:
        return -1.0


def _reach(topics, run_path: Path, corpus) -> dict:
    """Cross-language reach of a run.

    A topic is *eligible* when at least one of its nuggets lies in an Arabic or Chinese thread
    (the thread's language in the collection, ``arz`` or ``cmn``); it is *reached* when the run
    cites at least one post (thread id, post id) that holds such a nugget. ``rate`` =
    reached / eligible.
    """
    from bolt.formats.submission import read_run

    run = read_run(run_path)
    eligible, reached = [], []
    for t in topics:
        units = set()
        for f in t.facets:
            for n in f.nuggets:
                if not n.post or n.offset is None:
                    continue
                th = corpus.get(n.post)
                if th is None or th.lang not in ("arz", "cmn"):
                    continue
                post = th.post_at(n.offset)
                if post:
                    units.add((n.post, post.id))
        if not units:
            continue
        eligible.append(t.topic_id)
        res = run.results.get(t.topic_id)
        cited = set()
        for b in (res.bullets if res else ()):
            for s in b.sources:
                th = corpus.get(s.thread)
                post = th.post_at(s.offset) if th else None
                if post:
                    cited.add((s.thread, post.id))
        if cited & units:
            reached.append(t.topic_id)
    return {"eligible": len(eligible), "reached": len(reached),
            "rate": round(len(reached) / len(eligible), 3) if eligible else None, "topics_missed":
            sorted(set(eligible) - set(reached))}


def quality(args, work: Path) -> dict:
    from bolt.data import sample_corpus_path
    from bolt.pipeline import Distiller, parse_config
    from bolt.pipeline.run import run_topics
    from bolt.formats.submission import write_run
    from bolt.formats.topics import read_topics
    from indexing.search import open_index
    from bolt.data import topic_path

    index = _index(sample_corpus_path(), work / f"sample-{args.backend}", args.backend)
    queries, full = topic_path("sample.queries.xml"), topic_path("sample.xml")
    topics = read_topics(queries)
    searcher = open_index(index)
    runs = {}
    systems = dict(SYSTEMS, main=args.main)
    systems["main-notrans"] = repr(parse_config(args.main).__class__(**{**parse_config(args.main).settings(),
                                                                           "translate": False}))
    for name, spec in systems.items():
        cfg = parse_config(spec)
        d = Distiller(searcher, searcher.corpus, cfg)
        out = work / f"{name}.xml"
        write_run(name, run_topics(topics, d, progress=False), out, system=cfg.name, settings=repr(cfg))
        runs[name] = out
    v = _bolt("validate", *runs.values(), "--topics", queries, "--index", index, "--json")
    valid = json.loads(v.stdout)["valid"] if v.stdout.strip().startswith("{") else False
    judgments = work / "judgments.jsonl"
    a = _bolt("assess", *runs.values(), "--topics", full, "--index", index, "--out", judgments)
    if a.returncode != 0:
        return {"error": "bolt assess failed: " + a.stderr.strip()[-500:]}
    s = _bolt("score", *runs.values(), "--topics", full, "--judgments", judgments, "--index", index, "--json")
    if s.returncode != 0:
        return {"error": "bolt score failed: " + s.stderr.strip()[-500:]}
    scores = json.loads(s.stdout)
    full_topics = read_topics(full)
    table = {name: {m: round(scores["runs"][name]["mean"][m], 4) for m in METRICS} for name in runs}
    bullets = {name: sum(len(r.bullets) for r in __import__("bolt.formats.submission", fromlist=["read_run"])
                         .read_run(p).results.values()) for name, p in runs.items()}
    reach = {name: _reach(full_topics, runs[name], searcher.corpus) for name in ("main", "main-notrans")}
    m, lead, bm = table["main"], table["lead"], table["bm25-sentences"]
    targets = {
        "valid": valid,
        "main_beats_refs_F_GD": m["F_GD"] > max(lead["F_GD"], bm["F_GD"]),
        "main_beats_refs_R_n": m["R_n"] > max(lead["R_n"], bm["R_n"]),
        "reach_ge_80pct": (reach["main"]["rate"] or 0) >= 0.8,
    }
    return {"index": str(index), "backend": args.backend, "topics": len(topics), "means": table,
            "bullets": bullets, "cross_language_reach": reach, "targets": targets}


def latency(args, work: Path) -> dict:
    from bolt.data import sample_corpus_path
    from bolt.pipeline import Distiller, parse_config
    from bolt.formats.topics import read_topics
    from indexing.search import open_index
    from bolt.data import topic_path

    out = {}
    cfg = parse_config(args.main)
    index = _index(sample_corpus_path(), work / f"sample-{args.backend}", args.backend)
    s = open_index(index)
    out["sample"] = _time_topics(Distiller(s, s.corpus, cfg), read_topics(topic_path("sample.queries.xml")))
    if REAL_DEV.exists():  # real forum threads: a 600-post thread makes thousands of candidate sentences
        r = open_index(_dev_index(args, work))
        out["real_threads"] = _time_topics(Distiller(r, r.corpus, cfg), read_topics(DEV_TOPICS))
    if args.gen_dir:
        gen = Path(args.gen_dir)
        gindex = gen / f"index-{args.backend}"
        t0 = time.perf_counter()
        _index(gen / "corpus", gindex, args.backend)
        build_s = time.perf_counter() - t0
        g = open_index(gindex)
        topics = read_topics(gen / "topics.xml")[: args.gen_topics]
        res = _time_topics(Distiller(g, g.corpus, cfg), topics)
        summary = gen / "summary.json"
        res["collection"] = json.loads(summary.read_text()) if summary.exists() else str(gen)
        res["index_build_s_if_built_now"] = round(build_s, 1)
        out["generated"] = res
    return out


SHARED = REPO.parent / "shared" / "real-samples"
REAL_DEV = SHARED / "bolt-eng-DF-215.xml"
CAREFUL = REPO / "tests" / "data" / "careful"
DEV_TOPICS = REPO / "topics" / "ebay-dev.xml"
DEV_GROUPS = REPO / "topics" / "ebay-dev.groups.tsv"
DEV_JUDGMENTS = CAREFUL / "ebay-dev.judgments.jsonl"
# careful judgments of bullets first output after the assessor's statement model was fitted on
# DEV_JUDGMENTS (kept in their own files so that fit stays reproducible); carried like the rest
DEV_JUDGMENTS_LATER = (CAREFUL / "ebay-dev.round2.judgments.jsonl", CAREFUL / "ebay-dev.round12.judgments.jsonl")


class DevSet(NamedTuple):
    """One development set of real threads: what the dev part runs, carries and scores."""

    topics: Path
    groups: Path  # TSV topic<TAB>group (tuning / held-out)
    judgments: tuple[Path, ...]  # careful judgments, concatenated; the first must exist
    corpora: tuple[Path, ...]  # the collection (the first file is the set's own threads)
    encoding_errors: str | None = None  # indexing.encoding policy for bytes that are not UTF-8
    rounds: tuple[tuple[str, str], ...] = ()  # (round name, first topic number), in order


DEV_SETS = {
    "ebay": DevSet(DEV_TOPICS, DEV_GROUPS, (DEV_JUDGMENTS, *DEV_JUDGMENTS_LATER), (REAL_DEV,)),
    # 86 threads of 7 boards, 24 of them with Windows-1252 bytes; the eBay threads as distractors
    "tac2013": DevSet(REPO / "topics" / "tac2013-dev.xml", REPO / "topics" / "tac2013-dev.groups.tsv",
                      (CAREFUL / "tac2013-dev.judgments.jsonl",),
                      (SHARED / "bolt-eng-DF-tac2013-sentiment.xml", REAL_DEV), "cp1252",
                      (("A", "3.001"), ("B", "3.008"), ("C", "3.015"), ("D", "3.023"), ("E", "3.033"), ("F", "3.043"), ("G", "3.051"), ("H", "3.061"), ("I", "3.069"))),
    # English queries answered in Egyptian Arabic and Traditional Chinese threads
    "xl": DevSet(REPO / "topics" / "xl-dev.xml", REPO / "topics" / "xl-dev.groups.tsv",
                 (CAREFUL / "xl-dev.judgments.jsonl",),
                 (SHARED / "arz-youm7-comments-2010.xml", SHARED / "cmn-ptt-stock-2025.xml", REAL_DEV),
                 rounds=(("arz-1", "4.001"), ("arz-2", "4.006"), ("arz-3", "4.010"), ("arz-4", "4.014"), ("arz-5", "4.018"), ("arz-6", "4.023"), ("arz-8", "4.027"), ("arz-9", "4.032"),
                         ("cmn-1", "4.101"), ("cmn-2", "4.107"), ("cmn-3", "4.111"), ("cmn-4", "4.116"), ("cmn-5", "4.121"), ("cmn-6", "4.127"), ("cmn-7", "4.133"), ("cmn-8", "4.141"), ("cmn-9", "4.149"), ("cmn-10", "4.157"), ("cmn-11", "4.165"), ("cmn-12", "4.173"), ("cmn-13", "4.181"), ("cmn-14", "4.189"), ("cmn-15", "4.197"), ("cmn-16", "4.205"), ("cmn-17", "4.213"))),
    # the same kind of queries over two other sites: Saudi and Jordanian Arabic comments, Simplified-script Weibo
    "xl-sites": DevSet(REPO / "topics" / "xl-sites.xml", REPO / "topics" / "xl-sites.groups.tsv",
                       (CAREFUL / "xl-sites.judgments.jsonl",),
                       (SHARED / "arz-aoc-alriyadh-alghad-2010.xml", SHARED / "cmn-weibo-checked-2020.xml", REAL_DEV),
                       rounds=(("alriyadh-alghad-1", "5.001"), ("alriyadh-alghad-2", "5.009"), ("alriyadh-alghad-3", "5.017"),
                               ("alriyadh-alghad-4", "5.025"), ("weibo-1", "5.101"), ("weibo-2", "5.109"),
                               ("weibo-3", "5.117"), ("weibo-4", "5.125"))),
}


def round_name(topic: str, rounds: tuple[tuple[str, str], ...]) -> str | None:
    """The round a topic number belongs to: the last one whose first topic it is at or after."""
    names = [name for name, first in rounds if topic >= first]
    return names[-1] if names else None


def round_means(scores: dict, rounds: tuple[tuple[str, str], ...], metrics=("P_n", "R_n", "F_GD", "ERR")) -> dict:
    """{round: {run: {metric: mean over the round's topics}}} of ``bolt score --json`` output."""
    out: dict = {}
    for name, r in scores["runs"].items():
        per = r["topics"]
        for rnd, _ in rounds:
            ts = [t for t in per if round_name(t, rounds) == rnd]
            if ts:
                out.setdefault(rnd, {})[name.removeprefix("dev-")] = {
                    m: round(sum(per[t].get(m, 0.0) for t in ts) / len(ts), 4) for m in metrics}
    return out


def dev(args, work: Path) -> dict:
    """The three systems on a real-thread development set (``--dev-set``), by the careful judgments."""
    import contextlib
    import importlib.util
    import io

    ds = DEV_SETS[getattr(args, "dev_set", "ebay")]
    missing = [p for p in (*ds.corpora, ds.judgments[0]) if not p.exists()]
    if missing:
        return {"skipped": f"{missing[0]} is absent"}
    from bolt.pipeline import Distiller, parse_config
    from bolt.pipeline.run import run_topics
    from bolt.formats.submission import write_run
    from bolt.formats.topics import read_topics
    from indexing.search import open_index

    def script(name: str):
        spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    carry, dev_scores = script("carry_judgments"), script("dev_scores")
    name_ = getattr(args, "dev_set", "ebay")
    index = (_dev_index(args, work) if name_ == "ebay" else
             _index(list(ds.corpora), work / f"{name_}-dev-{args.backend}", args.backend, ds.encoding_errors))
    searcher = open_index(index)
    topics = read_topics(ds.topics)
    runs = {}
    for name, spec in {"main": args.main, "lead": "lead", "bm25-sentences": "bm25-sentences"}.items():
        cfg = parse_config(spec)
        out = work / f"dev-{name}.xml"
        write_run(f"dev-{name}", run_topics(topics, Distiller(searcher, searcher.corpus, cfg), progress=False), out,
                  system=cfg.name, settings=repr(cfg))
        runs[name] = out
    judgments = work / "dev-judgments.jsonl"
    judgments.write_text("".join(p.read_text(encoding="utf-8") for p in ds.judgments if p.is_file()),
                         encoding="utf-8")
    todo = work / "dev-todo.jsonl"
    corpus_args = [str(p) for p in ds.corpora]
    with contextlib.redirect_stderr(io.StringIO()):
        carry.carry(list(runs.values()), judgments, corpus_args, todo, "careful:carried",
                    encoding_errors=ds.encoding_errors)
    unjudged = sum(1 for line in todo.read_text(encoding="utf-8").splitlines() if line.strip())
    enc = ["--encoding-errors", ds.encoding_errors] if ds.encoding_errors else []
    s = _bolt("score", *runs.values(), "--topics", ds.topics, "--judgments", judgments, "--corpus", *ds.corpora,
              *enc, "--json")
    if s.returncode != 0:
        return {"error": "bolt score failed: " + s.stderr.strip()[-500:]}
    scores = json.loads(s.stdout)
    means = dev_scores.group_means(scores, dev_scores.read_groups(ds.groups))
    table = {g: {name.removeprefix("dev-"): {m: round(v, 4) for m, v in ms.items()} for name, ms in runs_.items()}
             for g, runs_ in means.items()}
    targets = {}
    for group in sorted(table, key=lambda g: g != "held-out"):  # held-out first: the tuning figures are in-sample
        m, lead, bm = (table[group][k] for k in ("main", "lead", "bm25-sentences"))
        g = group.replace("-", "_")
        targets.update({
            f"dev_{g}_main_beats_refs_F_GD": m["F_GD"] > max(lead["F_GD"], bm["F_GD"]),
            f"dev_{g}_main_beats_refs_R_n": m["R_n"] > max(lead["R_n"], bm["R_n"]),
            f"dev_{g}_main_F_GD_ge_0.35": m["F_GD"] >= 0.35,
            f"dev_{g}_main_R_n_ge_0.5": m["R_n"] >= 0.5,
        })
    result = {"index": str(index), "topics": len(topics), "means": table}
    if ds.rounds:
        result["dev_set"] = name_
        result["means_by_round"] = round_means(scores, ds.rounds)
    result.update({"unjudged_bullets": unjudged, "unjudged_list": str(todo), "targets": targets,
                   "assessor_vs_careful": _assessor_agreement(runs, topics, judgments, work, ds)})
    return result


def _assessor_agreement(runs: dict[str, Path], topics, careful: Path, work: Path, ds: DevSet) -> dict:
    """``bolt assess`` on the dev runs against the careful judgments, on every topic (``all``) and
    apart on the first careful file's topics (DEV_JUDGMENTS, ``first-file``) and the later rounds'
    (``later-rounds``). The 0.5 statement model is fitted on the eBay set's judgments (with iKAT and
    REALSumm), so its figures there are in-sample; on the other sets (other boards, other languages)
    the assessor was fitted on none of the topics, and only ``all`` is reported."""
    from evaluation.agreement import judgment_agreement
    from evaluation.judgments import read_judgments

    auto = work / "dev-auto.jsonl"
    enc = ["--encoding-errors", ds.encoding_errors] if ds.encoding_errors else []
    a = _bolt("assess", *runs.values(), "--topics", ds.topics, "--corpus", *ds.corpora, *enc, "--out", auto,
              "--quiet")
    if a.returncode != 0:
        return {"error": "bolt assess failed: " + a.stderr.strip()[-500:]}
    run_ids = {f"dev-{name}" for name in runs}
    people = [j for j in read_judgments(careful) if j.key[1] in run_ids]
    machine = read_judgments(auto)
    first = {j.key[0] for j in read_judgments(DEV_JUDGMENTS)}
    groups = {"all": {t.topic_id for t in topics}, "first-file": {t.topic_id for t in topics if t.topic_id in first},
              "later-rounds": {t.topic_id for t in topics if t.topic_id not in first}}
    out = {}
    for g, numbers in groups.items():
        if not numbers:  # another set's topics: no first careful file there
            continue
        agg = judgment_agreement([j for j in people if j.key[0] in numbers],
                                 [j for j in machine if j.key[0] in numbers],
                                 [t for t in topics if t.topic_id in numbers])
        out[g] = {"bullets": agg["bullets_in_both"], "bullet_x_facet": agg["facets"],
                  "bullet_relevant": agg["relevance"], "runs": agg["runs"], "kendall_tau": agg["kendall_tau"]}
    return out


def run(args) -> dict:
    parts = args.part or ["quality", "latency"]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(args.workdir or tmp)
        work.mkdir(parents=True, exist_ok=True)
        result: dict = {"benchmark": "run"}
        if "quality" in parts:
            result["quality"] = quality(args, work)
        if "latency" in parts:
            result["latency"] = latency(args, work)
        if "dev" in parts:
            result["dev"] = dev(args, work)
    failed = []
    q = result.get("quality", {})
    failed += [k for k, ok in q.get("targets", {}).items() if not ok]
    failed += [k for k, ok in result.get("dev", {}).get("targets", {}).items() if not ok]
    for name, lat in result.get("latency", {}).items():
        if not lat.get("p50_met", True):
            failed.append(f"p50_{name}")
    result["failed_targets"] = failed
    return result
