"""Topics in, submission results out: one system over every topic, with a progress bar per topic."""
from __future__ import annotations

import importlib
import sys
from typing import Callable, Iterable, Sequence

from bolt.pipeline.config import SystemConfig
from bolt.pipeline.systems import DistilledBullet, Distiller
from indexing.errors import ToolkitError


def load_translator(spec: str | None) -> Callable[[str, str], str] | None:
    """``"package.module:function"`` -> a callable ``(text, lang) -> English`` (None when unset).

    No translator ships with the toolkit (no model hub offline); plug one in with this hook.
    """
    if not spec:
        return None
    mod_name, _, func = spec.partition(":")
    try:
        fn = getattr(importlib.import_module(mod_name), func or "translate")
    except (ImportError, AttributeError) as exc:
        raise ToolkitError(f"cannot load translator {spec!r}: {exc}",
                           hint="give 'package.module:function', a function (text, lang) -> English text") from exc
    return fn


def bullet_text(b: DistilledBullet) -> str:
    """The extracted text, with the English gloss after it in brackets when one was made."""
    return f"{b.text} [{b.gloss}]" if b.gloss else b.text


def to_result(topic_id: str, bullets: Sequence[DistilledBullet]):
    """A ``bolt.submission.Result`` for one topic (bullets numbered from 1 in order)."""
    from bolt.formats.submission import Bullet, Result, Source

    out = []
    for pos, b in enumerate(bullets, 1):
        sources = tuple(Source(thread=t, offset=o) for t, o in b.sources)
        out.append(Bullet(position=pos, text=bullet_text(b), sources=sources))
    return Result(topic_id=topic_id, bullets=tuple(out))


def run_topics(topics: Iterable, distiller: Distiller, progress: bool = True) -> list:
    """Run the distiller over each topic (only ``topic_id`` and ``query`` are read)."""
    topics = list(topics)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(topics), unit="topic", desc=distiller.config.name, file=sys.stderr,
                   dynamic_ncols=True)
    results = []
    try:
        for t in topics:
            if bar is not None:
                bar.set_postfix_str(t.topic_id, refresh=False)
            results.append(to_result(t.topic_id, distiller.distill(t.query)))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return results


def make_distiller(index_dir: str, config: SystemConfig, searcher=None):
    """Open the index (and its thread store) and build the distiller for ``config``; an index folder
    without the vectors ``config`` reads is refused (:func:`bolt.vectors.needs.check_vectors`). With
    ``searcher`` given, threads without vectors are encoded in this process."""
    from bolt.vectors.needs import check_vectors
    from indexing.search import open_index
    from indexing.splits import use_store

    if searcher is None:  # an index folder: it must hold the vectors the system reads
        check_vectors(index_dir, config)
        searcher = open_index(index_dir)
        use_store(index_dir)  # the posts' cuts made with the vectors
    return Distiller(searcher, searcher.corpus, config, translator=load_translator(config.translator))
