"""English names to the Arabic words a collection uses for them, by consonant skeleton (offline).

The Arabic lexicon has no entry for most names (Harrods, Al Fayed, Bassem), so the Arabic query
used to carry them in Latin script, which matches only posts that keep the Latin spelling. Arabic
writes a name's consonants and long vowels; English spells its consonants and every vowel. So an
English word and an Arabic word are candidates for one name when their **consonant skeletons**
agree, letter classes rather than letters (English s/z and Arabic س ص ز are one class, k/q/c and
ك ق another, g/j and ج غ, h and ه ح, t/th and ت ط ث, d/dh and د ض ذ ظ), and every long vowel the
Arabic word writes stands where the English spelling has a vowel of a compatible quality (ا for
a/e, و for o/u/w, ي for i/e/y; ع and ء go with anything). Among the index's words (the thread
vocabulary of ``indexing.vocabulary``, an article ال/وال/بال/فال/كال/لل stripped) the candidates
with the most agreeing long vowels win, then the most frequent; a two-consonant name needs at
least one agreeing long vowel (Nour نور, not نار), a shorter one is never guessed.

Built once per index and process (:class:`ArabicNames`): the skeleton table over the vocabulary;
a query then costs one dictionary look-up per untranslated word.
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable, Mapping

from indexing.errors import ToolkitError

MAX_FORMS = 2  # Arabic words per English name, at most
MIN_CONSONANTS = 2  # a name of one consonant class is never guessed
_ARTICLES = ("وال", "بال", "فال", "كال", "عال", "لل", "ال")

# Arabic letters (after indexing.analysis.normalize_arabic) -> consonant class, or a vowel quality
_AR_CONS = {"ب": "B", "ت": "T", "ث": "T", "ج": "J", "ح": "H", "خ": "X", "د": "D", "ذ": "D", "ر": "R",
            "ز": "S", "س": "S", "ش": "C", "ص": "S", "ض": "D", "ط": "T", "ظ": "D", "غ": "J", "ف": "F",
            "ق": "K", "ك": "K", "ل": "L", "م": "M", "ن": "N", "ه": "H"}
_AR_VOWEL = {"ا": "a", "و": "u", "ي": "i", "ع": "*", "ء": "*"}
# English spellings -> consonant class; digraphs first
_EN_DIGRAPHS = {"sh": "C", "ch": "C", "kh": "X", "gh": "J", "th": "T", "dh": "D", "ph": "F", "ck": "K"}
_EN_CONS = {"b": "B", "p": "B", "t": "T", "d": "D", "s": "S", "z": "S", "k": "K", "q": "K", "g": "J",
            "j": "J", "h": "H", "f": "F", "v": "F", "l": "L", "m": "M", "n": "N", "r": "R"}
# English vowel letters -> the Arabic long vowels they may stand for
_EN_VOWEL = {"a": "a", "e": "ai", "i": "i", "y": "i", "o": "u", "u": "u", "w": "u"}
_LATIN = re.compile(r"^[a-z]+$")

Skeleton = tuple[str, ...]
Gaps = tuple[str, ...]  # per gap between consonants (n + 1 of them): the vowel qualities written there


def english_shapes(word: str) -> list[tuple[Skeleton, Gaps]]:
    """The consonant classes of an English spelling and, per gap, the Arabic vowels it allows.

    ``fayed`` -> ``(F, D)``, gaps ``("", "ai", "")``. A final ``h`` after a vowel may be silent
    (``Fatmah``) or a consonant (``Lakah`` لكح): both readings are returned.
    """
    w = word.lower()
    if not _LATIN.match(w):
        raise ToolkitError(f"not a Latin-script word: {word!r}", hint="give one English word, letters a-z only")
    cons: list[str] = []
    gaps: list[str] = [""]
    i = 0
    while i < len(w):
        two, c = w[i:i + 2], w[i]
        if two in _EN_DIGRAPHS:
            cls, i = _EN_DIGRAPHS[two], i + 2
        elif c == "c":
            cls, i = ("S" if w[i + 1:i + 2] in ("e", "i", "y") else "K"), i + 1
        elif c == "x":
            _add(cons, gaps, "K")
            cls, i = "S", i + 1
        elif c in _EN_CONS:
            cls, i = _EN_CONS[c], i + 1
        else:
            gaps[-1] += _EN_VOWEL.get(c, "")
            i += 1
            continue
        _add(cons, gaps, cls)
    shapes = [(tuple(cons), tuple(gaps))]
    if len(w) > 2 and w.endswith("h") and w[-2] in _EN_VOWEL and cons and cons[-1] == "H" and w[-2:] not in _EN_DIGRAPHS:
        shapes.append((tuple(cons[:-1]), tuple(gaps[:-2]) + (gaps[-2] + "a",)))
    return shapes


def _add(cons: list[str], gaps: list[str], cls: str) -> None:
    if cons and cons[-1] == cls and gaps[-1] == "":
        return  # a doubled letter (Harrods, Bassem) is one Arabic consonant
    cons.append(cls)
    gaps.append("")


def arabic_shapes(word: str) -> list[tuple[Skeleton, Gaps]]:
    """The consonant classes of a normalised Arabic word and the long vowels written in each gap.

    A final ه is read both as a consonant and as the vowel of a ta marbuta (``خيريه``).
    """
    cons: list[str] = []
    gaps: list[str] = [""]
    for ch in word:
        if ch in _AR_CONS:
            cons.append(_AR_CONS[ch])
            gaps.append("")
        elif ch in _AR_VOWEL:
            gaps[-1] += _AR_VOWEL[ch]
    shapes = [(tuple(cons), tuple(gaps))]
    if word.endswith("ه") and len(cons) > 1:
        shapes.append((tuple(cons[:-1]), tuple(gaps[:-2]) + (gaps[-2] + "a",)))
    return shapes


def agreement(en_gaps: Gaps, ar_gaps: Gaps) -> int | None:
    """How many of the Arabic word's long vowels the English spelling backs, or None when one is
    written where English has no vowel of that quality (the words are not one name)."""
    score = 0
    for en, ar in zip(en_gaps, ar_gaps):
        for q in ar:
            if q == "*":
                continue
            if q not in en:
                return None
            score += 1
    return score


def strip_article(word: str) -> str:
    """The word without a leading article (with a conjunction or preposition glued on), if it is longer than two letters."""
    for a in _ARTICLES:
        if word.startswith(a) and len(word) - len(a) >= 2:
            return word[len(a):]
    return word


class ArabicNames:
    """Arabic words of one collection, found by the consonant skeleton of an English name."""

    def __init__(self, frequencies: Mapping[str, int]) -> None:
        df: dict[str, int] = defaultdict(int)
        for word, n in frequencies.items():
            df[strip_article(word)] += n
        self._by_skeleton: dict[Skeleton, list[tuple[str, Gaps, int]]] = defaultdict(list)
        for base, n in df.items():
            for skel, gaps in arabic_shapes(base):
                if len(skel) >= MIN_CONSONANTS:
                    self._by_skeleton[skel].append((base, gaps, n))

    def forms(self, word: str) -> tuple[str, ...]:
        """At most ``MAX_FORMS`` Arabic words of the collection for an English name (may be empty)."""
        if len(word) > 4 and word[:2].lower() in ("al", "el") and word[2].isupper():
            word = word[2:]  # ElBaradei: the article is written into the name
        best: dict[str, tuple[int, int]] = {}
        for skel, en_gaps in english_shapes(word):
            if len(skel) < MIN_CONSONANTS:
                continue
            for base, ar_gaps, n in self._by_skeleton.get(skel, ()):
                score = agreement(en_gaps, ar_gaps)
                if score is None or (len(skel) == MIN_CONSONANTS and score < 1):
                    continue
                best[base] = max(best.get(base, (-1, 0)), (score, n))
        if not best:
            return ()
        ranked = sorted(best, key=lambda b: (-best[b][0], -best[b][1], b))
        return tuple(ranked[:MAX_FORMS])


def transliterable(words: Iterable[str]) -> list[str]:
    """The words worth a guess: Latin letters only, three or more, not an acronym (``ETF``, ``TSMC``)."""
    return [w for w in words if len(w) >= 3 and w.isascii() and w.isalpha() and not w.isupper()]
