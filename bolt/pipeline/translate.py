"""Cross-language query translation with offline bilingual lexicons (no model hub, no network).

An English query becomes a list of *concepts* (its content words); each concept carries its
Arabic and Chinese forms from :mod:`bolt.lexicon`. The concepts serve twice: as the per-language
retrieval query, and to find which concepts a sentence of any language expresses.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Callable, Mapping

from bolt.lexicon import longest_name, lookup, lookup_name, stem
from bolt.pipeline.anchors import int_to_chinese, is_name_like, numbers_in, query_anchors
from bolt.pipeline.text import arabic_terms, content_words
from bolt.pipeline.transliterate import transliterable
from indexing.script_fold import fold_chinese

TARGET_LANGS = ("arz", "cmn")


@dataclass(frozen=True, slots=True)
class Concept:
    """One content word of the query: its English stem, surface form and translations per language."""

    stem: str
    word: str
    forms: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (lang, words) pairs, sorted by lang
    guessed: tuple[str, ...] = ()  # languages whose forms are guessed names (transliteration), not lexicon words

    def forms_in(self, lang: str) -> tuple[str, ...]:
        for lg, words in self.forms:
            if lg == lang:
                return words
        return ()


@dataclass(frozen=True, slots=True)
class NameMatch:
    """A run of the query's content words that is a name of the Chinese names list."""

    start: int  # index of its first content word
    length: int  # how many content words
    forms: tuple[str, ...]  # its Chinese forms (``bolt.lexicon.lookup_name``)


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """The analysed query: concepts, and the query string sent to the index for each language."""

    query: str
    concepts: tuple[Concept, ...]
    queries: tuple[tuple[str, str], ...]  # (lang, query string)
    # numbers and Latin-script names, from the query and from English feedback (``with_feedback``)
    anchors: tuple[str, ...] = ()

    def query_for(self, lang: str) -> str:
        return dict(self.queries).get(lang, self.query)


def plan_query(query: str, langs: tuple[str, ...] = ("eng", "arz", "cmn"), translate: bool = True,
               names: Mapping[str, Callable[[str], tuple[str, ...]]] | None = None,
               cmn_names: bool = False) -> QueryPlan:
    """Concepts and per-language query strings; without ``translate`` every language gets the English query.

    ``names``: per language, a guesser of the collection's words for a word the lexicon does not
    know (``bolt.pipeline.transliterate.ArabicNames.forms``); its forms join the concept, marked as
    guessed, and the Latin spelling is still sent. With ``cmn_names`` the Chinese names list
    (:func:`name_matches`) gives the Chinese forms of the names the query writes: a name of several words replaces its words' CC-CEDICT translations
    (each of its words carries the name's forms, the query sends them once); a one-word name's
    forms come before the word's own translations (capitals cannot tell the card in "Visa fees"
    from the permit, nor "Shell" the company from a shell).
    """
    words = content_words(query)
    listed = name_matches(words) if translate and cmn_names else {}
    concepts = []
    stems = [stem(w.lower()) for w in words]
    for i, (w, s) in enumerate(zip(words, stems)):
        forms, guessed = [], []
        if translate:
            for lang in TARGET_LANGS:
                name = listed.get(i) if lang == "cmn" else None
                if name is not None and name.length > 1:
                    forms.append((lang, name.forms))
                    continue
                found = list(lookup(lang, w))
                if i + 1 < len(words):  # a two-word phrase ("human rights") adds its own translation
                    found += [f for f in lookup(lang, f"{w} {words[i + 1]}") if f not in found]
                if name is not None:
                    found = list(name.forms) + [f for f in found if f not in name.forms]
                if not found and names and lang in names and _guessable(w):
                    found = list(names[lang](w))
                    if found:
                        guessed.append(lang)
                if found:
                    forms.append((lang, tuple(found)))
        concepts.append(Concept(s, w, tuple(forms), tuple(guessed)))
    queries = []
    for lang in langs:
        if lang == "eng" or not translate:
            queries.append((lang, query))
            continue
        parts: list[str] = []
        for i, c in enumerate(concepts):
            inside_name = i in listed and listed[i].start != i  # its later words carry its forms too
            if i in listed and lang == "cmn":  # a name's forms are sent once ("Hon Hai, Foxconn")
                parts.extend(f for f in one_per_script(c.forms_in(lang)) if not inside_name and f not in parts)
            else:
                parts.extend(one_per_script(c.forms_in(lang)) if lang == "cmn" else c.forms_in(lang))
            if c.word.isdigit() or is_name_like(c.word) or (
                    (not c.forms_in(lang) or lang in c.guessed) and c.word[:1].isupper()):
                # names, models and numbers are often kept in Latin script
                parts.append(c.word)
            if lang == "cmn" and c.word.isdigit():
                parts.extend(_chinese_number(c.word))
        queries.append((lang, " ".join(parts)))
    return QueryPlan(query, tuple(concepts), tuple(queries), query_anchors(query) if translate else ())


