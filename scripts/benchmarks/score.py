"""Scoring benchmarks: scoring from generated judgments (target: 180 topics x 50 runs x 20 bullets <= 5 s).

Each part is a function ``bench_<part>(args) -> dict`` listed in ``PARTS``; ``--part`` picks some
(default: all). Another part (automatic assessment) can be added beside ``bench_scoring``.
"""
from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Callable

TARGET_SECONDS = 5.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--part", action="append", help="parts to run (default: all): " + ", ".join(PARTS))
    p.add_argument("--topics", type=int, default=180)
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--bullets", type=int, default=20)
    p.add_argument("--facets", type=int, default=8, help="facets per topic")
    p.add_argument("--seed", type=int, default=0)


def _generate(args, workdir: Path):
    """Topics (bolt.formats.topics records), runs (bolt.formats.submission records) and a judgments file."""
    from bolt.formats.submission import Bullet, Result, Run, Source
    from bolt.formats.topics import Facet, Nugget, Topic, TopicProperties
    from evaluation.judgments import JudgedSource, Judgment, write_judgments

    rng = random.Random(args.seed)
    topics = []
    for t in range(args.topics):
        number = f"{t // 5 + 1}.{t % 5 + 1:03d}"
        facets = tuple(Facet(str(i + 1), "vital" if i < args.facets // 2 else "okay", f"facet {i}",
                             (Nugget("word " * rng.randint(5, 20), f"bolt-eng-DF-1-{t}-{i}", 100 * i),))
                       for i in range(args.facets))
        props = TopicProperties("event", "information-about", frozenset({"eng", rng.choice(("arz", "cmn"))}),
                                rng.random() < 0.5)
        topics.append(Topic(number, f"query {t}", properties=props, facets=facets))
    runs, judgments = [], []
    for r in range(args.runs):
        rid = f"run{r:02d}"
        results = {}
        for topic in topics:
            bullets = []
            for k in range(1, args.bullets + 1):
                nsrc = rng.randint(1, 3)
                srcs = []
                for _ in range(nsrc):
                    fi = rng.randrange(args.facets)
                    srcs.append(Source(f"bolt-eng-DF-1-{topic.topic_id}-{fi}", 100 * fi + rng.randint(0, 3)))
                words = rng.randint(5, 40)
                bullets.append(Bullet(k, "w " * words, tuple(srcs)))
                facets = tuple(sorted({str(rng.randint(1, args.facets)) for _ in range(rng.randint(0, 2))}))
                judgments.append(Judgment(topic.topic_id, rid, k, "bench", facets, words, rng.randint(0, words),
                                          tuple(JudgedSource(s.thread, s.offset, f"p{s.offset // 100 + 1}",
                                                             rng.random() < 0.6) for s in srcs), {}))
            results[topic.topic_id] = Result(topic.topic_id, tuple(bullets))
        runs.append(Run(rid, f"{rid}.xml", results))
    jpath = workdir / "judgments.jsonl"
    write_judgments(judgments, jpath, header={"assessor": "bench", "version": "0"})
    return topics, runs, jpath, len(judgments)


