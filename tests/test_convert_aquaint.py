"""``bolt convert`` for the AQUAINT definition pilot (seed 000): convert -> score -> compare, round trip, errors.

The data in tests/data/convert/aquaint are hand-made in the pilot's format (two questions, runs A-D,
nugget lists and marks of an "author" and an "other" assessor, holistic pairs of three assessors).

Response lengths l (non-white-space characters of all items of a response, counted by hand from Q.1, Q.2):
  q1: A 36+34+38 = 108, B 246 (291 characters, 45 spaces), C 9, D 111 (134 characters, 23 spaces)
  q2: A 42+38 = 80, B 33, C 29+28+27 = 84, D no response.
F_β = (β²+1) P R / (β² P + R); R = vital matched / vital; P = 1 if l < α = 100·matched, else 1 − (l − α)/l.

author (vital: q1 {1,2}, q2 {1,2}):
  q1 A {1,2,3}: R 1, α 300 > 108, P 1 -> F 1
  q1 B {2,3}: R 1/2, α 200, P = 1 − 46/246 = 100/123
      F5 = 26·(100/123)·½ / (25·100/123 + ½) = 2600/5123;  F2 = 5·(100/123)·½ / (4·100/123 + ½) = 500/923
  q1 C {}: 0
  q1 D {1}: R 1/2, α 100, P = 1 − 11/111 = 100/111
      F5 = 26·(100/111)·½ / (25·100/111 + ½) = 2600/5111; F2 = 500/911
  q2 A {1,2}: F 1;  q2 B {3} (okay): R 0 -> 0
  q2 C {2 (from parts 2.1 and 2.2), 3}: R 1/2, P 1 -> F5 = 13/25.5 = 26/51, F2 = 2.5/4.5 = 5/9
  q2 D: no response -> 0
  means F5: A 1, B 1300/5123 = 0.253758, C 13/51 = 0.254902, D 1300/5111 = 0.254353
  means F2: A 1, B 250/923 = 0.270856, C 5/18 = 0.277778, D 250/911 = 0.274424
other (vital: q1 {1,2}, q2 {1,3}):
  q1 A {3,2}: R 1/2, α 200 > 108 -> 26/51, 5/9
  q1 B {1,2}: R 1, P 100/123 -> F5 = 26·P/(25·P + 1) = 2600/2623, F2 = 5P/(4P + 1) = 500/523
  q1 C 0;  q1 D {1,3}: R 1/2, α 200 > 111 -> 26/51, 5/9
  q2 A {1}: R 1/2, α 100 > 80 -> 26/51, 5/9;  q2 B {3}: R 1/2, α 100 > 33 -> 26/51, 5/9
  q2 C {1,3}: R 1, P 1 -> 1;  q2 D 0
  means F5: A 26/51 = 0.509804, B (2600/2623 + 26/51)/2 = 0.750517, C 0.5, D 13/51 = 0.254902
  means F2: A 5/9 = 0.555556, B (500/523 + 5/9)/2 = 0.755789, C 0.5, D 5/18 = 0.277778
Rankings by F5: author A C D B, other B A C D. Kendall tau over the 6 pairs: concordant A-C, A-D, C-D;
discordant A-B, B-C, B-D -> (3 − 3)/6 = 0.
Holistic 5C + 0.5CO, mean over the two questions (D's q2 is no response: 0):
  contractor: A (64 + 59.5)/2 = 61.75, B (45 + 48)/2 = 46.5, C (19.5 + 28)/2 = 23.75, D 12/2 = 6  -> A B C D
  author:     A (81 + 72)/2 = 76.5,   B (24 + 19.5)/2 = 21.75, C (15 + 56)/2 = 35.5, D 21/2 = 10.5 -> A C B D
  other:      A (48 + 35)/2 = 41.5,   B (76.5 + 72)/2 = 74.25, C (5.5 + 12)/2 = 8.75, D 37.5/2 = 18.75 -> B A D C
  tau contractor&author: one discordant pair (B-C) of 6 -> (5 − 1)/6 = 2/3
  tau contractor&other: discordant A-B, C-D -> (4 − 2)/6 = 1/3
  tau author&other: discordant A-B, B-C, C-D -> (3 − 3)/6 = 0
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.submission import read_run
from bolt.formats.topics import read_topics
from evaluation.convert.aquaint import export_pilot, import_pilot
from evaluation.judgments import read_holistic, read_judgments

DATA = Path(__file__).parent / "data" / "convert" / "aquaint"

F5 = {"author": {"A": 1.0, "B": 1300 / 5123, "C": 13 / 51, "D": 1300 / 5111},
      "other": {"A": 26 / 51, "B": (2600 / 2623 + 26 / 51) / 2, "C": 0.5, "D": 13 / 51}}
F2 = {"author": {"A": 1.0, "B": 250 / 923, "C": 5 / 18, "D": 250 / 911},
      "other": {"A": 5 / 9, "B": (500 / 523 + 5 / 9) / 2, "C": 0.5, "D": 5 / 18}}
HOLISTIC = {"contractor": {"A": 61.75, "B": 46.5, "C": 23.75, "D": 6.0},
            "author": {"A": 76.5, "B": 21.75, "C": 35.5, "D": 10.5},
            "other": {"A": 41.5, "B": 74.25, "C": 8.75, "D": 18.75}}


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    out = tmp_path_factory.mktemp("pilot")
    assert main(["convert", "import", "aquaint-pilot", str(DATA), "--out", str(out)]) == 0
    return out


def _score(capsys, out: Path, assessor: str, beta: float, holistic: str | None = None) -> dict:
    runs = sorted(str(p) for p in (out / "runs").glob("*.xml"))
    argv = ["score", *runs, "--topics", str(out / f"topics.{assessor}.xml"),
            "--judgments", str(out / f"judgments.{assessor}.jsonl"), "--beta", str(beta), "--json"]
    if holistic:
        argv += ["--holistic", str(out / f"holistic.{holistic}.tsv")]
    capsys.readouterr()
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_converted_files(converted):
    assert sorted(p.name for p in (converted / "runs").glob("*.xml")) == ["A.xml", "B.xml", "C.xml", "D.xml"]
    author = read_topics(converted / "topics.author.xml")
    assert [t.query for t in author] == ["Who is Ada Lovelace?", "What is a quasar?"]
    assert [(f.id, f.importance) for f in author[0].facets] == [("1", "vital"), ("2", "vital"), ("3", "okay")]
    d = read_run(converted / "runs" / "D.xml")
    assert list(d.results) == ["1"]  # D did not answer question 2
    assert d.results["1"].bullets[0].sources[0].thread == "XXXXXXXXXXXXXXXX"
    js = {(j.topic_id, j.run, j.bullet): j for j in read_judgments(converted / "judgments.author.jsonl")}
    assert len(js) == 3 + 1 + 1 + 1 + 2 + 1 + 3  # every item judged, marked or not
    split = js[("2", "C", 1)]
    assert split.facets == ("2",) and split.extra["marks"][0]["nugget"] == "2.1"
    assert js[("1", "C", 1)].facets == () and not js[("1", "C", 1)].sources[0].supports
    assert len(read_holistic(converted / "holistic.tsv")) == 8 * 3


def test_converted_runs_validate(converted, capsys):
    runs = sorted(str(p) for p in (converted / "runs").glob("*.xml"))
    for a in ("author", "other"):
        assert main(["validate", *runs, "--topics", str(converted / f"topics.{a}.xml")]) == 0, capsys.readouterr().err


def test_wrapped_nugget_text_is_joined(tmp_path):
    folder = tmp_path / "p"
    shutil.copytree(DATA, folder)
    (folder / "1.author").write_text("1 * daughter of the poet\n    Lord Byron\n2 * wrote the first published algorithm\n"
                                     "3 worked with Charles Babbage\n")
    conv = import_pilot(folder, tmp_path / "o")
    assert read_topics(conv.topics["author"])[0].facet("1").desc == "daughter of the poet Lord Byron"


@pytest.mark.parametrize("assessor", ["author", "other"])
def test_nugget_f_beta5_and_beta2_match_hand_values(capsys, converted, assessor):
    for beta, expected in ((5, F5), (2, F2)):
        doc = _score(capsys, converted, assessor, beta)
        got = {r: d["mean"]["nugget_F"] for r, d in doc["runs"].items()}
        assert got == pytest.approx(expected[assessor], abs=1e-9), (assessor, beta)


def test_compare_gives_rankings_and_tau(capsys, converted, tmp_path):
    files = []
    for a in ("contractor", "author", "other"):
        doc = _score(capsys, converted, "author" if a == "contractor" else a, 5, holistic=a)
        assert {r: d["mean"]["holistic"] for r, d in doc["runs"].items()} == pytest.approx(HOLISTIC[a])
        p = tmp_path / f"{a}.json"
        p.write_text(json.dumps(doc), encoding="utf-8")
        files.append(str(p))
    assert main(["compare", *files, "--metric", "holistic", "--json", "--resamples", "50", "--trials", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {k: "".join(v) for k, v in doc["rankings"].items()} == {"contractor": "ABCD", "author": "ACBD",
                                                                    "other": "BADC"}
    assert doc["kendall_tau"] == pytest.approx({"contractor|author": 2 / 3, "contractor|other": 1 / 3,
                                                "author|other": 0.0})
    assert main(["compare", files[1], files[2], "--metric", "nugget_F", "--json", "--resamples", "50",
                 "--trials", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {k: "".join(v) for k, v in doc["rankings"].items()} == {"author": "ACDB", "other": "BACD"}
    assert doc["kendall_tau"]["author|other"] == pytest.approx(0.0)


def test_round_trip_loses_nothing_the_metrics_read(tmp_path):
    first = import_pilot(DATA, tmp_path / "a")
    back = tmp_path / "pilot"
    export_pilot(back, runs=first.runs, topics=first.topics, judgments=first.judgments,
                 holistic=first.holistic["all"])
    again = import_pilot(back, tmp_path / "b")
    for a in first.topics:
        assert read_topics(first.topics[a]) == read_topics(again.topics[a])
        assert read_judgments(first.judgments[a]) == read_judgments(again.judgments[a])
        assert [j.extra for j in read_judgments(first.judgments[a])] == \
               [j.extra for j in read_judgments(again.judgments[a])]
    for p, q in zip(first.runs, again.runs):
        assert read_run(p).results == read_run(q).results
    assert read_holistic(first.holistic["all"]) == read_holistic(again.holistic["all"])
    # The exported files are the pilot's layout: the second export equals the first byte for byte.
    back2 = tmp_path / "pilot2"
    export_pilot(back2, runs=again.runs, topics=again.topics, judgments=again.judgments,
                 holistic=again.holistic["all"])
    for p in sorted(back.iterdir()):
        assert (back2 / p.name).read_text() == p.read_text(), p.name


def test_bad_input_lists_every_problem_with_file_and_line(tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(DATA, bad)
    with open(bad / "sys.1.author", "a") as fh:
        fh.write("1 A 9 1 APW19990101.0001 no such item\n1 B 1 7 NYT19990202.0002 no such nugget\n1 C x\n")
    with open(bad / "Q.2", "a") as fh:
        fh.write("2 A\n")
    code = main(["convert", "import", "aquaint-pilot", str(bad), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{bad / 'sys.1.author'}:9: topic 1 bullet 9: run A has 3 item(s) for question 1, not item 9" in err
    assert f"{bad / 'sys.1.author'}:10: topic 1 bullet 1: nugget 7 is not in author's list 1.author" in err
    assert f"{bad / 'sys.1.author'}:11: expected 'QNUM RUN ITEM NUGGET DOCID marked text'" in err
    assert f"{bad / 'Q.2'}:9: expected 'QNUM RUN DOCID answer text'" in err
    assert "nothing was written" in err
    assert not (tmp_path / "out").exists()


def test_repeated_item_is_refused_with_a_fix(tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(DATA, bad)
    text = (bad / "Q.2").read_text().replace("2 A APW19990404.0004 a supermassive black hole powers each quasar",
                                             "2 A APW19990404.0004 quasars are very luminous active galactic nuclei")
    (bad / "Q.2").write_text(text)
    assert main(["convert", "import", "aquaint-pilot", str(bad), "--out", str(tmp_path / "o")]) == 1
    assert "Q.2:2: topic 2: run A: item 2 repeats the text of item 1" in capsys.readouterr().err


def test_holistic_only_pilot_scores_holistic(tmp_path, capsys):
    # Without nugget lists and marks, the questions, runs and holistic scores still convert and score.
    folder = tmp_path / "p"
    folder.mkdir()
    for name in ("questions", "Q.1", "Q.2", "holistic"):
        shutil.copy(DATA / name, folder / name)
    conv = import_pilot(folder, tmp_path / "o")
    cmds = conv.commands()
    assert any("--avg-nugget-words 1 --beta 5 --holistic" in c and "holistic.contractor.tsv" in c for c in cmds)
    runs = [str(p) for p in conv.runs]
    assert main(["score", *runs, "--topics", str(conv.topics["questions"]), "--judgments",
                 str(conv.judgments["questions"]), "--avg-nugget-words", "1", "--holistic",
                 str(conv.holistic["contractor"]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r: d["mean"]["holistic"] for r, d in doc["runs"].items()} == pytest.approx(HOLISTIC["contractor"])


def test_question_without_nugget_list_is_a_warning(tmp_path):
    folder = tmp_path / "p"
    shutil.copytree(DATA, folder)
    (folder / "2.other").unlink()
    (folder / "sys.2.other").unlink()
    conv = import_pilot(folder, tmp_path / "o")
    assert [p.rule for p in conv.warnings].count("nuggets-missing") == 1
