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
