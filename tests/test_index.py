"""The index builders and searchers: units with raw offsets, analysis, both backends, atomic builds.

One real Lucene index (and one rank-bm25 index) of a small multilingual collection is built per
module; English, Arabic and Chinese queries must find the posts they should, and every hit's
offset must point at its text in the raw XML.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from indexing.analysis import AnalysisConfig, normalize_arabic, normalize_arabic_aligned
from indexing.errors import ToolkitError
from indexing.manifest import check_manifest, read_manifest
from indexing.reader import iter_threads, parse_thread_text
from indexing.search import Hit, build_from_threads, build_index, open_index, smoke_test
from indexing.records import SpanMap, build_text_map
from indexing.units import (PASSAGE, POST, UnitConfig, UnitTable, fast_sentences, iter_units, kind_of,
                            raw_to_text, same_text, segments, windows)

ENG = """<doc id="bolt-eng-DF-1-100-1">
<headline>
Flood news
</headline>
<post author="ann" datetime="2012-03-09T00:04:00" id="p1">
The flood in Springfield destroyed the old bridge &amp; the mill. Rescue teams arrived on Monday.
</post>
<post author="bob" datetime="2012-03-09T01:00:00" id="p2">
<quote orig_author="carl">
Zeppelins once landed on the roof of the town hall.
</quote>
I heard the mayor resigned after the flood. See <a href="http://x.org">this page</a> for more.
</post>
</doc>
<doc id="bolt-eng-DF-1-100-2">
<headline>
Concert
</headline>
<post author="dee" datetime="2012-04-01T10:00:00" id="p1">
Tickets for the concert sold out in ten minutes.
</post>
<post author="eve" datetime="2012-04-01T11:00:00" id="p2">
The band will add another concert date in March.
</post>
</doc>
"""

ARZ = """<doc id="bolt-arz-DF-1-200-1">
<headline>
المستشفى
</headline>
<post author="a" datetime="2012-05-01T10:00:00" id="p1">
المستشفى في القاهرة كانت زحمة جداااا امبارح
</post>
<post author="b" datetime="2012-05-01T11:00:00" id="p2">
أنا دخلت الجامعة سنة ٢٠١٢ وخلصت
</post>
</doc>
<doc id="bolt-arz-DF-1-200-2">
<headline>
الكورة
</headline>
<post author="c" datetime="2012-05-02T10:00:00" id="p1">
الكورة المصرية حلوة قوي
</post>
</doc>
"""

CMN = """<doc id="bolt-cmn-DF-1-300-1">
<headline>
天气
</headline>
<post author="a" datetime="2012-06-01T10:00:00" id="p1">
北京今天下了大雪，交通很混乱。
</post>
<post author="b" datetime="2012-06-01T11:00:00" id="p2">
我觉得政府应该提前警告市民。
</post>
</doc>
<doc id="bolt-cmn-DF-1-300-2">
<headline>
房子
</headline>
<post author="c" datetime="2012-06-02T10:00:00" id="p1">
上海的房价又涨了。
</post>
</doc>
"""


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("collection")
    for name, text in (("eng.xml", ENG), ("arz.xml", ARZ), ("cmn.xml", CMN)):
        (d / name).write_bytes(text.encode("utf-8"))
    return d


@pytest.fixture(scope="module")
def lucene_dir(collection, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("idx") / "lucene"
    build_index([collection], out, backend="lucene", progress=False)
    return out


@pytest.fixture(scope="module")
def lucene(lucene_dir):
    with open_index(lucene_dir) as s:
        yield s


@pytest.fixture(scope="module")
def bm25(collection, tmp_path_factory):
    out = tmp_path_factory.mktemp("idx") / "bm25"
    build_index([collection], out, backend="bm25", progress=False)
    with open_index(out) as s:
        yield s


def assert_offsets(searcher, hits: list[Hit]) -> None:
    """Every hit's raw slice decodes to its text (own and quoted text never mixed)."""
    for h in hits:
        thread = searcher.corpus.get(h.thread)
        assert thread is not None
        assert same_text(raw_to_text(thread.raw, h.offset, h.end), h.text)
        post = thread.post_at(h.offset)
        assert post is not None and post.id == h.post and h.end <= post.end


# --------------------------------------------------------------------------- analysis and units

