"""Shared fixtures: where the real LDC samples and the bundled sample collection live."""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REAL_SAMPLES = REPO.parent / "shared" / "real-samples"


@pytest.fixture(scope="session")
def real_samples() -> Path:
    """``../shared/real-samples`` (licensed LDC data, never copied here); skip when absent."""
    if not (REAL_SAMPLES / "bolt-eng-DF-215.xml").exists():
        pytest.skip("../shared/real-samples is absent")
    return REAL_SAMPLES
