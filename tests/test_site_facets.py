"""scripts/site_facets.py: per-site means and facets covered, sites as ranges of topic numbers."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("site_facets", REPO / "scripts" / "site_facets.py")
sf = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sf)

TOPICS = {"4.110": {"P_n": 0.5, "R_n": 0.5, "F_GD": 0.5}, "4.111": {"P_n": 0.2, "R_n": 0.4, "F_GD": 0.3},
          "4.205": {"P_n": 0.0, "R_n": 0.0, "F_GD": 0.0}, "4.034": {"P_n": 1.0, "R_n": 1.0, "F_GD": 1.0}}
LINES = [{"topic": "4.111", "run": "a", "facets": ["1", "2"]}, {"topic": "4.111", "run": "a", "facets": ["2"]},
         {"topic": "4.205", "run": "a", "facets": []}, {"topic": "4.110", "run": "a", "facets": ["3"]},
         {"topic": "4.111", "run": "b", "facets": ["5"]}]


def test_a_site_is_a_range_of_topic_numbers_compared_part_by_part():
    assert sf.parse_site("ptt=4.111..4.219") == ("ptt", "4.111", "4.219")
    assert sf.in_site("4.111", "4.111", "4.219") and sf.in_site("4.219", "4.111", "4.219")
    assert not sf.in_site("4.110", "4.111", "4.219") and not sf.in_site("5.001", "4.111", "4.219")
    with pytest.raises(SystemExit, match="NAME=FIRST..LAST"):
        sf.parse_site("ptt=4.1")


def test_facets_covered_are_distinct_topic_facet_pairs_per_run():
    cov = sf.covered(LINES)
    assert cov == {"a": {("4.111", "1"), ("4.111", "2"), ("4.110", "3")}, "b": {("4.111", "5")}}
    # 4.111 and 4.205: means (0.2+0)/2, (0.4+0)/2, (0.3+0)/2; facets 1 and 2 of 4.111 (4.110 is outside)
    assert sf.site_row(TOPICS, cov["a"], "4.111", "4.219") == "0.100 / 0.200 / 0.150, 2 facets"
    assert sf.site_row(TOPICS, cov["a"], "5.001", "5.008") == "–"


def test_the_command_prints_one_row_per_site(tmp_path):
    scores = tmp_path / "s.json"
    scores.write_text(json.dumps({"runs": {"a": {"topics": TOPICS}, "b": {"topics": TOPICS}}}), encoding="utf-8")
    judged = tmp_path / "j.jsonl"
    judged.write_text("\n".join(json.dumps(x) for x in LINES) + "\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "scripts" / "site_facets.py"), str(scores), "--judgments",
                          str(judged), "--runs", "b,a", "--site", "youm7=4.001..4.034", "--site", "ptt=4.111..4.219"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "| site | b | a |"
    assert out[2] == "| youm7 (1) | 1.000 / 1.000 / 1.000, 0 facets | 1.000 / 1.000 / 1.000, 0 facets |"
    assert out[3] == "| ptt (2) | 0.100 / 0.200 / 0.150, 1 facets | 0.100 / 0.200 / 0.150, 2 facets |"
    bad = subprocess.run([sys.executable, str(REPO / "scripts" / "site_facets.py"), str(scores), "--judgments",
                          str(judged), "--runs", "c", "--site", "p=4.1..4.2"], capture_output=True, text=True)
    assert bad.returncode != 0 and "c not in the score files" in bad.stderr
