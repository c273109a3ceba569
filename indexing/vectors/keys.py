"""The one key of a text in a vector table: 8 bytes of BLAKE2b of its UTF-8, as an unsigned 64-bit int.

A run finds a sentence's stored vector by its text, whatever thread or setting produced it, so
the table is searched by this key (sorted, binary search) rather than by a position that a
different sentence split would shift. Two different texts share a key with odds of about 1 in
10^19 per pair; a table of 10 million texts has about a 1 in 400,000 chance of holding one such pair.
"""
from __future__ import annotations

import hashlib
from typing import Sequence

import numpy as np


def text_key(text: str) -> int:
    """The key of ``text``."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def text_keys(texts: Sequence[str]) -> np.ndarray:
    """The keys of ``texts`` as a uint64 array, in order."""
    return np.fromiter((text_key(t) for t in texts), dtype=np.uint64, count=len(texts))
