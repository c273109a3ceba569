"""The new-sites cross-language set: topics/xl-sites.xml, its groups and its careful judgments.

The topics' nuggets are checked against the real threads by tests/test_dev_topics.py (every dev set);
here: the set's shape (eight topics per site and round, numbered apart from xl-dev; each later round on threads
the earlier ones do not use), each nugget at the exact start of its text, each topic's round for the
per-round means, and that every careful judgment names facets its topic has, so a typo in a facet id
cannot silently score as relevant.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

from bolt.formats.topics import read_topics
from evaluation.judgments import read_judgments
from indexing.reader import read_threads

REPO = Path(__file__).resolve().parents[1]
TOPICS = REPO / "topics" / "xl-sites.xml"
JUDGMENTS = REPO / "tests" / "data" / "careful" / "xl-sites.judgments.jsonl"


def test_eight_held_out_topics_per_site_and_round_numbered_apart_from_xl_dev():
    numbers = [t.topic_id for t in read_topics(TOPICS)]
    assert numbers == [f"5.{i:03d}" for i in range(1, 33)] + [f"5.{i:03d}" for i in range(101, 133)]
    xl_dev = {t.topic_id for t in read_topics(REPO / "topics" / "xl-dev.xml")}
    assert not xl_dev & set(numbers)
    rows = [line.split("\t") for line in (REPO / "topics" / "xl-sites.groups.tsv").read_text(encoding="utf-8")
            .splitlines() if line and not line.startswith("#")]
    assert {n: g for n, g in rows} == {n: "held-out" for n in numbers}


def test_every_careful_judgment_names_facets_of_its_topic_and_counts_words():
    facets = {t.topic_id: {f.id for f in t.facets} for t in read_topics(TOPICS)}
    js = read_judgments(JUDGMENTS)
    judged = {j.topic_id for j in js}
    assert judged == set(facets)  # every topic of every round is judged
    assert all(j.assessor.startswith("careful:") and "text" in j.extra for j in js)
    assert all(set(j.facets) <= facets[j.topic_id] for j in js)
    relevant = [j for j in js if j.facets]
    assert relevant and all(0 < j.responsive_words <= j.words for j in relevant)
    assert all(j.responsive_words == 0 for j in js if not j.facets)
    # a relevant bullet counts only with a supporting source: every one the readers found relevant has one
    assert all(any(s.supports for s in j.sources) for j in relevant)


def test_round_two_is_written_on_threads_round_one_does_not_use():
    threads = {t.topic_id: {n.post for f in t.facets for n in f.nuggets} for t in read_topics(TOPICS)}
    first = set().union(*(v for k, v in threads.items() if k <= "5.008" or "5.101" <= k <= "5.108"))
    second = set().union(*(v for k, v in threads.items() if "5.009" <= k <= "5.016" or "5.109" <= k <= "5.116"))
    assert second and not first & second
    # five of the sixteen round-2 topics need more than one thread, and each topic says so in <threads multiple>
    multi = {t.topic_id for t in read_topics(TOPICS) if t.properties.multiple_threads}
    assert multi == {k for k, v in threads.items() if len(v) > 1}
    assert sorted(k for k in multi if "5.009" <= k <= "5.016" or "5.109" <= k <= "5.116") == ["5.011", "5.015", "5.109", "5.111", "5.114"]


def test_round_three_is_written_on_threads_rounds_one_and_two_do_not_use():
    threads = {t.topic_id: {n.post for f in t.facets for n in f.nuggets} for t in read_topics(TOPICS)}
    third_ids = {k for k in threads if "5.017" <= k <= "5.024" or "5.117" <= k <= "5.124"}
    earlier = set().union(*(v for k, v in threads.items() if k < "5.017" or "5.1" <= k < "5.117"))
    third = set().union(*(threads[k] for k in third_ids))
    assert len(third_ids) == 16 and third and not earlier & third
    # two of the eight topics per site need more than one thread
    multi = {t.topic_id for t in read_topics(TOPICS) if t.properties.multiple_threads}
    assert sorted(multi & third_ids) == ["5.017", "5.018", "5.117", "5.118"]


def test_round_four_is_written_on_threads_rounds_one_to_three_do_not_use():
    threads = {t.topic_id: {n.post for f in t.facets for n in f.nuggets} for t in read_topics(TOPICS)}
    fourth_ids = {k for k in threads if "5.025" <= k <= "5.032" or k >= "5.125"}
    earlier = set().union(*(v for k, v in threads.items() if k not in fourth_ids))
    fourth = set().union(*(threads[k] for k in fourth_ids))
    assert len(fourth_ids) == 16 and fourth and not earlier & fourth
    multi = {t.topic_id for t in read_topics(TOPICS) if t.properties.multiple_threads}
    assert sorted(multi & fourth_ids) == ["5.026", "5.029", "5.125", "5.129"]


def test_every_nugget_starts_exactly_at_its_offset(real_samples: Path):
    # bolt validate allows a few words of slack; topics written here are held to the exact start
    threads = {t.id: t.raw for name in ("arz-aoc-alriyadh-alghad-2010.xml", "cmn-weibo-checked-2020.xml")
               for t in read_threads(real_samples / name)}
    nuggets = [n for t in read_topics(TOPICS) for f in t.facets for n in f.nuggets]
    assert nuggets and all(threads[n.post][n.offset:n.offset + len(n.text)] == n.text for n in nuggets)


def test_each_topic_falls_in_its_round_for_the_per_round_means():
    spec = importlib.util.spec_from_file_location("bench_run", REPO / "scripts" / "benchmarks" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    rounds = run.DEV_SETS["xl-sites"].rounds
    expected = {"5.001": "alriyadh-alghad-1", "5.008": "alriyadh-alghad-1", "5.009": "alriyadh-alghad-2",
                "5.016": "alriyadh-alghad-2", "5.017": "alriyadh-alghad-3", "5.024": "alriyadh-alghad-3",
                "5.025": "alriyadh-alghad-4", "5.032": "alriyadh-alghad-4", "5.125": "weibo-4", "5.132": "weibo-4",
                "5.101": "weibo-1", "5.108": "weibo-1", "5.109": "weibo-2", "5.116": "weibo-2", "5.117": "weibo-3",
                "5.124": "weibo-3"}
    assert {t: run.round_name(t, rounds) for t in expected} == expected
