"""Agreement figures (hand-computed) and ``bolt agree``, including the careful judgments of the sample."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.submission import read_run
from bolt.formats.topics import Facet, Topic
from evaluation.agreement import binary_agreement, judgment_agreement, kappa_ci
from evaluation.judgments import JudgedSource, Judgment, read_judgments, write_judgments

REPO = Path(__file__).resolve().parents[1]
CAREFUL = REPO / "tests" / "data" / "careful" / "sample.judgments.jsonl"


def test_binary_agreement_by_hand():
    ref = [True, True, False, False, False, True]
    cand = [True, False, True, False, False, True]
    a = binary_agreement(ref, cand)
    # tp 2, fn 1, fp 1, tn 2: accuracy 4/6; p_o 2/3, p_e = (3*3 + 3*3)/36 = 1/2, kappa (2/3-1/2)/(1/2) = 1/3
    assert (a.n, a.both_yes, a.reference_yes, a.candidate_yes) == (6, 2, 3, 3)
    assert a.accuracy == pytest.approx(4 / 6) and a.kappa == pytest.approx(1 / 3)
    assert a.precision == pytest.approx(2 / 3) and a.recall == pytest.approx(2 / 3)
    assert binary_agreement([False] * 3, [False] * 3).kappa == 1.0
    assert binary_agreement([True] * 2, [False] * 2).kappa == 0.0
    with pytest.raises(ValueError):
        binary_agreement([True], [])


def test_kappa_interval_resamples_whole_topics():
    # topic a agrees perfectly, topic b disagrees on both items. A resample of two topics is aa
    # (kappa 1), bb (both sides say yes once and no once, always differently: kappa -1) or ab / ba
    # (p_o = 1/2 = p_e: kappa 0); aa and bb each have probability 1/4, so the 95% interval is [-1, 1]
    ref, cand, groups = [True, False, True, False], [True, False, False, True], ["a", "a", "b", "b"]
    assert binary_agreement(ref, cand).kappa == pytest.approx(0.0)
    assert kappa_ci(ref, cand, groups) == (-1.0, 1.0)
    assert kappa_ci(ref, cand, groups) == kappa_ci(ref, cand, groups, seed=0)  # deterministic
    # one topic: every resample is the sample itself
    assert kappa_ci(ref[:2], cand[:2], groups[:2]) == (1.0, 1.0)
    with pytest.raises(ValueError):
        kappa_ci(ref, cand, groups[:3])


def _j(run, bullet, facets, supports=True, topic="1"):
    return Judgment(topic, run, bullet, "x", tuple(facets), 10, 10 if facets else 0,
                    (JudgedSource("t1", bullet * 10, "p1", supports),))


TOPICS = [Topic("1", "q", facets=(Facet("1", "vital", "a"), Facet("2", "vital", "b")))]


def test_judgment_agreement_by_hand():
    person = [_j("A", 1, ["1"]), _j("A", 2, ["2"]), _j("B", 1, []), _j("B", 2, ["1"], supports=False)]
    machine = [_j("A", 1, ["1"]), _j("A", 2, []), _j("B", 1, ["2"]), _j("B", 2, ["1"])]
    out = judgment_agreement(person, machine, TOPICS)
    assert out["bullets_in_both"] == 4
    # relevance: person T,T,F,T vs machine T,F,T,T -> 2 of 4 agree
    assert out["relevance"]["accuracy"] == 0.5 and out["relevance"]["both_yes"] == 2
    # facets (bullet x 2 facets): person yes on A1f1, A2f2, B2f1; machine on A1f1, B1f2, B2f1 -> 6 of 8 agree
    assert out["facets"]["n"] == 8 and out["facets"]["accuracy"] == 0.75
    assert out["facets"]["precision"] == pytest.approx(2 / 3, abs=1e-4)
    assert out["facets"]["recall"] == pytest.approx(2 / 3, abs=1e-4)
    assert out["support"]["accuracy"] == 0.75
    # R_n: person A covers {1,2} = 1.0; person B's facet-1 bullet has no supporting source, so B
    # covers nothing = 0.0 (SPEC: a facet counts only with a supporting citation); machine A {1} = 0.5,
    # machine B {1,2} = 1.0
    # one topic: every bootstrap resample is the sample itself, so each interval is the point
    assert out["runs"]["A"]["R_n"] == {"first": 1.0, "second": 0.5, "difference": -0.5, "difference_ci": [-0.5, -0.5]}
    assert out["runs"]["B"]["R_n"] == {"first": 0.0, "second": 1.0, "difference": 1.0, "difference_ci": [1.0, 1.0]}
    assert out["bias"]["R_n"] == {"bias": 0.25, "ci": [0.25, 0.25]}  # mean over runs of -0.5 and +1.0
    assert out["kendall_tau"]["R_n"] == -1.0  # the two files rank A and B in opposite orders


TWO = [Topic(n, "q", facets=(Facet("1", "vital", "a"), Facet("2", "vital", "b"))) for n in ("1", "2")]


def test_run_bias_and_tau_intervals_resample_topics():
    # run A: topic 1 both files cover {1} (difference 0); topic 2 the person covers {1,2}, the
    # machine {1} (difference -0.5). Run B: covers nothing in either file on both topics.
    person = [_j("A", 1, ["1"], topic="1"), _j("A", 1, ["1"], topic="2"), _j("A", 2, ["2"], topic="2"),
              _j("B", 1, [], topic="1"), _j("B", 1, [], topic="2")]
    machine = [_j("A", 1, ["1"], topic="1"), _j("A", 1, ["1"], topic="2"), _j("A", 2, [], topic="2"),
               _j("B", 1, [], topic="1"), _j("B", 1, [], topic="2")]
    out = judgment_agreement(person, machine, TWO)
    a = out["runs"]["A"]["R_n"]
    # A's bias: (0 - 0.5) / 2 = -0.25. Resamples of two topics: (1,1) 0, (2,2) -0.5, mixed -0.25,
    # the two extremes each with probability 1/4: the 95% percentile interval is [-0.5, 0]
    assert (a["first"], a["second"], a["difference"], a["difference_ci"]) == (0.75, 0.5, -0.25, [-0.5, 0.0])
    assert out["runs"]["B"]["R_n"]["difference_ci"] == [0.0, 0.0]
    # mean over runs: (-0.25 + 0) / 2, interval half of A's
    assert out["bias"]["R_n"] == {"bias": -0.125, "ci": [-0.25, 0.0]}
    # both files rank A above B on every resample: tau 1 with the interval [1, 1]
    assert out["kendall_tau"]["R_n"] == 1.0 and out["kendall_tau_ci"]["R_n"] == [1.0, 1.0]


def test_bolt_agree_cli_json_and_errors(tmp_path, capsys):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_judgments([_j("A", 1, ["1"]), _j("A", 2, [])], a)
    write_judgments([_j("A", 1, ["1"]), _j("A", 2, ["2"])], b)
    assert main(["agree", str(a), str(b), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["relevance"]["accuracy"] == 0.5 and "runs" not in doc
    # one topic: the bootstrap over topics gives the point itself
    assert doc["relevance"]["kappa_ci"] == [doc["relevance"]["kappa"]] * 2
    assert main(["agree", str(a), str(b)]) == 0
    assert "kappa [95% CI]" in capsys.readouterr().out
    assert main(["agree", str(a)]) == 2
    assert "two judgment files" in capsys.readouterr().err


def test_pairs_mode_decides_each_pair(tmp_path, capsys):
    p = tmp_path / "pairs.tsv"
    p.write_text("key\ttopic\tlabel\tparagraph\tstatement\n"
                 "k1\t1_1\t1\tThe transfer fee was 12 million dollars, the club said.\tThe fee is 12 million dollars.\n"
                 "k2\t1_1\t0\tI love this club and its fans.\tThe fee is 12 million dollars.\n"
                 "k3\t2_1\t0\tthe garden is green\tThe museum opens at nine.\n", encoding="utf-8")
    assert main(["agree", "--pairs", str(p), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["pairs"] == 3 and doc["assessor"]["accuracy"] == 1.0 and "in-sample" in doc["note"]
    assert doc["assessor"]["kappa_ci"] == [1.0, 1.0]  # right on every pair of both topics
    assert set(doc["held_out_by_source"]) == {"ikat", "realsumm", "forum"}
    # the common unit-label layout decides the same pairs alike
    u = tmp_path / "units.tsv"
    u.write_text("source\ttopic\tunit_id\tunit_text\ttext_id\ttext\tlabel\n" + "".join(
        f"test\t{t}\tu{k}\t{st}\tx{k}\t{pa}\t{lab}\n" for k, (_, t, lab, pa, st) in
        enumerate(line.split("\t") for line in p.read_text(encoding="utf-8").splitlines()[1:])), encoding="utf-8")
    assert main(["agree", "--pairs", str(u), "--json"]) == 0
    doc2 = json.loads(capsys.readouterr().out)
    assert doc2["assessor"] == doc["assessor"]


def _carry_script():
    import importlib.util

    spec = importlib.util.spec_from_file_location("carry_judgments", REPO / "scripts" / "carry_judgments.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_careful_sample_judgments_agree_with_bolt_assess(tmp_path, capsys):
    """The issue's acceptance check: R_n per system by ``bolt assess`` within 0.1 of the careful reading.

    The careful reading is carried to the demo's runs by bullet text (``scripts/carry_judgments.py``,
    the keys of ``evaluation.judgments.reuse``), so a reordered bullet keeps its judgment; a bullet no
    person has read fails the test with the command that lists it, never a silent skip.
    """
    careful = read_judgments(CAREFUL)
    assert {j.run for j in careful} == {"main", "lead", "bm25-sentences"}
    assert all(j.assessor.startswith("careful:") and j.extra.get("text") for j in careful)
    work = tmp_path / "demo"
    assert main(["demo", "--workdir", str(work), "--quiet"]) == 0
    capsys.readouterr()
    # the careful lines under other run names, so every demo bullet is carried by its text
    mine = tmp_path / "careful.jsonl"
    with mine.open("w", encoding="utf-8") as fh:
        for line in CAREFUL.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            if "_meta" in d:
                continue
            d["run"] = "read:" + d["run"]
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
    runs = sorted((work / "runs").glob("*.xml"))
    todo = tmp_path / "todo.jsonl"
    left = _carry_script().carry(runs, mine, [str(REPO / "bolt" / "data" / "sample_corpus")], todo, "careful:carried")
    assert left == 0, (f"{len(todo.read_text(encoding='utf-8').splitlines())} demo bullets have no careful judgment: "
                       f"python scripts/carry_judgments.py RUNS --judgments {CAREFUL} --corpus bolt/data/sample_corpus "
                       "--todo TODO.jsonl lists them; judge them (seed 004), add them with --add TODO.jsonl")
    carried = [j for j in read_judgments(mine) if not j.run.startswith("read:")]
    write_judgments(carried, tmp_path / "carried.jsonl")
    made = sum(len(res.bullets) for r in map(read_run, runs) for res in r.results.values())
    assert len(carried) == made
    assert main(["agree", str(tmp_path / "carried.jsonl"), str(work / "judgments.jsonl"), "--topics",
                 str(REPO / "topics" / "sample.xml"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["bullets_in_both"] == made and doc["only_in_first"] == 0
    for run, scores in doc["runs"].items():
        assert abs(scores["R_n"]["difference"]) <= 0.1, (run, scores["R_n"])
    assert doc["facets"]["kappa"] >= 0.7
