"""English names to the Arabic words of a collection by consonant skeleton (``translit``).

Hand-computed skeletons, the vowel agreement rule, and a real Lucene index: the Arabic thread that
writes the name هارودز is retrieved only when the query's "Harrods" is guessed into Arabic.
"""
from __future__ import annotations

import pytest

from bolt.pipeline.transliterate import ArabicNames, agreement, arabic_shapes, english_shapes, strip_article
from indexing.errors import ToolkitError
from tests.test_pipeline import open_thread_index


def test_english_skeleton_classes_and_vowel_gaps():
    # H-a-rr-o-d-s: the doubled r is one consonant, s and z are one class
    assert english_shapes("Harrods") == [(("H", "R", "D", "S"), ("", "a", "u", "", ""))]
    # sh, kh are digraphs; ee is a vowel of quality i; e may be written ا or ي
    assert english_shapes("feseekh") == [(("F", "S", "X"), ("", "ai", "aiai", ""))]
    # a final h after a vowel may be a consonant (Lakah, لكح) or silent (a ta marbuta)
    assert english_shapes("Lakah") == [(("L", "K", "H"), ("", "a", "a", "")), (("L", "K"), ("", "a", "aa"))]  # the ta marbuta reads as a


def test_arabic_skeleton_reads_long_vowels_and_a_final_ha_both_ways():
    assert arabic_shapes("هارودز") == [(("H", "R", "D", "S"), ("", "a", "u", "", ""))]
    assert arabic_shapes("خيريه") == [(("X", "R", "H"), ("", "i", "i", "")), (("X", "R"), ("", "i", "ia"))]
    assert strip_article("والفسيخ") == "فسيخ" and strip_article("الم") == "الم"  # too short to strip


def test_agreement_counts_backed_long_vowels_and_rejects_unbacked_ones():
    assert agreement(("", "a", "u", "", ""), ("", "a", "u", "", "")) == 2
    assert agreement(("", "u", ""), ("", "a", "")) is None  # Nour is not نار
    assert agreement(("", "", ""), ("*", "", "")) == 0  # ع goes with anything


def test_forms_prefer_agreeing_long_vowels_then_frequency_and_refuse_short_names():
    names = ArabicNames({"نار": 9, "نور": 3, "النور": 2, "فاض": 5, "الفايد": 2, "فسيخ": 4, "شم": 7})
    assert names.forms("Nour") == ("نور",)  # نار has ا where Nour has o
    assert names.forms("Fayed") == ("فايد", "فاض")  # two long vowels backed beat one
    assert names.forms("ElBaradei") == ()  # article stripped, nothing with B-R-D in the table
    assert names.forms("Sham") == ()  # two consonants and no long vowel written: too weak a guess
    assert names.forms("Al") == ()


def test_bad_input_is_a_clear_error(tmp_path):
    with pytest.raises(ToolkitError, match="Latin-script"):
        english_shapes("Fayed2")
    from indexing.corpus import MemoryCorpus
    from indexing.vocabulary import thread_frequencies

    with pytest.raises(ToolkitError, match="no vocabulary for language 'cmn'"):
        thread_frequencies(MemoryCorpus([]), "cmn")


QUERY = "Why did Al Fayed compare Harrods to Mecca?"
HARRODS = "bolt-arz-DF-1-300-2"
OTHER = "bolt-arz-DF-1-300-3"
THREADS = {
    "bolt-eng-DF-1-300-1": ("Mecca trip", ["We went to Mecca last year, the trip was long."]),
    # "Al Fayed said that Harrods is like Mecca for the customers" / "selling the shop was his decision"
    HARRODS: ("خبر", ["الفايد قال ان هارودز زي مكة للزباين", "بيع المحل كان قراره هو"]),
    # "the comparison with Mecca is not right" (two of the lexicon's words, no name)
    OTHER: ("رأي", ["المقارنة مع مكة مش مظبوطة", "الكلام ده مش مظبوط خالص يا جماعة"]),
}


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    with open_thread_index(tmp_path_factory.mktemp("translit"), THREADS) as s:
        yield s


def test_vocabulary_counts_threads_per_normalised_word(searcher):
    from indexing.vocabulary import thread_frequencies

    vocab = thread_frequencies(searcher.corpus, "arz")
    assert vocab["هارودز"] == 1 and vocab["ده"] == 1 and vocab["الفايد"] == 1
    assert "Mecca" not in vocab and "مكه" in vocab  # Arabic words only, ة folded to ه


def test_bolt_index_keeps_the_vocabulary_and_a_run_reads_it(searcher, tmp_path):
    """The index folder holds the counted table (indexing/vocabulary.py); a copy whose kept table
    says otherwise is read as kept; one kept by other counting code is counted again."""
    import json
    import shutil

    from indexing import vocabulary
    from indexing.thread_store import ThreadStore

    index_dir = searcher.corpus.store.path.parent
    doc = json.loads((index_dir / "vocabulary-arz.json").read_text(encoding="utf-8"))
    counted = vocabulary._count(searcher.corpus.store.raw_texts("arz"), vocabulary.SCRIPT_WORDS["arz"])
    assert doc["words"] == counted and doc["words"]["هارودز"] == 1
    for name, kept, expected in (("kept", {**doc, "words": {"كلمة": 7}}, {"كلمة": 7}),
                                 ("other-code", {**doc, "words": {"كلمة": 7}, "code": "0" * 16}, counted)):
        copy = tmp_path / name
        shutil.copytree(index_dir, copy)
        (copy / "vocabulary-arz.json").write_text(json.dumps(kept), encoding="utf-8")
        with ThreadStore(copy / "threads.sqlite") as store:
            assert vocabulary.thread_frequencies(store, "arz") == expected


def test_guessed_name_reaches_the_thread_that_writes_it(searcher):
    from bolt.pipeline import Distiller, SystemConfig

    off = Distiller(searcher, searcher.corpus, SystemConfig(translit=False))
    on = Distiller(searcher, searcher.corpus, SystemConfig())  # the default since round 4 of xl-dev
    q_off, q_on = off.plan(QUERY).query_for("arz"), on.plan(QUERY).query_for("arz")
    assert "Harrods" in q_off and "هارودز" not in q_off
    assert "هارودز" in q_on and "فايد" in q_on and "Harrods" in q_on  # the Latin spelling is kept
    concept = next(c for c in on.plan(QUERY).concepts if c.word == "Harrods")
    assert concept.guessed == ("arz",) and concept.forms_in("arz") == ("هارودز",)
    hits_off = searcher.search(q_off, k=5, lang="arz")
    hits_on = searcher.search(q_on, k=5, lang="arz")
    assert hits_off[0].thread == OTHER  # the lexicon's words alone prefer the thread without the name
    assert hits_on[0].thread == HARRODS
    assert all(h.lang == "arz" for h in hits_on)


def test_reference_systems_keep_the_lexicon_translation(searcher):
    from bolt.pipeline import Distiller, SystemConfig

    ref = Distiller(searcher, searcher.corpus, SystemConfig(name="bm25-sentences"))
    assert "هارودز" not in ref.plan(QUERY).query_for("arz")
