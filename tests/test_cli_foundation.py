"""The CLI contract of issue 2: lazy commands, exit codes, one-way dependencies, a working doctor."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bolt.cli import COMMANDS, main

REPO = Path(__file__).resolve().parents[1]
HEAVY = ("torch", "jnius", "pyserini", "sentence_transformers", "spacy")


def _imported_after(argv: list[str]) -> set[str]:
    code = (
        "import sys, contextlib, io\n"
        "from bolt.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main({argv!r})\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    return {m for m in out.stdout.strip().split(",") if m}


def test_top_level_help_imports_no_runtime():
    assert _imported_after(["--help"]) == set()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_help_is_lazy(name):
    assert _imported_after([name, "--help"]) == set(), f"'bolt {name} --help' imported a heavy runtime"


def test_unknown_command_is_a_usage_error_with_a_suggestion(capsys):
    assert main(["docter"]) == 2
    assert "maybe you meant 'doctor'" in capsys.readouterr().err


def test_bad_option_is_a_usage_error():
    assert main(["doctor", "--no-such-option"]) == 2


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package,forbidden", [("indexing", {"bolt", "evaluation"}), ("bolt", {"evaluation"})])
def test_dependencies_run_one_way(package, forbidden):
    offenders = {str(p.relative_to(REPO)): _imports(p) & forbidden
                 for p in (REPO / package).rglob("*.py") if _imports(p) & forbidden}
    assert offenders == {}


def test_only_jvm_module_imports_jnius_or_starts_pyserini():
    owners = set()
    for pkg in ("indexing", "bolt", "evaluation"):
        for p in (REPO / pkg).rglob("*.py"):
            if {"jnius", "jnius_config"} & _imports(p):
                owners.add(p.name)
    assert owners <= {"jvm.py"}


def test_only_embedding_module_loads_sentence_transformers():
    owners = {p.name for pkg in ("indexing", "bolt", "evaluation") for p in (REPO / pkg).rglob("*.py")
              if "sentence_transformers" in _imports(p)}
    assert owners <= {"embedding.py"}


@pytest.mark.slow
def test_doctor_passes_with_real_runtimes():
    out = subprocess.run([sys.executable, "-m", "bolt.cli", "doctor", "--json"], capture_output=True, text=True,
                         cwd=REPO, timeout=600)
    report = json.loads(out.stdout)
    failed = [c for c in report["checks"] if not c["ok"]]
    assert out.returncode == 0 and report["ok"], failed
    assert {c["name"] for c in report["checks"]} >= {"java", "lucene", "model", "multilingual", "multilingual e5", "sentences"}


def test_ctrl_c_stays_with_python_after_the_jvm_starts():
    """The JVM is started with -Xrs: without it, Java's own SIGINT handler ends the process at once
    and a build interrupted with Ctrl-C leaves its temporary folder behind."""
    import signal

    code = ("import os, signal, time\n"
            "from indexing import jvm\n"
            "jvm.start()\n"
            "try:\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(10)\n"
            "except KeyboardInterrupt:\n"
            "    print('handled by python')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert out.returncode == 0 and "handled by python" in out.stdout, out.stderr[-2000:]
