"""Fuzzing: mutated submissions never make the validator raise, and `bolt validate` exits 0 or 1."""
from __future__ import annotations

import contextlib
import io
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bolt import cli
from indexing.problems import ERROR
from bolt.formats.submission import RULES, read_run
from bolt.formats.validate import validate_runs

DATA = Path(__file__).parent / "data"
TOPICS = DATA / "validate_topics.xml"
CORPUS_DIR = DATA / "validate_corpus"
BASE = (DATA / "validate_valid.xml").read_bytes()

TOKENS = [b"<", b">", b"&", b"/>", b"</bullet>", b"<bullet>", b"<source post='x' offset='1'/>", b"</source>",
          b"<response>", b"</response>", b"<result number='1.001'>", b"</result>", b"<results run='r'>",
          b"<!DOCTYPE r>", b"<!ENTITY e 'x'>", b"&e;", b"&#0;", b"&#xD800;", b"&#233;", b"&amp;", b"<![CDATA[",
          b"]]>", b"<!--", b"-->", b"<?xml version='1.0'?>", b"<?pi x?>", b"\xff", b"\xc3", b"\xe4\xb8",
          b"\x00", b"\r\n", b" offset='-5'", b" offset='99999999999999999999'", b" post=''", b'"', b"'",
          b"\xef\xbb\xbf", b"<x:y xmlns:x='u'/>", b"\xc2\x85", "中文".encode()]

mutation = st.one_of(
    st.tuples(st.just("insert"), st.integers(0, len(BASE)), st.sampled_from(TOKENS)),
    st.tuples(st.just("bytes"), st.integers(0, len(BASE)), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("delete"), st.integers(0, len(BASE)), st.integers(1, 40)),
    st.tuples(st.just("truncate"), st.integers(0, len(BASE)), st.just(0)),
)


def mutate(data: bytes, ops) -> bytes:
    for kind, pos, arg in ops:
        pos = min(pos, len(data))
        if kind in ("insert", "bytes"):
            data = data[:pos] + arg + data[pos:]
        elif kind == "delete":
            data = data[:pos] + data[pos + arg:]
        else:
            data = data[:pos]
    return data


_CORPUS = None


def corpus():
    global _CORPUS
    if _CORPUS is None:
        from indexing.corpus import open_corpus

        _CORPUS = open_corpus(paths=[str(CORPUS_DIR)])
    return _CORPUS


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutation, min_size=1, max_size=4))
def test_validator_never_raises(ops):
    data = mutate(BASE, ops)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "run.xml"
        path.write_bytes(data)
        report = validate_runs([path], TOPICS, corpus())
        for p in report.problems:
            assert p.rule in RULES and p.file == str(path) and p.message
            assert p.line is None or p.line >= 1
        assert report.valid == (not report.errors)
        # read_run agrees: it raises exactly when the parser found an error
        structural = [p for p in report.errors if p.rule in _PARSER_RULES]
        try:
            read_run(path)
            assert not structural
        except Exception as exc:  # noqa: BLE001 - must be a ProblemsError, nothing else
            assert type(exc).__name__ == "ProblemsError" and structural


_PARSER_RULES = {r for r in RULES if r not in {"unknown-topic", "missing-result", "duplicate-run-id",
                                                  "bad-thread-id", "unknown-thread", "offset-outside-thread",
                                                  "offset-outside-post", "text-not-near-offset"}}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mutation, min_size=1, max_size=3))
def test_cli_exits_0_or_1_with_json(ops):
    data = mutate(BASE, ops)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "run.xml"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(["validate", str(path), "--topics", str(TOPICS), "--json"])
        assert code in (0, 1)
        doc = json.loads(out.getvalue())
        assert doc["valid"] == (code == 0) == (not doc["errors"])
        lines = err.getvalue().splitlines()
        assert len(lines) == len(doc["errors"]) + len(doc["warnings"]) + 3  # + the file's counts, its signature, the total
        assert all(line.startswith(("error: ", "warning: ")) for line in lines[:-3])
        assert lines[-2] == f"{path}: no signature (written before runs recorded one, or by another tool)"
        assert all(e["rule"] in RULES and RULES[e["rule"]].severity == ERROR for e in doc["errors"])
