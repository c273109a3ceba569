#!/usr/bin/env python3
"""Generate a BOLT-sized synthetic forum collection with planted topics, for benchmarks.

``python scripts/gen_corpus.py --out DIR [--seed 13] [--scale 1.0] [--topics 50] [--gzip] [--jobs 2]``

Defaults follow BOLT phase 1: 13,000 English, 43,000 Egyptian Arabic and 49,000 Mandarin threads,
multiplied by ``--scale``. Threads are written in the LDC layout (SPEC §2): ``DIR/corpus/<lang>/
bolt-<lang>-DF-<site>-<nnnnn>.xml[.gz]``, about 1,000 concatenated ``<doc>`` elements per file, ids
``bolt-<lang>-DF-<site>-<forum>-<thread>``. Posts per thread and words per post are lognormal
(median 6 posts, 35 words; capped), the vocabulary is synthetic but script-appropriate and
Zipf-distributed, and posts sometimes quote earlier posts (nested now and then), carry ``&amp;``,
links and images.

``DIR/topics.xml`` holds ``--topics`` topics (SPEC §3). Each facet's nugget is a sentence planted in
one post of one thread; it holds the topic's made-up entity name and rare made-up words, so a
search for the query can find it, and its offset (from ``<doc``) is known exactly.
``DIR/summary.json`` gives counts and bytes.

Deterministic: every file draws from its own ``random.Random`` seeded with ``(seed, lang, file)``,
so the same seed gives byte-identical output whatever ``--jobs`` is (gzip is written with mtime 0).
"""
from __future__ import annotations

import argparse
import gzip
import io
import json
import math
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

BOLT_THREADS = {"eng": 13_000, "arz": 43_000, "cmn": 49_000}
SITES = {"eng": 501, "arz": 503, "cmn": 505}
THREADS_PER_FILE = 1000
POSTS_MEDIAN, POSTS_SIGMA, POSTS_MAX = 6.0, 0.9, 300
WORDS_MEDIAN, WORDS_SIGMA, WORDS_MAX = 35.0, 1.0, 2500
VOCAB_SIZE = 20_000

_COMMON = {
    "eng": "the to and a of I is it you that in for on my this be have not with but was are they "
           "just if so what do can he at your me we there will one no would like all about get know "
           "think people as or from any an out up when time had been more".split(),
    "arz": "في من على انا ده دي مش اللي يعني بس كده عايز مفيش بجد ازاي دلوقتي احنا هو هي ايه "
           "لو كان ما لا والله طب اه حد كل عشان برضه خالص اوي حاجة ليه امتى فين".split(),
    "cmn": "的 是 了 我 你 在 有 不 这 个 人 们 也 就 都 说 要 会 好 他 吗 没 很 还 吧 啊 什么 知道 "
           "觉得 现在 因为 所以 可以 自己 一个 没有 我们 他们 大家 问题 时候".split(),
}
_LATIN_C, _LATIN_V = "bcdfghklmnprstvwz", "aeiou"
_ARABIC = "ابتثجحخدذرسشصضطظعغفقكلمنهوي"
_END = {"eng": ".!?", "arz": ".؟!", "cmn": "。！？"}
_SEP = {"eng": " ", "arz": " ", "cmn": ""}
_CLAUSE = {"eng": ",", "arz": "،", "cmn": "，"}


# --------------------------------------------------------------------------- vocabulary


def build_vocab(lang: str, seed: int) -> tuple[list[str], list[float]]:
    """A Zipf-weighted vocabulary: common function words first, then synthetic words."""
    rng = random.Random(f"{seed}:vocab:{lang}")
    words = list(_COMMON[lang])
    seen = set(words)
    while len(words) < VOCAB_SIZE:
        w = _synthetic_word(lang, rng)
        if w not in seen:
            seen.add(w)
            words.append(w)
    cum = list(accumulate(1.0 / (r + 1) ** 1.07 for r in range(len(words))))
    return words, cum


def _synthetic_word(lang: str, rng: random.Random) -> str:
    if lang == "eng":
        return "".join(rng.choice(_LATIN_C) + rng.choice(_LATIN_V) for _ in range(rng.randint(1, 4)))
    if lang == "arz":
        return "".join(rng.choice(_ARABIC) for _ in range(rng.randint(2, 6)))
    return "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(rng.choice((1, 2, 2, 2, 3))))


