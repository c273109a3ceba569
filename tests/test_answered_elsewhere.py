"""scripts/answered_elsewhere.py: which topics main answers from a thread no careful judgment
credits, and the stage that let that thread win, on the real Weibo topic 5.106 (main's judged
bullets: five from two alriyadh threads, five from the Weibo thread holding the nuggets) and on
hand-built traces, one per cause."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
WEIBO = "CMN_DF_weibo_20200706_e65c5c8524f0"
SAUDI = "ARZ_DF_alriyadh_20100426_520042"  # the Shura council and the civil aviation authority, 2010
RAIN = "ARZ_DF_alriyadh_20100426_520040"  # the rain damage committee in al-Baha


def _script():
    spec = importlib.util.spec_from_file_location("answered_elsewhere", REPO / "scripts" / "answered_elsewhere.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # a dataclass reads its module while it is made
    spec.loader.exec_module(mod)
    return mod


def _facts(mod, bullets: list[str], langs: list[str], **kw):
    base = dict(topic="9.001", answering=["CMN_A"], bullet_threads=bullets, bullet_langs=langs, stating=0, unjudged=0,
                answer_lang="cmn", cosines={}, left_out=[], retrieved=["CMN_A", "CMN_B"], candidates=["CMN_A", "CMN_B"],
                anchored=[], tokens=[], swept=True, relevance={"CMN_A": 0.5, "CMN_B": 0.4}, read=["CMN_A", "CMN_B"])
    base.update(kw)
    return mod.TopicFacts(**base)


def test_weibo_5106_from_the_judged_run():
    mod = _script()
    from bolt.formats.topics import read_topics
    from scripts.thread_reach import answering_threads, read_lines

    topics = [t for t in read_topics(REPO / "topics" / "xl-sites.xml") if t.topic_id == "5.106"]
    lines = read_lines(REPO / "tests" / "data" / "careful" / "xl-sites.judgments.jsonl")
    answering = answering_threads(topics, lines)["5.106"]
    assert answering == {WEIBO}  # only the Weibo thread is ever credited with a facet
    main = sorted((j["bullet"], j["sources"][0]["post"]) for j in lines if j["topic"] == "5.106" and j["run"] == "main")
    threads = [t for _, t in main]
    f = _facts(mod, threads, ["arz" if t.startswith("ARZ") else "cmn" for t in threads], topic="5.106",
               answering=sorted(answering))
    assert f.other == [SAUDI, SAUDI, SAUDI, SAUDI, RAIN]
    assert f.main_thread == SAUDI and f.elsewhere  # 5 of 10 bullets: half counts
    assert mod.cause(f) == mod.CAUSES[1]


def test_one_cause_per_stage():
    mod = _script()
    # retrieval: the answering thread is neither retrieved nor joined
    f = _facts(mod, ["CMN_B"] * 3, ["cmn"] * 3, retrieved=["CMN_B"], candidates=["CMN_B"], relevance={"CMN_B": 0.4})
    assert mod.cause(f) == mod.CAUSES[0]
    # the anchor kept only the threads stating the token, and the answering thread was not one
    f = _facts(mod, ["CMN_B"] * 3, ["cmn"] * 3, candidates=["CMN_B"], anchored=["CMN_B"], relevance={"CMN_B": 1.4})
    assert mod.cause(f) == mod.CAUSES[2]
    # both are candidates but only the other thread is anchored (its +1 lift)
    f = _facts(mod, ["CMN_B"] * 3, ["cmn"] * 3, anchored=["CMN_B"], relevance={"CMN_A": 0.5, "CMN_B": 1.4})
    assert mod.cause(f) == mod.CAUSES[2]
    # the sweep scored the other thread above the answering one
    f = _facts(mod, ["CMN_B"] * 3, ["cmn"] * 3, relevance={"CMN_A": 0.3, "CMN_B": 0.4})
    assert mod.cause(f) == mod.CAUSES[3]
    assert mod.cause(_facts(mod, ["CMN_B"] * 3, ["cmn"] * 3, swept=False, relevance={"CMN_A": 0.3, "CMN_B": 0.4})) \
        == mod.CAUSES[4]
    # the answering thread ranks first, yet the bullets come from the other one
    f = _facts(mod, ["CMN_B", "CMN_B", "CMN_A"], ["cmn"] * 3)
    assert f.elsewhere and mod.cause(f) == mod.CAUSES[5]
    # two of five bullets elsewhere: not answered elsewhere
    assert not _facts(mod, ["CMN_B", "CMN_B", "CMN_A", "CMN_A", "CMN_A"], ["cmn"] * 5).elsewhere


SHARED = REPO.parent / "shared" / "real-samples" / "cmn-ptt-stock-2025.xml"


@pytest.mark.skipif(not SHARED.is_file(), reason="the real PTT threads are not here")
def test_token_places_in_real_ptt_threads():
    from indexing.corpus import open_corpus

    mod = _script()
    corpus = open_corpus([str(SHARED)])
    huatie = corpus.get("CMN_DF_ptt_1759507025_810")  # 4.199's answering thread: says AI in one reply
    assert mod.token_places(huatie, ["AI"]) == {"AI": "reply 6"}
    holdings = corpus.get("CMN_DF_ptt_1759589477_832")  # 4.140's nugget thread: calls TSMC 2330
    assert mod.token_places(holdings, ["00757", "ETF", "TSMC"]) == {"00757": "opening post", "ETF": "reply 5",
                                                                    "TSMC": "nowhere"}