def test_arabic_normalisation_folds_egyptian_variants():
    assert normalize_arabic("أحمد إبراهيم آمال ٱلله") == "احمد ابراهيم امال الله"
    assert normalize_arabic("مستشفى مدرسة") == "مستشفي مدرسه"
    assert normalize_arabic("مـصـر جمييييل") == "مصر جميل"
    assert normalize_arabic("سنة ٢٠١٢ و ۱۹") == "سنه 2012 و 19"
    assert normalize_arabic("مُحَمَّد") == "محمد"


def test_aligned_arabic_normalisation_slices_like_the_whole():
    text = "أنا في مستشفى القاهرة، الدكتورة قالت كده"
    aligned = normalize_arabic_aligned(text)
    assert aligned == normalize_arabic(text) and len(aligned) == len(text)
    for i, j in [(0, 3), (4, 6), (7, 14), (15, len(text))]:
        assert aligned[i:j] == normalize_arabic(text[i:j])
    # anything that moves characters (deleted marks, stretched letters, NFKC) gives None
    assert normalize_arabic_aligned("مـصـر") is None
    assert normalize_arabic_aligned("مُحَمَّد") is None
    assert normalize_arabic_aligned("جمييييل") is None
    assert normalize_arabic_aligned("اأا") is None  # folds into a stretched run
    assert normalize_arabic_aligned("\ufefb") is None  # lam-alef ligature: NFKC makes it two letters
    assert AnalysisConfig().prepare_aligned("Plain text", "eng") == "Plain text"


def test_analysis_config_repr_leaves_out_defaults():
    assert repr(AnalysisConfig()) == "AnalysisConfig()"
    assert repr(AnalysisConfig(bm25_k1=1.2)) == "AnalysisConfig(bm25_k1=1.2)"
    assert repr(UnitConfig(window=2, stride=1)) == "UnitConfig(window=2, stride=1)"
    with pytest.raises(ValueError):
        UnitConfig(window=2, stride=3)


def test_python_tokens_mirror_lucene_choices():
    a = AnalysisConfig()
    assert a.tokens("The floods destroyed the bridges", "eng") == ["flood", "destroi", "bridg"]
    assert a.tokens("北京大雪", "cmn") == ["北京", "京大", "大雪"]
    assert a.tokens("والمستشفى", "arz") == a.tokens("المستشفي", "arz") == ["مستشف"]


def test_windows_cover_every_sentence_with_overlap():
    assert list(windows(5, 3, 2)) == [(0, 3), (2, 5)]
    assert list(windows(6, 3, 2)) == [(0, 3), (2, 5), (4, 6)]
    assert list(windows(2, 3, 2)) == [(0, 2)]
    assert list(windows(0, 3, 2)) == []


def test_fast_sentences_split_on_marks_and_lines():
    text = "One here. Two? Three!\n3.5 stays 你好。再见"
    assert [text[s:e] for s, e in fast_sentences(text)] == ["One here.", "Two?", "Three!", "3.5 stays 你好。", "再见"]


def test_quoted_text_gets_its_own_units():
    thread = parse_thread_text(ENG.split("</doc>")[0] + "</doc>\n", path="eng.xml")
    p2 = thread.post("p2")
    assert [q for q, _ in segments(p2)] == [True, False]
    units = [u for u in iter_units(thread) if u.post == "p2"]
    quoted = [u for u in units if u.quoted]
    assert {u.text for u in quoted} == {"Zeppelins once landed on the roof of the town hall."}
    assert all("Zeppelin" not in u.text for u in units if not u.quoted)
    own_post = [u for u in units if u.unit == POST and not u.quoted]
    assert len(own_post) == 1
    assert thread.raw[own_post[0].offset:].startswith("I heard the mayor")
    # the entity counts 5 raw characters: the unit's raw slice keeps it escaped
    p1 = [u for u in iter_units(thread) if u.post == "p1" and u.unit == POST][0]
    assert "&amp;" in thread.raw[p1.offset:p1.end] and "bridge & the mill" in p1.text
    assert p1.offset == ENG.index("The flood in Springfield")


def test_fast_sentences_edge_cases():
    cases = {
        ". lead": [".", "lead"],
        "a.b. c": ["a.b.", "c"],
        "Wait... what?! ok": ["Wait...", "what?!", "ok"],
        'He said "stop." Then left': ['He said "stop."', "Then left"],
        "  spaced line  \n\n  next\r\n": ["spaced line", "next"],
        "他说：“走吧。”然后走了": ["他说：“走吧。”", "然后走了"],
        "انت فين؟ انا هنا": ["انت فين؟", "انا هنا"],
        "x!!!y": ["x!!!y"],
        "": [],
        " \n\t ": [],
    }
    for text, want in cases.items():
        assert [text[s:e] for s, e in fast_sentences(text)] == want, text


