"""One spelling for value objects: ``name(key=value, ...)``, read back with ``ast`` (never ``eval``).

System configurations, the assessor configuration and metrics all print as such a call with their
non-default parameters, so the printed form is the reproducible spec and parses back to an equal
object (the ir_measures pattern). This module holds the parsing they share.
"""
from __future__ import annotations

import ast
from typing import Any


def parse_call(text: str, *, what: str, bare_words: bool = False) -> tuple[str, dict[str, Any]]:
    """``"main(k_eng=50)"`` -> ``("main", {"k_eng": 50})``; a bare ``"main"`` -> ``("main", {})``.

    Values must be Python literals; with ``bare_words`` a bare name is read as a string
    (``ERR(denominator=total)``). Raises ``ValueError`` naming ``what`` and the expected form.
    """
    form = "write NAME or NAME(param=value, ...)"
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"cannot parse {what} {text!r}; {form}") from None
    if isinstance(node, ast.Name):
        return node.id, {}
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args):
        raise ValueError(f"cannot parse {what} {text!r}; {form}")
    kwargs: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            raise ValueError(f"cannot parse {what} {text!r}; {form}")
        kwargs[kw.arg] = _literal(kw.value, text, bare_words)
    return node.func.id, kwargs


def _literal(node: ast.AST, text: str, bare_words: bool) -> Any:
    try:
        return ast.literal_eval(node)
    except ValueError:
        if bare_words and isinstance(node, ast.Name):
            return node.id
        raise ValueError(f"cannot read the parameter value {ast.get_source_segment(text, node)!r}") from None
