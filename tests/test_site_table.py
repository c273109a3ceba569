"""scripts/site_table.py: per-site means over the topics a run answered, and the leave-one-site-out rule."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _script(name: str):
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


table = _script("site_table")
spec_runs = _script("spec_runs")

ON = {"topics": {"5.001": {"P_n": 0.2, "R_n": 0.5, "F_GD": 0.3}, "5.002": {"P_n": 0.0, "R_n": 0.0, "F_GD": 0.0},
                 "5.101": {"P_n": 0.1, "R_n": 0.25, "F_GD": 0.12}}}
OFF = {"topics": {"5.001": {"P_n": 0.2, "R_n": 0.5, "F_GD": 0.3}, "5.002": {"P_n": 0.1, "R_n": 0.5, "F_GD": 0.2}}}


def test_a_site_is_averaged_over_the_topics_the_run_answered_there():
    assert table.site_means(ON, "5.0") == pytest.approx({"P_n": 0.1, "R_n": 0.25, "F_GD": 0.15, "n": 2})
    assert table.site_means(ON, "5.1") == pytest.approx({"P_n": 0.1, "R_n": 0.25, "F_GD": 0.12, "n": 1})
    assert table.site_means(OFF, "5.1") is None  # no Weibo topic in these scores
    scored_zero = {"topics": {**OFF["topics"], "5.101": {"P_n": 0.0, "R_n": 0.0, "F_GD": 0.0}}}
    assert table.site_means(scored_zero, "5.1", only="5.0") is None  # bolt score's 0 for a topic not run
    assert table.site_means(scored_zero, "5.0", only="5.0")["F_GD"] == pytest.approx(0.25)


def test_the_rule_holds_within_the_slack_and_fails_past_it():
    off = {"R_n": 0.5, "F_GD": 0.30}
    assert table.verdict({"R_n": 0.5, "F_GD": 0.291}, off, same=False) == "holds"  # 0.009 lower: inside 0.01
    assert table.verdict({"R_n": 0.5, "F_GD": 0.285}, off, same=False) == "fails"
    assert table.verdict({"R_n": 0.45, "F_GD": 0.40}, off, same=False) == "fails"  # R_n may not fall at all
    assert table.verdict({"R_n": 0.45, "F_GD": 0.20}, off, same=True) == "no change"


def test_the_command_prints_each_site_and_verdict(tmp_path):
    scores = tmp_path / "scores.json"
    scores.write_text(json.dumps({"runs": {"main": ON, "main-off": OFF}}), encoding="utf-8")
    out = subprocess.run([sys.executable, str(REPO / "scripts" / "site_table.py"), str(scores),
                          "--site", "arz=5.0", "--site", "cmn=5.1", "--pair", "d=main,main-off"],
                         capture_output=True, text=True, check=True).stdout
    assert "| main | 0.100 / 0.250 / 0.150 | 0.100 / 0.250 / 0.120 |" in out
    assert "| main-off | 0.150 / 0.500 / 0.250 | – |" in out
    assert "| d | F_GD 0.150 vs 0.250, R_n 0.250 vs 0.500: fails | – |" in out


def test_spec_runs_reads_named_specs_and_refuses_a_bare_spec():
    assert spec_runs.parse_named(["off=main(xl_dense=0)", "main=main"]) == {"off": "main(xl_dense=0)", "main": "main"}
    with pytest.raises(SystemExit, match="NAME=SPEC"):
        spec_runs.parse_named(["main(xl_dense=0)"])


SCORED = {"4.110": {"P_n": 0.5, "R_n": 0.5, "F_GD": 0.5}, "4.111": {"P_n": 0.2, "R_n": 0.4, "F_GD": 0.3},
          "4.205": {"P_n": 0.0, "R_n": 0.0, "F_GD": 0.0}, "4.034": {"P_n": 1.0, "R_n": 1.0, "F_GD": 1.0}}
LINES = [{"topic": "4.111", "run": "a", "facets": ["1", "2"]}, {"topic": "4.111", "run": "a", "facets": ["2"]},
         {"topic": "4.205", "run": "a", "facets": []}, {"topic": "4.110", "run": "a", "facets": ["3"]},
         {"topic": "4.111", "run": "b", "facets": ["5"]}]


def test_a_site_may_be_a_span_of_topic_numbers_compared_part_by_part():
    ptt = table.parse_site("ptt=4.111..4.219")
    assert ptt == table.Site("ptt", first="4.111", last="4.219")
    assert ptt.holds("4.111") and ptt.holds("4.219") and ptt.holds("4.200")
    assert not ptt.holds("4.110") and not ptt.holds("5.001") and not ptt.holds("4.034")
    assert table.parse_site("arz=5.0") == table.Site("arz", prefix="5.0")
    for bad in ("ptt=4.1..", "ptt", "ptt=4.x..4.2"):
        with pytest.raises(SystemExit, match="--site"):
            table.parse_site(bad)


def test_facets_covered_are_distinct_topic_facet_pairs_per_run():
    cov = table.covered(LINES)
    assert cov == {"a": {("4.111", "1"), ("4.111", "2"), ("4.110", "3")}, "b": {("4.111", "5")}}
    ptt = table.Site("ptt", first="4.111", last="4.219")
    # 4.111 and 4.205: means (0.2+0)/2, (0.4+0)/2, (0.3+0)/2; facets 1 and 2 of 4.111 (4.110 lies outside)
    assert table.cell(table.site_means({"topics": SCORED}, ptt), cov["a"], ptt) == "0.100 / 0.200 / 0.150, 2 facets"
    assert table.cell(table.site_means({"topics": SCORED}, table.Site("s", prefix="5.0")), cov["a"], ptt) == "–"


def test_the_command_merges_score_files_and_counts_facets(tmp_path):
    first, second = tmp_path / "s1.json", tmp_path / "s2.json"
    first.write_text(json.dumps({"runs": {"a": {"topics": {"4.034": SCORED["4.034"]}}}}), encoding="utf-8")
    second.write_text(json.dumps({"runs": {"a": {"topics": SCORED}, "b": {"topics": SCORED}}}), encoding="utf-8")
    judged = tmp_path / "j.jsonl"
    judged.write_text("\n".join(json.dumps(x) for x in LINES) + "\n", encoding="utf-8")
    cmd = [sys.executable, str(REPO / "scripts" / "site_table.py"), str(first), str(second), "--judgments", str(judged)]
    out = subprocess.run(cmd + ["--runs", "b,a", "--site", "youm7=4.001..4.034", "--site", "ptt=4.111..4.219"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0] == "| run | youm7 (4.001..4.034) | ptt (4.111..4.219) |"
    assert out[2] == "| b | 1.000 / 1.000 / 1.000, 0 facets | 0.100 / 0.200 / 0.150, 1 facets |"
    assert out[3] == "| a | 1.000 / 1.000 / 1.000, 0 facets | 0.100 / 0.200 / 0.150, 2 facets |"
    bad = subprocess.run(cmd + ["--runs", "c", "--site", "p=4.1..4.2"], capture_output=True, text=True)
    assert bad.returncode != 0 and "c not in the score files" in bad.stderr
    gone = subprocess.run(cmd[:-1] + [str(tmp_path / "none.jsonl"), "--site", "p=4.1"], capture_output=True, text=True)
    assert gone.returncode != 0 and "none.jsonl: no such file" in gone.stderr
