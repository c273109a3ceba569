"""Text a user reads says what the toolkit is now, never how it got there.

The README, the user docs (not ``docs/experiments/``, where history belongs), every docstring in
``indexing/``, ``bolt/`` and ``evaluation/``, the ``--help`` of every ``bolt`` command and the notes
shipped inside the model files (they end up in judgment headers) must not speak of development
sessions, numbered rounds or issue numbers. Topic-group names in data files are data, not scanned.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import importlib
import json
import re
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("indexing", "bolt", "evaluation")
MODEL_FILES = ("evaluation/matching/*.json", "bolt/pipeline/*.json")

HISTORY = re.compile(
    r"\bsessions?[ -]\d+"           # session 12, session-11
    r"|\brounds?[ -]\d+"            # round 14, rounds 1-8, round-14
    r"|\bissues?[ -]?#?\d+"         # issue 18, issue #24, issues 24
    r"|(?<![\w&/#-])#\d\d\b",       # #24 (not &#39; nor a URL fragment)
    re.IGNORECASE,
)


def findings(where: str, text: str) -> list[str]:
    """'where: line N: ...match...' for each history mention in ``text``."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in HISTORY.finditer(line):
            found.append(f"{where}:{number}: '{m.group(0)}' in: {line.strip()[:120]}")
    return found


def report(found: list[str]) -> str:
    return f"{len(found)} mention(s) of sessions, numbered rounds or issues:\n" + "\n".join(found[:60])


def test_the_pattern_catches_history_and_spares_plain_words():
    caught = ["as in session 12", "Round 14's ranker", "rounds 1-8", "issue 24", "issue #29", "(#24)",
              "the session-11 change", "issues 24 and 29"]
    spared = ["a judging session resumes", "rounded to 3 decimals", "each round of judging",
              "&#39;", "http://x/#12", "round-trips", "1 round trip"]
    assert all(HISTORY.search(s) for s in caught), [s for s in caught if not HISTORY.search(s)]
    assert not [s for s in spared if HISTORY.search(s)]


def user_docs() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def test_user_docs_do_not_speak_of_sessions_rounds_or_issues():
    found = []
    for path in user_docs():
        found += findings(str(path.relative_to(REPO)), path.read_text(encoding="utf-8"))
    assert not found, report(found)


def docstrings(path: Path) -> Iterator[tuple[int, str]]:
    """(line, docstring) of the module and of every class and function in one source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                yield getattr(node, "lineno", 1), doc


def test_docstrings_do_not_speak_of_sessions_rounds_or_issues():
    found, files = [], 0
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            files += 1
            rel = path.relative_to(REPO)
            for line, doc in docstrings(path):
                found += [f.replace(f"{rel}:", f"{rel}:{line}+", 1) for f in findings(str(rel), doc)]
    assert files > 50, "the packages' sources were not found"
    assert not found, report(found)


def subcommand_paths(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The argument paths of every sub-command under a parser (``("import", "trec-rag")``), depth first."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield (*path, name)
                yield from subcommand_paths(child, (*path, name))


def printed_help(argv: list[str]) -> str:
    """What ``bolt ARGV --help`` prints, through the real entry point."""
    from bolt import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            cli.main([*argv, "--help"])
        except SystemExit:
            pass
    return out.getvalue()


def command_helps() -> Iterator[tuple[str, str]]:
    """(command, help text) of ``bolt`` and of every command and sub-command, as ``--help`` prints it."""
    from bolt import cli

    yield "bolt", printed_help([])
    for name, command in cli.COMMANDS.items():
        yield f"bolt {name}", printed_help([name])
        parser = argparse.ArgumentParser(prog=f"bolt {name}")
        importlib.import_module(command.module).add_arguments(parser)
        for path in subcommand_paths(parser):
            yield f"bolt {name} {' '.join(path)}", printed_help([name, *path])


def test_help_text_does_not_speak_of_sessions_rounds_or_issues():
    helps = list(command_helps())
    names = [name for name, _ in helps]
    assert {"bolt run", "bolt assess", "bolt score", "bolt judge", "bolt convert import"} <= set(names)
    assert all(text.startswith("usage: ") for _, text in helps), "a --help printed no usage"
    found = []
    for name, text in helps:
        found += findings(f"{name} --help", text)
    assert not found, report(found)


def strings(value: object) -> Iterator[str]:
    """Every string inside a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


@pytest.mark.parametrize("pattern", MODEL_FILES)
def test_model_notes_do_not_speak_of_sessions_rounds_or_issues(pattern):
    """The notes shipped in a model file are printed by ``bolt assess`` and copied into headers."""
    files = sorted(REPO.glob(pattern))
    assert files, f"no model file matches {pattern}"
    found = []
    for path in files:
        model = json.loads(path.read_text(encoding="utf-8"))
        notes = [model.get(key) for key in ("fit_notes", "meta") if model.get(key) is not None]
        found += findings(str(path.relative_to(REPO)), "\n".join(strings(notes)))
    assert not found, report(found)
