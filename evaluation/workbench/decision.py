"""A person's decision about one pooled bullet, and the error a refused request raises."""
from __future__ import annotations

from dataclasses import dataclass, field


class BadInput(ValueError):
    """A request the session refuses; the message says what was wrong (shown on the page)."""


@dataclass
class Decision:
    """A person's decision about one pooled bullet (its facets, struck spans, support per source).

    Each verdict says who made it (``reuse.VERDICT_BY``): ``facets_by`` for the facets, ``supports_by``
    per source. A verdict pre-set from ``--prefill`` stays the machine's until the person decides that
    verdict (or presses Done, which makes every verdict shown ``machine-confirmed``).
    """

    facets: set[str] = field(default_factory=set)
    struck: tuple[tuple[int, int], ...] = ()
    supports: dict[str, bool | str] = field(default_factory=dict)  # PooledSource.id -> True, False, "partial"
    confirmed: bool = False
    reused_from: str | None = None  # "FILE:LINE" while the decision is carried over unchanged
    updated: float = 0.0
    facets_by: str = "human"
    supports_by: dict[str, str] = field(default_factory=dict)  # PooledSource.id -> who, when not "human"

    def confirm(self) -> None:
        """Done pressed: every verdict the machine pre-set is now accepted by the person."""
        self.confirmed = True
        if self.facets_by == "machine":
            self.facets_by = "machine-confirmed"
        self.supports_by = {k: "machine-confirmed" if v == "machine" else v for k, v in self.supports_by.items()}

    def labels(self) -> list[str]:
        """Who made each verdict: the facets, each decided source, the struck words (a person's)."""
        return [self.facets_by, *(self.supports_by.get(k, "human") for k in self.supports),
                *(["human"] if self.struck else [])]
