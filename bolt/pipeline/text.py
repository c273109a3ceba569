"""Term analysis used to score and compare sentences: English stems, normalised Arabic, Chinese bigrams.

The index has its own analysers (``indexing.analysis``); these ones serve the pipeline's sentence
scoring, where a query *concept* (an English content word) must be found in a sentence of any
language: in English by stem, in Arabic through the lexicon's normalised forms, in Chinese as a
substring (Chinese is not segmented) after folding both sides to one script
(``indexing.script_fold``: 台灣 and 台湾 are one word).
"""
from __future__ import annotations

import functools
import re

from indexing.script_fold import fold_chinese
from indexing.terms import WORD, arabic_terms, chinese_terms, stem  # noqa: F401 (re-exported)

# Function words of forum English (articles, pronouns, auxiliaries, question words, fillers).
ENGLISH_STOPWORDS = frozenset("""
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
don't down during each else ever few for from further get gets got had hadn't has hasn't have
haven't having he her here hers herself him himself his how i if in into is isn't it it's its
itself just let like lot lots made make many may me might more most much must my myself no nor
not now of off on once one only or other ought our ours ourselves out over own per please really
said same say says shall she should shouldn't so some such than that that's the their theirs them
themselves then there there's these they this those through to too under until up upon us use
used very via was wasn't we were weren't what what's when where which while who whom whose why
will with won't would wouldn't yes yet you your yours yourself yourselves
tell know think people thing things way well get want going give told describe find information
regarding concerning anything something someone
""".split())


def content_words(query: str) -> list[str]:
    """The query's words that carry meaning (no stop words, no one-letter tokens but digits), first
    occurrence of each stem, in order: the concepts, and the words a name is looked up by."""
    words, seen = [], set()
    for m in WORD.finditer(query):
        w = m.group(0)
        lw = w.lower()
        if lw in ENGLISH_STOPWORDS or (len(lw) < 2 and not lw.isdigit()):
            continue
        s = stem(lw)
        if s not in seen:
            seen.add(s)
            words.append(w)
    return words


def normalize_arabic(text: str) -> str:
    """The index's Egyptian Arabic normalisation (``indexing.analysis``), so spellings agree."""
    from indexing.analysis import normalize_arabic as _norm

    return _norm(text)


def english_terms(text: str) -> list[str]:
    """Stems of the English content words of ``text`` (stop words dropped, numbers kept)."""
    return [stem(w) for w in (m.group(0).lower() for m in WORD.finditer(text))
            if w not in ENGLISH_STOPWORDS and (len(w) > 1 or w.isdigit())]


def terms(text: str, lang: str) -> list[str]:
    """Index-like terms of ``text`` in ``lang`` (used for BM25 over sentences and for Jaccard)."""
    if lang == "arz":
        return arabic_terms(text)
    if lang == "cmn":
        return chinese_terms(text)
    return english_terms(text)


@functools.lru_cache(maxsize=65_536)
def term_set(text: str, lang: str) -> frozenset[str]:
    """The set of :func:`terms`, kept per text: thread sentences are matched again for every topic
    whose candidates reach their thread."""
    return frozenset(terms(text, lang))


def char_ngrams(text: str, n: int = 4) -> set[str]:
    """Character n-grams of the lower-cased, space-collapsed text (for near-duplicate detection),
    Arabic normalised and Chinese folded to one script: a repost in the other script is a duplicate."""
    t = " ".join(fold_chinese(normalize_arabic(text.lower())).split())
    if len(t) <= n:
        return {t} if t else set()
    return {t[i:i + n] for i in range(len(t) - n + 1)}


def length_estimate(text: str, lang: str) -> int:
    """The sentence filter's length of a candidate sentence (``min_words``..``max_words``, a ranker feature): its
    letter/digit runs for English and Arabic; for Chinese, Han characters count 1/1.5 each.

    Not the toolkit's word (``indexing.textfacts.count_words``, which scores use): this estimate
    only chooses sentences, and changing it would change the system's runs."""
    if lang == "cmn":
        han = len(re.findall(r"[\u3400-\u9fff]", text))
        return int(round(han / 1.5)) + len(re.findall(r"[A-Za-z0-9]+", text))
    return len(WORD.findall(text))


word_count = length_estimate  # the old name (a length estimate, not the toolkit's word count)
