"""The one "did you mean" of the toolkit: the known name a mistyped one most likely means.

Used by the command line (options, choices), the system and metric registries, so every typo gets the
same kind of answer (pip's "maybe you meant", the topic validator's "did you mean").
"""
from __future__ import annotations

import difflib
from typing import Iterable


def closest(word: str, known: Iterable[str]) -> str | None:
    """The one known word ``word`` most likely misspells or abbreviates, None when none is close:
    the same word in other case, else the only one it starts, else the closest by difflib (ratio 0.6)."""
    known = list(known)
    if not known or not word:
        return None
    folded = {k.casefold(): k for k in known}
    if word.casefold() in folded:
        return folded[word.casefold()]
    starts = [k for k in known if k.startswith(word)]
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the closest known word, else an empty string."""
    match = closest(word, known)
    return f" (did you mean '{match}'?)" if match else ""
