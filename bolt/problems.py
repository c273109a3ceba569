"""Structured findings about an input file (topics, submissions): one record, one printed line.

Parsers and validators collect every problem of a file before failing, so a user fixes a file in
one pass. ``Problem.format()`` gives the one-line form the CLI prints.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from indexing.errors import ToolkitError

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding: severity, where (file, line, topic, bullet), the rule's name, and what to do."""

    severity: str
    file: str
    line: int | None
    rule: str
    message: str
    topic: str | None = None
    bullet: int | None = None

    def format(self) -> str:
        """``error: run.xml:42: topic 1.001 bullet 3: <message> [rule]``"""
        where = f"{self.file}:{self.line}" if self.line else self.file
        ctx = []
        if self.topic is not None:
            ctx.append(f"topic {self.topic}")
        if self.bullet is not None:
            ctx.append(f"bullet {self.bullet}")
        prefix = f"{' '.join(ctx)}: " if ctx else ""
        return f"{self.severity}: {where}: {prefix}{self.message} [{self.rule}]"

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("severity")
        return d


class ProblemsError(ToolkitError):
    """Raised when a file has errors; carries all of them."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        errors = [p for p in self.problems if p.severity == ERROR]
        first = errors[0] if errors else (self.problems[0] if self.problems else None)
        more = f" (and {len(errors) - 1} more errors)" if len(errors) > 1 else ""
        if first is None:
            super().__init__("invalid input")
        else:
            super().__init__(f"{first.message} [{first.rule}]{more}", file=first.file, line=first.line)
