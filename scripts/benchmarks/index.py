"""Index build and search: bolt index vs pyserini's JsonCollection indexer, latency, rank-bm25 vs Lucene.

Each phase runs in a fresh process (so peak memory is per phase; the JVM is in-process, so the
figure covers Python and Java together). The JVM is started before the clock in every Lucene phase.

- ``bolt index`` (lucene) over the XML collection, end to end (reading, units, thread store, Lucene):
  MB/s and posts/s, against Anserini's ``IndexCollection`` (JsonCollection, in-process through
  jnius) fed the very same units as JSON, per language with the same analyzers. Target ratio >= 0.7.
- Query latency over ``--queries`` queries (all languages, interleaved): p50/p95. Target p50 <= 50 ms.
- rank-bm25 vs Lucene on ``--bm25-posts`` posts: build and query time, their ratios, peak memory.

The collection: ``--corpus PATH...`` (files or folders; a ``scripts/gen_corpus.py`` output folder
is read as its ``corpus/``, and its ``topics.xml`` gives the queries: every topic's query, then one
planted nugget sentence per facet, in its own language), or a synthetic multilingual one of
``--threads`` threads written here (``--posts`` posts each).

Fairness: both indexers get the same units, the same analyzers, ``--java-threads`` Java threads and
a 256 MB buffer, in the same run. ``IndexCollection`` runs one thread per input file, so the JSON is
written as ``--java-threads`` files per language (round robin), else it would use a single thread.
Other engineers share the machine: each phase records the load average before and after, and its
CPU seconds (all threads, Python and Java), which the load disturbs less than wall time.
``--repeat N`` builds with both indexers N times, alternately, and reports the median run.
"""
from __future__ import annotations

import json
import os
import random
import resource
import shutil
import tempfile
import time
from pathlib import Path

WORDS = {
    "eng": ("flood bridge river mayor election market price police school hospital team match fans road "
            "train airport storm rain snow city village farmer doctor teacher money bank loan phone "
            "computer internet forum thread post reply question answer government minister law court "
            "judge protest street crowd fire smoke company worker factory strike union oil gas").split(),
    "arz": ("المستشفى القاهرة الجامعة الحكومة الشرطة الانتخابات السوق الاسعار الكورة الفريق الاهلي "
            "الزمالك المطر الشارع العربية المترو الفلوس البنك الدكتور المدرسة الطلبة الامتحان الثورة "
            "الميدان الرئيس الوزير القانون المحكمة الشغل المصنع البنزين الغاز النهاردة امبارح بكرة "
            "كويس وحش جدا قوي خالص مفيش عايز").split(),
    "cmn": ("北京 上海 政府 市场 价格 房价 医院 学校 学生 老师 警察 火车 机场 大雪 下雨 天气 公司 工人 "
            "工厂 银行 手机 电脑 网络 论坛 问题 回答 法律 法院 抗议 街道 人群 火灾 石油 经济 发展 "
            "国家 人民 社会 文化 历史").split(),
}
END = {"eng": ".", "arz": " .", "cmn": "。"}
JOIN = {"eng": " ", "arz": " ", "cmn": ""}


def add_arguments(p) -> None:
    p.add_argument("--corpus", nargs="+", metavar="PATH",
                   help="an existing collection, or a gen_corpus.py output folder (default: a synthetic one)")
    p.add_argument("--topics", help="topic file for the latency queries (default: <corpus>/topics.xml if any)")
    p.add_argument("--java-threads", type=int, default=2, help="Java indexing threads for both indexers")
    p.add_argument("--threads", type=int, default=3000, help="synthetic threads (a third per language)")
    p.add_argument("--posts", type=int, default=12, help="posts per synthetic thread")
    p.add_argument("--queries", type=int, default=100)
    p.add_argument("--repeat", type=int, default=1,
                   help="build with both indexers this many times, alternately; report the median ratio")
    p.add_argument("--bm25-posts", type=int, default=10000)
    p.add_argument("--workdir", help="keep the collection and indexes here (default: a temp folder)")


def _sentence(rng: random.Random, lang: str) -> str:
    words = WORDS[lang]
    return JOIN[lang].join(rng.choice(words) for _ in range(rng.randint(5, 14))) + END[lang]


