"""A lexicon table built once per machine (:mod:`indexing.cache`), not once per process.

Building the Chinese table reads all of CC-CEDICT and stems every gloss: seconds on every
``bolt run``'s first topic. The table is named by the code that builds it (the lexicon module, the
stemmer and the script folding) and its input files.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Mapping


def cached_table(name: str, inputs: list[Path], build: Callable[[], Mapping[str, tuple[str, ...]]]) -> dict[str, tuple[str, ...]]:
    """``build()``, or the copy of it cached under ``name`` for these ``inputs``."""
    from indexing.cache import cached_object

    import indexing.script_fold
    import indexing.terms

    code = [Path(__file__).with_name("__init__.py"), Path(indexing.terms.__file__), Path(indexing.script_fold.__file__)]
    # pickled as built: reading it is a fraction of a second where JSON and turning its lists
    # back into tuples took more than one
    return cached_object(name, inputs, code, lambda: {k: tuple(v) for k, v in build().items()})
