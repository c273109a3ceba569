"""The SQLite thread store of an index folder, and ``open_corpus`` over files or a store."""
from __future__ import annotations

import sqlite3

import pytest

from indexing.corpus import open_corpus
from indexing.errors import CorpusError, ToolkitError
from indexing.reader import read_threads
from indexing.thread_store import FILENAME, ThreadStore, ThreadStoreWriter

DOCS = ('<doc id="bolt-eng-DF-1-2-3">\n<headline>\nA &amp; B\n</headline>\n'
        '<post id="p1" author="ann" datetime="2012-01-01T00:00:00">\nfirst &lt;post&gt;\n</post>\n'
        '<post id="p2" author="bob" datetime="2012-01-02T00:00:00">\n<quote orig_author="ann">\nfirst\n</quote>\n'
        'reply 😀\n</post>\n</doc>\n'
        '<doc id="CMN_DF_000181_20141021_X">\n<post id="p1" author="李">\n中文\r\n</post>\n</doc>\n')


@pytest.fixture()
def corpus_file(tmp_path):
    f = tmp_path / "threads.xml"
    f.write_bytes(DOCS.encode())
    return f


def test_store_round_trip(tmp_path, corpus_file):
    threads = read_threads(corpus_file)
    db = tmp_path / "index" / FILENAME
    with ThreadStoreWriter(db) as w:
        for t in threads:
            assert w.add(t)
        assert not w.add(threads[0]) and w.duplicates == ["bolt-eng-DF-1-2-3"]
        assert not db.exists()  # only appears when the writer closes
    assert db.exists() and not list(db.parent.glob("*.tmp"))
    store = ThreadStore(db)
    assert len(store) == 2 and store.ids() == [t.id for t in threads]
    for t in threads:
        back = store.get(t.id)
        assert back == t and back.posts == t.posts and back.line == t.line and back.lang == t.lang
        assert [p.pieces for p in back.posts] == [p.pieces for p in t.posts]
        assert t.id in store
    assert store.get("nope") is None and "nope" not in store
    assert store.get("CMN_DF_000181_20141021_X").posts[0].pieces[0].text == "\n中文\r\n"


def test_writer_leaves_nothing_on_error(tmp_path, corpus_file):
    db = tmp_path / FILENAME
    with pytest.raises(RuntimeError):
        with ThreadStoreWriter(db) as w:
            w.add(read_threads(corpus_file)[0])
            raise RuntimeError("indexing failed")
    assert not db.exists() and list(tmp_path.iterdir()) == [corpus_file]


def test_store_errors(tmp_path):
    with pytest.raises(ToolkitError, match="no thread store") as e:
        ThreadStore(tmp_path / FILENAME)
    assert "bolt index" in e.value.hint
    (tmp_path / FILENAME).write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(ToolkitError, match="not a thread store"):
        ThreadStore(tmp_path / FILENAME)


def test_store_is_read_only(tmp_path, corpus_file):
    db = tmp_path / FILENAME
    with ThreadStoreWriter(db) as w:
        for t in read_threads(corpus_file):
            w.add(t)
    store = ThreadStore(tmp_path)  # a folder finds its threads.sqlite
    with pytest.raises(sqlite3.OperationalError):
        store._db.execute("DELETE FROM threads")


def test_open_corpus_from_files_and_from_index(tmp_path, corpus_file):
    c = open_corpus([corpus_file])
    assert len(c) == 2 and list(c) == ["bolt-eng-DF-1-2-3", "CMN_DF_000181_20141021_X"]
    t = c.get("bolt-eng-DF-1-2-3")
    assert t.headline == "A & B" and "bolt-eng-DF-1-2-3" in c and c.get("x") is None
    with ThreadStoreWriter(tmp_path / "idx" / FILENAME) as w:
        for tid in c:
            w.add(c.get(tid))
    s = open_corpus(index_dir=tmp_path / "idx")
    assert len(s) == 2 and list(s) == list(c) and s.get("bolt-eng-DF-1-2-3") == t
    assert s.get("bolt-eng-DF-1-2-3") is s.get("bolt-eng-DF-1-2-3")  # cached


def test_open_corpus_errors(tmp_path, corpus_file):
    with pytest.raises(ToolkitError, match="either"):
        open_corpus()
    with pytest.raises(ToolkitError, match="either"):
        open_corpus([corpus_file], index_dir=tmp_path)
    with pytest.raises(ToolkitError, match="no such index folder"):
        open_corpus(index_dir=tmp_path / "missing")
    with pytest.raises(ToolkitError, match="no such file") as e:
        open_corpus([tmp_path / "missing.xml"])
    assert e.value.hint
    bad = tmp_path / "bad.xml"
    bad.write_text(DOCS + '<doc id="bolt-eng-DF-9">\n<post id="p1">&bogus;</post>\n</doc>\n', encoding="utf-8")
    with pytest.raises(CorpusError, match="bogus"):
        open_corpus([bad])
    c = open_corpus([bad], skip_bad=True)
    assert len(c) == 2 and len(c.bad) == 1 and c.bad.errors[0].thread == "bolt-eng-DF-9"


def test_identical_repeats_read_once_and_different_ones_refused(tmp_path, corpus_file):
    same = tmp_path / "same.xml"
    same.write_bytes(corpus_file.read_bytes())
    c = open_corpus([corpus_file, same])
    assert len(c) == 2 and c.duplicates == ["bolt-eng-DF-1-2-3", "CMN_DF_000181_20141021_X"]
    assert [d.first_file for d in c.bad.duplicates] == [str(corpus_file)] * 2
    other = tmp_path / "again.xml"
    other.write_bytes(DOCS.replace("first &lt;post&gt;", "changed").encode())
    with pytest.raises(CorpusError, match="different contents") as e:
        open_corpus([corpus_file, other])
    assert e.value.file == str(other) and e.value.thread == "bolt-eng-DF-1-2-3" and f"{corpus_file}:" in str(e.value)


