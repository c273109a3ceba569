"""Library code stays readable in parts: no class over 300 lines, no function over 80.

A long class or function holds several jobs; splitting it gives each job a name and a place.
Lengths are read from the source with ``ast`` (first line of the ``def``/``class`` to its last
line, decorators aside), so the test needs no runtime. A nested function counts on its own, and
a method's lines count toward its class as well.
"""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("indexing", "bolt", "evaluation")
MAX_CLASS_LINES = 300
MAX_FUNCTION_LINES = 80


def _length(node: ast.AST) -> int:
    return node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]


def over_limits(source: str, file: str) -> list[str]:
    """``FILE NAME (KIND, N lines > LIMIT)`` for every class or function of ``source`` over its limit."""
    found = []
    for node in ast.walk(ast.parse(source, filename=file)):
        if isinstance(node, ast.ClassDef):
            kind, limit = "class", MAX_CLASS_LINES
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            kind, limit = "function", MAX_FUNCTION_LINES
        else:
            continue
        if _length(node) > limit:
            found.append(f"{file}:{node.lineno} {node.name} ({kind}, {_length(node)} lines > {limit})")
    return found


def test_the_measure_counts_nested_functions_and_methods_on_their_own():
    body = "".join(f"            x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    source = f"class Small:\n    def method(self):\n        def inner():\n{body}        return inner\n"
    found = over_limits(source, "m.py")
    # inner: its def line + 80 body lines = 81; method: 1 + 81 + return = 83; the class: 84 lines.
    assert found == [f"m.py:2 method (function, {MAX_FUNCTION_LINES + 3} lines > {MAX_FUNCTION_LINES})",
                     f"m.py:3 inner (function, {MAX_FUNCTION_LINES + 1} lines > {MAX_FUNCTION_LINES})"]
    assert over_limits("def f():\n" + "    pass\n" * (MAX_FUNCTION_LINES - 1), "m.py") == []
    big = "class Big:\n" + "".join(f"    def m{i}(self):\n        pass\n" for i in range(MAX_CLASS_LINES // 2))
    assert over_limits(big, "b.py") == [f"b.py:1 Big (class, {MAX_CLASS_LINES + 1} lines > {MAX_CLASS_LINES})"]


def test_no_library_class_or_function_is_over_its_limit():
    found = []
    for pkg in PACKAGES:
        for path in sorted((REPO / pkg).rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            found += over_limits(path.read_text(encoding="utf-8"), rel)
    assert found == [], "split these into parts with one job each:\n" + "\n".join(found)
