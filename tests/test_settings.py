"""The settings' declarations (bolt.pipeline.config): every setting is validated, listed, documented
and has an effect on main (or on the system that reads it) that a test observes.

The effect test runs main's stages on a small real index (tests/test_pipeline.py's threads plus
a few written here) with one setting changed and compares what every stage returns with the
defaults' records: a setting that changed nothing there would be inert.
"""
from __future__ import annotations

from dataclasses import fields

import pytest

from tests.test_pipeline import THREADS, thread_index_fixture

ASKING = "bolt-eng-DF-1-200-1"
PHOTOS = "bolt-eng-DF-1-200-2"
RUN_ON = "bolt-arz-DF-1-200-3"
SIGNATURE = "Bob from the Riverton flood help desk."
# A Chinese thread that shares no translated word with the query: only the sweep finds it.
SWEPT_ZH = "bolt-cmn-DF-1-200-4"
# One Arabic sentence of 26 words: cut into clauses, so a bullet may join the clause after it.
RUN_ON_AR = ("الفيضان في المدينة دمر بيوت كتير جدا في الحي القديم والناس نامت في الشارع "
             "لحد ما الجيش جه وبعت فرق إنقاذ للمنطقة كلها وبنى خيام للعيلات")

EXTRA = {
    ASKING: ("flood damage claim", [
        ("ann", "The flood damaged my house in Riverton last week. How do I claim for flood damage to my house?"),
        ("bob", "Call your insurer within 30 days and send photos of the flood damage to the houses on Harbor Street. "
                + SIGNATURE),
        ("ann", "I sent the photos of the flood damage in Riverton to my insurer on Monday."),
        ("bob", "The flood damage to houses in Riverton is covered on Monday if you have flood insurance. "
                + SIGNATURE),
    ]),
    PHOTOS: ("photos", [
        ("cat", "Photos of the flood in Riverton: http://example.com/flood?id=7 show the damage to houses."),
        ("dan", "The damage to the houses in Riverton was worst near the river after the flood on Monday. "
                "Flood damage to the houses on Harbor Street in Riverton cost 20000 dollars each."),
    ]),
    RUN_ON: ("الفيضان في المدينة", [("ali", RUN_ON_AR)]),
    SWEPT_ZH: ("河边的房子", [("li", "河边的房子全都被水淹了，修好要花好几个月。")]),
}
QUERY = "What damage did the flood in Riverton cause to houses?"


def _thread_xml(tid: str, headline: str, posts) -> str:
    out = [f'<doc id="{tid}">', "<headline>", headline, "</headline>"]
    for i, post in enumerate(posts, 1):
        author, body = post if isinstance(post, tuple) else (f"u{i}", post)
        out += [f'<post author="{author}" datetime="2012-03-0{i}T10:00:00" id="p{i}">', body, "</post>"]
    return "\n".join(out + ["</doc>"]) + "\n"


def _index_fixture():
    import tests.test_pipeline as tp

    @pytest.fixture(scope="module")
    def searcher(tmp_path_factory):
        saved = tp.thread_xml
        tp.thread_xml = _thread_xml  # authors of their own: the asker's follow-up, a signature
        try:
            with tp.open_thread_index(tmp_path_factory.mktemp("settings"), {**THREADS, **EXTRA}) as s:
                yield s
        finally:
            tp.thread_xml = saved

    return searcher


searcher = _index_fixture()


def gloss(text: str, lang: str) -> str:
    """A translator for ``translator``: marks what it glossed."""
    return f"gloss of {len(text)} characters"


