"""The judgments JSONL (SPEC §5): round trip, header line, unknown keys kept, errors that say what to fix."""
from __future__ import annotations

import json

import pytest

from indexing.problems import ProblemsError
from evaluation.judgments import (JudgedSource, Judgment, file_sha256, iter_judgments, load_judgments,
                                  read_header, read_holistic, read_judgments, write_judgments)
from indexing.errors import ToolkitError

SPEC_LINE = ('{"topic": "1.001", "run": "myrun1", "bullet": 2, "assessor": "auto:bolt-0.1 anchor+lexical+semantic", '
             '"facets": ["1", "3"], "words": 25, "responsive_words": 20, '
             '"sources": [{"post": "bolt-eng-DF-170-181103-8882806", "offset": 1207, "unit": "p4", "supports": true}]}')


def test_reads_the_spec_example(tmp_path):
    p = tmp_path / "j.jsonl"
    p.write_text(SPEC_LINE + "\n", encoding="utf-8")
    [j] = read_judgments(p)
    assert j.key == ("1.001", "myrun1", 2)
    assert j.facets == ("1", "3") and (j.words, j.responsive_words) == (25, 20)
    assert j.sources == (JudgedSource("bolt-eng-DF-170-181103-8882806", 1207, "p4", True),)
    assert j.sources[0].facets is None and j.line == 1


def test_round_trip_keeps_unknown_keys_and_header(tmp_path):
    src = JudgedSource("T", 5, None, False, ("1",), {"why": "far from text"})
    j = Judgment("1.001", "r", 1, "human:ann", ("1",), 7, 5, (src,),
                 {"chars": 30, "evidence": {"facet": "1", "score": 0.8}, "notes": "中文"})
    p = tmp_path / "out.jsonl"
    header = {"assessor": "auto:bolt", "version": "0.1.0", "thresholds": {"cosine": 0.6}}
    write_judgments([j], p, header=header)
    lines = p.read_text(encoding="utf-8").splitlines()
    stamped = {**header, "words": "ws2"}  # the word definition the counts follow (indexing.textfacts)
    assert json.loads(lines[0]) == {"_meta": stamped}
    assert "中文" in lines[1]                               # readable, not \u-escaped
    assert list(json.loads(lines[1]))[:8] == ["topic", "run", "bullet", "assessor", "facets", "words",
                                              "responsive_words", "sources"]
    [back] = read_judgments(p)
    assert back == j and back.extra == j.extra and back.sources[0].extra == {"why": "far from text"}
    assert read_header(p) == stamped
    js = load_judgments(p)
    assert js.header == stamped and js.sha256 == file_sha256(p) and js.assessors == ("human:ann",)
    assert list(iter_judgments(p)) == [j]
    assert not list(tmp_path.glob(".*tmp"))                # no temp file left behind


def test_file_without_header(tmp_path):
    p = tmp_path / "j.jsonl"
    write_judgments([], p)
    assert p.read_text() == "" and read_header(p) is None and read_judgments(p) == []


def test_every_bad_line_is_reported_with_file_line_and_fix(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join([
        SPEC_LINE,
        '{"topic": 1.001, "run": "r", "bullet": 1, "assessor": "a", "facets": [], "words": 1, '
        '"responsive_words": 1, "sources": []}',
        '{"topic": "1.001", "run": "r", "bullet": 1}',
        '{"topic": "1.001", "run": "r", "bullet": 2, "assessor": "a", "facets": [], "words": 3, '
        '"responsive_words": 4, "sources": []}',
        '{"topic": "1.001", "run": "r", "bullet": 0, "assessor": "a", "facets": [], "words": 3, '
        '"responsive_words": 1, "sources": []}',
        '{"topic": "1.001", "run": "r", "bullet": 3, "assessor": "a", "facets": [], "words": 3, '
        '"responsive_words": 1, "sources": [{"post": "T", "offset": 4, "supports": "yes"}]}',
        'not json',
        SPEC_LINE,
    ]) + "\n", encoding="utf-8")
    with pytest.raises(ProblemsError) as err:
        read_judgments(p)
    probs = err.value.problems
    assert [pr.line for pr in probs] == [2, 3, 4, 5, 6, 7, 8]
    text = [pr.format() for pr in probs]
    assert 'quote it: "1.001"' in text[0]
    assert "missing required keys facets, sources" in text[1]
    assert "between 0 and words (3)" in text[2]
    assert "1-based" in text[3]
    assert "supports must be true or false" in text[4]
    assert "not valid JSON" in text[5]
    assert "judged again (first at line 1)" in text[6]
    assert all(t.startswith(f"error: {p}:") for t in text)
    with pytest.raises(ToolkitError, match="quote it"):
        list(iter_judgments(p))


def test_numeric_facet_ids_are_read_as_strings(tmp_path):
    p = tmp_path / "j.jsonl"
    p.write_text(SPEC_LINE.replace('["1", "3"]', "[1, 3]") + "\n", encoding="utf-8")
    assert read_judgments(p)[0].facets == ("1", "3")


def test_missing_file_has_a_hint(tmp_path):
    with pytest.raises(ToolkitError, match="judgments file not found"):
        read_judgments(tmp_path / "nope.jsonl")


def test_holistic_tsv_and_jsonl(tmp_path):
    tsv = tmp_path / "h.tsv"
    tsv.write_text("topic\trun\tassessor\tcontent\torganization\n# comment\n1.001\tA\tann\t6\t4\n", encoding="utf-8")
    [h] = read_holistic(tsv)
    assert (h.topic, h.run, h.assessor, h.score) == ("1.001", "A", "ann", 42.0)
    js = tmp_path / "h.jsonl"
    js.write_text('{"topic": "1.001", "run": "A", "assessor": "ann", "content": 2, "organization": 10}\n'
                  '{"topic": "1.001", "run": "A", "assessor": "bob", "content": 11, "organization": 1}\n',
                  encoding="utf-8")
    with pytest.raises(ProblemsError, match="0..10"):
        read_holistic(js)
    bad = tmp_path / "bad.tsv"
    bad.write_text("topic\trun\n", encoding="utf-8")
    with pytest.raises(ProblemsError, match="header"):
        read_holistic(bad)
