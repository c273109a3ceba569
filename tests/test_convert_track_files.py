"""``bolt convert`` on files in the shapes the TREC RAG / NeuCLIR / RAGTIME tracks publish (issue 28).

Every file here is written by the test, in the tracks' shapes (never copied from them):
a request/topics file (``topic_id``/``request_id``, ``title``, ``problem_statement``, ``background``),
AutoNuggetizer nuggets and assignments, RAG 2024 answers with MS MARCO segment ids, one of them
repeating a sentence with a leading space (as an organisers' baseline did), and three runs whose
names share a long prefix.

Topics T1: n1 vital, n2 okay;  T2: n1 vital, n2 vital.  Credit s: support 1, partial 0.5, not 0.
Weights (AN_weighted): vital 1, okay 0.5.
  run ...-a  T1 [support, partial]:  AN_all (1 + .5)/2 = 3/4;  AN_vital 1/1 = 1;
                                     AN_weighted (1 + .5·.5)/(1 + .5) = 1.25/1.5 = 5/6
             T2 [support, not]:      AN_all 1/2; AN_vital 1/2; AN_weighted 1/2
             means: AN_all (3/4 + 1/2)/2 = 5/8; AN_vital 3/4; AN_weighted (5/6 + 1/2)/2 = 2/3
             strict T1 AN_all 1/2, T2 1/2 -> 1/2
  run ...-b  T1 [not, support]:      AN_all 1/2; AN_vital 0; AN_weighted (0 + .5)/1.5 = 1/3
             T2 answered, NO assignment: left out of the mean, as nuggetizer's calculate_global_metrics
             averages over the assignment records it is given (a warning at import and at scoring)
             means: AN_all 1/2; AN_vital 0; AN_weighted 1/3   (counted as 0 it would be 1/4, 0, 1/6)
  run ...-c  T1 [support, support]:  all 1, vital 1, weighted 1;  T2 not answered: 0, counted
             means: 1/2, 1/2, 1/2
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bolt.cli import main
from bolt.formats.submission import read_run
from bolt.formats.topics import read_topics
from evaluation.convert.rag import import_rag
from evaluation.judgments import read_header

PREFIX = "ragnarok-baseline-gpt-4o-2024-08-06-run-"
A, B, C = (PREFIX + x for x in "abc")
SEG = "msmarco_v2.1_doc_{}#{}_{}"  # the MS MARCO v2.1 segment id shape


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _answer(run: str, topic: str, sentences: list[tuple[str, list[int]]], refs: list[str]) -> dict:
    """A TREC RAG 2024 answer record (run_id, topic_id, topic, references, response_length, answer)."""
    return {"run_id": run, "topic_id": topic, "topic": "placeholder query", "references": refs,
            "response_length": sum(len(t.split()) for t, _ in sentences),
            "answer": [{"text": t, "citations": c} for t, c in sentences]}


def _assign(run: str, topic: str, grades: list[str]) -> dict:
    names = NUGGETS[topic]
    return {"qid": topic, "run_id": run, "query": "q", "answer_text": "...",
            "nuggets": [{"text": t, "importance": i, "assignment": g} for (t, i), g in zip(names, grades)]}


NUGGETS = {"T1": [("honey is made from nectar", "vital"), ("bees fan the nectar dry", "okay")],
           "T2": [("light is scattered by air", "vital"), ("blue light scatters most", "vital")]}


@pytest.fixture()
def track(tmp_path) -> list[Path]:
    refs = [SEG.format("00", 1, 2), SEG.format("00", 3, 4), SEG.format("01", 5, 6)]
    requests = _jsonl(tmp_path / "topics.jsonl", [
        {"topic_id": "T1", "title": "how bees make honey", "problem_statement": "Explain how honey is made.",
         "background": "I keep bees."},
        {"topic_id": "T2", "title": "why the sky is blue", "problem_statement": "Explain the sky's colour.",
         "background": "I teach physics."}])
    nuggets = _jsonl(tmp_path / "nuggets.jsonl", [
        {"qid": t, "query": "q", "nuggets": [{"text": x, "importance": i} for x, i in ns]} for t, ns in NUGGETS.items()])
    answers = _jsonl(tmp_path / "answers.jsonl", [
        # the repeat: sentence 3 is sentence 1 again with a leading space, citing another reference
        _answer(A, "T1", [("Honey is made from nectar.", [0]), ("Bees fan it dry.", [1]),
                          (" Honey is made from nectar.", [2])], refs),
        _answer(A, "T2", [("Air scatters light.", [0])], refs[:1]),
        _answer(B, "T1", [("Bees fan nectar.", [0])], refs[:1]),
        _answer(B, "T2", [("The sky is blue.", [0])], refs[:1]),
        _answer(C, "T1", [("Nectar becomes honey.", [0]), ("Bees dry it.", [0])], refs[:1])])
    assignments = _jsonl(tmp_path / "assignments.jsonl", [
        _assign(A, "T1", ["support", "partial_support"]), _assign(A, "T2", ["support", "not_support"]),
        _assign(B, "T1", ["not_support", "support"]), _assign(C, "T1", ["support", "support"])])
    return [requests, nuggets, answers, assignments]


def test_repeated_sentence_is_a_warning_and_the_import_goes_on(track, tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-rag", *map(str, track), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert (f"warning: {track[2]}:1: topic T1: run {A}: sentence 3 repeats sentence 1; kept once") in err
    assert "[repeated-sentence]" in err and "1 repeated_sentences" in err
    bullets = read_run(out / "runs" / f"{A}.xml").results["T1"].bullets
    assert [b.text for b in bullets] == ["Honey is made from nectar.", "Bees fan it dry."]
    # the repeat's citation joins its first copy's
    assert [s.thread for s in bullets[0].sources] == [SEG.format("00", 1, 2), SEG.format("01", 5, 6)]


def test_request_file_gives_topics_their_text(track, tmp_path, capsys):
    conv = import_rag(track, tmp_path / "conv")
    assert not [w for w in conv.warnings if w.rule == "topic-no-text"]
    t1 = read_topics(conv.topics)[0]
    assert t1.query == "how bees make honey"
    assert t1.description == "Explain how honey is made. Background: I keep bees."
    # without it, NeuCLIR-shaped reports (no query text): one warning naming every topic, not one per topic
    reports = _jsonl(tmp_path / "reports.jsonl", [
        {"metadata": {"team_id": "t", "run_id": "r", "topic_id": t}, "references": ["d1"],
         "responses": [{"text": "Something.", "citations": ["d1"]}]} for t in ("T1", "T2")])
    bare = import_rag([reports], tmp_path / "bare")
    no_text = [w for w in bare.warnings if w.rule == "topic-no-text"]
    assert len(no_text) == 1 and "2 topic(s) have no text in the inputs (T1, T2)" in no_text[0].message


def test_unassigned_answer_is_left_out_of_the_mean_with_warnings(track, tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-rag", *map(str, track), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"run {B} answered 1 topic(s) that no assignment judges (T2)" in err and "[assignment-missing]" in err
    assert read_header(out / "judgments.jsonl")["unassessed_answers"] == [[B, "T2"]]
    assert main(["convert", "score", "autonuggetizer", "--topics", str(out / "topics.xml"),
                 "--judgments", str(out / "judgments.jsonl"), "--json"]) == 0
    cap = capsys.readouterr()
    assert f"warning: run {B} answered topic T2 but no assessment judged it: left out of the run's mean" in cap.err
    doc = json.loads(cap.out)
    expected = {A: {"AN_all": 5 / 8, "AN_vital": 3 / 4, "AN_weighted": 2 / 3, "AN_all(strict=True)": 1 / 2},
                B: {"AN_all": 1 / 2, "AN_vital": 0.0, "AN_weighted": 1 / 3},
                C: {"AN_all": 1 / 2, "AN_vital": 1 / 2, "AN_weighted": 1 / 2}}
    for run, means in expected.items():
        got = {k: doc["runs"][run]["mean"][k] for k in means}
        assert got == pytest.approx(means, abs=1e-12), run
    assert sorted(doc["runs"][B]["topics"]) == ["T1"]           # left out
    assert doc["runs"][C]["topics"]["T2"]["AN_all"] == 0.0      # unanswered: 0, counted


def test_score_table_shows_whole_run_names(track, tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-rag", *map(str, track), "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["convert", "score", "autonuggetizer", "--topics", str(out / "topics.xml"),
                 "--judgments", str(out / "judgments.jsonl")]) == 0
    table = capsys.readouterr().out
    for run in (A, B, C):
        assert run in table, table


def test_validate_says_foreign_ids_once_per_run(track, tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-rag", *map(str, track), "--out", str(out)]) == 0
    capsys.readouterr()
    runs = sorted(str(p) for p in (out / "runs").glob("*.xml"))
    assert main(["validate", *runs, "--topics", str(out / "topics.xml")]) == 0
    err = capsys.readouterr().err
    # run a cites 4 segments (2 + 1 in T1 after the merge, 1 in T2): one warning counting the 3 others
    assert err.count("[bad-thread-id]") == 3  # one per run
    assert "and 3 more citation(s) in this run whose post is not an LDC thread id" in err


# ---------------------------------------------------------------------------------------------- ARGUE
# A RAGTIME report request, a RAGTIME 2026 nugget bank (metadata.topic_id + a nugget_bank list) and one
# judged RAGTIME report (citations {docid: confidence}), all written here in those shapes.
#   Q1 "Who sent aid?" OR {the UN, Red Cross} vital (weight 2); Q2 "Which towns flooded?" AND {Ada, Bly} okay (1);
#   Q3 "When did it start?" OR {in May} okay (1)  -> nuggets 3, weighted 4
#   s1 cites d1 (attested, relevant) AND d2 (NOT attested, relevant); answers Q1 "the UN", Q2 "Ada"
#      -> needs a citation; unsupported, because one of its two citations is not attested
#   s2 cites d3 (attested, not relevant); answers Q2 "Bly" -> supported
#   s3 cites nothing, answers nothing -> needs no citation
#   coverage: Q1 covered (OR), Q2 covered (Ada in s1 + Bly in s2, AND), Q3 not -> 2/3; weighted (2 + 1)/4 = 3/4
#   sentence support 1/2 (s2 of s1, s2; the any-citation rule would give 2/2)
#   citation support 2/3 (d1, d3 of d1, d2, d3); citation relevance 2/3 (d1, d2)
#   f1 = 2·(2/3)(1/2)/(2/3 + 1/2) = 4/7;  f1_weighted = 2·(3/4)(1/2)/(3/4 + 1/2) = 3/5
#   one topic: micro = macro.  Raw counts: sentences 3, needing 2, correctly cited 1, nuggets 3, weighted 4,
#   correct 2, correct weighted 3, citations 3, relevant 2, supporting 2.

def _judged_sentence(text: str, cites: dict[str, tuple[bool, bool]], matched: list[tuple[str, str]]) -> dict:
    """A sentence of an ARGUE judgments line: {doc: (attested, relevant)}, [(question, answer)]."""
    js = [{"judgment_type_id": "SENTENCE_ANSWERS_QUESTION",
           "response": {"judgment_type_id": "SENTENCE_ANSWERS_QUESTION",
                        "matched_nuggets": [{"question_text": q, "matched_answer": [a]} for q, a in matched]}}]
    for d, (att, rel) in cites.items():
        js.append({"judgment_type_id": "SENTENCE_ATTESTED", "provenance": {"doc_id": d},
                   "response": {"judgment_type_id": "SENTENCE_ATTESTED", "is_attested": att}})
        js.append({"judgment_type_id": "CITED_DOCUMENT_RELEVANCE", "provenance": {"doc_id": d},
                   "response": {"judgment_type_id": "CITED_DOCUMENT_RELEVANCE", "doc_id": d, "is_relevant": rel}})
    return {"segment_type": "sentence", "text": text, "citations": [{"doc_id": d} for d in cites], "judgments": js}


@pytest.fixture()
def ragtime(tmp_path) -> list[Path]:
    requests = _jsonl(tmp_path / "requests.jsonl", [
        {"request_id": "R1", "collection_ids": ["ragtime1"], "title": "Flood relief",
         "problem_statement": "Report on the relief after the floods.", "background": "I plan aid.", "limit": 2000}])
    banks = _jsonl(tmp_path / "nugget-banks.jsonl", [
        {"metadata": {"team_id": "nist", "topic_id": "R1", "run_id": "gold", "run_desc": "hand-written"},
         "nugget_bank": [
             {"question": "Who sent aid?", "aggregator_type": "OR", "importance": "vital",
              "answers": [{"answer": "the UN", "references": ["d1"]}, {"answer": "Red Cross", "references": ["d2"]}]},
             {"question": "Which towns flooded?", "aggregator_type": "AND", "importance": "okay",
              "answers": [{"answer": "Ada", "references": ["d1"]}, {"answer": "Bly", "references": ["d3"]}]},
             {"question": "When did it start?", "aggregator_type": "OR", "importance": "okay",
              "answers": [{"answer": "in May", "references": []}]}]}])
    s1, s2, s3 = "The UN and the Red Cross sent aid to Ada.", "Bly also flooded.", "It was a hard year."
    report = {"metadata": {"team_id": "t", "run_id": "rt-1", "topic_id": "R1"}, "references": ["d1", "d2", "d3"],
              "responses": [{"text": s1, "citations": {"d1": 0.9, "d2": 0.5}}, {"text": s2, "citations": {"d3": 0.8}},
                            {"text": s3, "citations": {}}]}
    judged = _jsonl(tmp_path / "judgments.jsonl", [{"report": report, "judgments": [
        _judged_sentence(s1, {"d1": (True, True), "d2": (False, True)},
                         [("Who sent aid?", "the UN"), ("Which towns flooded?", "Ada")]),
        _judged_sentence(s2, {"d3": (True, False)}, [("Which towns flooded?", "Bly")]),
        _judged_sentence(s3, {}, [])]}])
    return [requests, banks, judged]


def test_ragtime_bank_request_and_two_citation_sentence(ragtime, tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "argue", *map(str, ragtime), "--out", str(out)]) == 0
    assert "topic-no-text" not in capsys.readouterr().err
    topic = read_topics(out / "topics.xml")[0]
    assert (topic.query, topic.description) == ("Flood relief", "Report on the relief after the floods. "
                                                                "Background: I plan aid.")
    assert [(f.id, f.desc, f.importance) for f in topic.facets] == [
        ("1", "Who sent aid?", "vital"), ("2", "Which towns flooded?", "okay"), ("3", "When did it start?", "okay")]
    assert main(["convert", "score", "argue", "--topics", str(out / "topics.xml"),
                 "--judgments", str(out / "judgments.jsonl"), "--json"]) == 0
    run = json.loads(capsys.readouterr().out)["runs"]["rt-1"]
    expected = {"argue_nugget_coverage": 2 / 3, "argue_nugget_coverage_weighted": 3 / 4,
                "argue_sentence_support": 1 / 2, "argue_citation_support": 2 / 3, "argue_citation_relevance": 2 / 3,
                "argue_f1": 4 / 7, "argue_f1_weighted": 3 / 5}
    for name, value in expected.items():
        assert run["mean"][name] == pytest.approx(value, abs=1e-12), name
        assert run["mean"][f"{name}(average='micro')"] == pytest.approx(value, abs=1e-12), name
    assert run["counts"]["R1"] == {
        "sentences": 3, "sentences_with_citations_or_requiring_citations": 2, "correctly_cited_sentences": 1,
        "nuggets": 3, "nuggets_weighted": 4, "correct_nuggets": 2, "correct_nuggets_weighted": 3,
        "citations": 3, "relevant_citations": 2, "supporting_citations": 2}


def test_bank_of_no_published_shape_names_both_shapes(tmp_path, capsys):
    bad = _jsonl(tmp_path / "banks.jsonl", [{"metadata": {"run_id": "gold"},  # no topic_id
                                             "nugget_bank": [{"question": "Who?", "answers": []}]}])
    assert main(["convert", "import", "argue", str(bad), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:1: not a nugget bank; expected {{\"query_id\", \"nugget_bank\": {{QUESTION:" in err
    assert '{"metadata": {"topic_id", ...}, "nugget_bank": [{"question", "aggregator_type", "answers": ' in err
    assert "(RAGTIME 2026)" in err and not (tmp_path / "o").exists()
    # the same bank given to trec-rag says where it belongs
    assert main(["convert", "import", "trec-rag", str(bad), "--out", str(tmp_path / "o")]) == 1
    assert "import it with 'bolt convert import argue'" in capsys.readouterr().err


def test_malformed_unassessed_header_is_an_error(track, tmp_path, capsys):
    out = tmp_path / "conv"
    assert main(["convert", "import", "trec-rag", *map(str, track), "--out", str(out)]) == 0
    jpath = out / "judgments.jsonl"
    lines = jpath.read_text().splitlines()
    head = json.loads(lines[0])
    head["_meta"]["unassessed_answers"] = [B]  # not a [run, topic] pair
    jpath.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert main(["convert", "score", "autonuggetizer", "--topics", str(out / "topics.xml"),
                 "--judgments", str(jpath)]) == 1
    assert f"{jpath}:1: the header's unassessed_answers is not a list of [run, topic] pairs" in capsys.readouterr().err
