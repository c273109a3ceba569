"""How JSON documents travel from Python to Anserini's indexers: named pipes, or jnius batches.

Both transports build an index (a *shard*: the toolkit builds one per language) as Anserini's
``IndexCollection`` does (JsonCollection documents, ``DefaultLuceneDocumentGenerator``, the
shard's ``-language`` analyzer, ``-fields`` for JSON fields to index besides ``contents``), so
Anserini's searcher reads the result like any Anserini index. Each has the same four calls:
``open(shard, language)`` (start the shard's indexer with Anserini's analyzer for ``language``,
e.g. ``"zh"``; after ``finish``, reopen the shard to append to it), ``send(shard, docs)``,
``finish(shard)`` (no more documents: commit in the background) and ``close()`` (finish
everything, wait, raise the first error).

- :class:`PipeTransport` (the default where ``os.mkfifo`` exists): every shard is indexed by
  ``IndexCollection`` itself, on its own Java threads, reading JSON lines from one named pipe per
  thread that Python writes into. No Python object crosses into Java, the GIL is free while Java
  works, and the Java side is exactly Anserini's own indexer. ``IndexCollection`` always creates
  its index afresh, so a shard reopened after ``finish`` is appended to through
  :class:`BatchTransport`. Measured with the first design's 12 shards, on the 0.1-scale
  generated collection: 14.2 s and 25.2 CPU s against 15.1 s and 27.7 CPU s for
  :class:`BatchTransport`; full scale (488 MB): 112.6–114.3 s and 178–193 CPU s against 120.1 s
  and 214 CPU s. (A writer thread per pipe, so that one busy pipe never holds up the others, used
  more CPU for the same wall time: 112.1 s, 199 CPU s.)
- :class:`BatchTransport`: batches of documents go through a bounded queue to feeder threads,
  each handing one batch at a time, as one ``String[]``, to ``SimpleIndexer.addRawDocuments`` on
  a single Java thread (jnius releases the GIL during the call). Used where named pipes do not
  exist (Windows).
"""
from __future__ import annotations

import collections
import errno
import os
import queue
import select
import shutil
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from indexing import jvm
from indexing.errors import RuntimeUnavailable, ToolkitError

QUEUE = 3  # batches waiting per feeder thread (back-pressure on the reader)
PIPE_BYTES = 1 << 20  # asked-for pipe capacity, so Python can run ahead of Java by a batch or two
STALL_CHECK_S = 1.0  # how often a blocked write checks that its indexer is still alive
PENDING_BYTES = 8 << 20  # unwritten bytes a shard may hold before Python waits for its indexer


def default_transport(root: Path, memory_mb: int, threads: int, fields: tuple[str, ...] = ()):
    """Named pipes where the platform has them, else jnius batches."""
    if hasattr(os, "mkfifo"):
        return PipeTransport(root, memory_mb, threads, fields)
    return BatchTransport(root, memory_mb, threads, fields)


def _indexer_args(path: Path, language: str, memory_mb: int, fields: tuple[str, ...]) -> list[str]:
    """Anserini's indexer options; ``fields``: JSON fields besides ``contents`` to index (analysed
    like it: Anserini drops the others)."""
    return ["-index", str(path), "-language", language, "-memoryBuffer", str(memory_mb),
            *(["-fields", *fields] if fields else [])]


def _failed(root: Path, exc: BaseException) -> ToolkitError:
    return ToolkitError(f"Lucene failed while indexing under {root}: {_first_line(exc)}",
                        hint="run 'bolt doctor'; rebuild with --force")


