"""The README's getting-started path, run as written: a new user's first commands must work.

The shell block after ``<!-- getting-started -->`` runs with bash in a temporary folder (the
bundled sample linked in where the README says it is), with ``bolt`` resolving to
``python -m bolt.cli`` of this checkout. Every file the block writes must exist, and every line of
the README's "What it prints" excerpt must be in what the commands print. Slow (JVM and models,
about a minute on 2 cores).
"""
from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
MARK = "<!-- getting-started -->"


def fenced_block_after(text: str, marker: str) -> str:
    """The body of the first fenced block that starts right after ``marker``."""
    after = text.split(marker, 1)[1]
    found = re.match(r"\s*```[a-z]*\n(.*?)\n```", after, re.S)
    assert found, f"README.md: no fenced block right after {marker}"
    return found.group(1)


def printed_excerpt(text: str) -> list[str]:
    """The lines of the ```text block that follows "What it prints"."""
    after = text.split("What it prints", 1)[1]
    found = re.search(r"```text\n(.*?)\n```", after, re.S)
    assert found, "README.md: no ```text block after 'What it prints'"
    return [line for line in found.group(1).splitlines() if line.strip()]


def squeeze(text: str) -> str:
    return " ".join(text.split())


def bolt_on_path(folder: Path) -> Path:
    """A ``bolt`` script that runs this checkout's CLI (not an installed one)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    script = bin_dir / "bolt"
    script.write_text(
        "#!/bin/sh\n"
        f'PYTHONPATH="{REPO}${{PYTHONPATH:+:$PYTHONPATH}}" exec "{sys.executable}" -P -m bolt.cli "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return bin_dir


def test_the_getting_started_block_is_found_and_uses_the_sample():
    block = fenced_block_after(README.read_text(encoding="utf-8"), MARK)
    for step in ("bolt index", "bolt validate", "bolt run", "bolt assess", "bolt score"):
        assert step in block, f"README.md getting-started block lacks '{step}'"
    assert "bolt/data/sample_corpus" in block


def test_the_readme_getting_started_path_runs(tmp_path):
    text = README.read_text(encoding="utf-8")
    block = fenced_block_after(text, MARK)
    (tmp_path / "bolt" / "data").mkdir(parents=True)
    (tmp_path / "bolt" / "data" / "sample_corpus").symlink_to(REPO / "bolt" / "data" / "sample_corpus")
    env = dict(os.environ, HF_HUB_OFFLINE="1", COLUMNS="120")
    env["PATH"] = f"{bolt_on_path(tmp_path)}{os.pathsep}{env.get('PATH', '')}"
    (tmp_path / "path.sh").write_text(block + "\n", encoding="utf-8")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "path.sh"], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=900,
    )
    printed = done.stdout + done.stderr
    assert done.returncode == 0, f"the README's getting-started block failed:\n{printed[-3000:]}"
    written = re.findall(r"--out (\S+)", block) + re.findall(r"cat > (\S+)", block)
    assert {"my-index", "my-topics.xml", "my-run.xml", "my-judgments.jsonl"} <= set(written)
    for name in written:
        path = tmp_path / name
        assert path.exists(), f"the README says a step writes {name}; it does not"
        assert path.is_dir() or path.stat().st_size > 0, f"{name} is empty"
    assert "<bullet>" in (tmp_path / "my-run.xml").read_text(encoding="utf-8")
    shown = squeeze(printed)
    for line in printed_excerpt(text):
        head = squeeze(line.split("...")[0])
        assert head in shown, f"README.md shows '{line}', the commands no longer print it"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
