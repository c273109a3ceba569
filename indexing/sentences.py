"""Sentence and clause segmentation with character spans, per language, offline.

:func:`split_sentences`: spaCy's trained pipelines are not on PyPI, so each language uses
``spacy.blank(lang)`` with the rule-based ``sentencizer``, extended with the Arabic and Chinese
end-of-sentence marks. :func:`split_clauses`: the pieces a bullet is made of — English sentences
as they are, and for Arabic and Chinese forum writing with little punctuation, sentences found by
looser rules and long ones cut into clauses. Spans are indices into the given (decoded) text; map
them to raw offsets with a ``TextMap``.
"""
from __future__ import annotations

import functools
import re
import unicodedata

from indexing.analysis import normalize_arabic
from indexing.script_fold import fold_chinese
from indexing.textfacts import count_words

_SPACY_LANG = {"eng": "en", "arz": "ar", "cmn": "zh"}
_PUNCT = [".", "!", "?", "؟", "۔", "。", "！", "？", "…", "\u061f", "।"]


@functools.lru_cache(maxsize=8)
def _nlp(lang: str):
    import spacy

    nlp = spacy.blank(_SPACY_LANG.get(lang, "xx"))
    nlp.add_pipe("sentencizer", config={"punct_chars": _PUNCT})
    nlp.max_length = 10_000_000
    return nlp


def split_sentences(text: str, lang: str) -> list[tuple[int, int]]:
    """Sentence spans ``[(start, end), ...]`` over ``text``, stripped of surrounding whitespace.

    Blank lines and piece boundaries (newlines) always end a sentence: forum posts rarely
    punctuate the end of a line that stands alone.
    """
    spans: list[tuple[int, int]] = []
    for block_start, block in _blocks(text):
        if not block.strip():
            continue
        doc = _nlp(lang)(block)
        for sent in doc.sents:
            s, e = sent.start_char, sent.end_char
            while s < e and block[s].isspace():
                s += 1
            while e > s and block[e - 1].isspace():
                e -= 1
            if e > s:
                spans.append((block_start + s, block_start + e))
    return spans


def _blocks(text: str):
    """Split on newlines: each line is segmented on its own."""
    pos = 0
    for line in text.split("\n"):
        yield pos, line
        pos += len(line) + 1


# ------------------------------------------------------------------ clauses (Arabic and Chinese)
#
# Reader comments and board replies are written with little punctuation: an Egyptian comment is
# often one run-on line of 40-100 words, with dots, commas and question marks spaced loosely
# ("كلام .. كلام", "كلام ،كلام") and clauses chained by conjunctions; a Chinese board reply runs
# clauses together with commas and spaces (one user's pushes joined), and a pasted article is
# hard-wrapped at a terminal's width. A bullet should be the clause that answers, not the post.

#: Cut sentences longer than ``max_len`` words into pieces of at least ``min_len`` words
#: (``indexing.textfacts`` words: each Han character is one). Round numbers on general grounds:
#: ``min_len`` is the pipeline's shortest sentence (5 words; 8 Han characters, about 5 words);
#: ``max_len`` about one English sentence and a half (20 Arabic words, 30 Han characters).
CLAUSE_LIMITS = {"arz": (5, 20), "cmn": (8, 30)}
#: A line at least this many columns wide (a wide character counts 2) that a non-blank line
#: follows was wrapped by its writer's terminal or editor (80 columns, BBS and e-mail): it goes on.
WRAP_COLUMNS = 60

_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CLOSERS = "\"'\u201d\u2019\u00bb)\\]\u300d\u300f\uff09"
# A run of end marks (with closing quotes or brackets). A single '.' ends a sentence only when it
# is not inside a number, an abbreviation or an address (3.5, e.g., youm7.com): not between two
# Latin letters or digits.
_END_RUN = re.compile(rf"[.!?\u061f\u06d4\u2026\u3002\uff01\uff1f]+[{_CLOSERS}]*")
_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")
# Clause punctuation: Arabic and Latin commas, semicolons and colons (not inside 1,000 or 12:30),
# the Chinese comma, semicolon, colon and wave dash, a dash between spaces; in Chinese also white
# space between two Han characters (informal writing puts a space where a comma would be).
_CLAUSE_PUNCT = re.compile(r"[\u060c\u061b;\uff0c\uff1b\uff1a\uff5e~]+|[,:](?![0-9])|(?<=\s)[-\u2013\u2014]+(?=\s)")
_HAN_SPACE = re.compile(rf"(?<=[{_HAN}\u3002\uff0c\uff01\uff1f])[ \t\u3000]+(?=[{_HAN}])")
_WORD_RE = re.compile(r"[^\W_]+")