def bench_scoring(args) -> dict:
    """Read the judgments file, build per-topic statistics, score and aggregate every metric."""
    from evaluation.judgments import load_judgments
    from evaluation.scoring import build_stats, choose_metrics, report, settings_dict

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        topics, runs, jpath, n = _generate(args, Path(tmp))
        gen = time.perf_counter() - t0
        load_start = os.getloadavg()[0]
        c0 = time.process_time()
        t0 = time.perf_counter()
        sets = [load_judgments(jpath)]
        c1, t1 = time.process_time(), time.perf_counter()
        table = build_stats(topics, runs, sets)
        c2, t2 = time.process_time(), time.perf_counter()
        metrics = choose_metrics()
        rep = report(topics, table, metrics, settings_dict(metrics, table, judgments=sets, topics_count=len(topics)))
        rep.to_json()
        c3, t3 = time.process_time(), time.perf_counter()
    total = t3 - t0
    return {
        "topics": args.topics, "runs": args.runs, "bullets_per_response": args.bullets, "judgments": n,
        "generate_seconds": round(gen, 3),
        "read_judgments_seconds": round(t1 - t0, 3), "statistics_seconds": round(t2 - t1, 3),
        "score_and_aggregate_seconds": round(t3 - t2, 3),
        "read_judgments_cpu_seconds": round(c1 - c0, 3), "statistics_cpu_seconds": round(c2 - c1, 3),
        "score_and_aggregate_cpu_seconds": round(c3 - c2, 3),
        "scoring_seconds": round(total, 3), "scoring_cpu_seconds": round(c3 - c0, 3),
        "load_average_1min_at_start": round(load_start, 2),
        "load_average_1min": round(os.getloadavg()[0], 2), "cores": os.cpu_count(),
        "target_seconds": TARGET_SECONDS, "target_met": total <= TARGET_SECONDS,
    }


PARTS: dict[str, Callable[[argparse.Namespace], dict]] = {"scoring": bench_scoring}


def run(args) -> dict:
    chosen = args.part or list(PARTS)
    out: dict = {}
    failed = []
    for name in chosen:
        if name not in PARTS:
            raise SystemExit(f"error: unknown part {name!r}; choose from {', '.join(PARTS)}")
        res = PARTS[name](args)
        out[name] = res
        if res.get("target_met") is False:
            failed.append(name)
    out["failed_targets"] = failed
    return out


# ------------------------------------------------------------------------ part: automatic assessment
# Owned by the assessor (evaluation/assessor.py). Target: end-to-end assessment rate, in embedded
# texts per second, at least ASSESS_TARGET_RATIO of the model's raw ``encode`` rate on the same
# distinct texts, measured in the same run.

ASSESS_TARGET_RATIO = 0.7
_NOUNS = ("company", "mill", "union", "bank", "court", "minister", "army", "village", "school", "hospital",
          "factory", "river", "bridge", "election", "protest", "police", "market", "farmer", "teacher", "council",
          "embassy", "airline", "newspaper", "province", "reporter", "investor", "worker", "student", "church",
          "port", "railway", "mayor", "senator", "judge", "doctor", "refugee", "festival", "storm", "drought")
_VERBS = ("bought", "closed", "opened", "criticised", "supported", "attacked", "sold", "visited", "rebuilt",
          "funded", "blocked", "investigated", "praised", "sued", "hired", "warned", "evacuated", "taxed")
_ADJS = ("large", "local", "foreign", "private", "national", "small", "old", "new", "rural", "angry", "famous")
_PLACES = ("in Cairo", "near Beijing", "in Kansas City", "in the north", "along the coast", "in 1993",
           "last spring", "after the flood", "during the strike", "before the vote", "in the capital")


