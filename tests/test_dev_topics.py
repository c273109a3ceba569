"""Every development topic file validates against the real threads it was written on.

The dev sets (scripts/benchmarks/run.py: DEV_SETS, the one list of them) grow by a round each time
fresh topics are written; a nugget whose offset or text does not match its thread would silently give
no credit to any bullet, so each file is checked with the same validator `bolt validate` uses.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bolt.formats.topics import read_topics
from bolt.formats.validate import validate_topics
from indexing.corpus import open_corpus

REPO = Path(__file__).resolve().parents[1]


def _dev_sets() -> dict:
    spec = importlib.util.spec_from_file_location("bench_run", REPO / "scripts" / "benchmarks" / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.DEV_SETS


DEV_SETS = _dev_sets()


@pytest.mark.parametrize("name", sorted(DEV_SETS))
def test_dev_topics_validate_against_their_threads(name: str, real_samples: Path) -> None:
    dev = DEV_SETS[name]
    missing = [p for p in dev.corpora if not p.exists()]
    if missing:
        pytest.skip(f"{missing[0]} is absent")
    corpus = open_corpus(paths=[str(p) for p in dev.corpora], index_dir=None,
                         encoding_errors=dev.encoding_errors or "strict")
    report = validate_topics(dev.topics, corpus)
    assert report.valid, [p.format() for p in report.errors][:5]
    groups = [line.split("\t")[0] for line in dev.groups.read_text(encoding="utf-8").splitlines()[1:]]
    assert len(groups) == len(set(groups)), "a topic listed twice in the groups file"
    assert set(groups) == {t.topic_id for t in read_topics(dev.topics)}, "groups file and topic file disagree"
