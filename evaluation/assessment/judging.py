"""A pending bullet's matches and source checks turned into its judgment (SPEC §5).

Facets come from anchoring and text matching, support from each source check, and the
responsive part from which sentences matched (``docs/assessor.md`` gives the rules).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from evaluation.assessment.config import RULES, AssessorConfig
from evaluation.assessment.records import Pending, SourceCheck, TopicPrep
from evaluation.judgments import JudgedSource, Judgment
from evaluation.matching import lexical
from evaluation.matching.semantic import EmbeddingTable
from evaluation.matching.text import count_chars, count_words

if TYPE_CHECKING:  # pragma: no cover
    from evaluation.matching.statement import StatementModel


class Judge:
    """Writes judgments under one configuration; the table holds every embedding already made."""

    def __init__(self, config: AssessorConfig, statement: "StatementModel | None", table: EmbeddingTable) -> None:
        self.config = config
        self.statement = statement
        self.table = table

    def judge(self, p: Pending, prep: TopicPrep) -> Judgment:
        """The judgment of a distinct bullet (run and position are filled in per occurrence)."""
        cfg = self.config
        notes: list[str] = []
        evidence, facets = self._anchor_evidence(p)
        text = _text_matches(p, prep)
        evidence.extend(text.evidence)
        facets |= text.facets
        if p.lang != "eng" and cfg.crosslingual:
            for m in prep.xmatches.get(p.text, ()):
                facets.add(m["facet"])
                evidence.append(dict(m, sentence=None))
            notes.append("cross-language bullet: facets from anchoring and the cross-language model")
        elif not p.textual:
            notes.append("cross-language bullet: facets from anchoring only")
        judged = [self.support(chk, p, prep) for chk in p.sources]
        words, chars = count_words(p.text), count_chars(p.text)
        resp_words, resp_chars = _responsive(p, words, chars, facets, text, notes)
        order = prep.order
        evidence.sort(key=lambda e: (order.get(e["facet"], 1 << 30), RULES.index(e["rule"]), -float(e["score"])))
        extra: dict[str, Any] = {"chars": chars, "responsive_chars": resp_chars, "evidence": evidence}
        if p.lang != "eng" and cfg.crosslingual and p.text in prep.probabilities:
            probs = prep.probabilities[p.text]
            extra["probability"] = {f: probs[f] for f in sorted(probs, key=prep.facet_key)}
        elif self.statement is not None and p.units:
            probs: dict[str, float] = {}
            for u in p.units:
                for f, pr in prep.probabilities.get(u, {}).items():
                    probs[f] = max(pr, probs.get(f, 0.0))
            extra["probability"] = {f: probs[f] for f in sorted(probs, key=prep.facet_key)}
        if notes:
            extra["notes"] = "; ".join(notes)
        return Judgment(p.topic, "", 0, cfg.name, tuple(sorted(facets, key=prep.facet_key)),
                        words, resp_words, tuple(judged), extra)

    def _anchor_evidence(self, p: Pending) -> tuple[list[dict], set[str]]:
        """1. Anchoring: each citation inside (or just before) a nugget's span gives that facet."""
        evidence, facets = [], set()
        for k, chk in enumerate(p.sources, start=1):
            for a in chk.anchors:
                facets.add(a.span.facet)
                evidence.append({"facet": a.span.facet, "nugget": a.span.nugget, "rule": "anchor",
                                 "score": a.distance, "threshold": self.config.anchor_words, "source": k})
        return evidence, facets

    def support(self, chk: SourceCheck, p: Pending, prep: TopicPrep) -> JudgedSource:
        """3. Support: a citation supports the bullet when anchored, or when the cited text matches it
        lexically or semantically (English threads), or holds it word for word."""
        cfg = self.config
        ev: dict[str, Any] = {}
        supports = False
        sfacets: tuple[str, ...] | None = None
        text_rule = None
        if chk.textual and chk.lexical is not None:
            ev["lexical"] = round(chk.lexical.score, 4)
            if lexical.lexical_match(chk.lexical, cfg.support_lexical_threshold, cfg.lexical_min_terms):
                text_rule = ("lexical", chk.lexical.score, cfg.support_lexical_threshold)
            elif cfg.semantic and chk.window and chk.window in self.table and p.text in self.table:
                s = self.table.cosine(p.text, chk.window)
                ev["semantic"] = round(s, 4)
                if s >= cfg.support_semantic_threshold:
                    text_rule = ("semantic", s, cfg.support_semantic_threshold)
        if text_rule is None and chk.verbatim:
            text_rule = ("verbatim", 1.0, 1.0)
        if text_rule is not None:
            supports = True
            ev.update(rule=text_rule[0], score=round(text_rule[1], 4), threshold=text_rule[2])
        if chk.anchors:
            supports = True
            if text_rule is None:
                best = min(chk.anchors, key=lambda a: a.distance)
                ev.update(rule="anchor", score=best.distance, threshold=cfg.anchor_words,
                          facet=best.span.facet, nugget=best.span.nugget)
                sfacets = tuple(sorted({a.span.facet for a in chk.anchors}, key=prep.facet_key))
        if not supports:
            ev["rule"] = None
        if chk.note:
            ev["note"] = chk.note
        return JudgedSource(chk.post, chk.offset, chk.unit, supports, sfacets, {"evidence": ev})


class TextMatches(NamedTuple):
    """What text matching found for one bullet: the best match per (facet, rule), and which sentences matched."""

    evidence: list[dict]
    facets: set[str]  # matched by a sentence or by the whole bullet
    sentence_facets: set[str]  # matched by some sentence on its own
    sentences: set[int]  # 1-based numbers of the sentences that match some facet


def _text_matches(p: Pending, prep: TopicPrep) -> TextMatches:
    """2. Text matching, per sentence and for the whole bullet (the last unit when it has several)."""
    found = TextMatches([], set(), set(), set())
    best: dict[tuple[str, str], dict] = {}
    for idx, u in enumerate(p.units, start=1):
        whole = idx > p.n_sentences
        for m in prep.matches.get(u, ()):
            found.facets.add(m["facet"])
            if not whole:
                found.sentence_facets.add(m["facet"])
                found.sentences.add(idx)
            key = (m["facet"], m["rule"])
            if key not in best or m["score"] > best[key]["score"]:
                best[key] = dict(m, sentence=None if whole else idx)
    found.evidence.extend(best.values())
    return found


def _responsive(p: Pending, words: int, chars: int, facets: set[str], text: TextMatches,
                notes: list[str]) -> tuple[int, int]:
    """4. The responsive words and characters: sentences that match no facet are struck when every
    matched facet is matched by some sentence on its own; a bullet with no facet has none."""
    if not facets:
        return 0, 0
    if p.n_sentences > 1 and facets <= text.sentence_facets and len(text.sentences) < p.n_sentences:
        kept = [p.units[i - 1] for i in sorted(text.sentences)]
        struck = [i for i in range(1, p.n_sentences + 1) if i not in text.sentences]
        notes.append(f"struck sentence{'s' if len(struck) > 1 else ''} {', '.join(map(str, struck))}: "
                     "no facet matched")
        return (min(words, sum(count_words(s) for s in kept)), min(chars, sum(count_chars(s) for s in kept)))
    return words, chars
