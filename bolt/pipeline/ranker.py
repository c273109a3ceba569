"""A learned sentence ranker for ``main``: which candidate sentence states a facet.

Hand-set priors multiply a handful of scores; a logistic regression over the same evidence (and a
few forum cues the priors do not read) learns how much each one is worth from careful judgments
of bullets on real forum threads (``scripts/train_ranker.py``; docs/system.md). The
model is a small JSON file of standardisation constants and coefficients, read with numpy only,
so running it needs neither scikit-learn nor pickles. Its probability replaces the English score,
and its *stopping rule* (``stop``: keep sentences with probability >= stop, ``stop_rel``: and >=
stop_rel x the best) writes fewer bullets when the evidence thins.

Forum cues (general forum English, never one board's phrases):

- *plans and wishes* of the writer ("I'd like to move to…", "if it were me I would…", "I'm going
  to…"): the writer's intentions, not an answer;
- *addressed to a member*: the sentence names another member of the thread by user name
  ("Sandy, if you go to page 19…"): a reply to a person, not to the question;
- *meta-argument*: talk about the discussion itself ("you can defend your opinion", "read my
  post", "off topic").
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from bolt.pipeline.informative import FIRST_PERSON_START, NUMBER, URL, WORD
from indexing.models.logistic import load_model_json, shipped_model

DEFAULT_MODEL = Path(shipped_model(__package__, "ranker_model_rerank.json"))

# The writer's own plans and wishes: first person + an intention verb, or "if it were me".
PLAN_WISH = re.compile(
    r"\b(?:i'?d\s+(?:like|love|want|rather|prefer|go|say|probably|do|be)|i\s+would(?:\s+\w+)?|i'?ll|i\s+will|"
    r"i\s+(?:want|wanna|hope|plan|intend|wish)|i'?m\s+(?:going|gonna|planning|hoping|thinking\s+of|thinking\s+about)|"
    r"i\s+am\s+(?:going|planning|hoping|thinking)|we'?(?:d|ll)\s+(?:like|love|go)|we\s+(?:want|plan|hope)|"
    r"if\s+(?:it\s+were|it\s+was|i\s+were|i\s+was)\s+(?:me|you)|my\s+(?:plan|dream|goal|wish))\b",
    re.IGNORECASE)
# Talk about the discussion itself rather than its subject.
META = re.compile(
    r"\b(?:(?:your|my|his|her|their)\s+(?:opinion|point|argument|post|posts|comment|comments|reply)|"
    r"you\s+(?:said|say|says|claim|claimed|keep\s+saying)|off[\s-]topic|this\s+(?:thread|debate|argument|discussion)|"
    r"(?:agree|disagree)\s+with\s+(?:you|him|her|that)|you'?re\s+(?:wrong|right)|you\s+are\s+(?:wrong|right)|"
    r"defend|troll|reading\s+comprehension|read\s+(?:my|the|your)\s+(?:post|thread|reply))\b",
    re.IGNORECASE)
SECOND_PERSON = re.compile(r"\b(?:you|your|you'?re|you'?ll|you'?d)\b", re.IGNORECASE)

FEATURES = (
    "lexical", "semantic", "embedded", "bm25", "focus", "focus_top", "retrieval", "info", "position_w", "role_w",
    "score", "score_rel", "rank_log", "words_log", "sent_pos_log", "opening", "first_person", "plan_wish",
    "addressed", "meta", "second_person", "number", "link", "exclaim",
)


def _words(text: str) -> list[str]:
    return WORD.findall(text)


def addressed_to_member(text: str, members: frozenset[str]) -> bool:
    """Whether the sentence names a member of the thread (lower-cased user names, at least 3
    characters): an ``@name`` anywhere, or the name as a word in the sentence's first five words
    or right before a comma ("Sandy, if you go…", "…, Sandy.")."""
    if not members:
        return False
    low = text.lower()
    for m in re.finditer(r"@([\w.\-]{3,})", low):
        if m.group(1) in members:
            return True
    words = [w.lower() for w in _words(text)]
    if any(w in members for w in words[:5]):
        return True
    return any(m.group(1) in members for m in re.finditer(r"([\w.\-]{3,})\s*,", low))


def forum_cues(text: str, members: frozenset[str] = frozenset()) -> dict[str, float]:
    """The forum cues of one English sentence (1.0 or 0.0 each); see the module docstring."""
    return {
        "first_person": float(bool(FIRST_PERSON_START.match(text))),
        "plan_wish": float(bool(PLAN_WISH.search(text))),
        "addressed": float(addressed_to_member(text, members)),
        "meta": float(bool(META.search(text))),
        "second_person": float(bool(SECOND_PERSON.search(text))),
        "number": float(bool(NUMBER.search(text))),
        "link": float(bool(URL.search(text))),
        "exclaim": float("!" in text),
    }


@dataclass(frozen=True)
class SentenceEvidence:
    """What ``main`` knows about one candidate sentence when it scores it."""

    lexical: float
    semantic: float  # embedding cosine, or the coverage that stands in for it
    embedded: bool
    bm25: float  # Okapi BM25 over the candidates, divided by the best of the language
    focus: float  # thread relevance / the best thread's of the language
    retrieval: float
    info: float
    position_w: float
    role_w: float
    score: float  # main's own score
    words: int
    sent_pos: int
    opening: bool


def feature_rows(evidence: Sequence[SentenceEvidence], texts: Sequence[str],
                 members: Sequence[frozenset[str]]) -> list[list[float]]:
    """One row of :data:`FEATURES` per sentence; ``score_rel`` and ``rank_log`` are relative to
    the sentences given (one topic's candidates of one language)."""
    best = max((e.score for e in evidence), default=0.0)
    order = sorted(range(len(evidence)), key=lambda i: -evidence[i].score)
    rank = {i: r for r, i in enumerate(order)}
    rows = []
    for i, (e, text, mem) in enumerate(zip(evidence, texts, members)):
        cues = forum_cues(text, mem)
        row = {
            "lexical": e.lexical, "semantic": e.semantic, "embedded": float(e.embedded), "bm25": e.bm25,
            "focus": e.focus, "focus_top": float(e.focus >= 1.0), "retrieval": e.retrieval, "info": e.info,
            "position_w": e.position_w, "role_w": e.role_w, "score": e.score,
            "score_rel": e.score / best if best > 0 else 0.0, "rank_log": math.log1p(rank[i]),
            "words_log": math.log(max(1, e.words)), "sent_pos_log": math.log1p(e.sent_pos),
            "opening": float(e.opening), **cues,
        }
        rows.append([row[f] for f in FEATURES])
    return rows


@dataclass(frozen=True)
class RankerModel:
    """Logistic regression over standardised :data:`FEATURES`, plus the stopping rule."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    stop: float = 0.0
    stop_rel: float = 0.0
    meta: dict | None = None
    #: None: the probability replaces main's English score; a number: main's score is multiplied by
    #: (probability / the topic's best) ** alpha and main's own cuts stay (the shipped 'rerank')
    alpha: float | None = None

    def probabilities(self, rows: Sequence[Sequence[float]]) -> list[float]:
        out = []
        for r in rows:
            z = self.intercept + sum(c * (x - m) / s for c, x, m, s in zip(self.coef, r, self.mean, self.scale))
            out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z)))))
        return out

    def cut(self, probs: Sequence[float], stop: float | None = None, stop_rel: float | None = None) -> float:
        """The stopping rule's cut for one topic's probabilities: >= ``stop`` and >= ``stop_rel`` x the
        best (the model's unless given), at most the best, so at least one sentence passes."""
        best = max(probs, default=0.0)
        stop = self.stop if stop is None else stop
        ratio = self.stop_rel if stop_rel is None else stop_rel
        return max(1e-9, min(best, max(stop, ratio * best)))

    def to_json(self) -> str:
        return json.dumps({"features": list(self.features), "mean": list(self.mean), "scale": list(self.scale),
                           "coef": list(self.coef), "intercept": self.intercept, "stop": self.stop,
                           "stop_rel": self.stop_rel, "meta": self.meta or {},
                           **({} if self.alpha is None else {"alpha": self.alpha})}, indent=1) + "\n"


def blend(scores: Sequence[float], probs: Sequence[float], alpha: float, cut: float = 0.0,
          best: float | None = None) -> list[float]:
    """Reranking: each score times (probability / the best probability) ** ``alpha``, and
    0 for a sentence whose probability is below ``cut`` (the stopping rule; 0: none). ``alpha`` 0
    and ``cut`` 0 give the scores back; the sentence of the best probability keeps its score.
    ``best``: the topic's best probability when ``probs`` are only some of its sentences."""
    best = max(probs, default=0.0) if best is None else best
    if best <= 0:
        return list(scores)
    return [0.0 if p < cut else s * (p / best) ** alpha for s, p in zip(scores, probs)]


def reorder(top: float, low: float, probs: Sequence[float]) -> list[float]:
    """Count-keeping reranking (``ranker_reorder``): the sentences that passed main's cuts (best score ``top``,
    the strictest cut ``low``) get new scores from ``low`` (probability 0) up to ``top`` (the best
    probability among them), in the order of their probabilities, so they all still pass, the best
    score and so every cut stay, and the bullets main would write are the same many."""
    best = max(probs, default=0.0)
    if best <= 0:
        return [top] * len(probs)
    return [low + (top - low) * p / best for p in probs]


def model_path(spec: str) -> Path:
    """``"rerank"`` (the model shipped in the package, ``ranker_model_rerank.json``) or a path to a
    model JSON written by ``scripts/train_ranker.py``."""
    return DEFAULT_MODEL if spec == "rerank" else Path(spec)


def load_model(spec: str) -> RankerModel:
    """The model :func:`model_path` names."""
    return _load(str(model_path(spec)))


@lru_cache(maxsize=8)
def _load(path: str) -> RankerModel:
    """Read once per path: ``main`` asks for the model on every topic."""
    return load_model_json(path, _parse, what="ranker model",
                           hint="give main(ranker=...) a model JSON written by scripts/train_ranker.py, "
                                "or 'rerank'")


def _parse(d: Mapping[str, Any]) -> RankerModel:
    """The :class:`RankerModel` in a model file's JSON; a model trained on other features than this
    code computes would score the wrong columns, so it is refused with the fix."""
    if tuple(d.get("features", ())) != FEATURES:
        raise ValueError(f"the ranker model's features differ from this code's ({', '.join(FEATURES)}); "
                         "train it again with scripts/train_ranker.py")
    return RankerModel(tuple(d["features"]), tuple(d["mean"]), tuple(d["scale"]), tuple(d["coef"]),
                       float(d["intercept"]), float(d.get("stop", 0.0)), float(d.get("stop_rel", 0.0)),
                       d.get("meta"), None if d.get("alpha") is None else float(d["alpha"]))