def name_matches(words: list[str]) -> dict[int, NameMatch]:
    """Content-word index -> the name it belongs to: the longest run of content words from each
    position that the names list knows and that the query writes as a name (:func:`_written_as_name`)."""
    out: dict[int, NameMatch] = {}
    i = 0
    while i < len(words):
        for n in range(min(longest_name(), len(words) - i), 0, -1):
            span = words[i:i + n]
            forms = lookup_name(span)
            if forms and _written_as_name(span):
                match = NameMatch(i, n, forms)
                out.update((j, match) for j in range(i, i + n))
                i += n
                break
        else:
            i += 1
    return out


def _written_as_name(span: list[str]) -> bool:
    """Each word capitalised (or a number: ``0050``), as names are written; or, in lower case, a
    word of it that is no English word CC-CEDICT translates and longer than three letters
    (``tsmc``, ``foxconn``): "china steel" is about steel, "sec" a second, "hp" horsepower."""
    if all(w[:1].isupper() or w[:1].isdigit() for w in span):
        return True
    return any(len(w) > 3 and w.isalpha() and not lookup("cmn", w) for w in span)


def _guessable(word: str) -> bool:
    """A word worth a transliteration guess: a name (capitalised inside the query, not an acronym),
    or a word no lexicon knows in any language (``feseekh``); a lower-case English word the
    Chinese lexicon knows (``paired``, ``gone``) is an English word, never a name."""
    if not transliterable([word]):
        return False
    return word[:1].isupper() or not any(lookup(lang, word) for lang in TARGET_LANGS)


def one_per_script(forms: tuple[str, ...]) -> list[str]:
    """The first of the forms that fold to the same Chinese word: the lexicon gives Simplified and
    Traditional (``银行``, ``銀行``), the index folds both to one term, so one is sent."""
    firsts: dict[str, str] = {}
    for f in forms:
        firsts.setdefault(fold_chinese(f), f)
    return list(firsts.values())


def _chinese_number(word: str) -> list[str]:
    """The Chinese numeral for an amount (not for a year, which Chinese writes in digits, nor for
    a code with a leading zero, a ticker or an ID such as ``0050``, never said as a number)."""
    n = int(word)
    if word.startswith("0"):
        return []
    return [] if n < 10 or 1900 <= n <= 2100 or n >= 100_000_000 else [int_to_chinese(n)]


def with_feedback(plan: QueryPlan, anchors: tuple[str, ...]) -> QueryPlan:
    """The plan with feedback anchors added to its anchors and to the Arabic and Chinese queries."""
    new = tuple(a for a in anchors if a not in plan.anchors)
    if not new:
        return plan
    queries = tuple((lang, q if lang not in TARGET_LANGS else " ".join([q, *new]).strip())
                    for lang, q in plan.queries)
    return replace(plan, queries=queries, anchors=plan.anchors + new)


def concept_matches(concept: Concept, lang: str, text: str, term_set: frozenset[str]) -> bool:
    """Whether a sentence (its text and its :func:`bolt.pipeline.text.terms` set) expresses the concept."""
    if concept.stem in term_set or concept.word.lower() in term_set:
        return True
    if lang == "eng":
        return False
    if concept.word.isdigit() and concept.word in numbers_in(text):  # ٢٠١٢, 二〇一二 or 三百
        return True
    folded = _folded(text) if lang == "cmn" else text
    for form in concept.forms_in(lang):
        if lang == "cmn":
            if _folded(form) in folded:  # either script matches either (indexing.script_fold)
                return True
        else:
            toks = _form_terms(form)
            if toks and all(t in term_set for t in toks):
                return True
    return False


@functools.lru_cache(maxsize=1024)
def _folded(text: str) -> str:
    """``fold_chinese``, kept: every concept of a query asks it of the same sentence."""
    return fold_chinese(text)


@functools.lru_cache(maxsize=65_536)
def _form_terms(form: str) -> tuple[str, ...]:
    """A lexicon form's Arabic terms, kept: the same few forms are asked of every sentence."""
    return tuple(arabic_terms(form))