def rare_words(rng: random.Random, n: int) -> list[str]:
    """Made-up Latin words that the vocabulary cannot produce (they contain 'q', 'x' or 'j')."""
    out = []
    for _ in range(n):
        out.append(rng.choice("qxj") + "".join(rng.choice(_LATIN_V) + rng.choice(_LATIN_C)
                                               for _ in range(rng.randint(2, 3))))
    return out


# --------------------------------------------------------------------------- plan of planted nuggets


@dataclass(frozen=True)
class Plant:
    topic: str
    facet: str
    lang: str
    thread: int  # global index of the thread within its language
    post_pick: int  # post = post_pick % posts in thread
    text: str


def thread_counts(scale: float) -> dict[str, int]:
    return {lang: max(1, round(n * scale)) for lang, n in BOLT_THREADS.items()}


def plan_topics(seed: int, counts: dict[str, int], n_topics: int) -> tuple[list[dict], list[Plant]]:
    """Topics with 3-5 facets; each facet planted once or twice, in one or several languages."""
    rng = random.Random(f"{seed}:topics")
    langs = sorted(counts)
    topics: list[dict] = []
    plants: list[Plant] = []
    used: set[tuple[str, int]] = set()
    used_in = dict.fromkeys(langs, 0)
    for i in range(n_topics):
        number = f"9.{i + 1:03d}"
        entity = " ".join(w.capitalize() for w in rare_words(rng, 2))
        t_langs = rng.sample(langs, rng.choice((1, 1, 2, 3)))
        facets = []
        for j in range(rng.randint(3, 5)):
            fid = str(j + 1)
            importance = "vital" if j < 2 or rng.random() < 0.3 else "okay"
            key = rare_words(rng, 2)
            for k in range(rng.choice((1, 1, 2))):
                lang = t_langs[(j + k) % len(t_langs)]
                while True:  # a fresh thread while the language has one, else any of its threads
                    th = rng.randrange(counts[lang])
                    if (lang, th) not in used or used_in[lang] >= counts[lang]:
                        break
                if (lang, th) not in used:
                    used.add((lang, th))
                    used_in[lang] += 1
                plants.append(Plant(number, fid, lang, th, rng.randrange(1 << 30),
                                    _nugget_sentence(lang, entity, key, rng)))
            facets.append({"id": fid, "importance": importance, "key": key})
        topics.append({"number": number, "entity": entity, "langs": t_langs, "facets": facets})
    return topics, plants


def _nugget_sentence(lang: str, entity: str, key: list[str], rng: random.Random) -> str:
    n = rng.randint(100, 999)
    if lang == "eng":
        return f"{entity} {key[0]} {key[1]} around {n} people in the end."
    if lang == "arz":
        return f"{entity} عمل {key[0]} {key[1]} مع حوالي {n} واحد في الآخر."
    return f"{entity}最后{key[0]} {key[1]}了大约{n}个人。"


# --------------------------------------------------------------------------- writing threads


def esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Writer:
    """Draws the text of one file's threads from one seeded generator."""

    def __init__(self, lang: str, seed: int, file_no: int) -> None:
        self.lang = lang
        self.rng = random.Random(f"{seed}:{lang}:{file_no}")
        self.words, self.cum = build_vocab(lang, seed)
        self.sep = _SEP[lang]

    def sentence(self) -> str:
        rng = self.rng
        n = max(2, int(rng.lognormvariate(math.log(11), 0.5)))
        ws = rng.choices(self.words, cum_weights=self.cum, k=n)
        if n > 8 and rng.random() < 0.4:
            ws[n // 2] += _CLAUSE[self.lang]
        s = self.sep.join(ws)
        if self.lang == "eng":
            s = s[0].upper() + s[1:]
        return s + rng.choice(_END[self.lang])

    def paragraph(self, n_words: int) -> str:
        out, count = [], 0
        while count < n_words:
            s = self.sentence()
            out.append(s)
            count += len(s.split()) if self.sep else len(s) // 2
        return self.sep.join(out)

    def post_body(self, earlier: list[tuple[str, str]]) -> str:
        rng = self.rng
        n_words = min(WORDS_MAX, max(1, int(rng.lognormvariate(math.log(WORDS_MEDIAN), WORDS_SIGMA))))
        parts = []
        if earlier and rng.random() < 0.15:
            author, text = earlier[rng.randrange(len(earlier))]
            inner = ""
            if len(earlier) > 1 and rng.random() < 0.15:
                a2, t2 = earlier[0]
                inner = f'<quote orig_author="{esc(a2)}">\n{esc(_first_sentence(t2))}\n</quote>\n'
            attr = f' orig_author="{esc(author)}"' if rng.random() < 0.8 else ""
            parts.append(f"<quote{attr}>\n{inner}{esc(_first_sentence(text))}\n</quote>\n")
        text = self.paragraph(n_words)
        if rng.random() < 0.05:
            text += f" {self.words[rng.randrange(50)]} & {self.words[rng.randrange(50)]}"
        body = esc(text)
        r = rng.random()
        if r < 0.03:
            body += f'\n<a href="http://forum{rng.randrange(99)}.example.com/t/{rng.randrange(10**6)}">link</a>'
        elif r < 0.05:
            body += f'\n<img src="images/smilies/{rng.randrange(40)}.gif"/>'
        parts.append(body)
        return "".join(parts), text

    def author(self) -> str:
        rng = self.rng
        return f"{self.words[rng.randrange(200, 5000)]}{rng.randrange(100)}"


def _first_sentence(text: str) -> str:
    for i, ch in enumerate(text):
        if ch in ".!?。！？؟" and i > 10:
            return text[: i + 1]
    return text[:200]


def write_file(job: tuple) -> tuple[str, int, int, int, list[dict], int]:
    """Write one file of threads; return (path, threads, posts, bytes, nuggets, uncompressed bytes)."""
    out, lang, seed, file_no, first, count, plants, use_gzip = job
    w = Writer(lang, seed, file_no)
    rng = w.rng
    site = SITES[lang]
    by_thread: dict[int, list[Plant]] = {}
    for p in plants:
        by_thread.setdefault(p.thread, []).append(p)
    docs: list[str] = []
    nuggets: list[dict] = []
    n_posts_total = 0
    for g in range(first, first + count):
        forum = 100000 + g // 250
        tid = f"bolt-{lang}-DF-{site}-{forum}-{7000000 + g}"
        n_posts = min(POSTS_MAX, max(1, int(rng.lognormvariate(math.log(POSTS_MEDIAN), POSTS_SIGMA))))
        n_posts_total += n_posts
        planted: dict[int, list[Plant]] = {}
        for p in by_thread.get(g, ()):
            planted.setdefault(p.post_pick % n_posts, []).append(p)
        parts = [f'<doc id="{tid}">\n<headline>\n{esc(w.sentence())}\n</headline>\n']
        length = len(parts[0])
        earlier: list[tuple[str, str]] = []
        day = rng.randrange(365 * 3)
        for i in range(n_posts):
            author = w.author()
            minute = day * 1440 + i * rng.randrange(5, 600)
            stamp = _stamp(minute)
            head = f'<post author="{esc(author)}" datetime="{stamp}" id="p{i + 1}">\n'
            body, text = w.post_body(earlier)
            pre = head
            for p in planted.get(i, ()):
                offset = length + len(pre)
                nuggets.append({"topic": p.topic, "facet": p.facet, "post": tid, "offset": offset,
                                "text": p.text})
                pre += esc(p.text) + "\n"
            chunk = pre + body + "\n</post>\n"
            parts.append(chunk)
            length += len(chunk)
            earlier.append((author, text))
        parts.append("</doc>\n")
        docs.append("".join(parts))
    data = "".join(docs).encode("utf-8")
    name = f"bolt-{lang}-DF-{site}-{file_no:05d}.xml"
    path = Path(out) / lang / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if use_gzip:
        path = path.with_name(name + ".gz")
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=6) as gz:
            gz.write(data)
        payload = buf.getvalue()
    else:
        payload = data
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(payload)
    os.replace(tmp, path)
    return str(path.relative_to(out)), count, n_posts_total, len(payload), nuggets, len(data)


