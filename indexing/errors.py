"""The toolkit's user-facing error: what went wrong, where, and what to do about it.

Library code raises these; only the CLI prints them (one ``error: file:line: message; hint`` line).
"""
from __future__ import annotations


class ToolkitError(Exception):
    """An error a user can fix: it names the file and line when known, and a hint."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 hint: str | None = None, thread: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.hint = hint
        self.thread = thread

    def location(self) -> str:
        if self.file and self.line:
            return f"{self.file}:{self.line}"
        return self.file or ""

    def __str__(self) -> str:
        parts = [p for p in (self.location(),) if p]
        msg = self.message
        if self.thread:
            msg = f"thread {self.thread}: {msg}"
        if self.hint:
            msg = f"{msg}; {self.hint}"
        return ": ".join(parts + [msg])


class CorpusError(ToolkitError):
    """A thread file that cannot be read: bad XML, bad entity, bad UTF-8, truncated archive."""


class RuntimeUnavailable(ToolkitError):
    """An external runtime (Java, Lucene, the embedding model) cannot be started."""
