"""The sample-corrected estimate (``evaluation.correction``) against answers computed by hand."""
from __future__ import annotations

import json

import pytest

from bolt.cli import main
from bolt.formats.topics import Facet, Topic
from evaluation.api import corrected
from evaluation.correction import corrected_scores
from evaluation.judgments import JudgedSource, Judgment, write_judgments

# one topic, four facets; every bullet has 10 words and one supporting citation
TOPICS = [Topic("1", "q", facets=tuple(Facet(str(i), "vital", f"facet {i}") for i in range(1, 5)))]


def _j(bullet: int, facets, who: str = "auto:test") -> Judgment:
    return Judgment("1", "A", bullet, who, tuple(facets), 10, 10 if facets else 0,
                    (JudgedSource("t1", bullet * 100, "p1", True),))


MACHINE = [_j(1, ["1"]), _j(2, []), _j(3, []), _j(4, [])]


def test_difference_estimate_by_hand():
    # machine R_n = 1/4. People judged bullets 2, 3, 4 (n = 3 of N = 4): 2 states facet 2, 3 facet
    # 3, 4 nothing. Swapping one bullet's judgment changes the run's R_n by 0.25, 0.25, 0 (one
    # topic). Estimate: 0.25 + (4/3)(0.5) = 0.916667. Variance over the deltas and the
    # pseudo-observations +-b, b = 0.25 (the largest |delta|): values .25 .25 0 .25 -.25, mean 0.1,
    # squares .0225 x 3 + .01 + .1225 = 0.2, s² = 0.2 / 4 = 0.05; Var = N² (1 - n/N) s² / n =
    # 16 · 1/4 · 0.05 / 3 = 0.0666667, sd 0.258199; t(0.975, 2 df) = 4.302653: half-width 1.110940.
    people = [_j(2, ["2"], "human:x"), _j(3, ["3"], "human:x"), _j(4, [], "human:x")]
    r = corrected_scores(TOPICS, MACHINE, people)["A"]["R_n"]
    assert (r.machine, r.sampled, r.bullets) == (0.25, 3, 4)
    assert r.estimate == pytest.approx(0.916667, abs=1e-6)
    assert r.ci == pytest.approx((0.916667 - 1.110940, 0.916667 + 1.110940), abs=1e-5)


def test_a_full_sample_gives_the_peoples_score_and_no_width():
    # every bullet judged by people: the estimate is their R_n (facets 1, 2, 3 of 4) exactly, and
    # the finite-population correction leaves no uncertainty
    people = [_j(1, ["1"], "human:x"), _j(2, ["2"], "human:x"), _j(3, ["3"], "human:x"), _j(4, [], "human:x")]
    r = corrected_scores(TOPICS, MACHINE, people)["A"]["R_n"]
    assert r.estimate == pytest.approx(0.75) and r.ci == pytest.approx((0.75, 0.75))


def test_a_sample_that_finds_no_error_keeps_the_machines_score_with_a_width():
    # no error sampled: b is one facet of the average topic, 1 / (4 facets x 1 topic) = 0.25;
    # values 0 0 .25 -.25: s² = 0.125 / 3; Var = 16 · 1/2 · s² / 2 = 1/6, sd 0.408248;
    # t(0.975, 1 df) = 12.706205: half-width 5.187326 (two bullets say little)
    people = [_j(2, [], "human:x"), _j(4, [], "human:x")]
    out = corrected(TOPICS, MACHINE, people)["A"]["R_n"]
    assert (out["machine"], out["estimate"], out["sampled"], out["bullets"]) == (0.25, 0.25, 2, 4)
    assert out["ci"] == pytest.approx([0.25 - 5.187326, 0.25 + 5.187326], abs=1e-4)
    # one sampled bullet of four: an estimate, but no interval
    assert corrected(TOPICS, MACHINE, people[:1])["A"]["R_n"]["ci"] is None


def test_bolt_score_correct_with(tmp_path, capsys):
    topics = tmp_path / "topics.xml"
    topics.write_text('<topics><topic number="1"><query>q</query>'
                      + "".join(f'<facet id="{i}" importance="vital"><desc>facet {i}</desc></facet>' for i in range(1, 5))
                      + "</topic></topics>\n", encoding="utf-8")
    run = tmp_path / "A.xml"
    run.write_text('<results run="A"><result number="1"><response>'
                   + "".join(f'<bullet>{f"w{k} " * 10}<source post="t1" offset="{k * 100}"/></bullet>' for k in range(1, 5))
                   + "</response></result></results>\n", encoding="utf-8")
    machine, people = tmp_path / "auto.jsonl", tmp_path / "people.jsonl"
    write_judgments(MACHINE, machine)
    write_judgments([_j(2, ["2"], "human:x"), _j(3, ["3"], "human:x"), _j(4, [], "human:x")], people)
    args = ["score", str(run), "--topics", str(topics), "--judgments", str(machine), "-m", "R_n"]
    assert main([*args, "--correct-with", str(people), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["runs"]["A"]["mean"]["R_n"] == 0.25
    assert doc["corrected"]["A"]["R_n"]["estimate"] == pytest.approx(0.9167, abs=1e-4)
    assert main([*args, "--correct-with", str(people)]) == 0
    assert "A: R_n 0.250 -> 0.917 [-0.194, 2.028]" in capsys.readouterr().out
    other = tmp_path / "other.jsonl"
    write_judgments([Judgment("1", "B", 1, "human:x", (), 10, 0, ())], other)
    assert main([*args, "--correct-with", str(other)]) != 0
    assert "none of its judgments" in capsys.readouterr().err
