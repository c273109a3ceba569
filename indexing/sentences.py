"""Sentence segmentation with character spans, per language, offline (spaCy blank + sentencizer).

spaCy's trained pipelines are not on PyPI, so each language uses ``spacy.blank(lang)`` with the
rule-based ``sentencizer``, extended with the Arabic and Chinese end-of-sentence marks. Spans are
indices into the given (decoded) text; map them to raw offsets with a ``TextMap``.
"""
from __future__ import annotations

import functools

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


