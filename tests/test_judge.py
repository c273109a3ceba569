"""``bolt judge`` without a browser: reuse keys, the pool, the server's refusals, two writers at once,
a crash and a resume, and judgments carried over to a new run (``bolt judge --reuse``,
``bolt assess --reuse``). The browser flow is in ``test_judge_browser.py``."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.submission import Bullet, Result, Source, read_run, write_run
from evaluation.judgments import read_judgments
from evaluation.matching.text import count_words
from evaluation.workbench.pool import build_pool
from evaluation.judgments.reuse import bullet_key, normalise_text, read_reusable
from evaluation.workbench.session import JudgingSession
from indexing.corpus import open_corpus
from indexing.errors import ToolkitError
from judge_support import CORPUS, TOPIC, TOPICS, Judge, make_runs


@pytest.fixture(scope="module")
def corpus():
    return open_corpus(paths=[CORPUS])


@pytest.fixture()
def runs(tmp_path: Path) -> dict[str, Path]:
    return make_runs(tmp_path / "runs")


def session(runs: dict[str, Path], corpus, out: Path, names=("alpha",), **kw) -> JudgingSession:
    return JudgingSession(topics_path=TOPICS, runs=[read_run(runs[n]) for n in names], corpus=corpus, out=out,
                          assessor="ann", **kw)


def test_normalised_text_ignores_case_space_and_end_punctuation():
    assert normalise_text("  Bain  bought\tAmpad. ") == "bain bought ampad"
    assert normalise_text("ＡＢＣ") == "abc"  # full-width forms (NFKC)
    assert normalise_text("从3月1日起。") == "从3月1日起"
    assert normalise_text("...") == "..."  # punctuation alone stays itself, never the empty key
    assert bullet_key("1.001", "A b.") == bullet_key("1.001", "a B") != bullet_key("1.002", "a B")


def test_pool_shows_each_text_once_in_a_stable_blind_order(runs, corpus):
    alpha, beta = read_run(runs["alpha"]), read_run(runs["beta"])
    pool = build_pool([alpha, beta], corpus, [TOPIC], seed="human:ann")[TOPIC]
    assert len(pool) == 5  # 4 + 2 bullets, one text shared
    shared = [it for it in pool if len(it.occurrences) == 2]
    assert len(shared) == 1 and {o.run for o in shared[0].occurrences} == {"alpha", "beta"}
    assert shared[0].sources[0].unit is not None  # the post element holding the offset
    again = build_pool([beta, alpha], corpus, [TOPIC], seed="human:ann")[TOPIC]
    assert [it.id for it in again] == [it.id for it in pool]
    other = build_pool([alpha, beta], corpus, [TOPIC], seed="human:bob")[TOPIC]
    assert [it.id for it in other] != [it.id for it in pool]  # order is per assessor, not the runs' order


def test_server_refuses_hostile_requests(runs, tmp_path):
    judge = Judge(str(runs["alpha"]), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out",
                  str(tmp_path / "j.jsonl"))
    try:
        ok, topic = judge.call(f"/api/topic/{TOPIC}")
        assert ok == 200 and len(topic["items"]) == 4
        item = topic["items"][0]["id"]
        assert judge.call("/api/overview", headers={"X-Bolt-Token": "guess"})[0] == 403
        assert judge.call("/api/overview", headers={"Host": f"evil.example:{judge.port}"})[0] == 421
        assert judge.call("/api/overview", headers={"Origin": "http://evil.example"})[0] == 403
        assert judge.call("/api/overview", headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
        code, body = judge.call("/api/decide", raw=b"item=1", headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert code == 400 and "JSON" in body["error"]
        code, body = judge.call("/api/decide", raw=b"[" * 30000 + b"]" * 30000,
                                headers={"Content-Type": "application/json"})
        assert code == 400 and "nested" in body["error"]
        code, body = judge.call("/api/decide", raw=b"x" * 70000, headers={"Content-Type": "application/json"})
        assert code == 400 and "larger" in body["error"]
        for op, words in [({"op": "facet", "facet": "9", "on": True}, "no facet"),
                          ({"op": "strike", "spans": [[0, 10 ** 6]], "on": True}, "inside the bullet"),
                          ({"op": "support", "source": "/etc/passwd", "value": True}, "no source"),
                          ({"op": "rm -rf"}, "unknown operation")]:
            code, body = judge.call("/api/decide", {"item": item, "op": op})
            assert code == 400 and words in body["error"], body
        assert judge.call("/api/decide", {"item": "../../etc/passwd", "op": {"op": "confirm"}})[0] == 400
        assert judge.call("/api/facet", {"topic": TOPIC, "desc": "", "importance": "vital"})[0] == 400
        assert judge.call("/api/facet", {"topic": TOPIC, "desc": "x", "importance": "huge"})[0] == 400
        code, body = judge.call("/api/facet", {"topic": TOPIC, "desc": "y", "importance": "vital",
                                               "nugget": {"text": "x", "item": item, "source": "/etc/passwd"}})
        assert code == 400 and "selected in a post" in body["error"]
        code, body = judge.call("/api/facet", {"topic": TOPIC, "desc": "y", "importance": "vital",
                                               "nugget": {"text": "words in no post at all", "item": item,
                                                          "source": topic["items"][0]["sources"][0]["id"]}})
        assert code == 400 and "not found in that post" in body["error"]
        second = subprocess.run([sys.executable, "-m", "bolt.cli", "judge", str(runs["alpha"]), "--topics", str(TOPICS),
                                 "--corpus", str(CORPUS), "--out", str(tmp_path / "j.jsonl"), "--no-browser"],
                                capture_output=True, text=True, timeout=60)
        assert second.returncode == 1 and "another bolt judge (pid " in second.stderr  # one server per file
        assert judge.call("/../../etc/passwd")[0] == 404
        assert judge.call("/app.js/../../judge_support.py")[0] == 404
        assert judge.call("/api/topic/..%2F..%2Fetc")[0] in (400, 404)
        assert judge.call("/api/topic/9.999")[0] == 400
        # nothing above changed the judgments file: it holds only the header
        lines = (tmp_path / "j.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) == 1 and "_meta" in lines[0]
        assert json.loads(lines[0])["_meta"]["words"] == "ws2"  # the word definition its counts follow
    finally:
        judge.stop()


def test_two_tabs_at_once_lose_nothing_and_double_nothing_and_a_crash_loses_nothing(runs, tmp_path):
    out = tmp_path / "j.jsonl"
    args = (str(runs["alpha"]), str(runs["beta"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
            "--out", str(out), "--assessor", "ann")
    judge = Judge(*args)
    try:
        items = judge.call(f"/api/topic/{TOPIC}")[1]["items"]
        errors: list = []

        def tab(ops) -> None:
            for item, op in ops:
                code, body = judge.call("/api/decide", {"item": item, "op": op})
                if code != 200:
                    errors.append(body)

        a = [(it["id"], {"op": "facet", "facet": "1", "on": True}) for it in items] * 3
        b = [(it["id"], {"op": "facet", "facet": "3", "on": True}) for it in items] * 3
        b += [(it["id"], {"op": "support", "source": s["id"], "value": True}) for it in items for s in it["sources"]]
        threads = [threading.Thread(target=tab, args=(ops,)) for ops in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        judge.kill()  # a crash: no clean shutdown
    finally:
        judge.stop()
    judged = read_judgments(out)  # refuses a doubled (topic, run, bullet)
    assert len(judged) == 6  # every bullet of both runs, once
    assert all(j.facets == ("1", "3") and all(s.supports for s in j.sources) for j in judged)
    assert all(j.assessor == "human:ann" and j.extra["judged_by"] == "human" for j in judged)
    again = Judge(*args)  # resumes from the file
    try:
        items = again.call(f"/api/topic/{TOPIC}")[1]["items"]
        assert all(it["decision"]["facets"] == ["1", "3"] for it in items)
        assert again.call("/api/decide", {"item": items[0]["id"], "op": {"op": "confirm"}})[0] == 200
    finally:
        again.stop()
    final = read_judgments(out)
    assert len(final) == 6
    assert all(j.extra["complete"] == (j.extra["text"] == items[0]["text"]) for j in final)


def test_a_new_run_gets_earlier_judgments_without_asking_and_assess_mixes_them(runs, corpus, tmp_path, capsys):
    human = tmp_path / "human.jsonl"
    first = session(runs, corpus, human)
    items = {it.text: it for it in first.pool[TOPIC]}
    eng1 = next(t for t in items if t.startswith("From 1 March"))
    for text, it in items.items():
        facet = "1" if text == eng1 else "2"
        first.apply(it.id, {"op": "facet", "facet": facet, "on": True})
        first.apply(it.id, {"op": "support", "source": it.sources[0].id, "value": True})
        first.apply(it.id, {"op": "confirm"})
    first.apply(items[eng1].id, {"op": "strike", "spans": [[0, 4]], "on": True})  # "From"

    out = tmp_path / "second.jsonl"
    second = session(runs, corpus, out, names=("alpha", "beta"), reuse=read_reusable([human]))
    second.save()
    view = second.topic_view(TOPIC)
    assert [it["text"] for it in view["items"]] == read_texts(runs["beta"])[:1]  # only the new bullet
    assert view["carried"] == 4 and second.carried == 4
    carried = {(j.run, j.bullet): j for j in read_judgments(out)}
    repeated = carried[("beta", 2)]  # beta's upper-cased copy of alpha's first bullet, never shown
    assert repeated.facets == ("1",) and repeated.sources[0].supports is True
    assert repeated.words - repeated.responsive_words == 1 and repeated.extra["reused_from"].startswith(str(human))
    assert ("beta", 1) not in carried  # the new bullet waits for a person
    assert [j.to_json() for j in read_judgments(out)] == [j.to_json() for j in second.judgments()]

    code = main(["assess", str(runs["alpha"]), str(runs["beta"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
                 "--out", str(tmp_path / "mixed.jsonl"), "--reuse", str(human), "--no-semantic", "--quiet", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["judged_by"] == {"human": 5, "mixed": 0, "machine": 1}
    mixed = {(j.run, j.bullet): j for j in read_judgments(tmp_path / "mixed.jsonl")}
    assert mixed[("beta", 2)].assessor == "human:ann" and mixed[("beta", 2)].facets == ("1",)
    assert mixed[("beta", 1)].extra["judged_by"] == "machine" and mixed[("beta", 1)].assessor.startswith("auto:")
    assert mixed[("alpha", 1)].responsive_words == count_words(mixed[("alpha", 1)].extra["text"]) - 1

    main(["assess", str(runs["alpha"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
          "--out", str(tmp_path / "plain.jsonl"), "--reuse", str(human), "--no-semantic", "--quiet"])
    text = capsys.readouterr().out
    assert "judged by people: 4, partly (some sources the machine's): 0, by the machine: 0" in text


def read_texts(path: Path) -> list[str]:
    return [b.text for r in read_run(path) for b in r.bullets]


def test_reuse_refuses_judgments_that_do_not_say_their_text(tmp_path):
    bad = tmp_path / "old.jsonl"
    bad.write_text(json.dumps({"topic": TOPIC, "run": "r", "bullet": 1, "assessor": "human:x", "facets": ["1"],
                               "words": 3, "responsive_words": 3, "sources": []}) + "\n", encoding="utf-8")
    with pytest.raises(ToolkitError) as err:
        read_reusable([bad])
    assert "old.jsonl:1" in str(err.value) and "\"text\"" in str(err.value)


def test_resume_finds_decisions_by_text_when_a_run_is_made_again(runs, corpus, tmp_path):
    out = tmp_path / "j.jsonl"
    first = session(runs, corpus, out)
    for it in first.pool[TOPIC]:
        first.apply(it.id, {"op": "facet", "facet": "1", "on": True})
    alpha = read_run(runs["alpha"])
    bullets = alpha.results[TOPIC].bullets
    # alpha made again: bullets in reverse order, the last one replaced by a new text
    new = [bullets[3], bullets[2], bullets[1], Bullet(4, "A new sentence about fares.", bullets[0].sources)]
    write_run("alpha", [Result(TOPIC, tuple(new))], runs["alpha"])
    second = session(runs, corpus, out)
    assert second.stale == 1 and second.stale_path.exists()  # the dropped bullet's line, moved aside
    second.save()
    judged = {(j.bullet, j.extra["text"]) for j in read_judgments(out)}
    assert judged == {(1, bullets[3].text), (2, bullets[2].text), (3, bullets[1].text)}
    assert [j.extra["text"] for j in read_judgments(second.stale_path)] == [bullets[0].text]


def test_a_bullet_citing_a_new_post_keeps_its_facets_and_waits_for_that_source(runs, corpus, tmp_path, capsys):
    human = tmp_path / "human.jsonl"
    first = session(runs, corpus, human)
    eng1 = next(it for it in first.pool[TOPIC] if it.text.startswith("From 1 March"))
    first.apply(eng1.id, {"op": "facet", "facet": "1", "on": True})
    first.apply(eng1.id, {"op": "support", "source": eng1.sources[0].id, "value": True})
    first.apply(eng1.id, {"op": "confirm"})
    other = next(b for b in read_run(runs["alpha"]).results[TOPIC].bullets if b.text != eng1.text)
    write_run("gamma", [Result(TOPIC, (Bullet(1, eng1.text, other.sources),))], tmp_path / "gamma.xml")
    runs = {**runs, "gamma": tmp_path / "gamma.xml"}

    second = session(runs, corpus, tmp_path / "second.jsonl", names=("gamma",), reuse=read_reusable([human]))
    second.save()
    shown = second.topic_view(TOPIC)["items"]
    assert len(shown) == 1 and shown[0]["decision"]["facets"] == ["1"] and shown[0]["decision"]["carried"]
    assert shown[0]["decision"]["supports"] == {} and not shown[0]["decision"]["confirmed"]
    (j,) = read_judgments(tmp_path / "second.jsonl")
    assert j.facets == ("1",) and j.sources[0].extra == {"decided": False} and j.extra["complete"] is False

    assert main(["assess", str(runs["gamma"]), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out",
                 str(tmp_path / "mixed.jsonl"), "--reuse", str(human), "--no-semantic", "--quiet", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["judged_by"] == {"human": 0, "mixed": 1, "machine": 0}
    (m,) = read_judgments(tmp_path / "mixed.jsonl")
    assert m.facets == ("1",) and m.sources[0].extra["judged_by"] == "machine" and m.assessor == "human:ann"


def test_the_cited_post_is_shown_decoded_with_the_cited_text_lit_and_quotes_marked():
    from evaluation.workbench.posts import post_view
    from indexing.reader import parse_thread_text

    raw = ('<doc id="bolt-eng-DF-1-2-3">\n<headline>\nh\n</headline>\n<post id="p1" author="a" datetime="d">\n'
           '<quote orig_author="b">\nquoted &amp; old\n</quote>\n\n\n\nFares rose to 8 pounds &amp; more. '
           'Then a rant.\n</post>\n</doc>\n')
    thread = parse_thread_text(raw, path="t.xml")
    offset = raw.index("Fares")
    view = post_view(thread, (offset,), "Fares rose to 8 pounds & more.")
    segs = view["segments"]
    assert view["post"] == "p1" and view["dir"] == "ltr" and view["found"] is True
    assert [s["t"] for s in segs if s["q"]] == ["quoted & old\n"]  # decoded, marked as a quote
    assert "".join(s["t"] for s in segs if s["hl"]) == "Fares rose to 8 pounds & more."
    assert next(s for s in segs if s["cite"])["t"].startswith("Fares")
    assert "\n\n\n" not in "".join(s["t"] for s in segs)  # at most one blank line


def _judge_all(first: JudgingSession, confirm: bool = True) -> dict[str, object]:
    """Facet 1 and support on every pooled bullet of the topic; pressed Done when ``confirm``."""
    items = {it.text: it for it in first.pool[TOPIC]}
    for it in items.values():
        first.apply(it.id, {"op": "facet", "facet": "1", "on": True})
        first.apply(it.id, {"op": "support", "source": it.sources[0].id, "value": True})
        if confirm:
            first.apply(it.id, {"op": "confirm"})
    return items


def test_an_unfinished_judgment_is_never_carried_over_as_finished(runs, corpus, tmp_path, capsys):
    human = tmp_path / "human.jsonl"
    first = session(runs, corpus, human)
    items = _judge_all(first)
    eng1 = next(t for t in items if t.startswith("From 1 March"))
    first.apply(items[eng1].id, {"op": "confirm", "value": False})  # back to unfinished
    first.apply(items[eng1].id, {"op": "strike", "spans": [[0, 4]], "on": True})
    lines = {j.extra["text"]: j for j in read_judgments(human)}
    assert lines[eng1].extra["complete"] is False

    index = read_reusable([human])
    assert index.get(TOPIC, eng1) is None and len(index) == 3  # the three finished ones only

    second = session(runs, corpus, tmp_path / "second.jsonl", names=("alpha", "beta"), reuse=index)
    second.save()
    assert second.carried == 3
    shown = [it["text"] for it in second.topic_view(TOPIC)["items"]]
    assert eng1 in shown  # waits for a person, not hidden as carried over
    written = {(j.run, j.bullet): j for j in read_judgments(tmp_path / "second.jsonl")}
    assert ("alpha", 1) not in written and ("beta", 2) not in written  # eng1 and beta's copy of it

    assert main(["assess", str(runs["alpha"]), str(runs["beta"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
                 "--out", str(tmp_path / "mixed.jsonl"), "--reuse", str(human), "--no-semantic", "--quiet",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["judged_by"] == {"human": 3, "mixed": 0, "machine": 3}

    carry = tmp_path / "carry.jsonl"
    carry.write_text(human.read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run([sys.executable, str(Path(__file__).parents[1] / "scripts" / "carry_judgments.py"),
                           str(runs["beta"]), "--judgments", str(carry), "--corpus", str(CORPUS)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr  # beta's two bullets are left to judge: none carried
    assert "carried 0 judgments" in done.stderr and "2 bullets left" in done.stderr


def test_each_verdict_keeps_who_made_it_until_the_person_decides_it(runs, corpus, tmp_path):
    auto = tmp_path / "auto.jsonl"
    assert main(["assess", str(runs["alpha"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
                 "--out", str(auto), "--no-semantic", "--quiet"]) == 0
    out = tmp_path / "ann.jsonl"
    first = session(runs, corpus, out, prefill=read_judgments(auto))
    it = next(it for it in first.pool[TOPIC] if it.text.startswith("From 1 March"))
    first.apply(it.id, {"op": "strike", "spans": [[0, 4]], "on": True})
    (j,) = [j for j in read_judgments(out) if j.extra["text"] == it.text]
    assert j.extra["facets_by"] == "machine" and j.sources[0].extra["judged_by"] == "machine"
    assert j.extra["judged_by"] == "mixed" and j.extra["complete"] is False
    first.apply(it.id, {"op": "support", "source": it.sources[0].id, "value": False})
    (j,) = [j for j in read_judgments(out) if j.extra["text"] == it.text]
    assert "judged_by" not in j.sources[0].extra and j.sources[0].supports is False  # now the person's
    assert j.extra["facets_by"] == "machine"
    # resumed: who made each verdict is read back, not turned into the person's
    again = session(runs, corpus, out, prefill=read_judgments(auto))
    again.apply(it.id, {"op": "confirm"})
    (j,) = [j for j in read_judgments(out) if j.extra["text"] == it.text]
    assert j.extra["facets_by"] == "machine-confirmed" and j.extra["judged_by"] == "human"
    assert "judged_by" not in j.sources[0].extra
    again.apply(it.id, {"op": "facet", "facet": "2", "on": True})
    (j,) = [j for j in read_judgments(out) if j.extra["text"] == it.text]
    assert "facets_by" not in j.extra  # decided by the person


def test_resuming_under_another_name_resumes_as_the_files_assessor_and_says_so(runs, corpus, tmp_path):
    out = tmp_path / "j.jsonl"
    first = JudgingSession(topics_path=TOPICS, runs=[read_run(runs["alpha"]), read_run(runs["beta"])],
                           corpus=corpus, out=out, assessor="ann")
    items = first.pool[TOPIC]
    for it in items[:3]:
        first.apply(it.id, {"op": "facet", "facet": "2", "on": True})
    before = out.read_bytes()
    with pytest.raises(ToolkitError) as err:
        JudgingSession(topics_path=TOPICS, runs=[read_run(runs["alpha"])], corpus=corpus, out=out, assessor="bob")
    assert "human:ann" in str(err.value) and "--assessor" in str(err.value)
    args = (str(runs["alpha"]), str(runs["beta"]), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out", str(out))
    import os
    os.environ["BOLT_ASSESSOR"] = "bob"
    try:
        judge = Judge(*args)
    finally:
        del os.environ["BOLT_ASSESSOR"]
    try:
        view = judge.call(f"/api/topic/{TOPIC}")[1]
        assert [it["id"] for it in view["items"]] == [it.id for it in items]  # ann's order
    finally:
        err_text = judge.stop()
    assert "resuming as human:ann" in err_text and out.read_bytes() == before
    refused = subprocess.run([sys.executable, "-m", "bolt.cli", "judge", *args, "--assessor", "bob", "--no-browser"],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "human:ann" in refused.stderr and out.read_bytes() == before


def test_score_warns_of_unknown_facets_and_unfinished_judgments_and_scores_judged_topics_only(corpus, tmp_path,
                                                                                              capsys):
    from judge_support import nuggets

    one, two = nuggets("1.001")[:2], nuggets("1.002")[:2]
    run = tmp_path / "two.xml"
    write_run("two", [Result(n, tuple(Bullet(i, t, (Source(post, off),)) for i, (_, t, post, off) in enumerate(ns, 1)))
                      for n, ns in (("1.001", one), ("1.002", two))], run)
    out = tmp_path / "ann.jsonl"
    s = JudgingSession(topics_path=TOPICS, runs=[read_run(run)], corpus=corpus, out=out, assessor="ann")
    added = s.add_facet("1.001", "Pensioners ride free.", "okay")["id"]
    for it in s.pool["1.001"]:
        s.apply(it.id, {"op": "facet", "facet": added, "on": True})
        s.apply(it.id, {"op": "support", "source": it.sources[0].id, "value": True})
        s.apply(it.id, {"op": "confirm"})
    s.apply(s.pool["1.002"][0].id, {"op": "facet", "facet": "1", "on": True})  # unfinished; the other unjudged
    capsys.readouterr()
    assert main(["score", str(run), "--topics", str(TOPICS), "--judgments", str(out), "--json",
                 "--corpus", str(CORPUS)]) == 0
    err = capsys.readouterr().err
    assert f"1 facet id(s) in the judgments are not in {TOPICS} (1.001: {added})" in err
    assert "ann.topics.xml: give that as --topics" in err
    assert "1 judgment(s) are unfinished" in err and "1 bullet(s) of the runs have no judgment" in err

    assert main(["score", str(run), "--topics", str(out.with_name("ann.topics.xml")), "--judgments", str(out),
                 "--judged-only", "--json", "--corpus", str(CORPUS)]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)["runs"]["two"]
    assert set(doc["topics"]) == {"1.001"} and doc["mean"] == doc["topics"]["1.001"]
    assert doc["mean"]["F_c"] > 0  # the added facet counts with the updated topics file
    assert "left out 1 topic(s) not judged in full (1.002) and 10 the runs give no bullet for" in captured.err
    assert "facet id(s)" not in captured.err and "unfinished" not in captured.err.split("--judged-only")[0]

    assert main(["assess", str(run), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out",
                 str(tmp_path / "mixed.jsonl"), "--reuse", str(out), "--no-semantic", "--quiet"]) == 0
    assert f"warning: --reuse: 1 facet id(s) in the judgments are not in {TOPICS}" in capsys.readouterr().err


def test_adjudication_shows_only_disagreements_and_marks_each_verdict_adjudicated(runs, corpus, tmp_path):
    files = {}
    for name, facet_of_first in (("ann", "1"), ("bob", "2")):
        out = files[name] = tmp_path / f"{name}.jsonl"
        s = JudgingSession(topics_path=TOPICS, runs=[read_run(runs["alpha"])], corpus=corpus, out=out, assessor=name)
        for k, it in enumerate(sorted(s.pool[TOPIC], key=lambda it: it.text)):
            s.apply(it.id, {"op": "facet", "facet": facet_of_first if k == 0 else "3", "on": True})
            s.apply(it.id, {"op": "support", "source": it.sources[0].id,
                            "value": "partial" if (k == 1 and name == "bob") else True})
            if not (k == 3 and name == "bob"):
                s.apply(it.id, {"op": "confirm"})
    from evaluation.workbench.adjudicate import read_assessors

    adj = tmp_path / "adj.jsonl"
    s = JudgingSession(topics_path=TOPICS, runs=[read_run(runs["alpha"])], corpus=corpus, out=adj, assessor="cat",
                       adjudicate=read_assessors([files["ann"], files["bob"]]))
    s.save()
    texts = sorted(it.text for it in s.pool[TOPIC])
    view = s.topic_view(TOPIC)
    shown = {it["text"]: it for it in view["items"]}
    # 0: facets differ; 1: support full vs partial; 3: bob never pressed Done; 2: alike, carried over
    assert set(shown) == {texts[0], texts[1], texts[3]} and view["carried"] == 1
    first = shown[texts[0]]
    assert [o["assessor"] for o in first["opinions"]] == ["human:ann", "human:bob"]
    assert [o["facets"] for o in first["opinions"]] == [["1"], ["2"]]
    assert shown[texts[3]]["opinions"][1] is None
    sid = shown[texts[1]]["sources"][0]["id"]
    assert shown[texts[1]]["opinions"][1]["supports"] == {sid: "partial"}
    s.apply(first["id"], {"op": "take", "from": 1})
    s.apply(first["id"], {"op": "confirm"})
    s.apply(shown[texts[1]]["id"], {"op": "support", "source": sid, "value": "partial"})
    lines = {j.extra["text"]: j for j in read_judgments(adj)}
    assert set(lines) == {texts[0], texts[1], texts[2]}
    assert lines[texts[0]].facets == ("2",) and lines[texts[0]].extra["facets_by"] == "adjudicated"
    assert lines[texts[0]].sources[0].extra["judged_by"] == "adjudicated" and lines[texts[0]].extra["complete"]
    partial = lines[texts[1]].sources[0]
    assert partial.supports is False and partial.extra == {"judged_by": "adjudicated", "support": "partial"}
    assert lines[texts[2]].extra["reused_from"].startswith(str(files["ann"])) and lines[texts[2]].extra["complete"]
    assert "facets_by" not in lines[texts[2]].extra  # both assessors' own verdict, carried over
    header = json.loads(adj.read_text(encoding="utf-8").splitlines()[0])["_meta"]
    assert [a["assessor"] for a in header["adjudicates"]] == ["human:ann", "human:bob"]
    # one cited post at a time: every shown bullet citing it, and context before a bullet on demand
    posts = s.posts_view(TOPIC)["posts"]
    assert sorted(i for p in posts for i in p["items"]) == sorted(it["id"] for it in view["items"])
    assert all(any(seg["hl"] for seg in p["segments"]) for p in posts)
    assert all("before" in src for it in view["items"] for src in it["sources"])


def test_the_sentence_before_a_bullet_is_its_context_and_one_post_lights_every_bullet_citing_it():
    from evaluation.workbench.posts import post_view
    from indexing.reader import parse_thread_text

    raw = ('<doc id="bolt-eng-DF-1-2-4">\n<headline>\nh\n</headline>\n<post id="p1" author="a" datetime="d">\n'
           'Fares were 5 pounds last year. Now they are\n8 pounds! That&apos;s a 60% jump. Then a rant.\n</post>\n</doc>\n')
    thread = parse_thread_text(raw, path="t.xml")
    jump, fares = raw.index("That&apos;s"), raw.index("Fares")
    assert post_view(thread, (jump,), "That's a 60% jump.")["before"] == "Now they are 8 pounds!"
    assert post_view(thread, (fares,), "Fares were 5 pounds last year.")["before"] == ""
    both = post_view(thread, (fares, jump), ("Fares were 5 pounds last year.", "That's a 60% jump."))
    assert [s["t"] for s in both["segments"] if s["hl"]] == ["Fares were 5 pounds last year.", "That's a 60% jump."]


def test_a_restart_keeps_the_token_kill_prints_the_summary_the_icon_is_served_and_comments_stay(runs, corpus,
                                                                                                tmp_path):
    import signal

    out = tmp_path / "j.jsonl"
    args = (str(runs["alpha"]), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out", str(out), "--assessor", "ann")
    first = Judge(*args)
    try:
        code, _ = first.call("/favicon.svg")
        assert code == 200
    finally:
        err = first.stop(signal.SIGTERM)  # `kill PID`
    assert "stopped; " in err and first.proc.returncode == 0
    second = Judge(*args)
    try:
        assert second.token == first.token  # the tab opened before the restart goes on working
        assert (out.parent / "j.jsonl.token").stat().st_mode & 0o777 == 0o600
    finally:
        second.stop()

    topics = tmp_path / "topics.xml"
    text = TOPICS.read_text(encoding="utf-8").replace("<topics>", "<topics>\n<!-- campaign 3: do not edit -->", 1)
    topics.write_text(text, encoding="utf-8")
    s = JudgingSession(topics_path=topics, runs=[read_run(runs["alpha"])], corpus=corpus, out=tmp_path / "k.jsonl",
                       assessor="ann")
    s.add_facet(TOPIC, "Pensioners ride free.", "okay")
    s.add_facet("1.002", "Another one.", "vital")
    updated = (tmp_path / "k.topics.xml").read_text(encoding="utf-8")
    assert "<!-- campaign 3: do not edit -->" in updated
    from bolt.formats.topics import read_topics

    got = {t.topic_id: [f.desc for f in t.facets] for t in read_topics(tmp_path / "k.topics.xml")}
    want = {t.topic_id: [f.desc for f in t.facets] for t in read_topics(TOPICS)}
    want[TOPIC].append("Pensioners ride free.")
    want["1.002"].append("Another one.")
    assert got == want


def test_a_sample_session_shows_a_seeded_random_sample_of_the_distinct_bullets(runs, corpus, tmp_path):
    full = session(runs, corpus, tmp_path / "all.jsonl", names=("alpha", "beta"))
    assert len(full.items) == full.pooled == 5
    s = session(runs, corpus, tmp_path / "s.jsonl", names=("alpha", "beta"), sample=(3, 0))
    assert len(s.items) == 3 and s.pooled == 5 and set(s.items) < set(full.items)
    again = session(runs, corpus, tmp_path / "s2.jsonl", names=("alpha", "beta"), sample=(3, 0))
    assert set(again.items) == set(s.items)  # the same seed draws the same bullets: a session resumes
    draws = {frozenset(session(runs, corpus, tmp_path / f"d{k}.jsonl", names=("alpha", "beta"),
                               sample=(3, k)).items) for k in range(6)}
    assert len(draws) > 1  # other seeds draw other bullets
    assert len(session(runs, corpus, tmp_path / "big.jsonl", names=("alpha", "beta"), sample=(50, 0)).items) == 5
    assert sum(t["total"] for t in s.overview()["topics"]) == 3


def test_judge_refuses_an_empty_sample(runs, tmp_path, capsys):
    code = main(["judge", str(runs["alpha"]), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out",
                 str(tmp_path / "j.jsonl"), "--sample", "0", "--no-browser"])
    assert code != 0 and "--sample 0: a sample needs at least one bullet" in capsys.readouterr().err
