"""Approximate nearest sentences of a large language (Faiss IVF, 8-bit scalar quantised).

Scoring every sentence of a language against each query costs memory and time in proportion to
the collection: fine for tens of thousands of sentences, not for BOLT's millions. Past
:data:`EXACT_MAX_ROWS` sentences a language gets an inverted-file index (``ann-<lang>.faiss`` in
the encoder's table folder) whose ids are the table's rows: a query asks it for the ``k`` nearest
sentences, and only their threads are then scored exactly. The index is memory-mapped at run time.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from indexing.errors import RuntimeUnavailable

EXACT_MAX_ROWS = 200_000
"""A language with more sentence rows than this gets an approximate index (``bolt index --ann-min-rows``)."""
NPROBE = 32
"""Inverted lists read per query (of about 4 x sqrt(rows))."""
HITS = 2000
"""Nearest sentences asked for per query: their threads are the ones scored exactly."""


def _faiss():
    try:
        import faiss
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise RuntimeUnavailable("approximate search needs faiss", hint="pip install faiss-cpu") from exc
    return faiss


def ann_path(table_dir: Path, lang: str) -> Path:
    return Path(table_dir) / f"ann-{lang}.faiss"


def build(table_dir: Path, lang: str, vectors: np.ndarray, at: np.ndarray, rows: np.ndarray) -> dict:
    """Build and write the index of the rows ``rows``, row ``rows[i]`` having vector ``vectors[at[i]]``
    (``vectors``: the table's memory-mapped distinct vectors, read in blocks, never copied whole);
    returns what the manifest keeps."""
    faiss = _faiss()
    n, dim = len(at), vectors.shape[1]
    nlist = max(1, min(int(4 * math.sqrt(n)), n // 39))
    quantizer = faiss.IndexFlatIP(dim)
    index = faiss.IndexIVFScalarQuantizer(quantizer, dim, nlist, faiss.ScalarQuantizer.QT_8bit,
                                          faiss.METRIC_INNER_PRODUCT)
    sample = at if n <= 100_000 else at[np.random.default_rng(0).choice(n, 100_000, replace=False)]
    index.train(np.ascontiguousarray(vectors[sample], dtype=np.float32))
    for start in range(0, n, 65536):
        block = np.ascontiguousarray(vectors[at[start:start + 65536]], dtype=np.float32)
        index.add_with_ids(block, rows[start:start + 65536].astype(np.int64))
    path = ann_path(table_dir, lang)
    tmp = path.with_suffix(".tmp")
    faiss.write_index(index, str(tmp))
    tmp.replace(path)
    return {"kind": "IVF-SQ8", "nlist": nlist, "rows": int(n), "file": path.name}


class NearestSentences:
    """A language's approximate index, memory-mapped."""

    def __init__(self, path: Path, nprobe: int = NPROBE) -> None:
        faiss = _faiss()
        faiss.omp_set_num_threads(1)  # one query at a time: no OpenMP pool beside torch's in a run
        self.index = faiss.read_index(str(path), faiss.IO_FLAG_MMAP | faiss.IO_FLAG_READ_ONLY)
        self.index.nprobe = nprobe

    def search(self, q: np.ndarray, k: int = HITS) -> np.ndarray:
        """The table rows of the (about) ``k`` sentences nearest ``q``."""
        _, ids = self.index.search(np.ascontiguousarray(q[None, :], dtype=np.float32), k)
        return ids[0][ids[0] >= 0]
