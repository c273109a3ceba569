"""The words an index's threads use, with how many threads use each (built once per store and language).

Cross-language retrieval can only send words the lexicons know; a name the lexicon lacks has to
be found among the words the collection itself uses (``bolt.pipeline.transliterate``). This is the
one place that lists them: every thread of a language in the thread store, its raw text
normalised as the index normalises it (Arabic: ``normalize_arabic``), split into words of that
language's script, each counted once per thread.
"""
from __future__ import annotations

import re
import threading
from collections import Counter
from typing import Mapping

from indexing.analysis import normalize_arabic
from indexing.errors import ToolkitError

# words written wholly in one script: the Arabic letters after normalisation (no digits, no Latin)
SCRIPT_WORDS = {"arz": re.compile(r"[\u0621-\u064a]+")}
_CACHE: dict[tuple[str, str], Mapping[str, int]] = {}
_LOCK = threading.Lock()


def thread_frequencies(corpus, lang: str) -> Mapping[str, int]:
    """``{word: number of threads of lang holding it}`` over the corpus's threads of ``lang``.

    ``corpus`` is an index's ``StoreCorpus`` (or its ``ThreadStore``) or a ``MemoryCorpus``
    (``indexing.corpus``). A store's table is built on first use and kept for the process (keyed by
    the store's file), so a query never pays for a pass over the collection.
    """
    if lang not in SCRIPT_WORDS:
        raise ToolkitError(f"no vocabulary for language {lang!r}",
                           hint=f"vocabularies are built for: {', '.join(sorted(SCRIPT_WORDS))}")
    store = getattr(corpus, "store", corpus)
    if not hasattr(store, "raw_texts"):  # threads in memory: counted each time (tests, small sets)
        return _count((t.raw for t in corpus.threads() if t.lang == lang), SCRIPT_WORDS[lang])
    key = (str(store.path), lang)
    with _LOCK:
        table = _CACHE.get(key)
        if table is None:
            table = _count(store.raw_texts(lang), SCRIPT_WORDS[lang])
            _CACHE[key] = table
    return table


def _count(texts, word) -> Mapping[str, int]:
    counts: Counter[str] = Counter()
    for raw in texts:
        counts.update(set(word.findall(normalize_arabic(raw))))
    return dict(counts)
