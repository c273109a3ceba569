"""``bolt convert``'s command line: actions, errors that say what to do, and the track metrics' names."""
from __future__ import annotations

import pytest

from bolt.cli import main
from evaluation.convert import FORMATS
from evaluation.convert.track_metrics import (ARGUE_METRICS, AUTONUGGET_METRICS, NuggetGrades, AN_vital, AN_weighted,
                                              parse_track_metric)


def test_formats_lists_every_format(capsys):
    assert main(["convert", "formats"]) == 0
    out = capsys.readouterr().out
    for name in FORMATS:
        assert name in out
    assert "import+export" in out


def test_no_action_is_a_usage_error(capsys):
    assert main(["convert"]) == 2
    assert "give an action" in capsys.readouterr().err


def test_missing_folder_names_it(tmp_path, capsys):
    missing = tmp_path / "nope"
    assert main(["convert", "import", "aquaint-pilot", str(missing), "--out", str(tmp_path / "o")]) == 1
    assert f"error: {missing}: not a folder" in capsys.readouterr().err


def test_export_with_two_topics_files_says_what_to_give(tmp_path, capsys):
    code = main(["convert", "export", "trec-rag", "--out", str(tmp_path), "--runs", "r.xml",
                 "--topics", "a=t1.xml", "b=t2.xml"])
    assert code == 1
    assert "trec-rag export takes --runs, one --topics" in capsys.readouterr().err


def test_check_writes_nothing(tmp_path, capsys):
    from pathlib import Path

    data = Path(__file__).parent / "data" / "convert" / "trecqa"
    assert main(["convert", "import", "trec-qa", str(data), "--check"]) == 0
    err = capsys.readouterr().err
    assert "trec-qa: the input is valid (2 questions, 6 nuggets, 2 runs" in err and "nothing was written" in err


def test_score_with_missing_topics_file_names_it(capsys):
    assert main(["convert", "score", "argue", "--topics", "missing.xml", "--judgments", "x.jsonl"]) == 1
    assert "missing.xml" in capsys.readouterr().err


def test_track_scores_table(tmp_path, capsys):
    from pathlib import Path

    data = Path(__file__).parent / "data" / "convert" / "argue"
    assert main(["convert", "import", "argue", str(data / "nugget-banks.jsonl"), str(data / "judgments.jsonl"),
                 "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["convert", "score", "argue", "--topics", str(tmp_path / "topics.xml"),
                 "--judgments", str(tmp_path / "judgments.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "runX" in out and "0.2857" in out  # argue_f1 macro of runX = 2/7 (tests/test_convert_argue.py)
    assert "track:argue" in out


def test_unknown_format_is_refused_by_argparse(capsys):
    assert main(["convert", "import", "trec-2099", "x", "--out", "y"]) == 2
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.parametrize("metric", AUTONUGGET_METRICS + ARGUE_METRICS)
def test_track_metric_names_round_trip(metric):
    assert parse_track_metric(repr(metric)) == metric


def test_track_metric_params_are_checked():
    with pytest.raises(ValueError, match="strict must be bool"):
        AN_vital(strict="yes")
    with pytest.raises(ValueError, match="choose one of"):
        parse_track_metric("argue_f1(average='median')")


def test_unanswered_topic_scores_zero_and_weights_by_hand():
    # vital support (1·1) + okay partial (0.5·0.5) over weights 1 + 0.5 = 1.25/1.5 = 5/6; strict: 1/1.5 = 2/3
    g = NuggetGrades("t", "r", True, (("vital", "support"), ("okay", "partial_support")))
    assert AN_weighted.score(g) == pytest.approx(5 / 6)
    assert AN_weighted(strict=True).score(g) == pytest.approx(2 / 3)
    assert AN_weighted.score(g._replace(responded=False)) == 0.0


def test_argue_exports_through_the_cli_what_it_imported(tmp_path, capsys):
    from pathlib import Path

    data = Path(__file__).parent / "data" / "convert" / "argue"
    conv, back = tmp_path / "conv", tmp_path / "back"
    assert main(["convert", "import", "argue", str(data / "nugget-banks.jsonl"), str(data / "judgments.jsonl"),
                 "--out", str(conv)]) == 0
    runs = sorted(str(p) for p in (conv / "runs").glob("*.xml"))
    assert main(["convert", "export", "argue", "--out", str(back), "--runs", *runs, "--topics",
                 str(conv / "topics.xml"), "--judgments", str(conv / "judgments.jsonl")]) == 0
    assert sorted(p.name for p in back.iterdir()) == ["judgments.jsonl", "nugget-banks.jsonl"]
    assert main(["convert", "export", "argue", "--out", str(back), "--runs", *runs, "--topics",
                 str(conv / "topics.xml"), "--votes", "v.tsv"]) == 1
    assert "argue export takes --runs, one --topics and at most one --judgments file; leave out --votes" \
        in capsys.readouterr().err


@pytest.mark.parametrize("action", ["import", "export", "score"])
def test_convert_help_uses_the_projects_formatter(action, capsys):
    assert main(["convert", action, "--help"]) == 0
    text = capsys.readouterr().out
    assert "(default: None)" not in text and "(default: False)" not in text and "(default: [])" not in text
    assert "TOPICS" not in text
    assert text.count("default: every run") <= 1


def test_convert_score_refuses_runs_without_a_value(capsys):
    assert main(["convert", "score", "autonuggetizer", "--topics", "t.xml", "--judgments", "j.jsonl", "--runs"]) == 2
    assert "--runs" in capsys.readouterr().err


def test_one_registry_holds_the_track_metrics_as_families():
    from evaluation.metrics import REGISTRY, SCORE, parse_metric

    assert REGISTRY.family("AN_vital") == "autonuggetizer" and REGISTRY.family("argue_f1") == "argue"
    assert REGISTRY.family("F_GD") == SCORE and "AN_vital" not in REGISTRY.names((SCORE,))
    with pytest.raises(ValueError, match="unknown metric 'AN_vital'"):
        parse_metric("AN_vital")  # bolt score cannot compute a track's metric
    with pytest.raises(ValueError, match="unknown metric 'F_GD'"):
        parse_track_metric("F_GD")
    assert parse_metric("AN_vital(strict=True)", families=None) == AN_vital(strict=True)
