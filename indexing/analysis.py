"""Per-language text analysis for both index backends, as one value object.

Lucene does the analysis of the ``lucene`` backend (one index per language, each with its own
analyzer); this module holds the choices, the Python-side Arabic normalisation applied before
Lucene sees a document or a query, and a pure-Python tokenizer that mirrors Lucene's analyzers
for the ``bm25`` backend.

- ``eng``: Lucene's English analyzer in Anserini (lower case, English stop words, Porter stemmer);
  the Python mirror uses snowball's ``porter`` stemmer and Lucene's English stop list.
- ``arz``: Lucene's ``ArabicAnalyzer`` (Arabic stop words, ``ArabicNormalizationFilter``,
  ``ArabicStemFilter`` light stemming). Before it, :func:`normalize_arabic` folds the letter
  variants of Egyptian forum writing that Lucene leaves apart (see its docstring).
- ``cmn``: Lucene's ``CJKAnalyzer`` (overlapping bigrams of Han characters, words elsewhere).
  Before it, :func:`indexing.script_fold.fold_chinese` folds Traditional characters to Simplified
  one for one (``cmn_fold``), in documents and queries alike, so ``台灣`` and ``台湾`` are one term;
  the folded text keeps the original's length, so passages still slice their post's text.

``repr(AnalysisConfig())`` is written into the index manifest: it is the reproducible spec.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, fields

from indexing.script_fold import NAME as CMN_FOLD, fold_chinese

# Anserini's language codes for our corpus languages.
LUCENE_LANG = {"eng": "en", "arz": "ar", "cmn": "zh"}

# Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (Anserini's default English analyzer uses it).
ENGLISH_STOP = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their then "
    "there these they this to was will with".split())

# A short Arabic stop list for the Python mirror (Lucene's list is longer; these are the function
# words that dominate forum text). Written after normalisation (ى→ي, ة→ه, أ/إ/آ→ا).
ARABIC_STOP = frozenset(
    "في من علي الي عن ان او ام ما لا لم لن هو هي هم انا انت نحن هذا هذه ذلك تلك التي الذي "
    "الذين كان كانت مع ثم قد كل بعد قبل حتي اذا لقد و ف ب ل ك".split())

_TATWEEL = "\u0640"
_DIACRITIC_RANGES = "\u064b-\u065f\u0670\u06d6-\u06ed"
_ARABIC_DIACRITICS = re.compile(f"[{_DIACRITIC_RANGES}]")
_ARABIC_MAP = str.maketrans({
    "\u0622": "\u0627",  # آ alef madda -> ا
    "\u0623": "\u0627",  # أ alef hamza above -> ا
    "\u0625": "\u0627",  # إ alef hamza below -> ا
    "\u0671": "\u0627",  # ٱ alef wasla -> ا
    "\u0672": "\u0627", "\u0673": "\u0627", "\u0675": "\u0627",
    "\u0649": "\u064a",  # ى alef maksura -> ي
    "\u06cc": "\u064a",  # ی Farsi yeh -> ي
    "\u06d2": "\u064a",  # ے yeh barree -> ي
    "\u0629": "\u0647",  # ة teh marbuta -> ه
    "\u06c0": "\u0647", "\u06c1": "\u0647", "\u06d5": "\u0647",
    "\u06a9": "\u0643",  # ک keheh -> ك
    "\u06af": "\u0643",  # گ gaf (Egyptian g written with a Persian letter) -> ك
    "\u0624": "\u0648",  # ؤ waw hamza -> و
    "\u0626": "\u064a",  # ئ yeh hamza -> ي
    _TATWEEL: None,
    **{chr(0x0660 + d): str(d) for d in range(10)},  # Arabic-Indic digits
    **{chr(0x06F0 + d): str(d) for d in range(10)},  # Extended (Persian) digits
})
_ARABIC_LETTER_RUN = re.compile(r"([\u0621-\u064a])\1\1+")  # same as \1{2,}, twice as fast
# str.translate looks every character up in a dict; a regular expression that visits only the
# characters to fold is about twice as fast on Arabic text (this runs on every indexed unit).
_ARABIC_FOLD = {chr(k): v or "" for k, v in _ARABIC_MAP.items()}
_ARABIC_FOLD_RE = re.compile("[" + "".join(re.escape(c) for c in _ARABIC_FOLD) + "]")


def _fold(m: re.Match) -> str:
    return _ARABIC_FOLD[m.group()]


def normalize_arabic(text: str) -> str:
    """Fold Egyptian forum spelling variants so query and document spell words alike.

    Lucene's ``ArabicNormalizationFilter`` already folds أ/إ/آ→ا, ى→ي, ة→ه and drops tatweel and
    diacritics; we do it here too, so the pure-Python backend agrees, and add what Lucene
    misses: alef wasla ٱ, Farsi yeh ی and keheh ک, the gaf گ that writes Egyptian /g/, hamza
    seats ؤ→و and ئ→ي, Arabic-Indic and Persian digits → ASCII digits, compatibility
    presentation forms (NFKC), and letters stretched for emphasis (three or more repeats → one,
    e.g. جمييييل → جميل). The text keeps its length only loosely: it is for indexing, never for
    offsets.
    """
    text = unicodedata.normalize("NFKC", text)
    text = _ARABIC_FOLD_RE.sub(_fold, _ARABIC_DIACRITICS.sub("", text))
    return _ARABIC_LETTER_RUN.sub(r"\1", text)


_ARABIC_DELETED = re.compile(f"[{_TATWEEL}{_DIACRITIC_RANGES}]")  # what normalize_arabic deletes


def normalize_arabic_aligned(text: str) -> str | None:
    """``normalize_arabic(text)`` when it keeps every character in its place (only one-for-one
    folds), else None. Then the normalisation of any slice of ``text`` is the same slice of the
    result: a post is normalised once for all the passages cut from it."""
    if not unicodedata.is_normalized("NFKC", text) or _ARABIC_DELETED.search(text):
        return None
    folded = _ARABIC_FOLD_RE.sub(_fold, text)
    return None if _ARABIC_LETTER_RUN.search(folded) else folded


@dataclass(frozen=True)
class AnalysisConfig:
    """How each language is analysed; the repr (defaults left out) is the manifest's spec."""

    eng: str = "lucene-english(porter,stopwords)"
    arz: str = "lucene-arabic+egyptian-normalisation"
    cmn: str = "lucene-cjk-bigrams"
    cmn_fold: str = CMN_FOLD  # Traditional -> Simplified per character (indexing.script_fold); "" for none
    bm25_k1: float = 0.9
    bm25_b: float = 0.4

    def __repr__(self) -> str:
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                   if getattr(self, f.name) != f.default]
        return f"AnalysisConfig({', '.join(changed)})"

    def lucene_language(self, lang: str) -> str:
        """Anserini's ``-language`` code for a corpus language (English for unknown ones)."""
        return LUCENE_LANG.get(lang, "en")

    def __post_init__(self) -> None:
        if self.cmn_fold not in (CMN_FOLD, ""):
            raise ValueError(f"AnalysisConfig.cmn_fold must be {CMN_FOLD!r} or '' (none), not {self.cmn_fold!r}")

    def prepare(self, text: str, lang: str) -> str:
        """The text handed to Lucene for a document or a query (Arabic is normalised first,
        Chinese folded to one script)."""
        if lang == "arz":
            return normalize_arabic(text)
        if lang == "cmn" and self.cmn_fold:
            return fold_chinese(text)
        return text

    def prepare_aligned(self, text: str, lang: str) -> str | None:
        """``prepare(text, lang)`` if every slice of it is ``prepare`` of the same slice of
        ``text``, else None (see :func:`normalize_arabic_aligned`; the Chinese folding always is)."""
        return normalize_arabic_aligned(text) if lang == "arz" else self.prepare(text, lang)

    def tokens(self, text: str, lang: str) -> list[str]:
        """Pure-Python terms that mirror the Lucene analyzer of ``lang`` (for rank-bm25)."""
        if lang == "arz":
            return _arabic_tokens(text)
        if lang == "cmn":
            return _cjk_tokens(fold_chinese(text) if self.cmn_fold else text)
        return _english_tokens(text)