def test_span_map_gives_the_text_map_spans(real_samples):
    """The piece-wise spans used to cut units (bisect, and the one-piece shortcut) agree with the
    per-character TextMap everywhere."""
    thread = next(iter_threads([real_samples / "bolt-eng-DF-215.xml"]))
    checked = 0
    for post in thread.posts:
        for _, pieces in segments(post):
            tm, sm = build_text_map(thread.raw, pieces), SpanMap(thread.raw, pieces)
            assert sm.text == tm.text
            n = len(tm.text)
            for i in range(0, n, 7):
                for j in (i + 1, min(n, i + 13), n):
                    assert sm.raw_span(i, j) == tm.raw_span(i, j)
                    checked += 1
    assert checked > 1000


def test_unit_table_stores_passages_as_places_in_their_post(tmp_path, real_samples):
    threads = list(iter_threads([real_samples / "bolt-eng-DF-215.xml", real_samples / "ENG_DF_000200_20061121_G00A06WU8.xml"]))
    units = [u for t in threads for u in iter_units(t)]
    passages = [u for u in units if u.unit == PASSAGE]
    assert passages and all(u.at >= 0 for u in passages)
    with UnitTable(tmp_path / "u.sqlite", write=True) as table:
        firsts = [table.add_many(list(iter_units(t))) for t in threads]
    assert firsts[0] == 1 and firsts[1] == 1 + sum(1 for _ in iter_units(threads[0]))
    table = UnitTable(tmp_path / "u.sqlite")
    stored = table.get_many(range(1, len(units) + 1))
    assert [stored[i + 1] for i in range(len(units))] == units
    texts = {uid: (kind, text) for lang in table.langs() for uid, kind, text in table.iter_lang(lang)}
    assert [texts[i + 1] for i in range(len(units))] == [(kind_of(u.unit, u.quoted), u.text) for u in units]
    assert table.langs() == ["eng"]
    assert [t for _, _, t in table.texts()] == [u.text for u in units]
    n_text = table.db.execute("SELECT COUNT(*) FROM units WHERE text IS NOT NULL").fetchone()[0]
    assert n_text == len(units) - len(passages)  # every passage follows its post unit
    table.close()


def test_every_unit_maps_to_raw_text_in_real_samples(real_samples):
    files = [real_samples / "bolt-eng-DF-215.xml", real_samples / "ENG_DF_000200_20061121_G00A06WU8.xml"]
    n = 0
    for thread in iter_threads(files):
        for u in iter_units(thread):
            n += 1
            assert same_text(raw_to_text(thread.raw, u.offset, u.end), u.text), (thread.id, u.post, u.offset)
            assert thread.post_at(u.offset).id == u.post
    assert n > 6000


# --------------------------------------------------------------------------- searching

def test_lucene_english_query_finds_the_post(lucene):
    hits = lucene.search("flooded bridge", k=3, lang="eng")
    assert hits[0].thread == "bolt-eng-DF-1-100-1" and hits[0].post == "p1"
    assert hits[0].unit == PASSAGE and not hits[0].quoted and hits[0].lang == "eng"
    assert_offsets(lucene, hits)


def test_lucene_arabic_query_matches_across_spelling_variants(lucene):
    hits = lucene.search("مستشفي", k=3, lang="arz")  # doc spells it مستشفى
    assert [(h.thread, h.post) for h in hits][:1] == [("bolt-arz-DF-1-200-1", "p1")]
    hits = lucene.search("2012", k=3, lang="arz")  # doc writes Arabic-Indic ٢٠١٢
    assert (hits[0].thread, hits[0].post) == ("bolt-arz-DF-1-200-1", "p2")
    hits = lucene.search("جدا", k=3, lang="arz")  # doc stretches it: جداااا
    assert (hits[0].thread, hits[0].post) == ("bolt-arz-DF-1-200-1", "p1")
    assert_offsets(lucene, hits)


def test_lucene_chinese_query_finds_the_post(lucene):
    hits = lucene.search("房价", k=3, lang="cmn")
    assert [(h.thread, h.post) for h in hits] == [("bolt-cmn-DF-1-300-2", "p1")]
    hits = lucene.search("大雪", k=3, lang="cmn")
    assert (hits[0].thread, hits[0].post) == ("bolt-cmn-DF-1-300-1", "p1")
    assert hits[0].text == "北京今天下了大雪，交通很混乱。"
    assert_offsets(lucene, hits)


