"""The fast paths of reading and scoring (issue 8) give exactly what the careful definitions give."""
from __future__ import annotations

import gc
import json
import random
import re
from typing import NamedTuple

import pytest

from indexing.problems import ProblemsError
from bolt.formats.topics import Facet, Nugget, Topic
from evaluation import judgments as J
from evaluation.judgments import JudgedSource, Judgment, gc_paused, parse_judgment, read_judgments
from evaluation.metrics import TopicStats
from evaluation.metrics.citation import reduce_citations
from evaluation.metrics.err import err_facet, reduce_err
from evaluation.metrics.facet import reduce_facets
from evaluation.scoring import build_stats, count_words, non_ws_chars


class Source(NamedTuple):
    thread: str
    offset: int


class Bullet(NamedTuple):
    position: int
    text: str
    sources: tuple


class Result(NamedTuple):
    topic_id: str
    bullets: tuple


class Run(NamedTuple):
    run_id: str
    path: str
    results: dict


def test_non_ws_chars_agrees_with_the_regex_definition_on_every_code_point():
    ws = re.compile(r"\s+")
    chars = "".join(chr(cp) for cp in range(0x110000))
    assert non_ws_chars(chars) == len(ws.sub("", chars)) == 0x110000 - 29  # 29 white-space code points
    assert non_ws_chars(" a\u3000b\u00a0c\u2028\x1c d\t") == 4


GOOD = {"topic": "1.001", "run": "r", "bullet": 2, "assessor": "a", "facets": ["1", "3"], "words": 9,
        "responsive_words": 4, "sources": [{"post": "t", "offset": 5, "unit": "p2", "supports": True}]}
VARIANTS = [
    GOOD,
    {**GOOD, "facets": [" 1", 3]},                                   # normalised by the careful path
    {**GOOD, "notes": "x", "chars": 12},                              # extras kept
    {**GOOD, "sources": [{"post": "t", "offset": 5, "supports": False}]},            # no unit
    {**GOOD, "sources": [{"post": "t", "offset": 5, "unit": None, "supports": True, "facets": ["3"],
                          "evidence": {"score": 0.5}}]},
    {**GOOD, "sources": [{"post": "t", "offset": 5, "unit": "", "supports": True}]},  # "" read as None
    {**GOOD, "sources": []},
    {**GOOD, "bullet": True}, {**GOOD, "words": 3}, {**GOOD, "facets": [""]}, {**GOOD, "topic": 1.001},
    {**GOOD, "sources": [{"post": "t", "offset": -1, "unit": "p", "supports": True}]},
    {**GOOD, "sources": [{"post": "t", "offset": 1, "unit": "p", "supports": 1}]},
    {k: v for k, v in GOOD.items() if k != "facets"},
    {**GOOD, "_meta": {}},
]


@pytest.fixture(params=["orjson", "json"])
def decoder(request, monkeypatch):
    """Both decoders: orjson when installed, and the stdlib fallback."""
    if request.param == "json":
        monkeypatch.setattr(J.read, "_fast_loads", None)
    elif J.read._fast_loads is None:
        pytest.skip("orjson is not installed")
    return request.param


# What the careful checks of the three former parsers gave for VARIANTS (before they became one):
# the judgment's facets, its sources' (unit, facets, extra) and its extra; or the error message.
EXPECTED = [
    (("1", "3"), [("p2", None, {})], {}),
    (("1", "3"), [("p2", None, {})], {}),
    (("1", "3"), [("p2", None, {})], {"notes": "x", "chars": 12}),
    (("1", "3"), [(None, None, {})], {}),
    (("1", "3"), [(None, ("3",), {"evidence": {"score": 0.5}})], {}),
    (("1", "3"), [(None, None, {})], {}),
    (("1", "3"), [], {}),
    "bullet must be the 1-based position of the bullet, got True",
    "responsive_words must be an integer between 0 and words (3), got 4",
    "facets holds ''; facet ids are non-empty strings such as \"1\"",
    'topic must be a string such as "1.001", got 1.001; quote it: "1.001"',
    "sources[0].offset must be a non-negative integer, got -1",
    "sources[0].supports must be true or false, got 1",
    "missing required key facets; each line needs topic, run, bullet, facets, sources",
    (("1", "3"), [("p2", None, {})], {"_meta": {}}),
]


