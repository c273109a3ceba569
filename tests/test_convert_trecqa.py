"""``bolt convert`` for TREC QA definition/"other" nugget files and pyramid votes (seeds 001-003).

Hand-made data in tests/data/convert/trecqa. Lengths l (non-white-space characters, counted by hand):
  1.4: r1 36 + 38 = 74, r2 206 (247 characters, 41 spaces);  2.6: r1 41, r2 30.
nugget_F, β = 3: F = 10 P R / (9 P + R), R = vital matched / vital, α = 100 per matched nugget.
  1.4 r1 {1 vital, 3 okay}: R 1/2, α 200 > 74, P 1 -> 5 / 9.5 = 10/19
  1.4 r2 {2 vital, 4 okay}: R 1/2, α 200 < 206, P = 1 − 6/206 = 100/103
      F = 10·(100/103)·½ / (9·100/103 + ½) = 1000/1903
  2.6 r1 {1 vital}: R 1, P 1 -> 1;   2.6 r2 {2 okay}: R 0 -> 0
  means: r1 (10/19 + 1)/2 = 29/38 = 0.763158; r2 (1000/1903)/2 = 500/1903 = 0.262743
pyramid_F (votes of A1-A3; weight = vital votes / most vital votes of the question):
  1.4: vital votes 3, 2, 1, 0 -> weights 1, 2/3, 1/3, 0 (total 2);  2.6: 2, 2 -> 1, 1 (total 2)
  1.4 r1: (1 + 1/3)/2 = 2/3, P 1 -> 10·(2/3) / (9 + 2/3) = 20/29
  1.4 r2: (2/3 + 0)/2 = 1/3, α 200 (both matched nuggets count), P 100/103
      -> 10·(100/103)·(1/3) / (9·100/103 + 1/3) = 1000/2803
  2.6 r1: 1/2, P 1 -> 10/19;  2.6 r2: 1/2 (an okay nugget counts by its votes), P 1 -> 10/19
  means: r1 (20/29 + 10/19)/2 = 0.607985; r2 (1000/2803 + 10/19)/2 = 0.441538
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.submission import read_run
from bolt.formats.topics import read_topics, read_votes
from evaluation.convert.trecqa import export_trecqa, import_trecqa
from evaluation.judgments import read_judgments

DATA = Path(__file__).parent / "data" / "convert" / "trecqa"
NUGGET_F = {"r1": 29 / 38, "r2": 500 / 1903}
PYRAMID_F = {"r1": (20 / 29 + 10 / 19) / 2, "r2": (1000 / 2803 + 10 / 19) / 2}


def test_convert_score_compare(tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-qa", str(DATA), "--out", str(out)]) == 0
    assert "bolt score" in capsys.readouterr().err
    runs = [str(out / "runs" / "r1.xml"), str(out / "runs" / "r2.xml")]
    assert main(["score", *runs, "--topics", str(out / "topics.xml"), "--judgments", str(out / "judgments.jsonl"),
                 "--votes", str(out / "votes.tsv"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r: d["mean"]["nugget_F"] for r, d in doc["runs"].items()} == pytest.approx(NUGGET_F, abs=1e-9)
    assert {r: d["mean"]["pyramid_F"] for r, d in doc["runs"].items()} == pytest.approx(PYRAMID_F, abs=1e-9)
    assert doc["runs"]["r2"]["topics"]["1.4"]["nugget_F"] == pytest.approx(1000 / 1903)
    assert doc["runs"]["r2"]["topics"]["1.4"]["pyramid_F"] == pytest.approx(1000 / 2803)
    scores = tmp_path / "scores.json"
    scores.write_text(json.dumps(doc))
    assert main(["compare", str(scores), "--metric", "nugget_F", "--json", "--resamples", "20", "--trials", "2"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    assert cmp["rankings"]["nugget_F"] == ["r1", "r2"] and cmp["rankings"]["pyramid_F"] == ["r1", "r2"]
    assert cmp["kendall_tau"]["nugget_F|pyramid_F"] == pytest.approx(1.0)


def test_votes_become_our_votes_file(tmp_path):
    conv = import_trecqa(DATA, tmp_path / "c")
    assert read_votes(conv.votes)["1.4"] == {"1": {"vital": 3, "okay": 0}, "2": {"vital": 2, "okay": 1},
                                             "3": {"vital": 1, "okay": 1}, "4": {"vital": 0, "okay": 1}}


def test_round_trip(tmp_path):
    first = import_trecqa(DATA, tmp_path / "a")
    back = tmp_path / "back"
    export_trecqa(back, runs=first.runs, topics=first.topics, judgments=first.judgments, votes=first.votes)
    again = import_trecqa(back, tmp_path / "b")
    assert read_topics(first.topics) == read_topics(again.topics)
    a, b = read_judgments(first.judgments), read_judgments(again.judgments)
    assert a == b and [j.extra for j in a] == [j.extra for j in b]
    assert [read_run(p).results for p in first.runs] == [read_run(p).results for p in again.runs]
    assert read_votes(first.votes) == read_votes(again.votes)


def test_errors_name_file_line_and_fix(tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(DATA, bad)
    with open(bad / "nuggets", "a") as fh:
        fh.write("2.6 3 important bright\n")
    with open(bad / "votes", "a") as fh:
        fh.write("2.6 1 vital vital\n")
    assert main(["convert", "import", "trec-qa", str(bad), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"{bad / 'nuggets'}:8: topic 2.6: importance 'important' must be vital or okay" in err
    assert f"{bad / 'votes'}:8: topic 2.6: 2 labels but 3 assessors" in err
    assert not (tmp_path / "o").exists()


def _nist_layout(folder: Path) -> Path:
    """The hand-made data above rewritten in NIST's published layout (TREC 2005 QA,
    README.list+other.results): questions, nuggets, and other/RUN.otherjudged per run holding, per
    question, the items 'QID TAG ITEM-NUMBER DOCNO string' and then 'QID TAG ITEM-NUMBER NUGGET-NUMBER'."""
    (folder / "other").mkdir(parents=True)
    for name in ("questions", "nuggets"):
        shutil.copy(DATA / name, folder / name)
    items: dict[tuple[str, str], list[str]] = {}
    for line in (DATA / "responses").read_text().splitlines():
        if line.strip() and not line.startswith("*"):
            qid, run, docid, text = line.split(None, 3)
            n = len(items.setdefault((run, qid), [])) + 1
            items[(run, qid)].append(f"{qid} {run} {n} {docid} {text}")
    marks: dict[tuple[str, str], list[str]] = {}
    for line in (DATA / "judgments").read_text().splitlines():
        if line.strip() and not line.startswith("*"):
            qid, run, item, nugget = line.split()[:4]
            marks.setdefault((run, qid), []).append(f"{qid} {run} {item} {nugget}")
    for run in ("r1", "r2"):
        lines = [x for qid in ("1.4", "2.6") for x in items.get((run, qid), []) + marks.get((run, qid), [])]
        (folder / "other" / f"{run}.otherjudged").write_text("\n".join(lines) + "\n")
    return folder


def test_nist_otherjudged_layout_scores_as_the_seed_layout(tmp_path, capsys):
    # the same items and marks as tests/data/convert/trecqa, so nugget_F is the hand-computed NUGGET_F above
    nist = _nist_layout(tmp_path / "nist")
    assert "1.4 r1 2 3" in (nist / "other" / "r1.otherjudged").read_text()
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-qa", str(nist), "--out", str(out)]) == 0
    capsys.readouterr()
    runs = [str(out / "runs" / "r1.xml"), str(out / "runs" / "r2.xml")]
    assert main(["score", *runs, "--topics", str(out / "topics.xml"), "--judgments", str(out / "judgments.jsonl"),
                 "--beta", "3", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r: d["mean"]["nugget_F"] for r, d in doc["runs"].items()} == pytest.approx(NUGGET_F, abs=1e-9)
    seed = import_trecqa(DATA, tmp_path / "seed")
    a, b = read_judgments(seed.judgments), read_judgments(out / "judgments.jsonl")
    assert [(j.topic_id, j.run, j.bullet, j.facets) for j in a] == [(j.topic_id, j.run, j.bullet, j.facets) for j in b]
    # a mark keeps its item's document
    assert b[1].extra["marks"] == [{"nugget": "3", "docid": "NYT19990202.0002", "text": ""}]


def test_nist_layout_errors_name_file_and_line(tmp_path, capsys):
    nist = _nist_layout(tmp_path / "nist")
    with open(nist / "other" / "r2.otherjudged", "a") as fh:
        fh.write("2.6 r2 3 XIE19990707.0008 skipped item two\n2.6 r2\n")
    assert main(["convert", "import", "trec-qa", str(nist), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    f = nist / "other" / "r2.otherjudged"
    assert f"{f}:6: topic 2.6: item 3 of run r2 follows item 1" in err
    assert f"{f}:7: expected 'QID TAG ITEM-NUMBER DOCNO string' (an item) or" in err
