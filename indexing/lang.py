"""The language of a thread, read from its id (SPEC §2), in both LDC id styles.

Older releases: ``bolt-<lang>-DF-<site>-<forum>-<thread>`` (``NG`` for newsgroups instead of
``DF``); newer ones: ``<LANG>_DF_<site>_<date>_<id>``. The language code is the first field after
an optional ``bolt`` prefix; the guidelines' spelling ``cnm`` is read as ``cmn``.
"""
from __future__ import annotations

import re

LANGS = ("eng", "arz", "cmn")
UNKNOWN = "und"  # ISO 639-2 "undetermined": what the reader records when the id names no language
_ALIASES = {"eng": "eng", "arz": "arz", "cmn": "cmn", "cnm": "cmn", "zho": "cmn", "chi": "cmn",
            "ara": "arz", "en": "eng", "ar": "arz", "zh": "cmn"}
_ID = re.compile(r"^(?:bolt[-_])?([A-Za-z]{2,3})[-_](?:[A-Za-z]{2}[-_]|$)", re.IGNORECASE)


def normalize_lang(code: str | None) -> str | None:
    """``"ENG"`` -> ``"eng"``, ``"cnm"`` -> ``"cmn"``; None for anything unknown."""
    if not code:
        return None
    return _ALIASES.get(code.strip().lower())


def lang_of(thread_id: str, lang: str | None = None) -> str | None:
    """Language of a thread id: ``"eng"``, ``"arz"``, ``"cmn"``, or None when the id names none.

    ``lang`` overrides the id (a caller who knows better, e.g. ``--lang``); it is normalised too,
    and an unknown override is returned lower-cased as given rather than dropped.
    """
    if lang:
        return normalize_lang(lang) or lang.strip().lower()
    m = _ID.match(thread_id.strip())
    return normalize_lang(m.group(1)) if m else None
