"""``bolt convert`` for TREC RAG / NeuCLIR / RAGTIME answers and AutoNuggetizer nuggets and assignments.

Hand-made data in tests/data/convert/rag: runA in the TREC RAG 2024 shape, runB in the 2025 shape
(metadata), runC in the RAGTIME shape ({docid: confidence}), answering topic 2024-1001 only.
Topic 2024-1001: vital n1, n2, okay n3, n4; topic 2024-1002: vital n1, n2, okay n3.
Credit s: support 1, partial_support 0.5 (strict: 0). Weighted: vital 1, okay 0.5.
  1001 runA s = [1, 1, .5, 0]: All 2.5/4 = .625 (strict 2/4 = .5); Vital 2/2 = 1 (1);
       Weighted (1 + 1 + .5·.5 + 0)/(1 + 1 + .5 + .5) = 2.25/3 = .75 (strict 2/3)
  1002 runA s = [1, 0, 1]: All 2/3 (2/3); Vital 1/2 (1/2); Weighted (1 + 0 + .5)/2.5 = .6 (.6)
  1001 runB s = [0, 0, 0, 1]: All .25 (.25); Vital 0 (0); Weighted .5/3 = 1/6 (1/6)
  1002 runB s = [.5, 1, 0]: All 1.5/3 = .5 (1/3); Vital 1.5/2 = .75 (.5); Weighted 1.5/2.5 = .6 (1/2.5 = .4)
  1001 runC s = [1, .5, 0, 0]: All 1.5/4 = .375 (.25); Vital .75 (.5); Weighted 1.5/3 = .5 (1/3)
  1002 runC: no answer -> 0
  means (two topics): see MEANS below, e.g. runA AN_weighted (.75 + .6)/2 = .675.
Our nugget_F (β = 3) from the converted files, a nugget counting when assigned support:
  runA 1001 {n1, n2}: R 1, l = 29 + 69 = 98 < α 200 -> 1;  1002 {n1, n3}: R 1/2, l 53 < 200 -> 5/9.5 = 10/19
  runB 1001 {n4 okay}: R 0 -> 0;  1002 {n2}: R 1/2, l 62 + 16 = 78 < 100 -> 10/19
  runC 1001 {n1}: R 1/2, l 43 < 100 -> 10/19;  1002: 0
  means: runA (1 + 10/19)/2 = 29/38, runB 5/19, runC 5/19
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.submission import read_run
from bolt.formats.topics import read_topics
from evaluation.convert.rag import export_rag, import_rag
from evaluation.judgments import read_judgments

DATA = Path(__file__).parent / "data" / "convert" / "rag"
INPUTS = [DATA / n for n in ("nuggets.jsonl", "answers-rag24.jsonl", "answers-rag25.jsonl", "reports-ragtime.jsonl",
                             "assignments.jsonl")]
MEANS = {
    "runA": {"AN_all": (0.625 + 2 / 3) / 2, "AN_all(strict=True)": (0.5 + 2 / 3) / 2, "AN_vital": 0.75,
             "AN_vital(strict=True)": 0.75, "AN_weighted": 0.675, "AN_weighted(strict=True)": (2 / 3 + 0.6) / 2},
    "runB": {"AN_all": 0.375, "AN_all(strict=True)": (0.25 + 1 / 3) / 2, "AN_vital": 0.375,
             "AN_vital(strict=True)": 0.25, "AN_weighted": (1 / 6 + 0.6) / 2, "AN_weighted(strict=True)": (1 / 6 + 0.4) / 2},
    "runC": {"AN_all": 0.1875, "AN_all(strict=True)": 0.125, "AN_vital": 0.375, "AN_vital(strict=True)": 0.25,
             "AN_weighted": 0.25, "AN_weighted(strict=True)": 1 / 6},
}
NUGGET_F = {"runA": 29 / 38, "runB": 5 / 19, "runC": 5 / 19}


@pytest.fixture(scope="module")
def conv(tmp_path_factory):
    out = tmp_path_factory.mktemp("rag")
    assert main(["convert", "import", "trec-rag", *map(str, INPUTS), "--out", str(out)]) == 0
    return out


def test_every_report_shape_is_read(conv):
    runs = {p.stem: read_run(p) for p in (conv / "runs").glob("*.xml")}
    assert sorted(runs) == ["runA", "runB", "runC"]
    a = runs["runA"].results["2024-1001"].bullets
    assert [s.thread for s in a[1].sources] == ["msmarco_v2.1_doc_00_1", "msmarco_v2.1_doc_00_2"]
    assert [s.thread for s in runs["runA"].results["2024-1002"].bullets[1].sources] == ["NO-DOCUMENT"]
    assert [s.thread for s in runs["runC"].results["2024-1001"].bullets[0].sources] == ["d-0001", "d-0002"]
    topics = read_topics(conv / "topics.xml")
    assert topics[1].query == "why is the sky blue"
    assert [(f.id, f.importance) for f in topics[1].facets] == [("1", "vital"), ("2", "vital"), ("3", "okay")]


def test_converted_runs_validate(conv, capsys):
    runs = sorted(str(p) for p in (conv / "runs").glob("*.xml"))
    assert main(["validate", *runs, "--topics", str(conv / "topics.xml")]) == 0, capsys.readouterr().err


def test_autonuggetizer_metrics_match_hand_values(conv, capsys):
    capsys.readouterr()
    assert main(["convert", "score", "autonuggetizer", "--topics", str(conv / "topics.xml"),
                 "--judgments", str(conv / "judgments.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for run, means in MEANS.items():
        assert doc["runs"][run]["mean"] == pytest.approx(means, abs=1e-12), run
    assert doc["runs"]["runC"]["topics"]["2024-1002"]["AN_vital"] == 0.0
    p = conv / "track.json"
    p.write_text(json.dumps(doc))
    assert main(["compare", str(p), "--metric", "AN_weighted", "--json", "--resamples", "20", "--trials", "2"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    assert cmp["rankings"]["AN_weighted"] == ["runA", "runB", "runC"]
    # AN_all and AN_weighted rank the three runs alike: tau 1.
    assert cmp["kendall_tau"]["AN_all|AN_weighted"] == pytest.approx(1.0)


def test_our_nugget_f_beside_theirs(conv, capsys):
    capsys.readouterr()
    runs = [str(conv / "runs" / f"run{x}.xml") for x in "ABC"]
    assert main(["score", *runs, "--topics", str(conv / "topics.xml"), "--judgments", str(conv / "judgments.jsonl"),
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r: d["mean"]["nugget_F"] for r, d in doc["runs"].items()} == pytest.approx(NUGGET_F, abs=1e-12)


def test_round_trip(tmp_path):
    first = import_rag(INPUTS, tmp_path / "a")
    back = tmp_path / "back"
    export_rag(back, runs=first.runs, topics=first.topics, judgments=first.judgments)
    again = import_rag(sorted(back.glob("*.jsonl")), tmp_path / "b")
    assert read_topics(first.topics) == read_topics(again.topics)
    assert {p.name: read_run(p).results for p in first.runs} == {p.name: read_run(p).results for p in again.runs}
    a, b = read_judgments(first.judgments), read_judgments(again.judgments)
    assert a == b and [j.extra for j in a] == [j.extra for j in b]


def test_errors_name_file_line_and_fix(tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(DATA, bad)
    with open(bad / "answers-rag24.jsonl", "a") as fh:
        fh.write('{"run_id": "runD", "topic_id": "2024-1001", "references": ["x"], "answer": '
                 '[{"text": "one", "citations": [3]}]}\n')
    with open(bad / "assignments.jsonl", "a") as fh:
        fh.write('{"qid": "2024-1002", "run_id": "runC", "nuggets": [{"text": "sunlight is scattered by air '
                 'molecules", "importance": "vital", "assignment": "yes"}]}\nnot json\n')
    code = main(["convert", "import", "trec-rag", *(str(bad / p.name) for p in INPUTS), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 1
    assert (f"{bad / 'answers-rag24.jsonl'}:3: topic 2024-1001 bullet 1: sentence 1 cites reference 3, but references "
            "has 1 entries") in err
    assert f"{bad / 'assignments.jsonl'}:6: topic 2024-1002: nugget 1 assignment 'yes' must be one of" in err
    assert f"{bad / 'assignments.jsonl'}:7: not valid JSON" in err
    assert not (tmp_path / "o").exists()


def test_empty_answer_keeps_its_grades(tmp_path, capsys):
    # runE gives an empty answer to 2024-1002 but is graded partial on n1 (vital): AN_vital = 0.5/2 = 1/4 there.
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"run_id": "runE", "topic_id": "2024-1002", "references": [], "answer": []}\n')
    assign = tmp_path / "assign.jsonl"
    assign.write_text('{"qid": "2024-1002", "run_id": "runE", "nuggets": [{"text": "sunlight is scattered by air '
                      'molecules", "importance": "vital", "assignment": "partial_support"}]}\n')
    out = tmp_path / "o"
    assert main(["convert", "import", "trec-rag", str(DATA / "nuggets.jsonl"), str(answers), str(assign),
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["convert", "score", "autonuggetizer", "--topics", str(out / "topics.xml"),
                 "--judgments", str(out / "judgments.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["runs"]["runE"]["topics"]["2024-1002"]["AN_vital"] == pytest.approx(0.25)


def test_gzipped_inputs_are_read(tmp_path):
    import gzip

    gz = []
    for p in INPUTS:
        target = tmp_path / (p.name + ".gz")
        target.write_bytes(gzip.compress(p.read_bytes()))
        gz.append(target)
    a, b = import_rag(INPUTS, tmp_path / "plain"), import_rag(gz, tmp_path / "gz")
    assert read_judgments(a.judgments) == read_judgments(b.judgments)
    assert read_topics(a.topics) == read_topics(b.topics)


def test_truncated_gzip_names_the_file(tmp_path, capsys):
    import gzip

    bad = tmp_path / "answers.jsonl.gz"
    bad.write_bytes(gzip.compress(INPUTS[1].read_bytes())[:-12])
    assert main(["convert", "import", "trec-rag", str(bad), "--out", str(tmp_path / "o")]) == 1
    assert f"error: {bad}: not a complete gzip file" in capsys.readouterr().err


def test_neuclir_report_shape(tmp_path):
    conv = import_rag([DATA / "nuggets.jsonl", DATA / "reports-neuclir.jsonl"], tmp_path / "n")
    assert conv.judgments is None  # no assignments given: topics and runs only
    bullets = read_run(conv.runs[0]).results["2024-1002"].bullets
    assert [[s.thread for s in b.sources] for b in bullets] == [["doc-a", "doc-b"], ["NO-DOCUMENT"]]
    assert conv.commands() == [f"bolt validate {conv.runs[0]} --topics {conv.topics}"]
