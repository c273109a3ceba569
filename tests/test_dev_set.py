"""The real-thread development set (topics/ebay-dev.xml, careful judgments) and its two scripts.

The carry-over script and the group means are checked on a thread written here (expected
values by hand); the topics and judgments are checked against ../shared/real-samples, skipped
when it is absent.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TOPICS = REPO / "topics" / "ebay-dev.xml"
GROUPS = REPO / "topics" / "ebay-dev.groups.tsv"
JUDGMENTS = REPO / "tests" / "data" / "careful" / "ebay-dev.judgments.jsonl"


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


A = "Open a not-as-described case within 30 days."
B = "The post office keeps a lost and found for parcels."
THREAD = ('<doc id="bolt-eng-DF-9-1-2">\n<headline>\nempty parcel\n</headline>\n'
          '<post author="ann" datetime="2012-03-01T10:00:00" id="p1">\nMy parcel came empty.\n</post>\n'
          f'<post author="bob" datetime="2012-03-02T10:00:00" id="p2">\n{A}\n</post>\n'
          f'<post author="cid" datetime="2012-03-03T10:00:00" id="p3">\n{B}\n</post>\n</doc>\n')


def _run(path: Path, run_id: str, bullets: list[tuple[str, int]]) -> Path:
    from bolt.formats.submission import Bullet, Result, Source, write_run

    res = Result("9.001", tuple(Bullet(i, text, (Source("bolt-eng-DF-9-1-2", off),))
                                for i, (text, off) in enumerate(bullets, 1)))
    write_run(run_id, [res], path)
    return path


def test_judgments_carry_over_by_text_and_new_bullets_go_to_the_todo_list(tmp_path):
    carry = _script("carry_judgments")
    corpus = tmp_path / "c.xml"
    corpus.write_text(THREAD, encoding="utf-8")
    a_off, b_off = THREAD.index(A), THREAD.index(B)
    judged = tmp_path / "j.jsonl"
    judged.write_text(json.dumps({
        "topic": "9.001", "run": "old", "bullet": 1, "assessor": "careful:me", "facets": ["2"], "words": 8,
        "responsive_words": 8, "text": A,
        "sources": [{"post": "bolt-eng-DF-9-1-2", "offset": a_off, "unit": "p2", "supports": True}]}) + "\n",
        encoding="utf-8")
    # the judged sentence comes back second, spelled with other case and spacing; B is new
    run = _run(tmp_path / "new.xml", "new", [(B, b_off), (A.upper(), a_off)])
    todo = tmp_path / "todo.jsonl"
    assert carry.carry([run], judged, [str(corpus)], todo, "careful:carried") == 1
    lines = [json.loads(x) for x in judged.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 2
    new = lines[1]
    # judged as 8 of 8 words under an older count; today A has 7 ("not-as-described" is one word): 7 of 7
    assert (new["run"], new["bullet"], new["facets"], new["words"], new["responsive_words"]) == ("new", 2, ["2"], 7, 7)
    assert new["sources"] == [{"post": "bolt-eng-DF-9-1-2", "offset": a_off, "unit": "p2", "supports": True}]
    left = [json.loads(x) for x in todo.read_text(encoding="utf-8").splitlines()]
    assert [(x["bullet"], x["facets"], x["sources"][0]["unit"], x["sources"][0]["supports"]) for x in left] == \
        [(1, None, "p3", None)]
    assert left[0]["sources"][0]["post_text"].startswith(B)
    # a TODO line still unjudged is refused; once filled in, it is added
    assert carry.add(todo, judged) == 1
    left[0].update(facets=[], responsive_words=0)
    left[0]["sources"][0]["supports"] = True
    todo.write_text(json.dumps(left[0]) + "\n", encoding="utf-8")
    assert carry.add(todo, judged) == 0
    assert carry.carry([run], judged, [str(corpus)], None, "careful:carried") == 0  # nothing left


def test_group_means_average_per_group_by_hand():
    dev_scores = _script("dev_scores")
    scores = {"runs": {"r": {"topics": {
        "1": {"P_n": 0.5, "R_n": 1.0, "F_GD": 0.6, "ERR": 0.2},
        "2": {"P_n": 0.1, "R_n": 0.0, "F_GD": 0.0, "ERR": 0.0},
        "3": {"P_n": 0.3, "R_n": 0.5, "F_GD": 0.4, "ERR": 0.9}}}}}
    means = dev_scores.group_means(scores, {"1": "tuning", "2": "tuning", "3": "held-out", "4": "held-out"})
    assert means["tuning"]["r"] == pytest.approx({"P_n": 0.3, "R_n": 0.5, "F_GD": 0.3, "ERR": 0.1})
    # topic 4 has no score in the run: it counts as 0
    assert means["held-out"]["r"] == pytest.approx({"P_n": 0.15, "R_n": 0.25, "F_GD": 0.2, "ERR": 0.45})


def test_dev_topics_validate_against_the_real_threads(real_samples):
    r = subprocess.run([sys.executable, "-m", "bolt.cli", "validate", "--topics", str(TOPICS), "--corpus",
                        str(real_samples / "bolt-eng-DF-215.xml"), "--json"], capture_output=True, text=True,
                       cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["valid"] is True


def test_dev_topics_are_split_into_tuning_and_held_out_groups():
    from bolt.formats.topics import read_topics

    topics = read_topics(TOPICS)
    groups = _script("dev_scores").read_groups(GROUPS)
    assert sorted(groups) == sorted(t.topic_id for t in topics) and len(topics) >= 8
    assert sum(1 for g in groups.values() if g == "held-out") >= 3
    for t in topics:
        assert 3 <= len(t.facets) <= 6 and all(f.nuggets for f in t.facets)


def test_careful_judgments_are_well_formed_and_cover_every_topic():
    from evaluation.judgments import read_judgments

    js = read_judgments(JUDGMENTS)
    assert {j.topic_id for j in js} == {f"2.00{i}" for i in range(1, 10)}
    assert all(j.assessor.startswith("careful:") and "text" in j.extra for j in js)
    relevant = [j for j in js if j.facets]
    assert relevant and all(0 < j.responsive_words <= j.words for j in relevant)
    assert all(j.responsive_words == 0 for j in js if not j.facets)


def test_later_careful_judgments_are_well_formed_and_new():
    """Judgments added after the statement model's fit live in their own file (the bench carries
    both); each judges a text the main file never judged for its topic, so nothing is judged twice."""
    from evaluation.judgments import read_judgments

    old = {(j.topic_id, j.extra["text"]) for j in read_judgments(JUDGMENTS)}
    seen = set(old)
    for name in ("ebay-dev.round2.judgments.jsonl", "ebay-dev.round12.judgments.jsonl"):
        later = read_judgments(JUDGMENTS.with_name(name))
        assert later and all(j.assessor.startswith("careful:") and "text" in j.extra for j in later)
        assert all(0 < j.responsive_words <= j.words for j in later if j.facets)
        assert all(j.responsive_words == 0 for j in later if not j.facets)
        texts = {(j.topic_id, j.extra["text"]) for j in later}
        assert not seen & texts
        seen |= texts


def test_main_answers_real_threads_from_the_thread_that_asks(real_samples, tmp_path):
    """On the real eBay threads, main's first bullet for two tuning topics comes from the thread
    holding the topic's nuggets (a real index and the real model), and no bullet is chatter."""
    from bolt.pipeline import Distiller, SystemConfig
    from bolt.pipeline.informative import informativeness
    from bolt.formats.topics import read_topics
    from indexing.search import build_index, open_index

    build_index([real_samples / "bolt-eng-DF-215.xml"], tmp_path / "i", backend="bm25", progress=False)
    with open_index(tmp_path / "i") as s:
        d = Distiller(s, s.corpus, SystemConfig())
        for t in [t for t in read_topics(TOPICS) if t.topic_id in ("2.002", "2.003")]:
            bullets = d.distill(t.query)
            nugget_threads = {n.post for f in t.facets for n in f.nuggets}
            assert 1 <= len(bullets) <= 10
            assert bullets[0].sources[0][0] in nugget_threads
            assert all(informativeness(b.text) >= 0.5 for b in bullets)