def _assess_add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pool", type=int, default=30,
                   help="assess part: distinct bullets per topic that runs draw from (repeats across runs)")
    root = Path(__file__).resolve().parents[2]  # the repository; ../shared beside it holds the real data
    p.add_argument("--pairs", default=str(root.parent / "shared/ikat-dev/pairs.tsv"),
                   help="assess-calibration part: pair-label TSV (development labels) for leave-one-topic-out")
    p.add_argument("--forum-topics", default=str(root / "topics/ebay-dev.xml"),
                   help="assess-calibration part: topics of the careful forum judgments (skipped when absent)")
    p.add_argument("--forum-judgments", default=str(root / "tests/data/careful/ebay-dev.judgments.jsonl"),
                   help="assess-calibration part: careful judgments of forum bullets, with their text; every "
                   "(bullet, facet of its topic) is a labelled pair (skipped when absent)")
    p.add_argument("--previous-model", metavar="FILE",
                   help="assess-transfer part: also measure this statement model as given (e.g. v0.4's, from git)")
    p.add_argument("--write-model", metavar="FILE",
                   help="assess-calibration part: refit the statement model on all pairs and write it here "
                   "(the shipped one is evaluation/matching/statement_model.json)")
    p.add_argument("--realsumm", default=str(root.parent / "shared/unitlabels/realsumm-pairs.tsv"),
                   help="assess-transfer part: the REALSumm pair labels (news summaries)")
    p.add_argument("--embeddings", action="store_true",
                   help="assess-transfer part: also the variants that read cosine features (embeds every "
                   "text with the bundled MiniLM: about 7 minutes for REALSumm on 2 busy cores)")
    p.add_argument("--variants", action="store_true",
                   help="assess-calibration part: also measure every feature-set variant of "
                   "fitting.pairfit.VARIANTS and clause references (a few minutes more)")


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(("The", "A")), rng.choice(_ADJS), rng.choice(_NOUNS), rng.choice(_VERBS),
             rng.choice(("the", "a")), rng.choice(_ADJS), rng.choice(_NOUNS), rng.choice(_PLACES)]
    for _ in range(rng.randint(0, 3)):
        words += [rng.choice(("and", "while", "because", "so")), rng.choice(("the", "a")), rng.choice(_NOUNS),
                  rng.choice(_VERBS), rng.choice(("the", "a")), rng.choice(_NOUNS), rng.choice(_PLACES)]
    return " ".join(words) + "."


