"""The converted formats declare their faults once (evaluation.convert.rules), as every other format does."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from indexing.problems import ERROR, WARNING
from evaluation.convert.common import Problems
from evaluation.convert.rules import RULES
from evaluation.judgments import RULES as JUDGMENT_RULES

CONVERT = Path(__file__).resolve().parents[1] / "evaluation" / "convert"


def _rules_used() -> dict[tuple[str, str], list[str]]:
    """(rule, severity) -> where, for every ``problems.error/warning(file, line, "rule", ...)`` call,
    and for every call of a helper that passes one of its parameters on as the rule
    (``_keep_first(seen, r, "request-duplicate", ...)``)."""
    used: dict[tuple[str, str], list[str]] = {}
    for path in sorted(CONVERT.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        helpers: dict[str, tuple[int, str]] = {}  # helper name -> (rule parameter index, severity)
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            params = [a.arg for a in fn.args.args]
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("error", "warning") and len(node.args) > 2
                        and isinstance(node.args[2], ast.Name) and node.args[2].id in params):
                    helpers[fn.name] = (params.index(node.args[2].id), ERROR if node.func.attr == "error" else WARNING)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            if isinstance(node.func, ast.Name) and node.func.id in helpers:
                index, severity = helpers[node.func.id]
                rule = node.args[index]
            elif (isinstance(node.func, ast.Attribute) and node.func.attr in ("error", "warning")
                    and len(node.args) > 2):
                rule = node.args[2]
                severity = ERROR if node.func.attr == "error" else WARNING
                if isinstance(rule, ast.Name) and any(rule.id == n for n in helpers_params(tree, helpers)):
                    continue  # the helper's own call: its callers name the rule
            else:
                continue
            assert isinstance(rule, ast.Constant), f"{path.name}:{node.lineno}: name the rule as a string"
            used.setdefault((rule.value, severity), []).append(f"{path.name}:{node.lineno}")
    return used


def helpers_params(tree: ast.AST, helpers: dict[str, tuple[int, str]]) -> set[str]:
    """The rule parameters' names of the helpers in ``tree``."""
    return {fn.args.args[helpers[fn.name][0]].arg for fn in ast.walk(tree)
            if isinstance(fn, ast.FunctionDef) and fn.name in helpers}


def test_every_rule_used_is_declared_with_its_severity():
    used = _rules_used()
    assert len(used) > 50  # the scan found the importers' calls
    undeclared = {k: v for k, v in used.items() if k[0] not in RULES or RULES[k[0]].severity != k[1]}
    assert undeclared == {}


def test_every_declared_rule_is_used():
    assert set(RULES) - {rule for rule, _ in _rules_used()} == set()


def test_a_fault_the_judgments_files_name_too_has_their_severity():
    shared = set(RULES) & set(JUDGMENT_RULES)
    assert {"holistic-range", "holistic-duplicate"} <= shared
    assert all(RULES[n].severity == JUDGMENT_RULES[n].severity for n in shared)


def test_an_undeclared_rule_cannot_be_reported():
    problems = Problems()
    with pytest.raises(KeyError):
        problems.error("f", 1, "no-such-rule", "m")
    with pytest.raises(KeyError):
        problems.warning("f", 1, "no-such-rule", "m")
    problems.error("f", 1, "votes-fields", "m")
    assert [p.rule for p in problems.items] == ["votes-fields"]
