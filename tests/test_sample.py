"""The bundled sample collection and its topics: layout, texture, and every nugget offset."""
from __future__ import annotations

import gzip
import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from bolt.data import sample_corpus_path, topic_path
from bolt.formats.topics import check_topics, read_topics, read_votes
from indexing.reader import iter_threads

REPO = Path(__file__).resolve().parents[1]
CORPUS = sample_corpus_path()
TOPICS = topic_path("sample.xml")
QUERIES = topic_path("sample.queries.xml")
VOTES = topic_path("sample.votes.tsv")


@pytest.fixture(scope="module")
def threads():
    return {t.id: t for t in iter_threads(CORPUS)}


@pytest.fixture(scope="module")
def sample_topics():
    return read_topics(TOPICS)


class _Corpus:
    def __init__(self, threads):
        self.threads = threads

    def get(self, tid):
        return self.threads.get(tid)


def _raw_files() -> dict[str, str]:
    out = {}
    for p in sorted(CORPUS.rglob("*.xml*")):
        data = p.read_bytes()
        out[p.name] = (gzip.decompress(data) if p.name.endswith(".gz") else data).decode("utf-8")
    return out


def test_collection_size_and_languages(threads):
    assert CORPUS.is_dir()
    assert len(threads) == 48
    assert Counter(t.lang for t in threads.values()) == {"eng": 16, "arz": 16, "cmn": 16}
    assert min(len(t.posts) for t in threads.values()) >= 5
    assert sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file()) < 1_000_000


def test_layout_both_id_styles_concatenated_gzip_crlf():
    files = _raw_files()
    names = sorted(files)
    assert "bolt-arz-DF-903.xml.gz" in names
    concatenated = [n for n in names if n.startswith("bolt-")]
    assert all(not files[n].startswith("<?xml") and files[n].count("<doc ") > 1 for n in concatenated)
    single = [n for n in names if re.match(r"(ENG|ARZ|CMN)_DF_", n)]
    assert len(single) == 27 and all(files[n].startswith("<?xml") and files[n].count("<doc ") == 1
                                     for n in single)
    crlf = [n for n in names if "\r\n" in files[n]]
    assert crlf == ["ARZ_DF_000904_20230222_A00B0C001.xml"]


def test_forum_texture():
    raw = "".join(_raw_files().values())
    assert "&amp;" in raw and "&lt;" in raw and "&gt;" in raw
    assert '<a href="' in raw and "<img src=" in raw
    assert '<quote orig_author="' in raw and "<quote>\n" in raw
    assert re.search(r"<quote[^>]*>\n<quote", raw), "a nested quote"
    assert re.search("[\u0080-\u009f]", raw), "a C1 control character"
    assert 'author="' in raw and re.search(r'<post id="p1" author=', raw) and re.search(r'<post author="[^"]*" '
                                                                                       r'datetime=', raw)
    assert "عايز" in raw and "مفيش" in raw and "بجد" in raw  # Egyptian forum register


def test_topic_set_shape(sample_topics):
    assert len(sample_topics) >= 12
    assert len({t.topic_id for t in sample_topics}) == len(sample_topics)
    for t in sample_topics:
        assert re.fullmatch(r"1\.\d{3}", t.topic_id)
        assert t.query.endswith("?") and t.description
        assert len(t.facets) >= 3
        assert {f.importance for f in t.facets} == {"vital", "okay"} or t.topic_id == "1.008"
        for f in t.facets:
            assert f.desc and f.nuggets
            assert all(n.post and n.offset is not None for n in f.nuggets)
    props = [t.properties for t in sample_topics]
    assert len({p.asks_about for p in props}) >= 4
    assert len({p.asks_for for p in props}) >= 3
    assert frozenset({"arz"}) in {p.languages for p in props}
    assert frozenset({"cmn"}) in {p.languages for p in props}
    assert {p.multiple_threads for p in props} == {True, False}
    assert any(len(p.languages) == 3 for p in props)


def test_properties_agree_with_where_the_nuggets_are(sample_topics, threads):
    for t in sample_topics:
        posts = {n.post for f in t.facets for n in f.nuggets}
        assert {threads[p].lang for p in posts} == set(t.properties.languages), t.topic_id
        assert (len(posts) > 1) == t.properties.multiple_threads, t.topic_id


def test_every_nugget_offset_resolves_through_the_reader(sample_topics, threads):
    assert check_topics(TOPICS, _Corpus(threads)) == []
    n = 0
    for t in sample_topics:
        for f in t.facets:
            for nug in f.nuggets:
                th = threads[nug.post]
                post = th.post_at(nug.offset)
                assert post is not None
                assert th.find_text(nug.text, nug.offset, 0) is not None
                assert th.text_at(nug.offset).startswith(nug.text), (t.topic_id, f.id)
                n += 1
    assert n == 74


def test_query_only_file_matches(sample_topics):
    queries = read_topics(QUERIES)
    assert [(q.topic_id, q.query) for q in queries] == [(t.topic_id, t.query) for t in sample_topics]
    assert all(q.facets == () and q.description is None for q in queries)
    assert "<facet" not in QUERIES.read_text(encoding="utf-8")


def test_votes_cover_every_facet_with_three_assessors(sample_topics):
    votes = read_votes(VOTES)
    assert set(votes) == {t.topic_id for t in sample_topics}
    for t in sample_topics:
        assert set(votes[t.topic_id]) == {f.id for f in t.facets}
        for f in t.facets:
            v = votes[t.topic_id][f.id]
            assert v["vital"] + v["okay"] >= 3
            assert (v["vital"] > v["okay"]) == (f.importance == "vital"), (t.topic_id, f.id)


def test_make_sample_reproduces_the_bundled_files_byte_for_byte(tmp_path):
    spec = importlib.util.spec_from_file_location("make_sample", REPO / "scripts" / "make_sample.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["make_sample"] = mod
    spec.loader.exec_module(mod)
    assert mod.main(["--corpus-out", str(tmp_path / "c"), "--topics-out", str(tmp_path / "t")]) == 0
    made = sorted(p.relative_to(tmp_path / "c") for p in (tmp_path / "c").rglob("*") if p.is_file())
    bundled = sorted(p.relative_to(CORPUS) for p in CORPUS.rglob("*") if p.is_file())
    assert made == bundled
    for rel in made:
        assert (tmp_path / "c" / rel).read_bytes() == (CORPUS / rel).read_bytes(), rel
    for name in ("sample.xml", "sample.queries.xml", "sample.votes.tsv"):
        assert (tmp_path / "t" / name).read_bytes() == topic_path(name).read_bytes(), name


def test_bolt_validate_topics_passes_on_the_sample():
    if importlib.util.find_spec("bolt.commands.validate") is None:
        pytest.skip("bolt validate is not available yet")
    from bolt.cli import main

    assert main(["validate", "--topics", str(TOPICS), "--corpus", str(CORPUS)]) == 0