# Words that open a clause in Egyptian and Standard Arabic (after indexing.analysis's
# normalisation): but, because, so, that is, then, if, as long as, although, as for, well,
# anyway, O (vocative), by God, question words. With the conjunctions و/ف glued on they open one too.
_AR_MARKERS = frozenset(normalize_arabic(w) for w in """
لكن لاكن انما بل بس لان لانه لانها لانهم لاني عشان علشان بسبب حيث لذلك لذا بالتالي اذن يعني
ثم بعدين لو اذا طالما مادام رغم بالرغم برغم اما طب طيب المهم عموما بالمناسبه يا ياريت والله اللهم
هل ليه ازاي لماذا كيف
""".split())
# Chinese clause openers (Simplified: text is folded first): but, so, because, therefore, then,
# and also, if, although, in fact, besides, otherwise, in short.
_ZH_MARKERS = re.compile("(?<!之)(?:但是|可是|不过|所以|因为|因此|然后|而且|如果|虽然|其实|另外|否则|总之)")


def split_clauses(text: str, lang: str, limits: tuple[int, int] | None = None) -> list[tuple[int, int]]:
    """Bullet-sized spans ``[(start, end), ...]`` over ``text``: sentences, and for Arabic and
    Chinese long sentences cut into clauses.

    English is :func:`split_sentences` unchanged. Arabic and Chinese (``cmn`` and ``arz``):

    1. lines end sentences, except a line wrapped at the writer's terminal width
       (:data:`WRAP_COLUMNS`), which goes on;
    2. end marks end sentences whatever follows them (Arabic comments often put no space after
       ``..`` or ``؟``), except a single ``.`` inside a number or a Latin word (3.5, youm7.com);
    3. a sentence longer than ``max_len`` words (:data:`CLAUSE_LIMITS`) is cut at its best clause
       boundary — clause punctuation first (، , ؛ ; : ， ； ： ～, a spaced dash, a space between
       Han characters), then a word that opens a clause (Arabic: لكن بس لان عشان يعني لو ...,
       also with و/ف glued on; Chinese: 但是 所以 因为 如果 ...), then, in Arabic, و ("and"),
       alone or glued to a word — the one nearest its middle among those leaving both sides at least
       ``min_len`` words; each side is cut again while it is too long. A sentence with no such
       boundary stays whole.

    ``limits`` ``(min_len, max_len)`` replaces the language's :data:`CLAUSE_LIMITS`.
    Spans hold no white space at either end; offsets index ``text`` itself.
    """
    return [(s, e) for _, s, e in clauses_by_sentence(text, lang, limits)]


def clauses_by_sentence(text: str, lang: str,
                        limits: tuple[int, int] | None = None) -> list[tuple[int, int, int]]:
    """:func:`split_clauses`'s spans with the number of the sentence each was cut from:
    ``[(sentence, start, end), ...]`` (English: every sentence is its own). Two clauses of one
    sentence are neighbours a bullet may join (``bolt.pipeline.candidates.clause_window``)."""
    key = tuple(limits) if limits is not None else None
    spans = _clauses_by_sentence(text, lang, key)
    for rec in RECORDERS:
        rec.add(text, lang, key, spans)
    return list(spans)


RECORDERS: list = []
"""The :class:`indexing.splits.Recorder` s taking every cut (while an index's vectors are made)."""
STORES: list = []
"""The :class:`indexing.splits.SplitStore` s a run reads cuts from (its index's)."""


@functools.lru_cache(maxsize=32_768)
def _clauses_by_sentence(text: str, lang: str, limits: tuple[int, int] | None) -> tuple[tuple[int, int, int], ...]:
    """:func:`clauses_by_sentence`, kept per text: a run splits the same posts for every topic
    whose candidates reach them, and splitting (spaCy for English) is most of a topic's cost.
    A cut stored with the index (:mod:`indexing.splits`) is read, not made again."""
    for store in STORES:
        stored = store.get(text, lang, limits)
        if stored is not None:
            return stored
    return _cut_clauses(text, lang, limits)


