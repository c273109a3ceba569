"""The dev part of ``scripts/bench.py run`` over several sets of real threads (``--dev-set``).

Each set carries its own reading policy for bytes that are not UTF-8; the set's index must be
built with it (the tac2013 threads hold Windows-1252 bytes) and its rounds must split topics as
the topics file's header says. Uses a real-shaped forum file with a Windows-1252 byte (no LDC text).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from indexing.errors import ToolkitError
from indexing.manifest import read_manifest
from tests.test_encoding_errors import CLEAN_DOC, DIRTY_DOC

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_run_dev_sets", REPO / "scripts" / "benchmarks" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_each_set_names_its_files_and_policy(bench):
    tac = bench.DEV_SETS["tac2013"]
    assert tac.encoding_errors == "cp1252"
    assert tac.corpora[0].name == "bolt-eng-DF-tac2013-sentiment.xml" and tac.corpora[1] == bench.REAL_DEV
    assert bench.DEV_SETS["ebay"].encoding_errors is None
    assert bench.DEV_SETS["ebay"].judgments[0] == bench.DEV_JUDGMENTS
    for ds in bench.DEV_SETS.values():
        assert ds.topics.is_file() and ds.groups.is_file()


def test_the_sets_policy_builds_an_index_strict_cannot(bench, tmp_path):
    f = tmp_path / "forum.xml"
    f.write_bytes(CLEAN_DOC + DIRTY_DOC)
    with pytest.raises(ToolkitError):
        bench._index([f], tmp_path / "strict", "bm25", bench.DEV_SETS["ebay"].encoding_errors)
    out = bench._index([f], tmp_path / "lenient", "bm25", bench.DEV_SETS["tac2013"].encoding_errors)
    assert read_manifest(out)["settings"]["encoding_errors"] == "cp1252"


def test_round_means_split_the_topics_at_each_rounds_first(bench):
    rounds = bench.DEV_SETS["tac2013"].rounds
    assert [bench.round_name(t, rounds) for t in ("3.001", "3.007", "3.008", "3.014", "2.051")] == \
        ["A", "A", "B", "B", None]
    scores = {"runs": {"dev-main": {"topics": {"3.001": {"F_GD": 0.2}, "3.007": {"F_GD": 0.4},
                                                "3.010": {"F_GD": 0.9}}}}}
    means = bench.round_means(scores, rounds, metrics=("F_GD",))
    assert means == {"A": {"main": {"F_GD": 0.3}}, "B": {"main": {"F_GD": 0.9}}}
