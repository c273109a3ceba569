"""``bolt convert`` for NeuCLIR/RAGTIME reports judged in the ARGUE style (nugget banks + sentence judgments).

Hand-made data in tests/data/convert/argue (RAGTIME-shaped reports, citations {docid: confidence}).
Topic 300: q1 OR {wheat, maize} vital, q2 AND {north, east} vital, q3 OR {gave subsidies} okay;
topic 301: q1 {doubled}, q2 {China}, no importance (read as vital). Weights vital 2, okay 1: 300 -> 5, 301 -> 4.
A sentence is supported only when EACH of its citations is attested (argue-viz, auto-argue).
  runX/300: s1 cites d1 (attested, relevant), answers q1 wheat + q2 north; s2 cites d2 (not attested,
     relevant), answers q2 east; s3 cites nothing, answers nothing.
     covered q1, q2 (north and east over s1 + s2) -> 2/3, weighted (2 + 2)/5 = 4/5;
     needing a citation s1, s2, correctly cited s1 -> 1/2; citations 2, attested 1 -> 1/2; relevant 2 -> 1;
     f1 = 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7; f1_weighted = 2·(4/5)(1/2)/(4/5 + 1/2) = 8/13
  runX/301: s1 cites d5 (attested, relevant) AND d6 (neither), answers q1 -> coverage 1/2 (weighted 2/4);
     sentence support 0/1 (d6 is not attested, so the sentence is unsupported although d5 is);
     citation support 1/2, relevance 1/2, f1 = 0, f1_weighted = 0
  runY/300: s1 d3 q1 maize, s2 d1 q2 north (both attested, relevant), s3 answers q3 without citation
     -> coverage q1, q3 (q2 AND lacks east) = 2/3, weighted (2 + 1)/5 = 3/5; needing 3, correctly cited 2 -> 2/3;
     citations 2/2; relevance 2/2; f1 = 2/3; f1_weighted = 2·(3/5)(2/3)/(3/5 + 2/3) = 12/19
  runY/301: no report -> 0 (counted: 2 nuggets, weight 4, nothing else)
macro (mean over the two topics):
  runX coverage (2/3 + 1/2)/2 = 7/12; weighted (4/5 + 1/2)/2 = 13/20; sentence support (1/2 + 0)/2 = 1/4;
       citation support 1/2; relevance (1 + 1/2)/2 = 3/4; f1 (4/7 + 0)/2 = 2/7; f1_weighted (8/13 + 0)/2 = 4/13
  runY coverage 1/3; weighted 3/10; sentence support 1/3; citation support 1/2; relevance 1/2; f1 1/3;
       f1_weighted 6/19
micro (summed counts):
  runX coverage (2 + 1)/(3 + 2) = 3/5; weighted (4 + 2)/(5 + 4) = 2/3; sentence support (1 + 0)/(2 + 1) = 1/3;
       citation support 2/4; relevance 3/4; f1 = 2·(3/5)(1/3)/(3/5 + 1/3) = 3/7;
       f1_weighted = 2·(2/3)(1/3)/(2/3 + 1/3) = 4/9
  runY coverage 2/5; weighted 3/9 = 1/3; sentence support 2/3; citation support 2/2; relevance 2/2;
       f1 = 2·(2/5)(2/3)/(2/5 + 2/3) = 1/2; f1_weighted = 2·(1/3)(2/3)/(1/3 + 2/3) = 4/9
raw counts summed over topics (the viewer's order):
  runX: sentences 4, needing 3, correctly cited 1, nuggets 5, weighted 9, correct 3, correct weighted 6,
        citations 4, relevant 3, supporting 2
  runY: sentences 3, needing 3, correctly cited 2, nuggets 5, weighted 9, correct 2, correct weighted 3,
        citations 2, relevant 2, supporting 2
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bolt.cli import main
from indexing.problems import ProblemsError
from bolt.formats.submission import read_run
from bolt.formats.topics import read_topics
from evaluation.convert.argue import export_argue, import_argue, parse_aggregators
from evaluation.judgments import read_judgments

DATA = Path(__file__).parent / "data" / "convert" / "argue"
INPUTS = [DATA / "nugget-banks.jsonl", DATA / "judgments.jsonl"]
M = "'micro'"
EXPECTED = {
    "runX": {"argue_nugget_coverage": 7 / 12, f"argue_nugget_coverage(average={M})": 3 / 5,
             "argue_nugget_coverage_weighted": 13 / 20, f"argue_nugget_coverage_weighted(average={M})": 2 / 3,
             "argue_sentence_support": 1 / 4, f"argue_sentence_support(average={M})": 1 / 3,
             "argue_citation_support": 1 / 2, f"argue_citation_support(average={M})": 1 / 2,
             "argue_citation_relevance": 3 / 4, f"argue_citation_relevance(average={M})": 3 / 4,
             "argue_f1": 2 / 7, f"argue_f1(average={M})": 3 / 7,
             "argue_f1_weighted": 4 / 13, f"argue_f1_weighted(average={M})": 4 / 9},
    "runY": {"argue_nugget_coverage": 1 / 3, f"argue_nugget_coverage(average={M})": 2 / 5,
             "argue_nugget_coverage_weighted": 3 / 10, f"argue_nugget_coverage_weighted(average={M})": 1 / 3,
             "argue_sentence_support": 1 / 3, f"argue_sentence_support(average={M})": 2 / 3,
             "argue_citation_support": 1 / 2, f"argue_citation_support(average={M})": 1.0,
             "argue_citation_relevance": 1 / 2, f"argue_citation_relevance(average={M})": 1.0,
             "argue_f1": 1 / 3, f"argue_f1(average={M})": 1 / 2,
             "argue_f1_weighted": 6 / 19, f"argue_f1_weighted(average={M})": 4 / 9},
}
RAW = {
    "runX": {"sentences": 4, "sentences_with_citations_or_requiring_citations": 3, "correctly_cited_sentences": 1,
             "nuggets": 5, "nuggets_weighted": 9, "correct_nuggets": 3, "correct_nuggets_weighted": 6,
             "citations": 4, "relevant_citations": 3, "supporting_citations": 2},
    "runY": {"sentences": 3, "sentences_with_citations_or_requiring_citations": 3, "correctly_cited_sentences": 2,
             "nuggets": 5, "nuggets_weighted": 9, "correct_nuggets": 2, "correct_nuggets_weighted": 3,
             "citations": 2, "relevant_citations": 2, "supporting_citations": 2},
}


def test_convert_score_compare(tmp_path, capsys):
    out = tmp_path / "c"
    assert main(["convert", "import", "argue", *map(str, INPUTS), "--out", str(out)]) == 0
    topics = read_topics(out / "topics.xml")
    assert parse_aggregators(topics[0].rules) == {"q2": "AND"}
    assert [n.text for n in topics[0].facet("q1").nuggets] == ["wheat", "maize"]
    assert topics[0].facet("q3").importance == "okay"
    run = read_run(out / "runs" / "runX.xml")
    assert [s.thread for s in run.results["301"].bullets[0].sources] == ["d5", "d6"]
    capsys.readouterr()
    assert main(["convert", "score", "argue", "--topics", str(out / "topics.xml"),
                 "--judgments", str(out / "judgments.jsonl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    for r, exp in EXPECTED.items():
        assert doc["runs"][r]["mean"] == pytest.approx(exp, abs=1e-12), r
        assert doc["runs"][r]["counts"]["all"] == RAW[r], r
        assert list(doc["runs"][r]["counts"]["all"]) == list(RAW[r])  # the viewer's order
    assert doc["runs"]["runX"]["topics"]["300"]["argue_f1"] == pytest.approx(4 / 7)
    # the two-citation sentence (d5 attested, d6 not) is unsupported: topic 301 sentence support 0
    assert doc["runs"]["runX"]["topics"]["301"]["argue_sentence_support"] == 0.0
    assert doc["runs"]["runX"]["counts"]["301"]["correctly_cited_sentences"] == 0
    p = tmp_path / "argue.json"
    p.write_text(json.dumps(doc))
    assert main(["compare", str(p), "--metric", "argue_f1", "--json", "--resamples", "20", "--trials", "2"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    assert cmp["rankings"]["argue_f1"] == ["runY", "runX"]
    # coverage puts runX first (7/12 against 1/3), the reverse of f1.
    assert cmp["rankings"]["argue_nugget_coverage"] == ["runX", "runY"]


def test_round_trip(tmp_path):
    first = import_argue(INPUTS, tmp_path / "a")
    back = tmp_path / "back"
    export_argue(back, runs=first.runs, topics=first.topics, judgments=first.judgments)
    again = import_argue(sorted(back.glob("*.jsonl")), tmp_path / "b")
    assert read_topics(first.topics) == read_topics(again.topics)
    assert {p.name: read_run(p).results for p in first.runs} == {p.name: read_run(p).results for p in again.runs}
    a, b = read_judgments(first.judgments), read_judgments(again.judgments)
    assert a == b and [j.extra for j in a] == [j.extra for j in b]
    assert [[s.extra for s in j.sources] for j in a] == [[s.extra for s in j.sources] for j in b]


def test_errors_name_file_line_and_fix(tmp_path, capsys):
    bad = tmp_path / "bad"
    shutil.copytree(DATA, bad)
    text = (bad / "judgments.jsonl").read_text().replace("Which crops failed?", "Which crops did well?", 1)
    (bad / "judgments.jsonl").write_text(text)
    with open(bad / "nugget-banks.jsonl", "a") as fh:
        fh.write('{"query_id": "302", "nugget_bank": {"x": {"question": "Who?", "aggregator_type": "NOT"}}}\n')
    assert main(["convert", "import", "argue", *(str(bad / p.name) for p in INPUTS), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"{bad / 'judgments.jsonl'}:1: topic 300 bullet 1: sentence 1 answers 'Which crops did well?'" in err
    assert f"{bad / 'nugget-banks.jsonl'}:3: topic 302: nugget 'x': aggregator 'NOT' is not read" in err
    assert not (tmp_path / "o").exists()


def test_banks_in_a_json_file(tmp_path):
    banks = [json.loads(line) for line in (DATA / "nugget-banks.jsonl").read_text().splitlines()]
    single = tmp_path / "banks.json"
    single.write_text(json.dumps(banks, indent=2))
    a = import_argue(INPUTS, tmp_path / "a")
    b = import_argue([single, DATA / "judgments.jsonl"], tmp_path / "b")
    assert read_topics(a.topics) == read_topics(b.topics)
    broken = tmp_path / "broken.json"
    broken.write_text('{"query_id": "1",\n "nugget_bank": {\n')
    with pytest.raises(ProblemsError) as exc:
        import_argue([broken], tmp_path / "c")
    assert f"{broken}:3" in str(exc.value)
