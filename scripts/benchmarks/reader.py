"""Reader throughput: MB/s of thread XML read into records, against a bare lxml parse of the same bytes.

Both are timed in the same run, interleaved, best of ``--repeat`` runs. The primary figure is
CPU time of this process (``time.process_time``), which a busy machine disturbs far less than
wall-clock time; wall-clock figures are reported too. Three depths of reading are measured:

- ``threads``: ``iter_threads`` as shipped: every thread decoded, cut, checked for well-formedness
  (libxml2) and structure, with id, language, headline and raw text (and, since the reader finds
  them while reading, its posts; a thread of unusual layout leaves them to first use);
- ``posts``: the same, then every ``Thread.posts`` (ids, authors, dates, raw spans);
- ``pieces``: the same, then every post's text pieces (raw spans, decoded text, quote depth).

The target (ratio >= 0.33, ours / bare lxml) is checked on ``posts``: records fully read (every
thread and every post's id, author, datetime and raw span), not left to be found on first use.
The other two depths are reported as extra rows. The machine's load average is reported with
the figures, since a loaded machine lowers both readers' speeds (the ratio much less).
Input: ``--paths`` (default: ``../shared/real-samples/bolt-eng-DF-215.xml`` when present, else a
generated multilingual collection of the same size).
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
REAL = REPO.parent / "shared" / "real-samples" / "bolt-eng-DF-215.xml"
TARGET = 0.33


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--paths", nargs="*", default=None, help="thread files to read (default: see module doc)")
    p.add_argument("--repeat", type=int, default=15, help="timed runs of each reader (best is kept)")
    p.add_argument("--synthetic-threads", type=int, default=60, help="threads to generate without --paths")


def synthetic_collection(folder: Path, n_threads: int = 60, seed: int = 7) -> Path:
    """A concatenated-``<doc>`` file of generated eng/arz/cmn threads with quotes, entities, links."""
    rng = random.Random(seed)
    words = {"eng": "the seller refund item buyer paid shipping return policy feedback".split(),
             "arz": "البائع المشتري الشحن استرداد المنتج السعر الطلب".split(),
             "cmn": "卖家 买家 退款 运费 商品 评价 政策".split()}
    out = []
    for t in range(n_threads):
        lang = ("eng", "arz", "cmn")[t % 3]
        posts = []
        for k in range(1, rng.randint(10, 40)):
            text = " ".join(rng.choice(words[lang]) for _ in range(rng.randint(20, 120)))
            body = f"\n{text} &amp; more &lt;3\n"
            if k > 1 and rng.random() < 0.3:
                body = f'\n<quote orig_author="u{k - 1}">\nquoted {text[:60]}\n</quote>\n' + body
            if rng.random() < 0.3:
                body += '<a href="http://example.com/x?a=1&amp;b=2">link</a> <img src="i.gif"/>\n'
            posts.append(f'<post author="u{k}" datetime="2012-03-09T00:0{k % 10}:00" id="p{k}">{body}</post>\n')
        out.append(f'<doc id="bolt-{lang}-DF-1-2-{t}">\n<headline>\nthread {t}\n</headline>\n{"".join(posts)}</doc>\n')
    path = folder / "synthetic.xml"
    path.write_text("".join(out), encoding="utf-8")
    return path


def _bare_lxml(paths: list[Path]) -> int:
    """Parse each file's bytes with lxml (a root element added around concatenated docs)."""
    from lxml import etree

    n = 0
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    for p in paths:
        data = p.read_bytes()
        if data.lstrip().startswith(b"<?xml"):
            data = data[data.index(b"?>") + 2:]
        root = etree.fromstring(b"<r>" + data + b"</r>", parser)
        n += len(root)
    return n


def _ours(paths: list[Path], depth: str) -> int:
    from indexing.reader import iter_threads

    n = 0
    for t in iter_threads(paths):
        n += 1
        if depth != "threads":
            for post in t.posts:
                if depth == "pieces":
                    post.pieces
    return n


def _best(fn, repeat: int) -> tuple[float, float]:
    cpu = wall = float("inf")
    for _ in range(repeat):
        gc.collect()
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - w0)
    return cpu, wall


def run(args: argparse.Namespace) -> dict:
    from indexing.records import _post_pieces

    tmp = None
    if args.paths:
        paths = [Path(p) for p in args.paths]
        source = "given paths"
    elif REAL.exists():
        paths = [REAL]
        source = "real sample bolt-eng-DF-215.xml"
    else:
        tmp = tempfile.TemporaryDirectory()
        paths = [synthetic_collection(Path(tmp.name), args.synthetic_threads)]
        source = f"synthetic ({args.synthetic_threads} threads)"
    size_mb = sum(p.stat().st_size for p in paths) / 1e6
    _ours(paths, "threads"), _bare_lxml(paths)  # warm-up: imports, page cache
    figures: dict[str, dict] = {}
    lxml_cpu = lxml_wall = float("inf")
    for depth in ("threads", "posts", "pieces"):
        for _ in range(2):  # interleave the two readers to share the machine's state
            c, w = _best(lambda: _bare_lxml(paths), max(1, args.repeat // 2))
            lxml_cpu, lxml_wall = min(lxml_cpu, c), min(lxml_wall, w)
            _post_pieces.cache_clear()
            c, w = _best(lambda: (_post_pieces.cache_clear(), _ours(paths, depth)), max(1, args.repeat // 2))
            f = figures.setdefault(depth, {"cpu_s": c, "wall_s": w})
            f["cpu_s"], f["wall_s"] = min(f["cpu_s"], c), min(f["wall_s"], w)
    lxml_mbs = size_mb / lxml_cpu
    result = {
        "input": source, "files": len(paths), "megabytes": round(size_mb, 3),
        "thread_count": _ours(paths, "threads"),
        "bare_lxml": {"MB_per_s_cpu": round(lxml_mbs, 1), "MB_per_s_wall": round(size_mb / lxml_wall, 1)},
    }
    for depth, f in figures.items():
        result[depth] = {"MB_per_s_cpu": round(size_mb / f["cpu_s"], 1),
                         "MB_per_s_wall": round(size_mb / f["wall_s"], 1),
                         "ratio_to_lxml_cpu": round(lxml_cpu / f["cpu_s"], 3),
                         "ratio_to_lxml_wall": round(lxml_wall / f["wall_s"], 3)}
    ratio = result["posts"]["ratio_to_lxml_cpu"]
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    result["target"] = {"metric": "posts.ratio_to_lxml_cpu", "min": TARGET, "value": ratio, "met": ratio >= TARGET}
    result["failed_targets"] = [] if ratio >= TARGET else ["posts.ratio_to_lxml_cpu"]
    if tmp is not None:
        tmp.cleanup()
    return result
