"""An encoder whose passage vectors come from an index's table.

The stages call ``encode(texts)`` and ``encode_query(query)`` as on any encoder; a text the table
holds is read from it, and only what it lacks (a query, a text cut by other settings) is encoded
here, counted in ``encoded`` so a run can say how much it encoded itself.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from indexing.vectors.table import VectorTable


class StoredEncoder:
    """``encoder`` reading passages from ``table`` first (``table`` is what the sweep and dense stages score)."""

    def __init__(self, encoder, table: VectorTable) -> None:
        self.encoder = encoder
        self.table = table
        self.name = encoder.name
        self.model_id = encoder.model_id
        self.encoded = 0
        if hasattr(encoder, "for_queries"):  # it will encode single queries only
            encoder.for_queries()

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Normalised rows, one per text: the table's vector, else the encoder's."""
        at = self.table.find(texts)
        out = np.empty((len(texts), self.table.vectors.shape[1]), dtype=np.float32)
        hit = at >= 0
        if hit.any():
            out[hit] = self.table.vectors[at[hit]]
        if not hit.all():
            missing = [t for t, h in zip(texts, hit) if not h]
            out[~hit] = self.encoder.encode(missing)
            self.encoded += len(set(missing))
        return out

    def encode_query(self, query: str) -> np.ndarray:
        """The query's vector, encoded here (queries are never in the table)."""
        return self.encoder.encode_query(query)
