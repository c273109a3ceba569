"""The converted formats declare their faults once (evaluation.convert.rules), as every other format does."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bolt.problems import ERROR, WARNING
from evaluation.convert.common import Problems
from evaluation.convert.rules import RULES
from evaluation.judgments import RULES as JUDGMENT_RULES

CONVERT = Path(__file__).resolve().parents[1] / "evaluation" / "convert"


def _rules_used() -> dict[tuple[str, str], list[str]]:
    """(rule, severity) -> where, for every ``problems.error/warning(file, line, "rule", ...)`` call."""
    used: dict[tuple[str, str], list[str]] = {}
    for path in sorted(CONVERT.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("error", "warning") and len(node.args) > 2):
                rule = node.args[2]
                assert isinstance(rule, ast.Constant), f"{path.name}:{node.lineno}: name the rule as a string"
                severity = ERROR if node.func.attr == "error" else WARNING
                used.setdefault((rule.value, severity), []).append(f"{path.name}:{node.lineno}")
    return used


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