def test_carried_responsive_words_follow_todays_word_count():
    carry = _script("carry_judgments")
    # wholly responsive under the old count (25 of 25) stays wholly responsive under the new one (28)
    assert carry.carried_responsive({"words": 25, "responsive_words": 25}, 28) == 28
    # nothing responsive stays nothing
    assert carry.carried_responsive({"words": 25, "responsive_words": 0}, 28) == 0
    # 10 of 20 struck keeps its share: round(30 * 10 / 20) = 15
    assert carry.carried_responsive({"words": 20, "responsive_words": 10}, 30) == 15


def test_a_run_made_again_under_its_old_id_is_refused_not_mixed_up(tmp_path):
    """A judgment line at (topic, run, bullet) that judged another text is stale: say so, carry nothing."""
    carry = _script("carry_judgments")
    corpus = tmp_path / "c.xml"
    corpus.write_text(THREAD, encoding="utf-8")
    judged = tmp_path / "j.jsonl"
    judged.write_text(json.dumps({
        "topic": "9.001", "run": "same", "bullet": 1, "assessor": "careful:me", "facets": ["2"], "words": 7,
        "responsive_words": 7, "text": A,
        "sources": [{"post": "bolt-eng-DF-9-1-2", "offset": THREAD.index(A), "unit": "p2", "supports": True}]}) + "\n",
        encoding="utf-8")
    before = judged.read_text(encoding="utf-8")
    run = _run(tmp_path / "again.xml", "same", [(B, THREAD.index(B))])  # bullet 1 is now B
    with pytest.raises(SystemExit) as exc:
        carry.carry([run], judged, [str(corpus)], tmp_path / "todo.jsonl", "careful:carried")
    assert "9.001 same bullet 1" in str(exc.value) and "another run id" in str(exc.value)
    assert judged.read_text(encoding="utf-8") == before