@pytest.mark.parametrize("obj, expected", list(zip(VARIANTS, EXPECTED)))
def test_the_one_parser_normalises_or_says_what_to_fix(obj, expected, tmp_path, decoder):
    try:
        j = parse_judgment(obj, 7)
    except ValueError as exc:
        got = str(exc)
    else:
        assert (j.topic_id, j.run, j.bullet, j.assessor, j.words, j.line) == ("1.001", "r", 2, "a", 9, 7)
        got = (j.facets, [(s.unit, s.facets, s.extra) for s in j.sources], j.extra)
    assert got == expected
    # the file reader (orjson first, json when it must) reads the line as parse_judgment does
    p = tmp_path / "one.jsonl"
    p.write_text("\n" * 6 + json.dumps(obj) + "\n", encoding="utf-8")
    try:
        read = read_judgments(p)
    except ProblemsError as exc:
        assert isinstance(expected, str) and [q.message for q in exc.problems] == [expected]
    else:
        if "_meta" in obj:  # a line holding the header key is the header
            assert read == []
        else:
            assert read == [j] and read[0].extra == j.extra and read[0].line == 7


def test_reader_matches_json_for_lines_orjson_reads_differently(tmp_path, decoder):
    big = 10 ** 22  # orjson reads integers beyond 64 bits as floats; json keeps them
    lines = [json.dumps({"_meta": {"v": 1}}), json.dumps(GOOD), "   ",
             json.dumps({**GOOD, "bullet": 3, "notes": big}),
             json.dumps({**GOOD, "bullet": 4, "score": float("nan")}),   # NaN: json only
             json.dumps({**GOOD, "bullet": 5, "note": "\ud83d"}),          # lone surrogate escape: json only
             json.dumps({**GOOD, "bullet": 6, "facets": [1]})]
    p = tmp_path / "j.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    js = read_judgments(p)
    assert [j.bullet for j in js] == [2, 3, 4, 5, 6]
    assert js[1].extra == {"notes": big} and type(js[1].extra["notes"]) is int
    assert js[2].extra["score"] != js[2].extra["score"]  # NaN kept as json reads it
    assert js[3].extra == {"note": "\ud83d"} and js[4].facets == ("1",)
    assert [j.line for j in js] == [2, 4, 5, 6, 7]


def test_reader_errors_keep_json_messages_and_duplicates(tmp_path, decoder):
    p = tmp_path / "bad.jsonl"
    p.write_text(json.dumps(GOOD) + "\n{\"topic\": \n" + json.dumps(GOOD) + "\n", encoding="utf-8")
    with pytest.raises(ProblemsError) as exc:
        read_judgments(p)
    msgs = [pr.message for pr in exc.value.problems]
    with pytest.raises(json.JSONDecodeError) as ref:
        json.loads('{"topic": \n')
    assert msgs[0].startswith(f"not valid JSON ({ref.value.msg} at column {ref.value.colno}); ")  # json's words
    assert "first at line 1" in msgs[1]


def test_gc_paused_restores_the_collector_state():
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_freeze_count() == frozen
    gc.disable()
    try:
        with pytest.raises(RuntimeError):
            with gc_paused():
                raise RuntimeError
        assert not gc.isenabled()
    finally:
        gc.enable()


# ----------------------------------------------------------------------- scoring vs the definitions