def synth_collection(folder: Path, threads: int, posts: int, seed: int = 1) -> None:
    """Threads in the LDC layout (concatenated <doc>s, quotes, entities, links), 100 threads a file."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for lang in ("eng", "arz", "cmn"):
        n = threads // 3
        for f in range(0, n, 100):
            parts = []
            for t in range(f, min(f + 100, n)):
                tid = f"bolt-{lang}-DF-1-{f}-{t}"
                body = [f'<doc id="{tid}">\n<headline>\n{_sentence(rng, lang)}\n</headline>\n']
                prev = ""
                for p in range(1, posts + 1):
                    text = "\n".join(" ".join(_sentence(rng, lang) for _ in range(rng.randint(1, 3)))
                                     for _ in range(rng.randint(1, 4)))
                    quote = (f'<quote orig_author="u{p - 1}">\n{prev}\n</quote>\n'
                             if prev and rng.random() < 0.25 else "")
                    link = ' <a href="http://example.com/x?a=1&amp;b=2">link</a> &amp; more' if rng.random() < 0.2 else ""
                    body.append(f'<post author="u{p}" datetime="2012-01-01T00:00:00" id="p{p}">\n'
                                f"{quote}{text}{link}\n</post>\n")
                    prev = text.split("\n")[0]
                body.append("</doc>\n")
                parts.append("".join(body))
            (folder / f"{lang}-{f:06d}.xml").write_text("".join(parts), encoding="utf-8")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _phase_bolt(paths, out, backend, queries, q):
    from indexing import jvm
    from indexing.search import build_index, open_index

    if backend == "lucene":
        jvm.lucene()
    shutil.rmtree(out, ignore_errors=True)  # the previous run's index goes before the clock, as JsonCollection's does
    load0, c0, t0 = _load(), _cpu_s(), time.perf_counter()
    m = build_index(paths, out, backend=backend, force=True, progress=False)
    build, cpu, load1 = time.perf_counter() - t0, _cpu_s() - c0, _load()
    lat = []
    with open_index(out) as s:
        t1 = time.perf_counter()
        for lang in s.langs:  # warm-up: opens each Lucene searcher / builds each BM25 model
            s.search(queries[0], k=10, lang=lang)
        warm = time.perf_counter() - t1
        for query in queries:
            t = time.perf_counter()
            s.search(query, k=10)
            lat.append(time.perf_counter() - t)
    q.put({"build_s": build, "cpu_s": cpu, "load": [load0, load1], "open_s": warm, "latencies": lat,
           "counts": m["counts"], "peak_mb": _peak_mb()})


def _phase_jsoncollection(index_dir, json_root, threads, q):
    """Anserini's own indexer over the same units as JSON, one run per language (same analyzers)."""
    from indexing import jvm
    from indexing.analysis import AnalysisConfig

    L = jvm.lucene()
    index_collection = L.autoclass("io.anserini.index.IndexCollection")
    load0, c0, t0 = _load(), _cpu_s(), time.perf_counter()
    for d in sorted(Path(json_root).iterdir()):
        lang = d.name
        index_collection.main(["-collection", "JsonCollection", "-input", str(d), "-index",
                               str(Path(index_dir) / lang), "-generator", "DefaultLuceneDocumentGenerator",
                               "-threads", str(threads), "-language", AnalysisConfig().lucene_language(lang),
                               "-memoryBuffer", "256", "-quiet"])
    q.put({"build_s": time.perf_counter() - t0, "cpu_s": _cpu_s() - c0, "load": [load0, _load()],
           "peak_mb": _peak_mb()})