def _first_line(exc: BaseException) -> str:
    """A Java exception's message without its stack trace."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# ----------------------------------------------------------------------------------- named pipes

class _PipeShard:
    """One shard: ``IndexCollection`` on ``streams`` threads, each reading one named pipe."""

    def __init__(self, path: Path, pipes: Path, language: str, memory_mb: int, streams: int,
                 fields: tuple[str, ...]) -> None:
        self.path = path
        self.pipes = pipes
        shutil.rmtree(pipes, ignore_errors=True)
        pipes.mkdir(parents=True)
        names = [pipes / f"part-{i}.jsonl" for i in range(streams)]
        for p in names:
            os.mkfifo(p)
        args = ["-collection", "JsonCollection", "-input", str(pipes), "-generator",
                "DefaultLuceneDocumentGenerator", "-threads", str(streams), "-quiet",
                *_indexer_args(path, language, memory_mb, fields)]
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(args,), name=f"lucene-{path.name}", daemon=True)
        self.thread.start()
        self.fds: list[int] = []
        try:
            for p in names:
                self.fds.append(self._open(p))
        except BaseException:
            self._close_pipes()
            raise
        self._pending = [collections.deque() for _ in self.fds]
        self._waiting = [0] * len(self.fds)

    def _run(self, args: list[str]) -> None:
        try:
            jvm.lucene().autoclass("io.anserini.index.IndexCollection").main(args)
        except BaseException as exc:  # reported by send/close in the producer's thread
            self.error = exc

    def _open(self, fifo: Path) -> int:
        """Open a pipe for writing once IndexCollection has opened it for reading."""
        while True:
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:
                if exc.errno != errno.ENXIO:  # ENXIO: no reader yet
                    raise
                if not self.thread.is_alive():
                    raise self._dead() from exc
                time.sleep(0.002)
        try:
            import fcntl

            fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), PIPE_BYTES)
        except (ImportError, OSError):  # a smaller pipe only means more waiting
            pass
        return fd

    def _dead(self) -> ToolkitError:
        reason = _first_line(self.error) if self.error is not None else "no reason given"
        return ToolkitError(f"the Lucene indexer of {self.path.name} stopped: {reason}",
                            hint="check that the output folder is writable and the disk not full; run 'bolt doctor'")

    def send(self, docs: list[str]) -> None:
        """Queue a batch on the pipe with the least waiting, then write what the pipes take.

        Writes never wait while the shard holds less than ``PENDING_BYTES`` unwritten: a shard
        whose indexer is busy (Lucene flushing a full buffer takes seconds) must not stop Python
        from feeding the other shards, whose indexer threads would then sit idle.
        """
        k = min(range(len(self.fds)), key=lambda i: self._waiting[i])
        self._pending[k].append(memoryview(("\n".join(docs) + "\n").encode("utf-8")))
        self._waiting[k] += len(self._pending[k][-1])
        self.drain()
        while sum(self._waiting) > PENDING_BYTES:
            self.drain(block=True)

    def drain(self, block: bool = False) -> None:
        """Write what the pipes take now; with ``block``, first wait (checking that the indexer
        lives) until one of them takes something."""
        if block:
            waiting = [fd for fd, w in zip(self.fds, self._waiting) if w]
            if waiting and not select.select([], waiting, [], STALL_CHECK_S)[1] and not self.thread.is_alive():
                raise self._dead()
        for k, fd in enumerate(self.fds):
            chunks = self._pending[k]
            while chunks:
                try:
                    n = os.write(fd, chunks[0])
                except BlockingIOError:
                    break
                except BrokenPipeError as exc:
                    raise self._dead() from exc
                self._waiting[k] -= n
                if n == len(chunks[0]):
                    chunks.popleft()
                else:
                    chunks[0] = chunks[0][n:]
                    break

    def finish(self) -> None:
        """End of input: IndexCollection reads to the end, commits and stops, on its own thread."""
        try:
            while any(self._waiting):
                self.drain(block=True)
        finally:
            self._close_pipes()

    def _close_pipes(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds = []

    def wait(self) -> None:
        self.thread.join()
        shutil.rmtree(self.pipes, ignore_errors=True)
        if self.error is not None:
            raise _failed(self.path.parent, self.error)


class PipeTransport:
    """Shards indexed by Anserini's ``IndexCollection`` reading JSON lines from named pipes."""

    def __init__(self, root: Path, memory_mb: int = 256, threads: int = 2, fields: tuple[str, ...] = ()) -> None:
        self.root = root
        self.pipes = root.parent / ".pipes"
        self.memory_mb = memory_mb
        self.threads = max(1, threads)
        self.fields = fields
        self._open: dict[str, _PipeShard] = {}
        self._finished: dict[str, _PipeShard] = {}
        self._appender: BatchTransport | None = None
        self._appended: set[str] = set()
        self._started: set[str] = set()

    def open(self, shard: str, language: str) -> None:
        previous = self._finished.pop(shard, None)
        if previous is not None:
            previous.wait()  # the shard's write lock is free once its indexer has stopped
        if shard in self._started:
            # IndexCollection always creates its index afresh, so a shard that comes back
            # (interleaved languages) is appended to by SimpleIndexer instead
            if self._appender is None:
                self._appender = BatchTransport(self.root, self.memory_mb, self.threads, self.fields)
            self._appender.open(shard, language, append=True)
            self._appended.add(shard)
            return
        self._started.add(shard)
        path = self.root / shard
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._open[shard] = _PipeShard(path, self.pipes / shard, language, self.memory_mb,
                                           self.threads, self.fields)
        except ToolkitError:
            raise
        except Exception as exc:
            raise RuntimeUnavailable(f"cannot start a Lucene indexer for {path}: {exc}",
                                     hint="run 'bolt doctor' for a diagnosis") from exc

    def send(self, shard: str, docs: list[str]) -> None:
        if shard in self._appended:
            self._appender.send(shard, docs)
            return
        self._open[shard].send(docs)
        for other in self._open.values():  # what other shards' pipes can take now
            other.drain()

    def finish(self, shard: str) -> None:
        if shard in self._appended:
            self._appender.finish(shard)
            self._appended.discard(shard)
            return
        s = self._open.pop(shard)
        s.finish()
        self._finished[shard] = s

    def close(self) -> None:
        for shard in list(self._open):
            self.finish(shard)
        errors = []
        if self._appender is not None:
            try:
                self._appender.close()
            except ToolkitError as exc:
                errors.append(exc)
        for s in self._finished.values():
            try:
                s.wait()
            except ToolkitError as exc:
                errors.append(exc)
        self._finished.clear()
        shutil.rmtree(self.pipes, ignore_errors=True)
        if errors:
            raise errors[0]


