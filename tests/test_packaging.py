"""The wheel installs three import names (bolt, indexing, evaluation) and carries the topic sets as
data of ``bolt.data``; ``topic_path`` finds them from the wheel and from a checkout."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bolt import data as bolt_data
from bolt.data import topic_path

REPO = Path(__file__).resolve().parents[1]
TOPIC_FILES = sorted(p.name for p in (REPO / "topics").iterdir() if p.suffix in (".xml", ".tsv"))


def test_topic_path_names_the_checkout_files():
    for name in ("sample.xml", "sample.queries.xml", "sample.votes.tsv"):
        assert topic_path(name).read_bytes() == (REPO / "topics" / name).read_bytes()


def test_topic_path_falls_back_to_the_checkout_without_the_installed_package(monkeypatch):
    """An editable install made before setup.py mapped ``bolt.data.topics`` has no such package."""
    def missing(name):
        raise ModuleNotFoundError(name)
    monkeypatch.setattr(bolt_data, "files", missing)
    assert topic_path("sample.xml") == REPO / "topics" / "sample.xml"


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> list[str]:
    out = tmp_path_factory.mktemp("wheel")
    src = tmp_path_factory.mktemp("src") / "tree"  # a copy: building in place would leave build/ in the checkout
    shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".venv", ".git", "build", "tests", "__pycache__",
                                                              "*.egg-info", ".pytest_cache", ".hypothesis"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(src), "-w", str(out), "--no-deps",
                            "--no-build-isolation", "-q"], capture_output=True, text=True)
    if built.returncode != 0:
        pytest.skip(f"could not build the wheel here: {built.stderr[-300:]}")
    (whl,) = out.glob("*.whl")
    return zipfile.ZipFile(whl).namelist()


def test_the_wheel_has_no_topics_import_name(wheel_names):
    top = {n.split("/")[0] for n in wheel_names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"bolt", "indexing", "evaluation"}


def test_the_wheel_carries_every_topic_file_in_bolt_data(wheel_names):
    assert sorted(n.rpartition("/")[2] for n in wheel_names if n.startswith("bolt/data/topics/")
                  and not n.endswith(".py")) == TOPIC_FILES
    assert any(n.startswith("bolt/data/sample_corpus/") for n in wheel_names)
