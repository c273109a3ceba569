"""Semantic matching: every distinct text embedded once, in large batches, then compared by dot product.

The embedder (``indexing.models.embedding``) returns L2-normalised vectors, so a dot product is the cosine
similarity. The assessor first collects every text it will compare (bullet sentences, facet
descriptions, nugget texts, cited passages), embeds the distinct ones in length-sorted batches
(fewer padding tokens, one tqdm bar), and only then decides.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np


class EmbeddingTable:
    """A text -> row table over one matrix of normalised embeddings."""

    def __init__(self) -> None:
        self._rows: dict[str, int] = {}
        self._pending: dict[str, None] = {}
        self.matrix: "np.ndarray | None" = None

    def add(self, texts: Iterable[str]) -> None:
        """Queue texts for embedding (duplicates and already embedded texts cost nothing)."""
        for t in texts:
            if t not in self._rows:
                self._pending[t] = None

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, text: object) -> bool:
        """True once ``text`` has been embedded."""
        return text in self._rows

    def embed(self, embedder, batch_size: int = 1024, progress: bool = False) -> int:
        """Embed the queued texts in length-sorted chunks; returns how many were embedded."""
        import numpy as np

        todo = sorted(self._pending, key=len)
        self._pending.clear()
        if not todo:
            return 0
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(todo), desc="embedding", unit="text", leave=False)
        chunks = []
        for i in range(0, len(todo), batch_size):
            chunk = todo[i:i + batch_size]
            chunks.append(np.asarray(embedder.encode(chunk), dtype="float32"))
            if bar is not None:
                bar.update(len(chunk))
        if bar is not None:
            bar.close()
        base = len(self._rows)
        new = np.concatenate(chunks, axis=0)
        self.matrix = new if self.matrix is None else np.concatenate([self.matrix, new], axis=0)
        for k, t in enumerate(todo):
            self._rows[t] = base + k
        return len(todo)

    def rows(self, texts: Sequence[str]) -> list[int]:
        return [self._rows[t] for t in texts]

    def similarities(self, left: Sequence[str], right: Sequence[str]) -> "np.ndarray":
        """Cosine matrix ``len(left) x len(right)`` of embedded texts."""
        import numpy as np

        if not left or not right or self.matrix is None:
            return np.zeros((len(left), len(right)), dtype="float32")
        a = self.matrix[self.rows(left)]
        b = self.matrix[self.rows(right)]
        return a @ b.T

    def cosine(self, a: str, b: str) -> float:
        m = self.matrix
        return float(m[self._rows[a]] @ m[self._rows[b]])
