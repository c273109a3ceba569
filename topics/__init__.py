"""Topic sets shipped with the toolkit (``sample.xml``, ``sample.queries.xml``, ``sample.votes.tsv``)."""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def path(name: str) -> Path:
    """Path of a bundled topic file, e.g. ``path("sample.xml")``."""
    return Path(str(files(__name__) / name))
