"""The one atomic writer: a crash mid-write leaves the old file whole and no temp file behind."""
from __future__ import annotations

import pytest

from indexing.atomic import atomic_open, atomic_write_bytes, atomic_write_text


def test_write_replaces_whole_file(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    atomic_write_text(target, "new\n")
    assert target.read_text() == "new\n"
    atomic_write_bytes(target, b"\x00\x01")
    assert target.read_bytes() == b"\x00\x01"


def test_interrupted_write_keeps_old_file_and_leaves_no_temp(tmp_path):
    target = tmp_path / "runs.xml"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic_open(target) as fh:
            fh.write("half of the new")
            raise RuntimeError("crash")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["runs.xml"]


def test_newline_is_kept_as_given(tmp_path):
    target = tmp_path / "crlf.xml"
    atomic_write_text(target, "a\r\nb\n", newline="")
    assert target.read_bytes() == b"a\r\nb\n"


def test_append_mode_is_refused(tmp_path):
    with pytest.raises(ValueError, match="mode must be"):
        with atomic_open(tmp_path / "x", "a"):
            pass
