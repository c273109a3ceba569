"""Terms shared by the system and the assessor: the English stem, the index's Arabic terms and
Simplified-folded Chinese bigrams.

They live below both so the judge never imports the system it measures: changing the baseline's
analysis cannot silently change the assessor. ``bolt.lexicon`` and ``bolt.pipeline.text``
re-export these names.
"""
from __future__ import annotations

import functools
import re

from indexing.script_fold import fold_chinese

WORD = re.compile(r"[^\W_]+", re.UNICODE)
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")


@functools.lru_cache(maxsize=1)
def english_stemmer():
    """Snowball English stemmer when installed, else a light suffix stripper (same for keys and queries)."""
    try:
        import snowballstemmer

        st = snowballstemmer.stemmer("english")
        return st.stemWord
    except ImportError:  # pragma: no cover - snowballstemmer is a dependency of our environment
        return _light_stem


def _light_stem(word: str) -> str:
    for suf in ("ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "s"):
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            return word[: -len(suf)]
    return word


@functools.lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """The toolkit's one English stem of ``word`` (lower-cased first)."""
    return english_stemmer()(word.lower())


def arabic_terms(text: str) -> list[str]:
    """The index's Arabic terms: normalised, stop words dropped, light10-stemmed (``indexing.analysis``)."""
    from indexing.analysis import AnalysisConfig

    return AnalysisConfig().tokens(text, "arz")


def chinese_terms(text: str) -> list[str]:
    """Character bigrams of Han runs (folded to Simplified) plus lower-cased Latin words and numbers."""
    out: list[str] = []
    for m in WORD.finditer(fold_chinese(text)):
        w = m.group(0)
        han = _HAN_RUN.findall(w)
        if han:
            for run in han:
                out.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
            rest = _HAN_RUN.sub(" ", w).split()
            out.extend(r.lower() for r in rest)
        else:
            out.append(w.lower())
    return out


__all__ = ["WORD", "english_stemmer", "stem", "arabic_terms", "chinese_terms"]
