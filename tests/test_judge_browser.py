"""``bolt judge`` in a real headless browser (Debian's chromium through Playwright), one session.

Judges bullets with keys and clicks, strikes words selected with the mouse, accepts an automatic
decision, adds a facet, reloads, then checks the judgments file, the updated topics file, and
that ``bolt score`` reads both. ``scripts/test.sh`` installs chromium when it can; otherwise this
test is skipped with the reason.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.topics import nugget_resolves, read_topics
from evaluation.judgments import read_judgments
from evaluation.matching.text import count_words
from indexing.corpus import open_corpus
from judge_support import CHROMIUM_FLAGS, CORPUS, TOPIC, TOPICS, Judge, make_runs

CHROMIUM = os.environ.get("BOLT_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed "
                                   "(pip install -e '.[test]')")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no chromium at {CHROMIUM}: scripts/test.sh installs Debian's chromium when run as root "
                    "(apt-get install chromium fonts-noto-core fonts-noto-cjk), or set BOLT_CHROMIUM")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()


def test_judge_in_the_browser(browser, tmp_path, capsys):
    runs = make_runs(tmp_path / "runs")
    auto = tmp_path / "auto.jsonl"
    assert main(["assess", str(runs["alpha"]), str(runs["beta"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
                 "--out", str(auto), "--no-semantic", "--quiet"]) == 0
    out = tmp_path / "ann.jsonl"
    judge = Judge(str(runs["alpha"]), str(runs["beta"]), "--topics", str(TOPICS), "--corpus", str(CORPUS),
                  "--out", str(out), "--assessor", "ann", "--prefill", str(auto))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    saves = [0]

    def saved() -> None:  # wait until the page has heard back from the server for one more decision
        saves[0] += 1
        page.wait_for_selector(f"body[data-saves='{saves[0]}']", state="attached", timeout=10_000)

    def facets_on(item: str) -> set[str]:
        return set(page.eval_on_selector_all(f"#item-{item} input[data-facet]",
                                             "els => els.filter(e => e.checked).map(e => e.dataset.facet)"))

    try:
        page.goto(judge.url)
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        assert "run" not in page.inner_text("#items").lower().replace("runs", "")  # blind: no run names
        items = page.eval_on_selector_all(".item", "els => els.map(e => e.id.slice(5))")
        texts = {i: page.inner_text(f"#item-{i} .bullet") for i in items}
        assert len(items) == 5 and page.locator(".badge.auto").count() == 5  # all prefilled, none confirmed
        assert page.locator("mark").count() >= 5  # each cited text lit in its post
        assert page.locator(".post[dir='rtl']").count() >= 1  # the Arabic post reads right to left
        assert "words responsive" not in page.inner_text(".auto")  # never "0 of 13" beside the bullet's "13 of 13"
        long = next(f for f in read_topics(TOPICS)[0].facets if len(f.desc) > 48)
        assert long.desc in page.eval_on_selector_all(".fchk .fdesc", "els => els.map(e => e.textContent)")

        # A: keys only. Facet 2 toggled, the first source supports, done.
        a = items[0]
        before_a = facets_on(a)
        page.keyboard.press("2"); saved()
        page.keyboard.press("y"); saved()
        page.keyboard.press("Enter"); saved()
        assert page.locator(f"#item-{a} .badge.done").count() == 1
        # B: an English bullet, with the mouse: tick facet 3, the source does not support, strike two words.
        b = next(i for i in items[1:] if texts[i].isascii())
        page.click(f"#item-{b} h2")
        before_b = facets_on(b)
        page.click(f"#item-{b} input[data-facet='3']"); saved()
        page.click(f"#item-{b} .verdict button.no"); saved()
        toks = page.locator(f"#item-{b} .bullet .tok")
        first, second = toks.nth(0).bounding_box(), toks.nth(1).bounding_box()
        page.mouse.move(first["x"] + 1, first["y"] + first["height"] / 2)
        page.mouse.down()
        page.mouse.move(second["x"] + second["width"] - 1, second["y"] + second["height"] / 2, steps=5)
        page.mouse.up()
        page.keyboard.press("x"); saved()
        assert page.locator(f"#item-{b} .tok.struck").count() == 2
        page.click(f"#item-{b} .done-button"); saved()
        # C: accept the automatic decision as it stands.
        c = next(i for i in items if i not in (a, b))
        page.click(f"#item-{c} h2")
        page.keyboard.press("Enter"); saved()
        # A facet found in the responses, its nugget selected with the mouse in B's cited post, then ticked on D.
        lit = page.locator(f"#item-{b} .post mark").first.bounding_box()
        form_before = page.locator("form.addfacet").bounding_box()
        page.mouse.move(lit["x"] + 2, lit["y"] + 6)
        page.mouse.down()
        page.mouse.move(lit["x"] + min(lit["width"], 220) - 2, lit["y"] + 6, steps=5)
        page.mouse.up()
        assert "Nugget: «" in page.inner_text("#nugget-pick")
        assert page.locator("form.addfacet").bounding_box()["height"] == form_before["height"]  # nothing jumps
        nugget_text = " ".join(page.evaluate("() => window.getSelection().toString()").split())
        page.fill("form.addfacet textarea", "Pensioners ride free.")
        page.select_option("form.addfacet select", "okay")
        page.click("#add-facet")
        page.wait_for_selector("text=added by you")
        d = next(i for i in items if i not in (a, b, c))
        page.click(f"#item-{d} input[data-facet='4']"); saved()

        page.reload()
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        box = page.locator(".item.current").bounding_box()
        assert 0 <= box["y"] < 900  # the current bullet is in view after a reload
        assert page.locator(f"#item-{a} .badge.done").count() == 1
        assert page.locator(f"#item-{b} .tok.struck").count() == 2
        assert facets_on(d) >= {"4"}
        assert "3/5" in page.inner_text("#topics")  # progress per topic survives the reload
        page.keyboard.press("h")  # hide the three done bullets
        assert page.locator(".item:visible").count() == 2
        page.keyboard.press("h")
        assert page.locator(".item:visible").count() == 5
    finally:
        page.close()
        judge.stop()

    auto_by_text = {j.extra.get("text"): j for j in read_judgments(auto)}
    judged = read_judgments(out)
    by_text: dict[str, list] = {}
    for j in judged:
        by_text.setdefault(j.extra["text"], []).append(j)
    assert all(j.assessor == "human:ann" for j in judged)
    ja, jb, jc, jd = (by_text[texts[i]][0] for i in (a, b, c, d))
    assert set(ja.facets) == before_a ^ {"2"} and ja.sources[0].supports and ja.extra["complete"]
    assert set(jb.facets) == before_b ^ {"3"} and not any(s.supports for s in jb.sources)
    struck_words = sum(count_words(texts[b][s:e]) for s, e in jb.extra["struck"])
    assert jb.extra["struck"][0][0] == 0 and struck_words == 2 and jb.responsive_words == jb.words - 2
    assert jc.extra["complete"] and jc.facets == auto_by_text.get(texts[c], jc).facets
    assert "4" in jd.facets and not jd.extra["complete"]
    assert set(by_text) == {texts[i] for i in (a, b, c, d)}  # the untouched bullet is not written
    assert len({(j.run, j.bullet) for j in judged}) == len(judged)

    updated = {t.topic_id: t for t in read_topics(out.with_name("ann.topics.xml"))}
    facet = updated[TOPIC].facet("4")
    assert facet is not None and facet.desc == "Pensioners ride free." and facet.importance == "okay"
    thread = open_corpus(paths=[CORPUS]).get(facet.nuggets[0].post)
    assert facet.nuggets[0].text == nugget_text and nugget_resolves(thread, facet.nuggets[0])
    assert facet.nuggets[0].post in {s.post for s in jb.sources}
    assert [len(t.facets) for n, t in updated.items() if n != TOPIC] == \
        [len(t.facets) for t in read_topics(TOPICS) if t.topic_id != TOPIC]
    capsys.readouterr()
    assert main(["score", str(runs["alpha"]), str(runs["beta"]), "--topics", str(out.with_name("ann.topics.xml")),
                 "--judgments", str(out), "--corpus", str(CORPUS), "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)
    assert set(scores["runs"]) == {"alpha", "beta"}
    assert all(0 <= r["mean"]["F_c"] <= 1 for r in scores["runs"].values())


def test_adjudicate_and_judge_one_cited_post_at_a_time_in_the_browser(browser, tmp_path):
    """Two assessors' files, the adjudication page (only disagreements, take a side, context on demand),
    then the post-at-a-time view (graded support for every bullet citing a post); the page loads
    without a 404 (icon), the topic list stays pinned, and a new topic opens at its top."""
    from bolt.formats.submission import read_run
    from evaluation.workbench.session import JudgingSession

    from bolt.formats.submission import Bullet, Result, Source, write_run
    from judge_support import nuggets

    runs = make_runs(tmp_path / "runs")
    gamma = tmp_path / "runs" / "gamma.xml"  # topic 1.002, judged by ann only: all shown for adjudication
    write_run("gamma", [Result("1.002", tuple(Bullet(i, t, (Source(post, off),))
                                              for i, (_, t, post, off) in enumerate(nuggets("1.002"), 1)))], gamma)
    corpus = open_corpus(paths=[CORPUS])
    files = {}
    for name, first_facet in (("ann", "1"), ("bob", "2")):
        files[name] = tmp_path / f"{name}.jsonl"
        judged = [runs["alpha"], gamma] if name == "ann" else [runs["alpha"]]
        s = JudgingSession(topics_path=TOPICS, runs=[read_run(r) for r in judged], corpus=corpus, out=files[name],
                           assessor=name)
        for it in s.pool["1.002"]:
            s.apply(it.id, {"op": "facet", "facet": "1", "on": True})
            s.apply(it.id, {"op": "confirm"})
        for k, it in enumerate(sorted(s.pool[TOPIC], key=lambda it: it.text)):
            s.apply(it.id, {"op": "facet", "facet": first_facet if k < 2 else "3", "on": True})
            s.apply(it.id, {"op": "support", "source": it.sources[0].id, "value": True})
            s.apply(it.id, {"op": "confirm"})
        texts = sorted(it.text for it in s.pool[TOPIC])
    out = tmp_path / "adj.jsonl"
    judge = Judge(str(runs["alpha"]), str(gamma), "--topics", str(TOPICS), "--corpus", str(CORPUS), "--out", str(out),
                  "--assessor", "cat", "--adjudicate", str(files["ann"]), str(files["bob"]))
    page = browser.new_page(viewport={"width": 1280, "height": 500})
    missing: list[str] = []
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    saves = [0]

    def saved() -> None:
        saves[0] += 1
        page.wait_for_selector(f"body[data-saves='{saves[0]}']", state="attached", timeout=10_000)

    try:
        page.goto(judge.url)
        page.wait_for_selector("body[data-ready='1']", timeout=15_000)
        assert not missing  # the icon is served: no 404 on load
        assert "adjudicating human:ann and human:bob" in page.inner_text("#who")
        shown = {page.inner_text(f"#item-{i} .bullet"): i
                 for i in page.eval_on_selector_all(".item", "els => els.map(e => e.id.slice(5))")}
        assert set(shown) == set(texts[:2])  # the two they disagree on; the two alike are carried over
        assert "2 carried over" in page.inner_text("#progress")
        cur = page.eval_on_selector(".item.current", "e => e.id.slice(5)")
        assert page.locator(f"#item-{cur} .opinion").count() == 2
        page.keyboard.press("b"); saved()  # start from bob's decision
        assert set(page.eval_on_selector_all(f"#item-{cur} input[data-facet]",
                                             "els => els.filter(e => e.checked).map(e => e.dataset.facet)")) == {"2"}
        page.keyboard.press("c")  # the sentence before it in its post, on demand
        assert page.locator(f"#item-{cur} .context").count() == 1
        page.keyboard.press("Enter"); saved()
        other = next(i for i in shown.values() if i != cur)

        page.keyboard.press("v")  # one cited post at a time
        page.wait_for_selector(".postcard")
        rows = page.locator(".prow")
        assert rows.count() == 2 and page.locator(".postcard mark").count() >= 2
        row_items = page.eval_on_selector_all(".prow", "els => els.map(e => e.dataset.item)")
        target = row_items.index(other)
        for _ in range(target):
            page.keyboard.press("j")
        page.keyboard.press("p"); saved()  # partly supports
        assert page.locator(f".prow[data-item='{other}'] button.partial.on").count() == 1
        page.keyboard.press("v")
        page.wait_for_selector(f"#item-{other}")
        assert page.locator(f"#item-{other} button.partial.on").count() == 1

        page.evaluate("() => window.scrollTo(0, 10000)")
        assert page.evaluate("() => window.scrollY") > 200  # the page did scroll
        top = page.locator("#topics").bounding_box()["y"]
        assert 0 < top < 60  # the topic list stays pinned under the bar
        page.keyboard.press("]")
        page.wait_for_function("() => location.hash.includes('1.002')")
        page.wait_for_function("() => document.querySelectorAll('.item').length >= 3")
        assert page.evaluate("() => document.documentElement.scrollHeight") > 1000  # long enough to keep a scroll
        assert page.evaluate("() => window.scrollY") == 0  # the new topic opens at its top
    finally:
        page.close()
        judge.stop()

    lines = {j.extra["text"]: j for j in read_judgments(out) if j.topic_id == TOPIC}
    assert set(lines) == set(texts)
    decided = lines[page_text := next(t for t, i in shown.items() if i == cur)]
    assert decided.facets == ("2",) and decided.extra["facets_by"] == "adjudicated" and decided.extra["complete"]
    partly = lines[next(t for t, i in shown.items() if i == other)].sources[0]
    assert partly.supports is False and partly.extra == {"judged_by": "adjudicated", "support": "partial"}
    assert all(lines[t].extra["reused_from"].startswith(str(files["ann"])) for t in texts[2:])
    assert page_text in texts[:2]