def _stamp(minute: int) -> str:
    import datetime as dt

    t = dt.datetime(2010, 1, 1) + dt.timedelta(minutes=minute)
    return t.strftime("%Y-%m-%dT%H:%M:00")


# --------------------------------------------------------------------------- main


def generate(out: Path, seed: int = 13, scale: float = 1.0, n_topics: int = 50, use_gzip: bool = False,
             jobs: int = 1) -> dict:
    """Write ``out/corpus/``, ``out/topics.xml`` and ``out/summary.json``; return the summary."""
    from bolt.formats.topics import Facet, Nugget, Topic, TopicProperties, write_topics

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    counts = thread_counts(scale)
    topics, plants = plan_topics(seed, counts, n_topics)
    work = []
    for lang in sorted(counts):
        n_files = math.ceil(counts[lang] / THREADS_PER_FILE)
        for f in range(n_files):
            first = f * THREADS_PER_FILE
            count = min(THREADS_PER_FILE, counts[lang] - first)
            mine = [p for p in plants if p.lang == lang and first <= p.thread < first + count]
            work.append((str(out / "corpus"), lang, seed, f + 1, first, count, mine, use_gzip))
    started = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(write_file, work, chunksize=1))
    else:
        results = [write_file(j) for j in work]
    nuggets: dict[tuple[str, str], list[Nugget]] = {}
    for _, _, _, _, ns, _ in results:
        for n in ns:
            nuggets.setdefault((n["topic"], n["facet"]), []).append(Nugget(n["text"], n["post"], n["offset"]))
    records = []
    for t in topics:
        facets = tuple(
            Facet(f["id"], f["importance"], f"What {t['entity']} did about {' '.join(f['key'])}.",
                  tuple(sorted(nuggets.get((t["number"], f["id"]), []), key=lambda n: (n.post, n.offset))))
            for f in t["facets"])
        props = TopicProperties("event", "information-about", frozenset(t["langs"]),
                                len({n.post for f in facets for n in f.nuggets}) > 1)
        records.append(Topic(t["number"], f"What did {t['entity']} do?",
                             f"Everything the collection says about {t['entity']}.", props, facets))
    write_topics(records, out / "topics.xml")
    summary = {
        "seed": seed, "scale": scale, "gzip": use_gzip,
        "threads": {lang: counts[lang] for lang in sorted(counts)},
        "posts": sum(r[2] for r in results),
        "files": len(results),
        "bytes": sum(r[3] for r in results),
        "xml_bytes": sum(r[5] for r in results),
        "topics": len(records),
        "nuggets": sum(len(v) for v in nuggets.values()),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    summary["seconds"] = round(time.perf_counter() - started, 3)
    return summary


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--seed", type=int, default=13, help="random seed (default %(default)s)")
    p.add_argument("--scale", type=float, default=1.0,
                   help="multiply the BOLT thread counts 13,000/43,000/49,000 by this (default %(default)s)")
    p.add_argument("--topics", type=int, default=50, help="number of planted topics (default %(default)s)")
    p.add_argument("--gzip", action="store_true", help="write .xml.gz files")
    p.add_argument("--jobs", type=int, default=1, help="worker processes; output does not depend on it")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    if args.scale <= 0 or args.topics < 0 or args.jobs < 1:
        parser.error("--scale must be > 0, --topics >= 0 and --jobs >= 1")
    s = generate(args.out, args.seed, args.scale, args.topics, args.gzip, args.jobs)
    threads = sum(s["threads"].values())
    print(f"{threads} threads, {s['posts']} posts, {s['files']} files, {s['bytes'] / 1e6:.1f} MB on disk "
          f"({s['xml_bytes'] / 1e6:.1f} MB of XML), "
          f"{s['topics']} topics, {s['nuggets']} nuggets in {s['seconds']:.1f} s "
          f"({s['xml_bytes'] / 1e6 / max(s['seconds'], 1e-9):.1f} MB/s of XML, {threads / max(s['seconds'], 1e-9):.0f} "
          f"threads/s) -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