def test_quoted_copies_are_found_only_on_request_and_flagged(lucene):
    assert lucene.search("zeppelins", k=5, lang="eng") == []
    hits = lucene.search("zeppelins", k=5, lang="eng", include_quotes=True)
    assert hits and all(h.quoted and h.post == "p2" for h in hits)
    assert_offsets(lucene, hits)


def test_all_languages_are_interleaved_by_rank(lucene):
    hits = lucene.search("flood 大雪 مستشفي", k=6)
    langs = [h.lang for h in hits]
    assert set(langs[:3]) == {"eng", "arz", "cmn"}
    assert hits == lucene.search("flood 大雪 مستشفي", k=6)  # deterministic
    assert lucene.langs == ("arz", "cmn", "eng")


def test_post_units_hold_the_whole_own_text(lucene):
    hits = lucene.search("mayor resigned", k=1, lang="eng", units="post")
    assert hits[0].unit == POST
    assert hits[0].text.startswith("I heard the mayor resigned") and hits[0].text.endswith("for more.")
    assert_offsets(lucene, hits)


@pytest.mark.parametrize("backend", ["lucene", "bm25"])
def test_a_search_returns_only_the_unit_kinds_it_asks_for(backend, lucene, bm25, lucene_dir):
    """One index per language holds every unit; searches filter on the unit's kind tag."""
    assert sorted(p.name for p in (lucene_dir / "lucene").iterdir()) == ["arz", "cmn", "eng"]
    s = lucene if backend == "lucene" else bm25
    query = "flood mayor zeppelins town roof"
    for units in (POST, PASSAGE):
        own = s.search(query, k=20, lang="eng", units=units)
        both = s.search(query, k=20, lang="eng", units=units, include_quotes=True)
        assert own and all(h.unit == units and not h.quoted for h in own)
        assert all(h.unit == units for h in both)
        assert {h.quoted for h in both} == {False, True}  # one ranking of own and quoted units
        assert [h for h in both if not h.quoted] == own
        assert [h.score for h in both] == sorted((h.score for h in both), reverse=True)


def test_bm25_backend_gives_the_same_shape_and_top_hits(lucene, bm25):
    for query, lang in (("flooded bridge", "eng"), ("房价", "cmn"), ("مستشفي", "arz")):
        a, b = lucene.search(query, k=1, lang=lang), bm25.search(query, k=1, lang=lang)
        assert (a[0].thread, a[0].post, a[0].offset) == (b[0].thread, b[0].post, b[0].offset)
        assert type(b[0]) is Hit
    assert_offsets(bm25, bm25.search("concert", k=5))


def test_search_rejects_unknown_language_and_unit(lucene):
    with pytest.raises(ToolkitError):
        lucene.search("x", lang="fra")
    with pytest.raises(ToolkitError):
        lucene.search("x", units="sentence")


def test_real_sample_lucene_index(real_samples, tmp_path):
    out = tmp_path / "real"
    m = build_index([real_samples / "bolt-eng-DF-215.xml"], out, progress=False)
    assert m["counts"]["eng"]["threads"] == 55 and m["counts"]["eng"]["posts"] == 1482
    with open_index(out) as s:
        hits = s.search("paypal refund", k=5)
        assert len(hits) == 5
        for h in hits:
            assert "paypal" in h.text.lower() or "refund" in h.text.lower()
        assert_offsets(s, hits)


# --------------------------------------------------------------------------- the index folder

def test_manifest_records_inputs_settings_versions(lucene_dir, collection):
    m = read_manifest(lucene_dir)
    assert m["backend"] == "lucene"
    assert sorted(Path(e["path"]).name for e in m["inputs"]) == ["arz.xml", "cmn.xml", "eng.xml"]
    assert all(len(e["sha256"]) == 64 and e["size"] > 0 for e in m["inputs"])
    fold = m["settings"].pop("script_fold")
    assert m["settings"] == {"analysis": "AnalysisConfig()", "units": "UnitConfig()", "encoding_errors": "strict"}
    assert fold["name"] == "opencc-t2s-chars" and fold["converter"] == "opencc" and fold["characters"] > 4000
    assert fold["version"] == m["versions"]["opencc"] == "1.4.2" and len(fold["sha256"]) == 16
    assert m["versions"]["pyserini"] == "1.6.0"
    assert m["counts"]["eng"]["threads"] == 2 and m["counts"]["cmn"]["posts"] == 3
    assert (lucene_dir / "threads.sqlite").is_file()