def _cut_clauses(text: str, lang: str, limits: tuple[int, int] | None) -> tuple[tuple[int, int, int], ...]:
    if lang not in CLAUSE_LIMITS:
        return tuple((i, s, e) for i, (s, e) in enumerate(split_sentences(text, lang)))
    folded = fold_chinese(text) if lang == "cmn" else text  # one script for the markers, same length
    min_len, max_len = limits or CLAUSE_LIMITS[lang]
    if not 1 <= min_len <= max_len:
        raise ValueError(f"clause limits must be 1 <= min_len <= max_len, got {(min_len, max_len)}")
    spans: list[tuple[int, int, int]] = []
    n = 0
    for start, end in _wrapped_lines(text):
        for s, e in _sentences_in(text, start, end):
            spans.extend((n, a, b) for a, b in _cut(text, folded, s, e, lang, min_len, max_len))
            n += 1
    return tuple(spans)


def _wide_enough(line: str) -> bool:
    """Whether ``line`` is at least :data:`WRAP_COLUMNS` columns wide (a wide character is 2)."""
    if len(line) >= WRAP_COLUMNS or 2 * len(line) < WRAP_COLUMNS:  # decided without looking
        return len(line) >= WRAP_COLUMNS
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line) >= WRAP_COLUMNS


def _wrapped_lines(text: str) -> list[tuple[int, int]]:
    """Line spans, a wrapped line joined to the line after it."""
    out: list[tuple[int, int]] = []
    pos = 0
    lines = text.split("\n")
    joined_start = None
    for i, line in enumerate(lines):
        start, end = pos, pos + len(line)
        pos = end + 1
        if joined_start is None:
            joined_start = start
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if nxt.strip() and _wide_enough(line.rstrip()):
            continue
        out.append((joined_start, end))
        joined_start = None
    return out


def _sentences_in(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of ``text[start:end]`` cut after end-mark runs (rule 2), stripped."""
    out: list[tuple[int, int]] = []
    s = start
    for m in _END_RUN.finditer(text, start, end):
        if m.group() == "." and _inside_word(text, m.start(), start, end):
            continue
        out.append((s, m.end()))
        s = m.end()
    out.append((s, end))
    return [(a, b) for a, b in (strip_span(text, a, b) for a, b in out) if b > a]


def _inside_word(text: str, i: int, start: int, end: int) -> bool:
    """A lone '.' at ``i`` between two Latin letters or digits (3.5, youm7.com, e.g)."""
    return (i > start and i + 1 < end and bool(_ASCII_ALNUM.match(text[i - 1]))
            and bool(_ASCII_ALNUM.match(text[i + 1])))


def strip_span(text: str, a: int, b: int) -> tuple[int, int]:
    """``(a, b)`` narrowed to hold no white space at either end (the one span trimmer)."""
    while a < b and text[a].isspace():
        a += 1
    while b > a and text[b - 1].isspace():
        b -= 1
    return a, b


def _boundaries(text: str, folded: str, s: int, e: int, lang: str) -> list[tuple[int, int]]:
    """Clause boundaries inside ``text[s:e]`` as ``(strength, position)``: 3 clause punctuation
    (the cut is after it), 2 a clause-opening word, 1 an Arabic و ("and"), alone or glued to a
    word (cut before)."""
    out = [(3, m.end()) for m in _CLAUSE_PUNCT.finditer(text, s, e)]
    if lang == "cmn":
        out += [(3, m.end()) for m in _HAN_SPACE.finditer(text, s, e)]
        out += [(2, m.start()) for m in _ZH_MARKERS.finditer(folded, s, e)]
    else:
        for m in _WORD_RE.finditer(text, s, e):
            w = normalize_arabic(m.group())
            if not w:  # diacritics or tatweel alone
                continue
            if w in _AR_MARKERS or (len(w) > 2 and w[0] in "وف" and w[1:] in _AR_MARKERS):
                out.append((2, m.start()))
            elif w[0] == "و" and (len(w) >= 3 or w == "و"):  # 'and' glued on, or written apart
                out.append((1, m.start()))
    return [(k, p) for k, p in out if s < p < e]


def _cut(text: str, folded: str, s: int, e: int, lang: str, min_len: int, max_len: int) -> list[tuple[int, int]]:
    """``[s, e)`` cut at clause boundaries until every piece is at most ``max_len`` words (rule 3)."""
    total = count_words(text[s:e])
    if total <= max_len:
        return [(s, e)]
    best = None
    for strength, p in _boundaries(text, folded, s, e, lang):
        left, right = count_words(text[s:p]), count_words(text[p:e])
        if left < min_len or right < min_len:
            continue
        key = (-strength, abs(left - right), p)
        if best is None or key < best[0]:
            best = (key, p)
    if best is None:
        return [(s, e)]
    p = best[1]
    (a, b), (c, d) = strip_span(text, s, p), strip_span(text, p, e)
    return _cut(text, folded, a, b, lang, min_len, max_len) + _cut(text, folded, c, d, lang, min_len, max_len)
