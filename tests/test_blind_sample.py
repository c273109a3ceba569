"""scripts/blind_sample.py: a blind, topic-stratified sample of judged bullets.

Hand-made judgments: topic 5.001 has 5 distinct bullets (one judged twice, in two runs), 5.002 has 1,
5.003 has 4; a line by another assessor and a topic outside the span are left out. Drawing 6: each
topic gets 1 (3 left), then 5.001 and 5.003 one more each (1 left), then one of them a third, so
5.002 gives 1 and the other two 3 and 2.
"""
from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("blind_sample", REPO / "scripts" / "blind_sample.py")
blind_sample = importlib.util.module_from_spec(spec)
sys.modules["blind_sample"] = blind_sample
spec.loader.exec_module(blind_sample)


def _line(topic: str, text: str, assessor: str = "careful:first", run: str = "r1") -> str:
    return json.dumps({"topic": topic, "run": run, "bullet": 1, "assessor": assessor, "facets": ["1"],
                       "text": text, "sources": [{"post": "p", "offset": 3, "supports": True}]}) + "\n"


def test_the_sample_is_stratified_distinct_and_blind(tmp_path):
    rows = [_line("5.001", f"a{i}") for i in range(5)] + [_line("5.001", "a0", run="r2")]
    rows += [_line("5.002", "b0")] + [_line("5.003", f"c{i}") for i in range(4)]
    rows += [_line("5.002", "other reader", assessor="careful:other"), _line("5.200", "outside")]
    judgments = tmp_path / "j.jsonl"
    judgments.write_text("".join(rows), encoding="utf-8")
    out = tmp_path / "sample.jsonl"
    blind_sample.main([str(judgments), "--assessor", "careful:first", "--topics", "5.001-5.003",
                       "--size", "6", "--out", str(out)])
    sample = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert all(set(d) == {"topic", "text", "sources"} for d in sample)
    assert sample[0]["sources"] == [{"post": "p", "offset": 3}]
    counts = Counter(d["topic"] for d in sample)
    assert counts["5.002"] == 1 and sorted([counts["5.001"], counts["5.003"]]) == [2, 3]
    assert len({(d["topic"], d["text"]) for d in sample}) == 6
    blind_sample.main([str(judgments), "--assessor", "careful:first", "--topics", "5.001-5.003",
                       "--size", "6", "--out", str(tmp_path / "again.jsonl")])
    assert (tmp_path / "again.jsonl").read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_a_bad_line_is_refused_with_its_file_and_line(tmp_path):
    judgments = tmp_path / "j.jsonl"
    judgments.write_text(_line("5.001", "a") + "{not json\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"j\.jsonl:2: not a JSON line"):
        blind_sample.main([str(judgments), "--assessor", "careful:first", "--topics", "5.001", "--size", "1",
                           "--out", str(tmp_path / "s.jsonl")])