def test_check_reports_changed_and_added_inputs(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "eng.xml").write_text(ENG, encoding="utf-8")
    out = tmp_path / "idx"
    build_index([src], out, backend="bm25", progress=False)
    assert check_manifest(out) == []
    (src / "eng.xml").write_text(ENG.replace("flood", "fluud"), encoding="utf-8")
    (src / "more.xml").write_text(CMN, encoding="utf-8")
    problems = check_manifest(out)
    assert len(problems) == 2
    assert any("eng.xml: content changed" in p for p in problems)
    assert any("more.xml: added" in p for p in problems)


def test_build_refuses_to_overwrite_and_interrupted_build_keeps_old_index(tmp_path, collection):
    out = tmp_path / "idx"
    build_index([collection / "eng.xml"], out, backend="bm25", progress=False)
    with pytest.raises(ToolkitError, match="already exists"):
        build_index([collection / "cmn.xml"], out, backend="bm25", progress=False)

    def broken():
        yield from iter_threads([collection / "cmn.xml"])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_from_threads(broken(), out, backend="bm25", force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["idx"]  # no temporary folder left
    with open_index(out) as s:
        assert s.langs == ("eng",)
    build_index([collection / "cmn.xml"], out, backend="bm25", force=True, progress=False)
    with open_index(out) as s:
        assert s.langs == ("cmn",)
        assert s.search("房价", k=1)[0].thread == "bolt-cmn-DF-1-300-2"


def test_smoke_test_builds_and_searches_each_language(tmp_path):
    assert smoke_test(tmp_path) == {"backend": "lucene", "eng": 1, "arz": 1, "cmn": 1}


def test_bundled_sample_collection_indexes(tmp_path):
    bolt_data = pytest.importorskip("bolt.data")
    path = Path(bolt_data.sample_corpus_path())
    if not path.exists():
        pytest.skip("the bundled sample collection is not there yet")
    m = build_index([path], tmp_path / "sample", backend="bm25", progress=False)
    assert set(m["counts"]) == {"eng", "arz", "cmn"}
    with open_index(tmp_path / "sample") as s:
        for lang in s.langs:
            thread = s.corpus.get(next(t for t in s.corpus if s.corpus.get(t).lang == lang))
            words = thread.posts[0].own_text.split()[:4]
            hits = s.search(" ".join(words), k=3, lang=lang)
            assert hits, lang
            assert_offsets(s, hits)


# --------------------------------------------------------------------------- the Lucene writer

def test_json_documents_and_java_strings_keep_characters_outside_the_bmp():
    import json

    from indexing import jvm
    from indexing.lucene_index import java_text, json_document

    for text in ('say "hi"\\\n\tnow', "المستشفى", "他说𠀀𠀁好😀", "\x01"):
        assert json.loads(json_document(7, text)) == {"id": "7", "contents": text}
        assert json.loads(json_document(7, text, kind="quotedpost")) == {"id": "7", "contents": text,
                                                                          "kind": "quotedpost"}
    assert "\\ud840\\udc00" in json_document(1, "𠀀")  # escaped: jnius would mangle the raw character
    mapper = jvm.lucene().autoclass("com.fasterxml.jackson.databind.ObjectMapper")()
    node = mapper.readTree(java_text(json_document(3, "a😀中")))
    assert node.get("contents").asText() == "a😀中"
    assert java_text("plain") == "plain"
    assert java_text("😀中").length() == 3  # UTF-16 units: a surrogate pair and one


def test_lucene_languages_coming_back_are_appended(tmp_path):
    """eng, arz, eng again: eng's index is closed early, then reopened in append mode."""
    eng1, eng2 = (d + "</doc>\n" for d in ENG.split("</doc>\n")[:2])
    threads = [parse_thread_text(eng1, path="e1.xml"), parse_thread_text(ARZ.split("</doc>")[0] + "</doc>\n", path="a.xml"),
               parse_thread_text(eng2, path="e2.xml")]
    m = build_from_threads(threads, tmp_path / "idx", backend="lucene")
    assert m["counts"]["eng"]["threads"] == 2
    with open_index(tmp_path / "idx") as s:
        assert s.search("concert tickets", k=1, lang="eng")[0].thread == "bolt-eng-DF-1-100-2"
        assert s.search("flooded bridge", k=1, lang="eng")[0].thread == "bolt-eng-DF-1-100-1"
        assert s.search("مستشفي", k=1, lang="arz")[0].thread == "bolt-arz-DF-1-200-1"
        assert [(h.thread, h.post) for h in s.search("concert", k=5, lang="eng", units="post")] == [
            ("bolt-eng-DF-1-100-2", "p1"), ("bolt-eng-DF-1-100-2", "p2")]


def test_lucene_writer_takes_one_language_per_call(tmp_path):
    from indexing.lucene_index import LuceneWriter

    eng = list(iter_units(parse_thread_text(ENG.split("</doc>")[0] + "</doc>\n", path="e.xml")))
    arz = list(iter_units(parse_thread_text(ARZ.split("</doc>")[0] + "</doc>\n", path="a.xml")))
    writer = LuceneWriter(tmp_path, AnalysisConfig())
    with pytest.raises(ValueError, match="one language"):
        writer.add_many(1, eng + arz)
    writer.close()


def test_both_lucene_transports_build_the_same_index(tmp_path, collection, monkeypatch):
    """Named pipes to IndexCollection and jnius batches to SimpleIndexer give identical indexes."""
    import indexing.lucene_index as li

    queries = [("flooded bridge", "eng"), ("concert tickets", "eng"), ("مستشفي", "arz"), ("北京大雪", "cmn")]
    results = {}
    for transport in ("pipe", "batch"):
        monkeypatch.setattr(li, "TRANSPORT", transport)
        build_index([collection], tmp_path / transport, backend="lucene", progress=False)
        with open_index(tmp_path / transport) as s:
            results[transport] = [s.search(q, k=5, lang=lang) for q, lang in queries]
            results[transport].append(s.search("Zeppelins", k=5, lang="eng", include_quotes=True))
    assert results["pipe"] == results["batch"] and all(results["pipe"])
    assert not (tmp_path / "pipe" / ".pipes").exists()


def test_pipe_transport_reports_an_indexer_that_cannot_start(tmp_path):
    from indexing.lucene_transport import PipeTransport

    root = tmp_path / "lucene"
    root.mkdir()
    (root / "eng").write_text("a file where the index folder should be")
    transport = PipeTransport(root)
    with pytest.raises(ToolkitError, match="eng"):
        transport.open("eng", "en")
    transport.close()


def test_pipe_transport_streams_more_than_a_pipe_holds(tmp_path):
    """Batches larger than a pipe's capacity, and more unwritten data than the shard may hold,
    arrive whole: partial writes continue on the same pipe, and every document is indexed."""
    from indexing import jvm
    from indexing.lucene_index import json_document
    from indexing.lucene_transport import PENDING_BYTES, PipeTransport

    root = tmp_path / "lucene"
    transport = PipeTransport(root)
    transport.open("eng", "en")
    n, sent = 0, 0
    while sent < 2 * PENDING_BYTES:
        docs = [json_document(n + i, f"document {n + i} about rivers and floods " + "word " * 40) for i in range(5000)]
        transport.send("eng", docs)
        n += len(docs)
        sent += sum(len(d) + 1 for d in docs)
    transport.close()
    searcher = jvm.lucene().SimpleSearcher(str(root / "eng"))
    assert searcher.get_total_num_docs() == n
    assert [h.docid for h in searcher.search("12345", 1)] == ["12345"]
    searcher.close()


def test_pipe_transport_keeps_a_shard_reopened_twice(tmp_path):
    """IndexCollection always creates its index afresh; a shard that comes back is appended to."""
    from indexing import jvm
    from indexing.lucene_index import json_document
    from indexing.lucene_transport import PipeTransport

    root = tmp_path / "lucene"
    transport = PipeTransport(root)
    for uid, word in enumerate(["alpha", "bravo", "charlie"]):
        transport.open("eng", "en")
        transport.send("eng", [json_document(uid, f"the word {word} is here")])
        transport.finish("eng")
    transport.close()
    searcher = jvm.lucene().SimpleSearcher(str(root / "eng"))
    assert searcher.get_total_num_docs() == 3
    assert [searcher.search(w, 1)[0].docid for w in ("alpha", "bravo", "charlie")] == ["0", "1", "2"]
    searcher.close()