_WORD = re.compile(r"\w+", re.UNICODE)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]+")


def _stemmer(name: str):
    import snowballstemmer

    return snowballstemmer.stemmer(name)


_STEMMERS: dict[str, object] = {}


def _stem_words(words: list[str], name: str) -> list[str]:
    st = _STEMMERS.get(name)
    if st is None:
        st = _STEMMERS[name] = _stemmer(name)
    return st.stemWords(words)  # type: ignore[attr-defined]


def _english_tokens(text: str) -> list[str]:
    words = [w for w in _WORD.findall(text.lower()) if w not in ENGLISH_STOP]
    return _stem_words(words, "porter")


_AR_PREFIXES = ("وال", "بال", "كال", "فال", "لل", "ال", "و")
_AR_SUFFIXES = ("ها", "ان", "ات", "ون", "ين", "يه", "ه", "ي")


@functools.lru_cache(maxsize=200_000)
def _arabic_light_stem(w: str) -> str:
    """Lucene's ``ArabicStemmer`` (Larkey's light10): one prefix, then suffixes, keeping >= 2 letters."""
    for p in _AR_PREFIXES:
        if w.startswith(p) and len(w) - len(p) >= 2 and not (p == "و" and len(w) <= 3):
            w = w[len(p):]
            break
    for s in _AR_SUFFIXES:
        if w.endswith(s) and len(w) - len(s) >= 2:
            w = w[: -len(s)]
    return w


def _arabic_tokens(text: str) -> list[str]:
    out = []
    for w in _WORD.findall(normalize_arabic(text).lower()):
        if w in ARABIC_STOP:
            continue
        out.append(_arabic_light_stem(w))
    return out


def _cjk_tokens(text: str) -> list[str]:
    """Han runs as overlapping bigrams (a lone character stays a unigram); other words lower-cased."""
    out: list[str] = []
    pos = 0
    for m in _HAN.finditer(text):
        out.extend(_english_tokens(text[pos:m.start()]))
        run = m.group(0)
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
        pos = m.end()
    out.extend(_english_tokens(text[pos:]))
    return out