# A non-default value per setting, and the defaults it is changed from (most: main's own).
SWEEP = {"k_eng": 0, "k_arz": 0, "lang_anchor": 0, "xl_dense": 0}
STRICT = {"xl_rel_threshold": 1.0}  # a non-English cluster below its language's best is left to the quota
QUOTA = {**STRICT, "min_coverage": 0.1}  # Chinese alone: the language the sweep reads
EFFECTS: dict[str, tuple[object, dict]] = {
    "k_eng": (1, {}), "k_arz": (0, {}), "k_cmn": (0, {}), "translate": (False, {}),
    "model": ("no-such-model", {}), "w_lexical": (0.9, {}), "w_retrieval": (0.4, {}), "w_thread": (0.0, {}),
    "expand_threads": (0, {"k_eng": 3}), "min_words": (12, {}), "drop_questions": (False, {}), "max_words": (8, {}),
    "embed_top": (1, {}), "dup_cosine": (0.1, {}), "dup_jaccard": (0.05, {}), 
    "rel_threshold": (0.1, {}), "xl_rel_threshold": (0.95, {}), "abs_floor": (0.9, {}), "lang_quota": (0, QUOTA),
    "min_coverage": (0.1, STRICT), "max_bullets": (1, {}), "max_sources": (1, {}), "lead_posts": (1, {"name": "lead"}),
    "translator": ("tests.test_settings:gloss", {}), "prf_passages": (0, {}), "prf_min_df": (5, {}),
    "prf_terms": (0, {}), "xl_min_concepts": (5, {}), "xl_thread_coverage": (1.0, {}), "xl_threads": (0, {}),
    "xl_evidence": (0, {}), "xl_encoder": (None, {}), "w_thread_semantic": (0.0, {}), "thread_focus": (0.0, {}),
    "thread_top": (0, {}), "lang_floor": (1.0, {}), "arz_window": (0, {"max_bullets": 20}),
    "xl_dense": (0, {}), "xl_dense_langs": ("cmn", {}),
    "xl_sweep": (0, SWEEP), "xl_sweep_langs": ("arz", SWEEP), "xl_sweep_encoder": ("usem3", SWEEP),
    "xl_sweep_read": (False, SWEEP), 
    "informative": (False, {}), "drop_signatures": (False, {}), "opening_weight": (0.9, {}),
    "asker_weight": (0.9, {}), "strict_questions": (False, {}), "max_per_post": (1, {}),
    "position_decay": (0.0, {}), "ranker": (None, {}),
    "ranker_reorder": (False, {}),
}


def _trace(searcher, query: str = QUERY, **config) -> dict:
    """What each of the system's stages returns for ``query`` (main's records; a reference
    system's bullets), the embeddings aside."""
    from bolt.pipeline.run import make_distiller
    from bolt.pipeline import SystemConfig

    d = make_distiller("", SystemConfig(**config), searcher=searcher)
    if d.config.name != "main":
        return {"bullets": d.distill(query)}
    tr = d.system.trace(query)
    return {"candidates": tr.candidates, "relevance": tr.threads.relevance, "gate": tr.threads.gate.thread_evidence,
            "sentences": tr.sentences, "semantic": tr.similarity.semantic, "scores": tr.scores,
            "clusters": tr.clusters, "selection": tr.selection, "bullets": list(tr.bullets)}


# Settings whose effect a test elsewhere observes (on a collection made for it), and that test's file.
ELSEWHERE = {"lang_anchor": "test_literal_focus.py", "translit": "test_transliterate.py",
             "cmn_names": "test_cmn_names.py", "focus_rel_threshold": "test_pipeline.py",
             "lang_ratio": "test_xl_thread_ranking.py", "dup_concepts": "test_settings.py",
             "pasted_quotes": "test_pasted_quotes.py"}


def test_every_setting_has_an_effect_case():
    from pathlib import Path

    from bolt.pipeline.config import settings_fields

    assert set(EFFECTS) | set(ELSEWHERE) == {f.name for f in settings_fields()}
    assert not set(EFFECTS) & set(ELSEWHERE)
    for name, test in ELSEWHERE.items():  # that test sets it
        assert f"{name}=" in (Path(__file__).parent / test).read_text(encoding="utf-8"), (name, test)


