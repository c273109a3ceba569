"""Where the assessor's fitted models are read from: one rule for every model JSON shipped in this package."""
from __future__ import annotations

import json
from importlib import resources


def read_model_json(filename: str, path: str | None = None) -> dict:
    """The model shipped as ``evaluation/matching/<filename>``, or the JSON file at ``path``."""
    if path is None:
        text = resources.files("evaluation.matching").joinpath(filename).read_text(encoding="utf-8")
    else:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    return json.loads(text)