def _reference(topic, runs, jidx):
    """The statistics straight from the definitions (docs/metrics.md), no shortcuts: the oracle."""
    known = [f.id for f in topic.facets]
    pool, c_i = set(), {f: set() for f in known}
    judged_units = {}
    for j in jidx.values():
        for s in j.sources:
            if s.unit:
                judged_units.setdefault((s.post, s.offset), s.unit)
    for f in topic.facets:
        for n in f.nuggets:
            u = (n.post, judged_units.get((n.post, n.offset)) or f"@{n.offset}")
            pool.add(u)
            c_i[f.id].add(u)
    rows = {}
    for run in runs:
        out = []
        for k, b in enumerate(run.results[topic.topic_id].bullets, start=1):
            j = jidx.get((topic.topic_id, run.run_id, k))
            if j is None:
                out.append((b, None, [], []))
                continue
            m_k = [f for f in j.facets if f in known]
            sup = []
            for s in j.sources:
                if s.supports:
                    fs = tuple(f for f in (s.facets if s.facets is not None else m_k) if f in m_k)
                    u = (s.post, s.unit or f"@{s.offset}")
                    sup.append((u, fs))
                    pool.add(u)
                    for f in fs:
                        c_i[f].add(u)
            out.append((b, j, [f for f in m_k if any(f in fs for _, fs in sup)], sup))
        rows[run.run_id] = out
    res = {}
    for run in runs:
        covered, wasted, cited, steps = [], 0.0, set(), {}
        tot = supp = 0
        for b, j, eff, sup in rows[run.run_id]:
            if j is None:
                wasted += count_words(b.text)
                tot += len(b.sources)
                continue
            tot, supp = tot + len(j.sources), supp + len(sup)
            new = [f for f in eff if f not in covered]
            covered += new
            # W_k is the text's count; the judgment's own count only says how many words it struck
            big_w = count_words(b.text)
            small_w = min(big_w, max(0, big_w - (j.words - j.responsive_words)))
            wasted += big_w - small_w if new else big_w
            for f in eff:
                mine = {u for u, fs in sup if f in fs} - cited
                frac = small_w / big_w if big_w else 0.0
                steps.setdefault(f, []).append((len(mine & c_i[f]), len(c_i[f] - cited), len(c_i[f]), frac))
            cited |= {u for u, _ in sup}
        res[run.run_id] = (tuple(covered), wasted, tot, supp, len(cited & pool), len(pool),
                           sum(err_facet(s, True) for s in steps.values()),
                           sum(err_facet(s, False) for s in steps.values()))
    return res


def test_statistics_equal_the_definitions_on_random_judgments():
    rng = random.Random(8)
    facets = tuple(Facet(str(i), "vital" if i < 3 else "okay", f"f{i}",
                         (Nugget("a b c", f"t{i % 3}", 10 * i),)) for i in range(1, 7))
    topic = Topic("1.001", "q", facets=facets)
    runs, judged = [], []
    for r in range(6):
        bullets = []
        for k in range(1, 16):
            srcs = tuple(Source(f"t{rng.randrange(3)}", 10 * rng.randrange(8)) for _ in range(rng.randint(0, 3)))
            bullets.append(Bullet(k, "x y  z\u00a0w " * rng.randint(1, 3), srcs))
            if rng.random() < 0.15:
                continue  # unjudged
            words = rng.randint(0, 9)
            judged.append(Judgment(
                "1.001", f"r{r}", k, "a", tuple(str(rng.randint(1, 8)) for _ in range(rng.randint(0, 3))),
                words, rng.randint(0, words),
                tuple(JudgedSource(s.thread, s.offset, rng.choice((None, "p1", "p2")), rng.random() < 0.7,
                                   rng.choice((None, ("1",), ("2", "3"), ()))) for s in srcs)))
        runs.append(Run(f"r{r}", "x", {"1.001": Result("1.001", tuple(bullets))}))
    # a collection that knows none of these threads: every unit not in a judgment is its offset
    table = build_stats([topic], runs, [judged], avg_nugget_words=3.0, unit_of=lambda thread, offset: None)
    ref = _reference(topic, runs, {j.key: j for j in judged})
    for run in runs:
        st: TopicStats = table.stats[run.run_id]["1.001"]
        fs, cs, es = st.of(reduce_facets), st.of(reduce_citations), st.of(reduce_err)
        got = (fs.covered, fs.wasted_words, cs.sources_total, cs.sources_supporting, cs.units_cited,
               cs.units_relevant, es.err_residual, es.err_total)
        assert got == ref[run.run_id]
    # the random judgments exercise ERR's gains, not only zeros
    assert any(table.stats[r.run_id]["1.001"].of(reduce_err).err_residual > 0 for r in runs)