def test_dup_concepts_joins_sentences_of_two_languages_that_state_the_same_concepts(searcher):
    """Across languages only concept bags can tell a repeat: three shared of four concepts (Jaccard
    0.75) is one cluster at ``dup_concepts=0.7``, two at the default 0.8."""
    from bolt.pipeline.candidates import Sentence
    from bolt.pipeline.main.records import SentenceScores, SentenceSimilarity, TopicSentences
    from bolt.pipeline.main.selection import clustering
    from tests.test_pipeline import distiller_for

    sents = (Sentence("a", "p1", "eng", 0, 9, "The flood damaged 200 houses in Riverton.", 0, 1.0, 0),
             Sentence("b", "p1", "cmn", 0, 9, "洪水摧毁了两百多所房屋", 0, 1.0, 0))
    bags = (frozenset({"flood", "damag", "hous", "riverton"}), frozenset({"flood", "damag", "hous"}))
    ev = TopicSentences(frozenset(), sents, (1.0, 1.0), ((1.0, 1.0, 1.0),) * 2, bags, (0.9, 0.8), (0.9, 0.8))
    sc = SentenceScores((0.9, 0.8), {"a": 1.0, "b": 1.0})
    apart = clustering(distiller_for(searcher), ev, SentenceSimilarity({}, {}), sc)
    joined = clustering(distiller_for(searcher, dup_concepts=0.7), ev, SentenceSimilarity({}, {}), sc)
    assert [c.members for c in apart.clusters] == [[0], [1]]
    assert [c.members for c in joined.clusters] == [[0, 1]]


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_a_setting_changes_what_its_system_does(searcher, name):
    from indexing.errors import ToolkitError

    value, base = EFFECTS[name]
    if name == "model":  # an unknown model is refused by name when main first embeds
        with pytest.raises(ToolkitError, match="no-such-model"):
            _trace(searcher, model=value)
        return
    before, after = _trace(searcher, **base), _trace(searcher, **base, **{name: value})
    changed = [stage for stage in before if before[stage] != after[stage]]
    assert changed, f"{name}={value!r} changed nothing"


def _fields():
    from bolt.pipeline.config import settings_fields

    return {f.name: f for f in settings_fields()}


@pytest.mark.parametrize("name", sorted(EFFECTS) + sorted(ELSEWHERE))
def test_a_setting_refuses_values_it_does_not_take_and_round_trips(name):
    """Out of its range, of another type, or (languages, encoders) not one it names: a ValueError
    naming it. Its effect case's value round-trips through repr and parse_config."""
    from bolt.pipeline.config import ENCODER, LANGS, SystemConfig, parse_config

    f = _fields()[name]
    s, typ = f.metadata["setting"], str(f.type)
    bad = [[1] if typ.startswith("str") else "x"]  # of another type
    if s.low is not None:
        bad.append(s.low - 1)
    if s.high is not None:
        bad.append(s.high + 1)
    if s.kind in (LANGS, ENCODER):
        bad.append("eng" if s.kind == LANGS else "labse")
    for value in bad:
        with pytest.raises(ValueError, match=name):
            SystemConfig(**{name: value})
    if name in EFFECTS:
        value, base = EFFECTS[name]
        cfg = SystemConfig(**{**base, name: value})
        assert parse_config(repr(cfg)) == cfg and f"{name}={value!r}" in repr(cfg)


def test_docs_settings_md_is_written_from_the_declarations():
    from pathlib import Path

    from bolt.pipeline.settings_table import markdown

    doc = Path(__file__).resolve().parents[1] / "docs" / "settings.md"
    assert doc.read_text(encoding="utf-8") == markdown(), "docs/settings.md is out of date: run scripts/settings_doc.py"
    for name in _fields():
        assert f"| `{name}` |" in markdown()


def test_bolt_run_lists_the_settings_and_exits(capsys):
    """``--list-settings`` needs none of run's required options: it lists and exits 0."""
    from bolt.cli import main

    assert main(["run", "--list-settings"]) == 0
    out = capsys.readouterr().out
    assert "cross-language:" in out and "  k_eng = 30" in out and "xl_sweep_encoder = 'e5-small'" in out
    for name in _fields():
        assert f"  {name} = " in out
