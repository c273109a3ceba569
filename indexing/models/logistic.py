"""The one loader of the fitted logistic models the toolkit ships as JSON: the assessor's statement and
cross-language models (``evaluation.matching``) and the system's sentence ranker (``bolt.pipeline.ranker``).

It sits below both the system and the judge (like the other model loaders) and knows only what every
such model file shares: where a shipped one lives, reading it with an error that names the file and
the fix, and the logistic function. What the fields mean stays with each model's own record type
(its ``from_dict``), which raises ``ValueError``/``KeyError`` on a file that does not fit; the loader
turns those into a ``ToolkitError`` naming the file.
"""
from __future__ import annotations

import json
import math
import os
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any, Callable, Mapping, TypeVar

from indexing.errors import ToolkitError

T = TypeVar("T")


def shipped_model(package: str, filename: str) -> Traversable:
    """The model file ``filename`` shipped inside ``package`` (a checkout or an installed wheel)."""
    return resources.files(package).joinpath(filename)


def load_model_json(source: str | os.PathLike | Traversable, parse: Callable[[Mapping[str, Any]], T], *,
                    what: str, hint: str) -> T:
    """``parse`` of the JSON object in ``source`` (a path or a shipped file). A file that cannot be
    read, is not a JSON object, or does not fit ``parse`` is a ``ToolkitError`` naming it and ``hint``."""
    name = os.fspath(source) if isinstance(source, (str, os.PathLike)) else str(source)
    try:
        if isinstance(source, (str, os.PathLike)):
            with open(source, encoding="utf-8") as fh:
                text = fh.read()
        else:
            text = source.read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ToolkitError(f"cannot read the {what} ({exc})", file=name, hint=hint) from None
    if not isinstance(data, dict):
        raise ToolkitError(f"the {what} is not a JSON object", file=name, hint=hint)
    try:
        return parse(data)
    except KeyError as exc:
        raise ToolkitError(f"the {what} has no field {exc}", file=name, hint=hint) from None
    except (ValueError, TypeError) as exc:
        raise ToolkitError(f"the {what} does not fit this code ({exc})", file=name, hint=hint) from None


def logistic(z: float) -> float:
    """``1 / (1 + exp(-z))``; 0.0 far below zero, where ``exp`` would overflow."""
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
