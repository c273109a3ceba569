"""The two reference systems ``main`` must beat: ``lead`` and ``bm25-sentences``.

``lead``: the first sentence of each of the top ``lead_posts`` retrieved posts (what a reader
skimming the search results would see). ``bm25-sentences``: the top ``max_bullets`` sentences by
Okapi BM25, with no de-duplication beyond dropping a repeat of the exact same text (which the
submission format refuses). Both use the same retrieval as ``main`` (:class:`Distiller`).
"""
from __future__ import annotations

from bolt.pipeline.scoring import bm25_scores
from bolt.pipeline.systems import SYSTEM_CLASSES, LANG_ORDER, DistilledBullet, Distiller, sentence_key


class LeadSystem:
    """``lead``: first sentences of the best-retrieved posts."""

    def __init__(self, stages: Distiller) -> None:
        self.d = stages

    def distill(self, query: str) -> list[DistilledBullet]:
        d, cfg = self.d, self.d.config
        posts = d.retrieve(d.plan(query))
        posts.sort(key=lambda p: (-p.norm, p.rank, LANG_ORDER.index(p.lang) if p.lang in LANG_ORDER else 9,
                                  p.thread, p.post))
        bullets: list[DistilledBullet] = []
        with d.stage("select"):
            for p in posts:
                if len(bullets) >= cfg.lead_posts:
                    break
                sents = d.sentences([p], filtered=False)
                if sents and sents[0].text not in {b.text for b in bullets}:
                    s = sents[0]
                    bullets.append(DistilledBullet(s.text, ((s.thread, s.offset),), round(p.norm, 6),
                                                   s.lang, d.gloss(s)))
        return bullets


class Bm25SentencesSystem:
    """``bm25-sentences``: the best sentences by Okapi BM25 against the (translated) query."""

    def __init__(self, stages: Distiller) -> None:
        self.d = stages

    def distill(self, query: str) -> list[DistilledBullet]:
        d, cfg = self.d, self.d.config
        plan = d.plan(query)
        sents = d.sentences(d.retrieve(plan))
        with d.stage("score"):
            scores = bm25_scores(plan, sents)
        with d.stage("select"):
            order = sorted((i for i in range(len(sents)) if scores[i] > 0),
                           key=lambda i: (-scores[i], sentence_key(sents[i])))
            out: list[DistilledBullet] = []
            seen: set[str] = set()
            for i in order:
                if len(out) >= cfg.max_bullets:
                    break
                if sents[i].text in seen:  # the format forbids two bullets with one text
                    continue
                seen.add(sents[i].text)
                out.append(DistilledBullet(sents[i].text, ((sents[i].thread, sents[i].offset),),
                                           round(scores[i], 6), sents[i].lang, d.gloss(sents[i])))
            return out


SYSTEM_CLASSES["lead"] = LeadSystem
SYSTEM_CLASSES["bm25-sentences"] = Bm25SentencesSystem
