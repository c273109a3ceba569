"""scripts/thread_reach.py: a topic's answering threads (its nuggets' and its judged facet bullets'
supporting sources), the ones a run cites and those it states a facet from, on the bundled sample
topics (topic 1.001's nuggets sit in four threads) and a run written with the toolkit's writer."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "topics" / "sample.xml"
NUGGET_THREADS = {"bolt-arz-DF-903-310001-8200001", "bolt-cmn-DF-905-410001-9300001",
                  "bolt-eng-DF-901-210001-7100001", "ARZ_DF_000904_20230222_A00B0C001"}
OTHER = "bolt-eng-DF-901-210001-7100099"  # no nugget of 1.001 cites it


def _script():
    spec = importlib.util.spec_from_file_location("thread_reach", REPO / "scripts" / "thread_reach.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _line(run: str, facets: list[str], thread: str, supports: bool) -> dict:
    return {"topic": "1.001", "run": run, "bullet": 1, "assessor": "careful:test", "facets": facets, "words": 5,
            "responsive_words": 5 if facets else 0,
            "sources": [{"post": thread, "offset": 10, "unit": "p1", "supports": supports}]}


def test_answering_threads_are_the_nuggets_and_the_supported_facet_bullets():
    from bolt.formats.topics import read_topics

    tr = _script()
    topics = [t for t in read_topics(SAMPLE) if t.topic_id == "1.001"]
    assert tr.answering_threads(topics, [])["1.001"] == NUGGET_THREADS
    # a judged facet bullet adds its supporting thread; an unsupported source or no facet adds none
    lines = [_line("r", ["2"], OTHER, True), _line("r", ["2"], "x-unsupported", False), _line("r", [], "x-no-facet", True)]
    assert tr.answering_threads(topics, lines)["1.001"] == NUGGET_THREADS | {OTHER}
    assert tr.stating_threads(lines, "r")["1.001"] == {OTHER}
    assert tr.stating_threads(lines, "other-run")["1.001"] == set()


def test_the_table_counts_cited_and_stating_answering_threads(tmp_path):
    from bolt.formats.submission import write_run
    from bolt.pipeline.run import to_result
    from bolt.pipeline.systems import DistilledBullet

    eng = "bolt-eng-DF-901-210001-7100001"
    bullets = [DistilledBullet("The metro ticket costs five pounds now.", ((eng, 100), (OTHER, 50)), 1.0, "eng"),
               DistilledBullet("Prices went up last week.", (("bolt-cmn-DF-905-410001-9300001", 20),), 0.5, "eng")]
    run = tmp_path / "r.xml"
    write_run("r", [to_result("1.001", bullets)], run, system="main", settings="main")
    judgments = tmp_path / "j.jsonl"
    judgments.write_text(json.dumps(_line("r", ["1"], eng, True)) + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "scripts" / "thread_reach.py"), str(run), "--topics", str(SAMPLE),
                          "--judgments", str(judgments)], capture_output=True, text=True, check=True).stdout
    # four answering threads; the run cites two of them (OTHER is not one) and states a facet from one
    assert "| 1.001 | 4 | 2 / 1 |" in out.splitlines()
