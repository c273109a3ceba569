"""Stage 7, bullets: one bullet per selected cluster, citing every post in it.

Reads the thread store (an Arabic head's following clauses) and the translator (glosses).
Returns :class:`bolt.pipeline.systems.DistilledBullet` records.
"""
from __future__ import annotations

from dataclasses import replace

from bolt.pipeline.candidates import Sentence, clause_window
from bolt.pipeline.main.records import Selection
from bolt.pipeline.redundancy import Cluster
from bolt.pipeline.systems import DistilledBullet, Distiller, sentence_key


def bullets(d: Distiller, sel: Selection) -> list[DistilledBullet]:
    """The selection's bullets in its order; an Arabic head never joins a clause that heads another
    bullet of its post."""
    heads: dict[tuple[str, str], frozenset[int]] = {}
    for c in sel.keep:
        h = sel.sents[c.head]
        heads[(h.thread, h.post)] = heads.get((h.thread, h.post), frozenset()) | {h.position}
    with d.stage("select"):
        return [bullet(d, c, sel.sents, sel.scores, heads) for c in sel.keep]


def bullet(d: Distiller, c: Cluster, sents: tuple[Sentence, ...], scores: tuple[float, ...],
           heads: dict[tuple[str, str], frozenset[int]] | None = None) -> DistilledBullet:
    """One bullet per cluster: the head's text (an Arabic head joined with the clauses after it,
    ``arz_window``, never into another bullet's clause: ``heads`` per post), citing the head
    first, then one sentence of every other post in the cluster (at most ``max_sources``)."""
    cfg = d.config
    head = sents[c.head]
    text = head.text
    if head.lang == "arz" and cfg.arz_window > 0:
        text = clause_window(d.thread(head.thread), head, cfg.arz_window, cfg.max_words,
                             cfg.clause_limits(), (heads or {}).get((head.thread, head.post), frozenset()))
    sources = [(head.thread, head.offset)]
    seen_posts = {(head.thread, head.post)}
    for m in sorted(c.members[1:], key=lambda i: sentence_key(sents[i])):
        s = sents[m]
        if (s.thread, s.post) in seen_posts or len(sources) >= cfg.max_sources:
            continue
        seen_posts.add((s.thread, s.post))
        sources.append((s.thread, s.offset))
    gloss = d.gloss(head if text == head.text else replace(head, text=text))  # the bullet's own words
    return DistilledBullet(text, tuple(sources), round(scores[c.head], 6), head.lang, gloss)
