"""scripts/_setup.sh: an install with the test extras satisfies demo.sh (no second install)."""
from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _ensure(venv: Path, extras: str) -> subprocess.CompletedProcess:
    script = f'source "{REPO}/scripts/_setup.sh"; ensure_venv "{extras}"'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60,
                          env={"BOLT_VENV": str(venv), "PATH": "/usr/bin:/bin"})


def _fake_venv(tmp_path: Path, stamp: str) -> Path:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    py = venv / "bin" / "python"
    py.write_text("#!/bin/sh\necho 'pip was run' >&2\nexit 3\n")  # an install attempt fails loudly
    py.chmod(0o755)
    (venv / ".bolt-install-stamp").write_text(stamp + "\n")
    return venv


def test_test_extras_install_satisfies_the_plain_install(tmp_path):
    digest = hashlib.sha256((REPO / "pyproject.toml").read_bytes()).hexdigest()[:16]
    venv = _fake_venv(tmp_path, f"{digest}-test")
    plain = _ensure(venv, "")
    assert plain.returncode == 0 and "installing" not in plain.stderr
    assert _ensure(venv, "test").returncode == 0


def test_a_plain_install_does_not_satisfy_the_test_extras(tmp_path):
    digest = hashlib.sha256((REPO / "pyproject.toml").read_bytes()).hexdigest()[:16]
    venv = _fake_venv(tmp_path, f"{digest}-none")
    out = _ensure(venv, "test")
    assert out.returncode != 0 and "installing" in out.stderr and "pip was run" in out.stderr