# ----------------------------------------------------------------------------------- jnius batches

class BatchTransport:
    """Shards indexed by ``SimpleIndexer``, fed batches of documents by ``threads`` feeder threads.

    ``SimpleIndexer`` with two Java threads per call waits at the end of every batch for its
    slower thread; two feeders with one Java thread each keep both cores busy (over the same
    documents: 19.6 against 22.1 CPU s).
    """

    def __init__(self, root: Path, memory_mb: int = 256, threads: int = 2, fields: tuple[str, ...] = ()) -> None:
        self.root = root
        self.memory_mb = memory_mb
        self.threads = max(1, threads)
        self.fields = fields
        self._writers: dict[str, object] = {}
        self._closing: dict[str, Future] = {}  # shard -> its background close
        self._in_flight: dict[str, list[Future]] = {}  # shard -> its batches handed to the feeders
        self._queue: queue.Queue = queue.Queue(maxsize=QUEUE * self.threads)
        self._error: BaseException | None = None
        self._feeders: list[threading.Thread] = []
        self._closer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lucene-close")

    def open(self, shard: str, language: str, append: bool = False) -> None:
        from pyserini.index.lucene import LuceneIndexer

        path = self.root / shard
        path.mkdir(parents=True, exist_ok=True)
        previous = self._closing.pop(shard, None)
        if previous is not None:
            previous.result()  # the shard's lock is released once its close is done
        try:
            w = LuceneIndexer(str(path), args=_indexer_args(path, language, self.memory_mb, self.fields), threads=1,
                              append=append or previous is not None)
        except Exception as exc:
            raise RuntimeUnavailable(f"cannot create a Lucene index at {path}: {exc}",
                                     hint="run 'bolt doctor' for a diagnosis") from exc
        _limit_ram_buffer(w, self.memory_mb)
        self._writers[shard] = w
        self._in_flight[shard] = []

    def send(self, shard: str, docs: list[str]) -> None:
        self._raise_feeder_error()
        if not self._feeders:
            self._feeders = [threading.Thread(target=self._feed, name=f"lucene-feeder-{i}", daemon=True)
                             for i in range(self.threads)]
            for t in self._feeders:
                t.start()
        done: Future = Future()
        in_flight = self._in_flight[shard]
        in_flight[:] = [f for f in in_flight if not f.done()]
        in_flight.append(done)
        self._queue.put((self._writers[shard], docs, done))

    def _feed(self) -> None:
        """A feeder thread: hand queued batches to Java until the ``None`` sentinel."""
        while True:
            item = self._queue.get()
            if item is None:
                return
            writer, docs, done = item
            if self._error is None:  # after a failure, drain so that the producer never blocks
                try:
                    writer.add_batch_raw(docs)
                except BaseException as exc:  # re-raised in the producer's thread
                    self._error = exc
            done.set_result(None)

    def _raise_feeder_error(self) -> None:
        if self._error is not None:
            raise _failed(self.root, self._error) from self._error

    def finish(self, shard: str) -> None:
        # registered now (not by a feeder) so that a reopening of the shard waits for it
        self._closing[shard] = future = Future()
        self._closer.submit(_close_after, self._writers.pop(shard), self._in_flight.pop(shard), future)

    def close(self) -> None:
        try:
            for _ in self._feeders:
                self._queue.put(None)
            for t in self._feeders:
                t.join()
            self._feeders = []
            writers = list(self._writers.values())
            self._writers.clear()
            if writers:
                with ThreadPoolExecutor(max_workers=min(len(writers), 2 * self.threads)) as pool:
                    list(pool.map(lambda w: w.close(), writers))
        finally:
            self._closer.shutdown(wait=True)
            closing, self._closing = list(self._closing.values()), {}
        for future in closing:
            future.result()
        self._raise_feeder_error()


def _close_after(writer, in_flight: list[Future], future: Future) -> None:
    """Commit and close a shard once the feeders have indexed its last batch."""
    try:
        for f in in_flight:
            f.result()
        writer.close()
        future.set_result(None)
    except BaseException as exc:
        future.set_exception(exc)


def _limit_ram_buffer(indexer, memory_mb: int) -> None:
    """Give the shard's ``IndexWriter`` a RAM buffer of ``memory_mb``.

    ``SimpleIndexer`` ignores ``-memoryBuffer`` and buffers up to 2 GB, so a language's whole shard
    sat in memory and was flushed, on one thread, only at the end. Its writer is private, so it is
    reached by reflection; should that fail (another Anserini), the build goes on with 2 GB.
    """
    try:
        L = jvm.lucene()
        utils = L.autoclass("org.apache.commons.lang3.reflect.FieldUtils")
        writer = L.cast("org.apache.lucene.index.IndexWriter", utils.readField(indexer.object, "writer", True))
        writer.getConfig().setRAMBufferSizeMB(float(memory_mb))
    except Exception:  # an optimisation only
        pass