def _run(target, *args) -> dict:
    """Run one phase in a fresh Python process (this file as a script); its result is JSON."""
    import subprocess
    import sys

    payload = json.dumps({"phase": target.__name__, "args": list(args)})
    r = subprocess.run([sys.executable, __file__, payload], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"benchmark phase {target.__name__} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


class _Out:
    def put(self, result: dict) -> None:
        print(json.dumps(result))


def _dump_json(units_db: Path, out: Path, files_per_lang: int = 2) -> int:
    """The units of a built index as JsonCollection files: ``files_per_lang`` files per language
    (round robin, so IndexCollection's threads all work), the same prepared text Lucene got."""
    from indexing.analysis import AnalysisConfig
    from indexing.units import UnitTable

    a = AnalysisConfig()
    db = UnitTable(units_db)
    files: dict[str, list] = {}
    n = 0
    for uid, lang, text in db.texts():
        fs = files.get(lang)
        if fs is None:
            (out / lang).mkdir(parents=True, exist_ok=True)
            fs = files[lang] = [open(out / lang / f"docs-{i}.jsonl", "w", encoding="utf-8")
                                for i in range(max(1, files_per_lang))]
        fs[n % len(fs)].write(json.dumps({"id": str(uid), "contents": a.prepare(text, lang)},
                                         ensure_ascii=False) + "\n")
        n += 1
    for fs in files.values():
        for f in fs:
            f.close()
    db.close()
    return n


def _topic_queries(path, n: int) -> list[str]:
    """Every topic's query, then one nugget sentence per facet (in its own language), up to ``n``."""
    from bolt.formats.topics import read_topics

    topics = read_topics(path)
    pool = [t.query for t in topics]
    pool += [f.nuggets[0].text if f.nuggets else f.desc for t in topics for f in t.facets]
    return [pool[i % len(pool)] for i in range(n)] if pool else []


def _resolve_corpus(paths: list[str], topics: str | None) -> tuple[list[str], str | None]:
    """A gen_corpus.py output folder stands for its ``corpus/`` (and offers its ``topics.xml``)."""
    out = []
    for p in paths:
        d = Path(p)
        if (d / "corpus").is_dir() and (d / "topics.xml").is_file():
            out.append(str(d / "corpus"))
            topics = topics or str(d / "topics.xml")
        else:
            out.append(p)
    return out, topics


def _queries(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        lang = ("eng", "arz", "cmn")[i % 3]
        out.append(JOIN[lang].join(rng.sample(WORDS[lang], rng.randint(2, 4))))
    return out


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def _subset(paths, out: Path, posts: int) -> int:
    """The first threads of the collection holding ``posts`` posts, round-robin over languages."""
    from indexing.reader import iter_threads

    by_lang: dict[str, list] = {}
    held: dict[str, int] = {}
    for t in iter_threads(paths, skip_bad=True):  # keep at most ``posts`` posts of each language
        if held.get(t.lang, 0) < posts:
            by_lang.setdefault(t.lang, []).append(t)
            held[t.lang] = held.get(t.lang, 0) + len(t.posts)
    chosen, n = [], 0
    iters = [iter(v) for v in by_lang.values()]
    while n < posts and iters:
        for it in list(iters):
            t = next(it, None)
            if t is None:
                iters.remove(it)
                continue
            chosen.append(t)
            n += len(t.posts)
            if n >= posts:
                break
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "subset.xml", "w", encoding="utf-8") as f:
        for t in chosen:
            f.write(t.raw if t.raw.startswith("<doc") else t.raw[t.raw.index("<doc"):])
            f.write("\n")
    return n


def run(args) -> dict:
    work = Path(args.workdir or tempfile.mkdtemp(prefix="bench-index-"))
    work.mkdir(parents=True, exist_ok=True)
    topics = args.topics
    if args.corpus:
        paths, topics = _resolve_corpus(args.corpus, topics)
    else:
        coll = work / "collection"
        if not coll.exists():
            synth_collection(coll, args.threads, args.posts)
        paths = [str(coll)]
    from indexing.manifest import list_inputs

    mb = sum(f.stat().st_size for f in list_inputs(paths)) / 1e6
    queries = _topic_queries(topics, args.queries) if topics else _queries(args.queries)

    json_root = work / "json"
    runs = []
    for i in range(max(1, args.repeat)):  # alternate the two indexers so both see the same load
        ours = _run(_phase_bolt, paths, str(work / "idx-lucene"), "lucene", queries)
        if i == 0:
            shutil.rmtree(json_root, ignore_errors=True)
            _dump_json(work / "idx-lucene" / "units.sqlite", json_root, args.java_threads)
        shutil.rmtree(work / "idx-json", ignore_errors=True)
        theirs = _run(_phase_jsoncollection, str(work / "idx-json"), str(json_root), args.java_threads)
        runs.append((theirs["build_s"] / ours["build_s"], ours, theirs))
    ratio, ours, theirs = sorted(runs, key=lambda r: r[0])[(len(runs) - 1) // 2]  # the median run
    posts = sum(c["posts"] for c in ours["counts"].values())
    units = sum(c["passages"] + c["post_units"] for c in ours["counts"].values())

    sub = work / "subset"
    shutil.rmtree(sub, ignore_errors=True)
    sub_posts = _subset(paths, sub, args.bm25_posts)
    small_l = _run(_phase_bolt, [str(sub)], str(work / "sub-lucene"), "lucene", queries)
    small_b = _run(_phase_bolt, [str(sub)], str(work / "sub-bm25"), "bm25", queries)
    b_build = small_b["build_s"] + small_b["open_s"]  # rank-bm25 builds its models when opened
    l_build = small_l["build_s"] + small_l["open_s"]

    p50 = _pct(ours["latencies"], 50) * 1000
    result = {
        "collection": {"paths": paths, "mb": round(mb, 1), "posts": posts, "units": units,
                       "threads": sum(c["threads"] for c in ours["counts"].values())},
        "bolt_index": {"seconds": round(ours["build_s"], 2), "mb_per_s": round(mb / ours["build_s"], 2),
                       "posts_per_s": round(posts / ours["build_s"]), "units_per_s": round(units / ours["build_s"]),
                       "cpu_s": round(ours["cpu_s"], 1), "load_avg_before_after": ours["load"],
                       "peak_mb": round(ours["peak_mb"])},
        "jsoncollection": {"seconds": round(theirs["build_s"], 2), "mb_per_s": round(mb / theirs["build_s"], 2),
                           "posts_per_s": round(posts / theirs["build_s"]),
                           "units_per_s": round(units / theirs["build_s"]), "cpu_s": round(theirs["cpu_s"], 1),
                           "load_avg_before_after": theirs["load"], "peak_mb": round(theirs["peak_mb"])},
        "throughput_ratio": round(ratio, 3), "throughput_target": 0.7,
        "cpu_ratio": round(theirs["cpu_s"] / ours["cpu_s"], 3),
        "runs": [{"bolt_s": round(o["build_s"], 2), "jsoncollection_s": round(t["build_s"], 2), "ratio": round(r, 3),
                  "cpu_ratio": round(t["cpu_s"] / o["cpu_s"], 3), "load_avg": o["load"] + t["load"]}
                 for r, o, t in runs],
        "query_latency_ms": {"queries": len(queries), "source": topics or "synthetic words", "p50": round(p50, 2),
                             "p95": round(_pct(ours["latencies"], 95) * 1000, 2), "target_p50": 50},
        "bm25_vs_lucene": {
            "posts": sub_posts,
            "lucene": {"build_s": round(l_build, 2), "query_p50_ms": round(_pct(small_l["latencies"], 50) * 1000, 2),
                       "query_p95_ms": round(_pct(small_l["latencies"], 95) * 1000, 2),
                       "peak_mb": round(small_l["peak_mb"]), "load_avg_before_after": small_l["load"]},
            "bm25": {"build_s": round(b_build, 2), "query_p50_ms": round(_pct(small_b["latencies"], 50) * 1000, 2),
                     "query_p95_ms": round(_pct(small_b["latencies"], 95) * 1000, 2),
                     "peak_mb": round(small_b["peak_mb"]), "load_avg_before_after": small_b["load"]},
            "build_ratio_bm25_over_lucene": round(b_build / l_build, 2),
            "query_ratio_bm25_over_lucene": round(_pct(small_b["latencies"], 50) / _pct(small_l["latencies"], 50), 2),
        },
        "workdir": str(work),
    }
    failed = []
    if ratio < 0.7:
        failed.append("throughput_ratio")
    if p50 > 50:
        failed.append("query_latency_p50")
    result["failed_targets"] = failed
    return result


if __name__ == "__main__":
    import sys

    spec = json.loads(sys.argv[1])
    globals()[spec["phase"]](*spec["args"], _Out())
