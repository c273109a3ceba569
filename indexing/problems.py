"""Structured findings about an input file (topics, submissions): one record, one printed line.

Parsers and validators collect every problem of a file before failing, so a user fixes a file in
one pass. ``Problem.format()`` gives the one-line form the CLI prints. Each format declares its
rules once, in one :class:`RuleCatalogue` (``bolt.formats.submission.RULES``, ``bolt.formats.topic_rules.RULES``,
``bolt.formats.votes.RULES``, ``evaluation.judgments.RULES``); a fault that two formats share has one name.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Iterable, NamedTuple

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


class Rule(NamedTuple):
    """A named check: its severity and what a person should do when it fires."""

    name: str
    severity: str
    summary: str


_LINE_BREAKS = re.compile("[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+")


class RuleCatalogue(dict):
    """A format's rules by name (a ``dict[str, Rule]``): declared once, found by name, never two with one name."""

    def __init__(self, format_name: str) -> None:
        super().__init__()
        self.format_name = format_name

    def register(self, name: str, severity: str, summary: str) -> str:
        """Add a rule (refusing a second one with the same name) and return its name."""
        if name in self:
            raise ValueError(f"rule {name!r} is already registered for {self.format_name}")
        if severity not in (ERROR, WARNING):
            raise ValueError(f"severity must be {ERROR!r} or {WARNING!r}, not {severity!r}")
        self[name] = Rule(name, severity, summary)
        return name

    def problem(self, rule: str, file: str, line: int | None, message: str, topic: str | None = None,
                bullet: int | None = None) -> Problem:
        """A finding of a registered rule (KeyError for an unknown one); the message is kept to one
        line, as it may quote user input."""
        one_line = _LINE_BREAKS.sub(" ", message).strip()
        if topic is not None:
            topic = _LINE_BREAKS.sub(" ", topic)
        return Problem(self[rule].severity, file, line, rule, one_line, topic, bullet)
