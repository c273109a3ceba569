"""The words an index's threads use, with how many threads use each (built once per store and language).

Cross-language retrieval can only send words the lexicons know; a name the lexicon lacks has to
be found among the words the collection itself uses (``bolt.pipeline.transliterate``). This is the
one place that lists them: every thread of a language in the thread store, its raw text
normalised as the index normalises it (Arabic: ``normalize_arabic``), split into words of that
language's script, each counted once per thread. ``bolt index`` counts it once and keeps it in the
index folder (``vocabulary-<lang>.json``, :func:`write_vocabularies`): counting 43,000 Arabic
threads took a run's first topic 14 s. An index without the file (or with one from other counting
code) is counted on first use, as before.
"""
from __future__ import annotations

import json
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Mapping

from indexing.analysis import normalize_arabic
from indexing.errors import ToolkitError

# words written wholly in one script: the Arabic letters after normalisation (no digits, no Latin)
SCRIPT_WORDS = {"arz": re.compile(r"[\u0621-\u064a]+")}
_CACHE: dict[tuple[str, str], Mapping[str, int]] = {}
_LOCK = threading.Lock()
FILE = "vocabulary-{lang}.json"
FORMAT = "bolt-vocabulary/1"


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
            table = _stored(store.path.parent, lang)
            if table is None:
                table = _count(store.raw_texts(lang), SCRIPT_WORDS[lang])
            _CACHE[key] = table
    return table


def write_vocabularies(index_dir: str | Path, store) -> dict[str, int]:
    """Count each script language's vocabulary over ``store`` (a ``ThreadStore``) into ``index_dir``;
    per language, how many words it holds."""
    from indexing.atomic import atomic_write_text

    out = {}
    for lang, word in sorted(SCRIPT_WORDS.items()):
        table = _count(store.raw_texts(lang), word)
        if table:
            doc = {"format": FORMAT, "code": _code(), "words": table}
            atomic_write_text(Path(index_dir) / FILE.format(lang=lang), json.dumps(doc, ensure_ascii=False))
            out[lang] = len(table)
    return out


def _stored(index_dir: Path, lang: str) -> Mapping[str, int] | None:
    """The vocabulary ``bolt index`` kept for ``lang``, None when there is none (or other code counted it)."""
    try:
        doc = json.loads((index_dir / FILE.format(lang=lang)).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(doc, dict) and doc.get("format") == FORMAT and doc.get("code") == _code()
    return doc["words"] if ok and isinstance(doc.get("words"), dict) else None


def _code() -> str:
    """The digest of the code that counts (this module and the Arabic normalisation)."""
    import indexing.analysis
    from indexing.cache import digest

    return digest(FORMAT, (), [Path(__file__), Path(indexing.analysis.__file__)])


def _count(texts, word) -> Mapping[str, int]:
    counts: Counter[str] = Counter()
    for raw in texts:
        counts.update(set(word.findall(normalize_arabic(raw))))
    return dict(counts)
