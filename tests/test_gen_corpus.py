"""The BOLT-scale generator: deterministic bytes, the requested counts, and planted nuggets that resolve."""
from __future__ import annotations

import importlib.util
import json
import statistics
import sys
from pathlib import Path

import pytest

from bolt.formats.topics import read_topics
from indexing.reader import iter_threads

REPO = Path(__file__).resolve().parents[1]
SCALE = 0.002  # 26 English, 86 Arabic, 98 Mandarin threads


def _load():
    spec = importlib.util.spec_from_file_location("gen_corpus", REPO / "scripts" / "gen_corpus.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_corpus"] = mod
    spec.loader.exec_module(mod)
    return mod


gen = _load()


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("gen") / "a"
    gen.main(["--out", str(d), "--scale", str(SCALE), "--topics", "6"])
    return d


def test_same_seed_same_bytes_whatever_the_jobs(out, tmp_path):
    gen.main(["--out", str(tmp_path / "b"), "--scale", str(SCALE), "--topics", "6", "--jobs", "2"])
    assert _files(out) == _files(tmp_path / "b")
    gen.main(["--out", str(tmp_path / "c"), "--scale", str(SCALE), "--topics", "6", "--seed", "14"])
    assert _files(out) != _files(tmp_path / "c")


def test_counts_layout_and_summary(out):
    summary = json.loads((out / "summary.json").read_text())
    assert summary["threads"] == {"arz": 86, "cmn": 98, "eng": 26}
    threads = list(iter_threads(out / "corpus"))
    assert [sum(t.lang == lang for t in threads) for lang in ("eng", "arz", "cmn")] == [26, 86, 98]
    assert sum(len(t.posts) for t in threads) == summary["posts"]
    assert all(t.id.startswith(f"bolt-{t.lang}-DF-") for t in threads)
    assert sorted(p.name for p in (out / "corpus").rglob("*.xml")) == [
        "bolt-arz-DF-503-00001.xml", "bolt-cmn-DF-505-00001.xml", "bolt-eng-DF-501-00001.xml"]
    posts = [len(t.posts) for t in threads]
    assert 3 <= statistics.median(posts) <= 10 and max(posts) > 2 * statistics.median(posts)  # long tail
    assert sum(p.quote_count for t in threads for p in t.posts) > 0
    assert summary["bytes"] == sum(p.stat().st_size for p in (out / "corpus").rglob("*") if p.is_file())


def test_planted_nuggets_resolve_through_the_reader(out):
    threads = {t.id: t for t in iter_threads(out / "corpus")}
    topics = read_topics(out / "topics.xml")
    assert len(topics) == 6
    n = 0
    for t in topics:
        assert len(t.facets) >= 3
        entity = t.query.removeprefix("What did ").removesuffix(" do?")
        for f in t.facets:
            assert f.nuggets, (t.topic_id, f.id)
            for nug in f.nuggets:
                th = threads[nug.post]
                assert th.lang in t.properties.languages
                assert th.text_at(nug.offset).startswith(nug.text)
                assert nug.text.startswith(entity)
                n += 1
    assert n == json.loads((out / "summary.json").read_text())["nuggets"]


def test_gzip_output_reads_the_same(out, tmp_path):
    gen.main(["--out", str(tmp_path / "z"), "--scale", str(SCALE), "--topics", "6", "--gzip"])
    assert sorted(p.name for p in (tmp_path / "z" / "corpus").rglob("*.gz")) == [
        "bolt-arz-DF-503-00001.xml.gz", "bolt-cmn-DF-505-00001.xml.gz", "bolt-eng-DF-501-00001.xml.gz"]
    plain = [(t.id, t.raw) for t in iter_threads(out / "corpus")]
    zipped = [(t.id, t.raw) for t in iter_threads(tmp_path / "z" / "corpus")]
    assert plain == zipped
    assert (tmp_path / "z" / "topics.xml").read_bytes() == (out / "topics.xml").read_bytes()


def test_more_plants_than_threads_in_a_language(tmp_path):
    """At a tiny scale a language runs out of fresh threads; planting then reuses its threads."""
    gen.main(["--out", str(tmp_path / "t"), "--scale", "0.0002", "--topics", "20"])
    summary = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert summary["threads"] == {"arz": 9, "cmn": 10, "eng": 3}
    threads = {t.id: t for t in iter_threads(tmp_path / "t" / "corpus")}
    nuggets = [n for t in read_topics(tmp_path / "t" / "topics.xml") for f in t.facets for n in f.nuggets]
    assert len(nuggets) == summary["nuggets"] > len(threads)
    assert all(threads[n.post].text_at(n.offset).startswith(n.text) for n in nuggets)
