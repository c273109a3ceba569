"""Chinese script folding: Traditional and Simplified characters compared as one, offsets kept.

Forum Chinese comes in both scripts (Taiwan and Hong Kong boards write Traditional: ``台灣銀行``;
the mainland and CC-CEDICT's headwords Simplified: ``台湾银行``). Wherever the toolkit compares
Chinese text — the index (documents and queries), the pipeline's concept matching, back-translation
and redundancy filter, the multilingual encoder's input, the assessor's lexical terms — both sides
go through :func:`fold_chinese` first, the toolkit's one definition of the folding.

The folding is **character by character**, so the folded text has exactly the length of the
original and position ``i`` of one is position ``i`` of the other: every offset computed on
folded text points into the original. Phrase-level conversion (OpenCC's ``TSPhrases``, which can
change the length of a word) is deliberately not used; for matching, a per-character map is
enough because both sides are folded alike.

The table comes from OpenCC (PyPI ``opencc``, the project's own binding: Apache-2.0, wheels for
Linux, macOS and Windows, no dependencies), built once per process by converting every CJK
ideograph on its own:

- OpenCC's ``t2s`` (Traditional -> Simplified characters), e.g. 灣→湾, 銀→银, 裡→里, 臺→台;
- plus the Taiwan and Hong Kong variants that ``tw2s``/``hk2s`` fold and ``t2s`` leaves alone
  (著→着, 衞→卫, 敍→叙), except where the character is itself a Simplified form that ``t2s``
  produces (``tw2s`` maps 么→幺, which would fold the Simplified 什么 away from 什麼);
- CJK compatibility ideographs to their unified character (NFKC, one character for one);
- closed under repetition (a→b, b→c gives a→c), so folding twice equals folding once; where the
  variant tables disagree in a cycle (``tw2s`` 著→着, ``hk2s`` 着→著) all its members fold to the
  least code point (着).

:func:`describe` gives what the index manifest records and ``bolt doctor`` reports.
"""
from __future__ import annotations

import functools
import hashlib
import unicodedata

from indexing.errors import ToolkitError

# Every CJK ideograph block OpenCC knows (unified, extension A, compatibility, extensions B-H).
_RANGES = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00), (0x20000, 0x2FA20), (0x30000, 0x323B0))
NAME = "opencc-t2s-chars"  # what the folding is, in the manifest's settings


def _opencc():
    try:
        import opencc
    except ImportError as exc:  # a declared dependency; say how to get it rather than fail obscurely
        raise ToolkitError("the Chinese script folding needs OpenCC, which is not installed",
                           hint="pip install 'opencc==1.4.2' (or reinstall the toolkit: pip install -e .)") from exc
    return opencc


def _convert_each(converter, chars: list[str]) -> list[str]:
    """``converter`` applied to each character on its own (one call: a line break ends every
    dictionary match, so phrases never form across characters)."""
    out = converter.convert("\n".join(chars)).split("\n")
    if len(out) != len(chars):  # pragma: no cover - OpenCC keeps line breaks
        raise ToolkitError("OpenCC did not keep one line per character while building the script folding",
                           hint="install the pinned version: pip install 'opencc==1.4.2'")
    return out


@functools.lru_cache(maxsize=1)
def fold_table() -> dict[int, str]:
    """``{code point: folded character}`` for every character the folding changes."""
    opencc = _opencc()
    chars = [chr(c) for lo, hi in _RANGES for c in range(lo, hi)]
    t2s = {c: o for c, o in zip(chars, _convert_each(opencc.OpenCC("t2s"), chars)) if o != c and len(o) == 1}
    # Simplified characters t2s produces (from real Traditional ones, not from compatibility ideographs)
    simplified = {o for c, o in t2s.items() if unicodedata.normalize("NFKC", c) == c}
    table = dict(t2s)
    for config in ("tw2s", "hk2s"):
        for c, o in zip(chars, _convert_each(opencc.OpenCC(config), chars)):
            if o != c and len(o) == 1 and c not in table and c not in simplified:
                table[c] = o
    for lo, hi in ((0xF900, 0xFB00), (0x2F800, 0x2FA20)):  # compatibility ideographs
        for code in range(lo, hi):
            c = chr(code)
            n = unicodedata.normalize("NFKC", c)
            if n != c and len(n) == 1 and c not in table:
                table[c] = n
    closed = {}
    for c in table:  # close under repetition (folding twice = folding once); a cycle folds to its least member
        path = [c]
        while path[-1] in table and table[path[-1]] not in path:
            path.append(table[path[-1]])
        end = path[-1]
        closed[c] = min(path[path.index(table[end]):]) if end in table else end
    return {ord(c): o for c, o in closed.items() if o != c}


def fold_chinese(text: str) -> str:
    """``text`` with every Traditional (or variant) Chinese character replaced by its Simplified
    form, one character for one: ``len(fold_chinese(t)) == len(t)``, and other scripts unchanged."""
    if text.isascii():  # most English text: no table needed (building it takes 0.1-0.3 s once)
        return text
    return text.translate(fold_table())


@functools.lru_cache(maxsize=1)
def describe() -> dict:
    """What the folding is, for the index manifest and ``bolt doctor``: converter, its version,
    how many characters it folds and a digest of the table (two builds fold alike iff equal)."""
    from importlib import metadata

    table = fold_table()
    digest = hashlib.sha256("".join(f"{chr(k)}{v}" for k, v in sorted(table.items())).encode()).hexdigest()
    try:
        version = metadata.version("opencc")
    except metadata.PackageNotFoundError:  # pragma: no cover - importable but without metadata
        version = "unknown"
    return {"name": NAME, "converter": "opencc", "version": version, "characters": len(table),
            "sha256": digest[:16]}