def _assess_generate(args):
    """One thread per topic (real reader), topics with 8 facets, runs drawing bullets from a pool."""
    from bolt.formats.submission import Bullet, Result, Run, Source
    from bolt.formats.topics import Facet, Nugget, Topic
    from indexing.corpus import MemoryCorpus
    from indexing.reader import parse_thread_text

    rng = random.Random(args.seed)
    topics, threads, pools = [], [], {}
    for t in range(args.topics):
        number = f"{t // 5 + 1}.{t % 5 + 1:03d}"
        tid = f"bolt-eng-DF-9-{t}-{t}"
        posts = [[_sentence(rng) for _ in range(3)] for _ in range(max(4, args.pool // 3 + 1))]
        raw = f'<doc id="{tid}">\n<headline>\nthread {t}\n</headline>\n' + "".join(
            f'<post author="u{k}" datetime="2012-01-01T00:00:00" id="p{k + 1}">\n{" ".join(p)}\n</post>\n'
            for k, p in enumerate(posts)) + "</doc>\n"
        threads.append(parse_thread_text(raw, path=f"{tid}.xml"))
        flat = [(s, raw.find(s)) for p in posts for s in p]
        pool = []
        for i in range(args.pool):
            s, off = flat[i % len(flat)]
            if rng.random() < 0.25 and (i % len(flat)) % 3 < 2:  # two consecutive sentences of one post
                s = f"{s} {flat[i % len(flat) + 1][0]}"
            pool.append((s, off))
        decoys = [raw.find(p[0]) for p in rng.sample(posts, 3)]
        facets = tuple(Facet(str(i + 1), "vital" if i < args.facets // 2 else "okay",
                             f"The {rng.choice(_ADJS)} {rng.choice(_NOUNS)} {rng.choice(_VERBS)} the {rng.choice(_NOUNS)}",
                             (Nugget(flat[(3 * i) % len(flat)][0], tid, flat[(3 * i) % len(flat)][1]),))
                       for i in range(args.facets))
        topics.append(Topic(number, f"query {t}", facets=facets))
        pools[number] = (tid, pool, decoys)
    runs = []
    for r in range(args.runs):
        results = {}
        for topic in topics:
            tid, pool, decoys = pools[topic.topic_id]
            bullets = []
            for k, (text, off) in enumerate(rng.sample(pool, min(args.bullets, len(pool))), start=1):
                srcs = [Source(tid, off)] + ([Source(tid, rng.choice(decoys))] if rng.random() < 0.2 else [])
                bullets.append(Bullet(k, text, tuple(srcs)))
            results[topic.topic_id] = Result(topic.topic_id, tuple(bullets))
        runs.append(Run(f"run{r:02d}", f"run{r:02d}.xml", results))
    return topics, runs, MemoryCorpus(threads)


def bench_assess(args) -> dict:
    """End-to-end automatic assessment vs the model's raw encode rate on the same distinct texts.

    The raw rate is measured on half of the texts just before the assessment and on the other half
    just after, so a change in machine load during the run affects both figures alike. Wall-clock
    and process CPU time are both reported (CPU time is the steadier figure on a shared machine).
    """
    from indexing.models.embedding import get_embedder
    from evaluation.assessor import Assessor, AssessorConfig
    from evaluation.judgments import write_judgments
    from evaluation.matching import lexical, text

    t0 = time.perf_counter()
    topics, runs, corpus = _assess_generate(args)
    gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    embedder = get_embedder(None)
    embedder.encode(["warm up the model once"])
    load = time.perf_counter() - t0
    dry = Assessor(topics, corpus, AssessorConfig(), embedder)
    dry._collect(runs)
    if dry._embed_units:  # the 'statement' decision reads no embedding of facet texts or bullet units
        for p in dry._preps.values():
            dry.table.add(r.text for r in p.refs)
    texts = sorted(dry.table._pending, key=len)
    del dry
    for cached in (text.sentences, text.script_lang, lexical.content_terms, lexical.stem):
        cached.cache_clear()  # the assessment must not profit from the dry run

    def raw_encode(part):
        w, c = time.perf_counter(), time.process_time()
        embedder.model.encode(part, batch_size=embedder.batch_size, normalize_embeddings=True,
                              convert_to_numpy=True, show_progress_bar=False)
        return time.perf_counter() - w, time.process_time() - c

    raw_w1, raw_c1 = raw_encode(texts[0::2])
    embedder._cache.clear()  # the assessment must embed everything itself
    with tempfile.TemporaryDirectory() as tmp:
        w0, c0 = time.perf_counter(), time.process_time()
        assessor = Assessor(topics, corpus, AssessorConfig(), embedder)
        write_judgments(assessor.assess(runs), Path(tmp) / "judgments.jsonl", assessor.header())
        total, total_cpu = time.perf_counter() - w0, time.process_time() - c0
    raw_w2, raw_c2 = raw_encode(texts[1::2])
    n = len(assessor.table)
    raw, raw_cpu = raw_w1 + raw_w2, raw_c1 + raw_c2
    st = assessor.stats
    ratio, ratio_cpu = raw / total, raw_cpu / total_cpu
    return {
        "topics": args.topics, "runs": args.runs, "bullets_per_response": args.bullets, "pool_per_topic": args.pool,
        "bullets_judged": st.bullets, "distinct_texts_embedded": n, "raw_texts_encoded": len(texts),
        "generate_seconds": round(gen, 2), "model_load_seconds": round(load, 2),
        "assess_seconds": round(total, 2), "assess_cpu_seconds": round(total_cpu, 2),
        "of_which_embedding_seconds": round(st.embed_seconds, 2),
        "of_which_collect_seconds": round(st.prepare_seconds, 2),
        "of_which_decide_seconds": round(st.decide_seconds, 2),
        "of_which_crosslingual_seconds": round(st.crosslingual_seconds, 2),
        "decision": assessor.config.decision,
        "raw_encode_seconds": round(raw, 2), "raw_encode_cpu_seconds": round(raw_cpu, 2),
        "end_to_end_texts_per_second": round(n / total, 1), "raw_encode_texts_per_second": round(len(texts) / raw, 1),
        "bullets_per_second": round(st.bullets / total, 1),
        "ratio": round(ratio, 3), "ratio_cpu_time": round(ratio_cpu, 3), "target_ratio": ASSESS_TARGET_RATIO,
        "target_met": ratio >= ASSESS_TARGET_RATIO,
        "model": embedder.model_id, "cores": os.cpu_count(), "load_average_1min": round(os.getloadavg()[0], 2),
    }


PARTS["assess"] = bench_assess
_scoring_add_arguments = add_arguments


def add_arguments(p: argparse.ArgumentParser) -> None:  # noqa: F811  (extends the scoring options)
    _scoring_add_arguments(p)
    _assess_add_arguments(p)


def bench_assess_calibration(args) -> dict:
    """The matching thresholds' calibration sweep (fitting/calibration.py); no target."""
    from indexing.models.embedding import get_embedder
    from evaluation.assessor import AssessorConfig
    from fitting.calibration import sweep

    cfg = AssessorConfig()
    res = sweep(get_embedder(None), min_terms=cfg.lexical_min_terms)
    key = f"{cfg.lexical_threshold}|{cfg.semantic_threshold}"
    res["chosen"] = {"config": repr(cfg), "lexical_threshold": cfg.lexical_threshold,
                     "semantic_threshold": cfg.semantic_threshold,
                     "lexical_or_semantic": res["lexical_or_semantic"].get(key)}
    res["development_pairs"] = _pairs_calibration(args)
    res["crosslingual"] = _crosslingual_calibration(cfg)
    return res


def _crosslingual_calibration(cfg) -> dict:
    """The multilingual cosine threshold: the one with the best kappa on the calibration set's pairs.

    The set is English (no labelled Arabic or Chinese development data exists); the sample's
    Arabic and Chinese bullets are only used to *measure* the result (docs/assessor.md).
    """
    from evaluation.agreement import binary_agreement
    from fitting.calibration import pairs
    from evaluation.matching.crosslingual import V05_COSINE, get_encoder

    ps = pairs()
    enc = get_encoder(cfg.crosslingual_model)
    texts = list(dict.fromkeys([p.desc for p in ps] + [p.bullet for p in ps]))
    vec = dict(zip(texts, enc.encode(texts)))
    cos = [float(vec[p.desc] @ vec[p.bullet]) for p in ps]
    labels = [p.positive for p in ps]
    grid = [round(0.01 * k, 2) for k in range(20, 90)]
    kappas = {t: binary_agreement(labels, [c >= t for c in cos]).kappa for t in grid}
    best = max(grid, key=lambda t: (round(kappas[t], 6), t))  # ties: the stricter threshold
    return {"model": enc.model_id, "pairs": len(ps), "best_threshold": best, "best_kappa": round(kappas[best], 4),
            "v0.5_threshold": V05_COSINE,
            "at_v0.5": binary_agreement(labels, [c >= V05_COSINE for c in cos]).as_dict(),
            "now": "a fitted per-language model (scripts/xl_assessor.py), not a cosine threshold"}


def _pairs_calibration(args) -> dict:
    """Leave-one-topic-out agreement with people on the development pairs: old rule, tuned overlap, new rule.

    Two kinds of labelled pairs, each skipped when absent: the iKAT pairs (``--pairs``: a response
    paragraph vs a nugget statement) and forum pairs from careful judgments (``--forum-topics`` /
    ``--forum-judgments``: every judged bullet vs every facet of its topic). Every threshold (and
    the new rule's features, C and threshold) is chosen on the training topics of each fold,
    over both kinds; the figures are pooled over the held-out folds, for each kind apart.
    ``--write-model`` refits the new rule on all pairs (the same procedure) and writes the JSON
    the assessor ships.
    """
    import json as _json

    from indexing.models.embedding import get_embedder
    from evaluation.matching import pairlabels as pl
    from fitting import pairfit as pf

    parts, skipped = [], {}
    embedder = get_embedder(None)
    t0 = time.perf_counter()
    if Path(args.pairs).is_file():
        parts.append(pl.prepare(pl.read_pairs(args.pairs), embedder))
    else:
        skipped["ikat"] = f"no pair-label file at {args.pairs} (give --pairs)"
    if Path(args.forum_topics).is_file() and Path(args.forum_judgments).is_file():
        parts.append(pf.prepare_judged(args.forum_topics, args.forum_judgments, embedder))
    else:
        skipped["forum"] = f"no forum topics/judgments at {args.forum_topics} / {args.forum_judgments}"
    if not parts:
        return {"skipped": "; ".join(skipped.values())}
    data = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    prep_s = time.perf_counter() - t0
    weights = pf.SOURCE_WEIGHTS if len(parts) == 2 else None
    rules = {"old_defaults": pf.rule_old_defaults, "tuned_overlap": pf.rule_tuned_overlap,
             "statement_v0.2_ikat_only": pf.rule_statement(exclude=pf.FORUM_PREFIX),
             "statement_wide_menu": pf.rule_statement(weights=weights),
             "statement_v0.3": pf.rule_statement((pf.LEXICAL,), weights=weights),
             "statement": pf.rule_statement(pf.REFIT_FEATURE_SETS, weights=weights)}
    if len(parts) < 2:  # the v0.2 row and the wide menu differ from "statement" only with both kinds
        rules.pop("statement_v0.2_ikat_only")
        rules.pop("statement_wide_menu")
    if args.variants:  # every feature-set variant measured for the current model (docs/assessor.md)
        rules.update({f"variant {k}": pf.rule_statement(v, weights=weights) for k, v in pf.VARIANTS.items()})
    res = pf.loto(data, rules, sources=pf.SOURCES, against="statement_v0.3")
    out = {"pairs": len(data.pairs), "positives": sum(data.labels), "topics": sorted(set(data.groups)),
           "skipped": skipped, "feature_seconds": round(prep_s, 1), "leave_one_topic_out": res}
    model = pf.fit_model(data.subs, data.labels, data.groups, pf.REFIT_FEATURE_SETS, weights=weights)
    out["model_fitted_on_all_pairs"] = model.to_dict()
    if args.write_model:
        Path(args.write_model).write_text(_json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        out["model_written_to"] = args.write_model
    if args.variants:  # each long facet text's clauses compared as facet texts of their own
        cparts = [pl.prepare(pl.read_pairs(args.pairs), embedder, clause_refs=True)] if Path(args.pairs).is_file() else []
        if "forum" not in skipped:
            cparts.append(pf.prepare_judged(args.forum_topics, args.forum_judgments, embedder, clause_refs=True))
        cdata = cparts[0] if len(cparts) == 1 else cparts[0] + cparts[1]
        v03 = pf.rule_statement((pf.LEXICAL,), weights=weights)
        out["clause_references"] = pf.loto(cdata, {  # same pairs, same order: v0.3 on the whole texts to compare
            "statement_v0.3": lambda _, tr, te: v03(data, tr, te),
            "lexical": pf.rule_statement((pf.LEXICAL,), weights=weights),
            "+sentence_cosine": pf.rule_statement((pf.LEXICAL + ("sentence_cosine",),), weights=weights),
            "+clause_min_coverage": pf.rule_statement(pf.REFIT_FEATURE_SETS, weights=weights)},
            sources=pf.SOURCES, against="statement_v0.3")
    new, tuned = res["statement"]["by_source"], res["tuned_overlap"]["by_source"]
    out["targets"] = {"ikat accuracy>=0.88": new["ikat"]["accuracy"] >= 0.88, "ikat kappa>=0.5": new["ikat"]["kappa"] >= 0.5}
    for src in new:
        if new[src]["n"]:
            for m in ("accuracy", "kappa"):
                out["targets"][f"{src} beats_tuned_overlap_{m}"] = new[src][m] > tuned[src][m]
    return out


PARTS["assess-calibration"] = bench_assess_calibration

FORUM_JUDGMENTS_LATER = ("tests/data/careful/ebay-dev.round2.judgments.jsonl",)
"""Careful forum judgments of rounds 2-9 (the assess-transfer part reads them with --forum-judgments)."""


def transfer_sources(args, embedder=None) -> dict:
    """The three label sources as feature matrices (``transfer.Matrix``); a missing one is skipped."""
    from evaluation.matching import pairlabels as pl
    from fitting import pairfit as pf
    from fitting.transfer import Matrix

    root = Path(__file__).resolve().parents[2]
    out = {}
    if Path(args.pairs).is_file():
        out["ikat"] = Matrix("ikat", pl.prepare(pl.read_pairs(args.pairs), embedder))
    if Path(args.realsumm).is_file():
        out["realsumm"] = Matrix("realsumm", pl.prepare(pl.read_pairs(args.realsumm), embedder))
    forum = [args.forum_judgments] + [str(root / p) for p in FORUM_JUDGMENTS_LATER if (root / p).is_file()]
    if Path(args.forum_topics).is_file() and Path(args.forum_judgments).is_file():
        out["forum"] = Matrix("forum", pf.prepare_judged(args.forum_topics, forum, embedder))
    return out


def bench_assess_transfer(args) -> dict:
    """Agreement with people held out by source (fit on two sources, test on the third) and by topic
    inside each source, for the word-overlap bar, the previous model as shipped and every variant
    (``transfer.VARIANTS``); kappa with a bootstrap interval over topics. ``--write-model`` refits the
    shipped procedure on all sources and writes it with its held-out-by-source figures."""
    import json as _json

    from fitting import transfer as tr
    from evaluation.matching.statement import load_model

    embedder = None
    if args.embeddings:
        from indexing.models.embedding import get_embedder

        embedder = get_embedder(None)
    t0 = time.perf_counter()
    mats = transfer_sources(args, embedder)
    if len(mats) < 2:
        return {"skipped": "needs at least two of the label sources (--pairs, --realsumm, --forum-*)"}
    prep = time.perf_counter() - t0
    previous = load_model(args.previous_model) if getattr(args, "previous_model", None) else None
    rules = {"word overlap (threshold tuned on the training sources)": tr.rule_overlap}
    if previous is not None:
        rules[f"{previous.name} as given (never refitted)"] = tr.rule_fixed(previous)
    lexical_only = {name: menu for name, menu in tr.VARIANTS.items()
                    if embedder is not None or not any(f in tr.EMBEDDING_FEATURES for fs in menu for f in fs)}
    rules.update({name: tr.rule_statement(menu) for name, menu in lexical_only.items()})
    rules.update({f"{name} [chosen by transfer between the training sources]": tr.rule_statement(menu, inner="source")
                  for name, menu in lexical_only.items()})
    by_source = tr.leave_one_source_out(mats, rules)
    by_topic = tr.within_source(mats, {k: v for k, v in rules.items() if k in tr.WITHIN_SOURCE_RULES
                                       or k.startswith("word overlap")})
    out = {"sources": {s: {"pairs": m.n, "positives": int(m.y.sum()), "topics": len(set(m.groups))}
                       for s, m in mats.items()},
           "feature_seconds": round(prep, 1), "leave_one_source_out": by_source, "within_source_by_topic": by_topic}
    shipped, bar = by_source[tr.SHIPPED], by_source["word overlap (threshold tuned on the training sources)"]
    out["targets"] = {f"{s} kappa>=0.6": shipped[s]["kappa"] >= 0.6 for s in mats}
    out["targets"].update({f"{s} beats_word_overlap": shipped[s]["kappa"] > bar[s]["kappa"] for s in mats})
    if args.write_model:
        model = tr.choose_and_fit(mats, tr.VARIANTS[tr.SHIPPED], name="statement-lr-3src")
        notes = dict(model.fit_notes, held_out_by_source={
            s: {k: f[k] for k in ("n", "accuracy", "kappa", "kappa_ci", "precision", "recall")}
            for s, f in shipped.items()}, held_out_by="scripts/bench.py score --part assess-transfer")
        model = type(model)(model.name, model.features, model.coefficients, model.intercept, model.threshold, notes)
        Path(args.write_model).write_text(_json.dumps(model.to_dict(), indent=1) + "\n", encoding="utf-8")
        out["model_written_to"] = args.write_model
        out["model"] = model.to_dict()
    return out


PARTS["assess-transfer"] = bench_assess_transfer
