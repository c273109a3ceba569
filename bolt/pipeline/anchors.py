"""Language-independent query terms (*anchors*): numbers and Latin-script names.

Forum posts in Arabic and Chinese keep brand and model names in Latin script (``iPhone``,
``X5``) and write numbers in ASCII, Arabic-Indic or Chinese numerals. Such a token means the same
in every language, so it can be sent to every index and can confirm that a non-English sentence
is about the query without any dictionary. Numbers are normalised to ASCII digits here.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

from bolt.pipeline.text import ENGLISH_STOPWORDS
from indexing.script_fold import fold_chinese
from indexing.textfacts import normalize_digits  # noqa: F401 (re-exported: the one digit folding)

_CN_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_CN_RUN = re.compile("[零〇一二两三四五六七八九十百千万亿]{2,}")
_TOKEN = re.compile(r"[A-Za-z0-9\u0660-\u0669\u06F0-\u06F9\uFF10-\uFF19]+(?:[.,][0-9]+)*")
_SENT_START = re.compile(r"(?:^|[.!?]\s+)([A-Z][a-z]+)")


def chinese_to_int(s: str) -> int | None:
    """A Chinese numeral (``三百五十`` -> 350, ``两万`` -> 20000, ``二〇一二`` -> 2012); None if not one."""
    if not s or any(ch not in _CN_DIGIT and ch not in _CN_UNIT and ch not in _CN_BIG for ch in s):
        return None
    if all(ch in _CN_DIGIT for ch in s):  # digit by digit, as years are written
        return int("".join(str(_CN_DIGIT[ch]) for ch in s))
    total, section, digit = 0, 0, None
    for ch in s:
        if ch in _CN_DIGIT:
            digit = _CN_DIGIT[ch]
        elif ch in _CN_UNIT:
            section += (1 if digit is None else digit) * _CN_UNIT[ch]
            digit = None
        else:
            section += digit or 0
            total += (section or 1) * _CN_BIG[ch]
            section, digit = 0, None
    return total + section + (digit or 0)


def int_to_chinese(n: int) -> str:
    """ASCII number -> Chinese numeral as written in prose (``350`` -> ``三百五十``); below 10^8."""
    if n == 0:
        return "零"
    if n >= 100_000_000:
        return str(n)
    digits = "零一二三四五六七八九"

    def below_10k(x: int) -> str:
        out, zero = "", False
        for unit, name in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
            d, x = divmod(x, unit)
            if d:
                if zero and out:
                    out += "零"
                out += digits[d] + name
                zero = False
            else:
                zero = True
        return out

    hi, lo = divmod(n, 10_000)
    text = (below_10k(hi) + "万" if hi else "") + ("零" if hi and 0 < lo < 1000 else "") + (below_10k(lo) if lo else "")
    return text[1:] if text.startswith("一十") else text


def numbers_in(text: str) -> set[str]:
    """Every number in ``text`` as ASCII digits (Chinese numeral runs of two or more characters
    included, in either script: 兩萬 is 两万)."""
    out = {m.group(0) for m in re.finditer(r"[0-9]+", normalize_digits(text))}
    for m in _CN_RUN.finditer(fold_chinese(text)):
        v = chinese_to_int(m.group(0))
        if v is not None:
            out.add(str(v))
    return out


def is_name_like(word: str) -> bool:
    """A Latin token that other scripts keep as is: has a digit and a letter, an inner capital, or is all caps."""
    if not word.isascii() or not any(ch.isalpha() for ch in word):
        return False
    return (any(ch.isdigit() for ch in word) or any(ch.isupper() for ch in word[1:])
            or (len(word) >= 2 and word.isupper()))


def query_anchors(query: str) -> tuple[str, ...]:
    """Numbers and name-like Latin tokens of the query, lower-cased, in query order."""
    out: list[str] = []
    for m in _TOKEN.finditer(normalize_digits(query)):
        w = m.group(0)
        key = w.lower()
        if (w.isdigit() or is_name_like(w)) and key not in out:
            out.append(key)
    return tuple(out)


def sentence_anchors(text: str) -> set[str]:
    """Numbers and Latin tokens of a sentence of any language, lower-cased (for matching anchors)."""
    out = numbers_in(text)
    out.update(m.group(0).lower() for m in _TOKEN.finditer(text) if not m.group(0).isdigit())
    return out


def feedback_anchors(texts: Sequence[str], exclude: Iterable[str] = (), min_df: int = 2,
                     limit: int = 6) -> tuple[str, ...]:
    """Cross-language pseudo-relevance feedback: anchors shared by at least ``min_df`` of the top English texts.

    Candidates are numbers of two or more digits, name-like tokens, and capitalised words that do
    not start a sentence (proper names); ranked by how many texts hold them, then by first
    appearance. Words in ``exclude`` (the query's own) are left out.
    """
    skip = {e.lower() for e in exclude}
    df: Counter[str] = Counter()
    first: dict[str, int] = {}
    for t in texts:
        starts = {m.start(1) for m in _SENT_START.finditer(t)}
        seen: set[str] = set()
        for m in _TOKEN.finditer(normalize_digits(t)):
            w = m.group(0)
            key = w.lower()
            ok = ((w.isdigit() and len(w) >= 2) or is_name_like(w)
                  or (w[:1].isupper() and w[1:].islower() and len(w) >= 3 and m.start() not in starts))
            if not ok or key in skip or key in ENGLISH_STOPWORDS or key in seen:
                continue
            seen.add(key)
            df[key] += 1
            first.setdefault(key, len(first))
    ranked = sorted((k for k, n in df.items() if n >= min_df), key=lambda k: (-df[k], first[k]))
    return tuple(ranked[:limit])
