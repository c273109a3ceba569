"""``bolt index`` and ``bolt search`` end to end through ``bolt.cli.main`` (real files, real index)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bolt.cli import main
from indexing.exit_codes import INVALID, SUCCESS, USAGE

ENG = """<doc id="bolt-eng-DF-9-1-1">
<headline>
h
</headline>
<post author="a" datetime="2012-01-01T00:00:00" id="p1">
Volcanic ash closed every airport in Iceland &amp; Norway.
</post>
<post author="b" datetime="2012-01-01T01:00:00" id="p2">
Flights resumed two days later.
</post>
</doc>
"""
CMN = """<doc id="bolt-cmn-DF-9-2-1">
<headline>
h
</headline>
<post author="a" datetime="2012-01-01T00:00:00" id="p1">
火山灰关闭了冰岛的机场。
</post>
</doc>
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    (d / "in").mkdir()
    (d / "in" / "eng.xml").write_text(ENG, encoding="utf-8")
    (d / "in" / "cmn.xml").write_text(CMN, encoding="utf-8")
    assert main(["index", str(d / "in"), "--out", str(d / "idx"), "--no-progress", "--no-vectors"]) == SUCCESS
    return d


def test_index_prints_a_summary_per_language(built, capsys):
    out = built / "idx2"
    assert main(["index", str(built / "in"), "--out", str(out), "--backend", "bm25", "--no-progress",
                 "--no-vectors"]) == SUCCESS
    text = capsys.readouterr().out
    assert "eng: 1 threads, 2 posts" in text and "cmn: 1 threads, 1 posts" in text


def test_search_json_shape_and_offsets(built, capsys):
    capsys.readouterr()
    assert main(["search", str(built / "idx"), "airport Iceland", "--json", "--k", "3"]) == SUCCESS
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["thread"] == "bolt-eng-DF-9-1-1" and hits[0]["post"] == "p1"
    assert {"thread", "post", "lang", "score", "offset", "text"} <= set(hits[0])
    assert hits[0]["offset"] == ENG.index("Volcanic")
    assert hits[0]["text"] == "Volcanic ash closed every airport in Iceland & Norway."


def test_search_one_language(built, capsys):
    capsys.readouterr()
    assert main(["search", str(built / "idx"), "机场", "--lang", "cmn", "--json"]) == SUCCESS
    hits = json.loads(capsys.readouterr().out)
    assert [(h["thread"], h["lang"], h["offset"]) for h in hits] == [("bolt-cmn-DF-9-2-1", "cmn", CMN.index("火山"))]


def test_index_refuses_overwrite_without_force(built, capsys):
    capsys.readouterr()
    assert main(["index", str(built / "in"), "--out", str(built / "idx"), "--no-progress"]) == INVALID
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "--force" in err


def test_index_check_detects_changed_input(tmp_path, capsys):
    (tmp_path / "eng.xml").write_text(ENG, encoding="utf-8")
    assert main(["index", str(tmp_path / "eng.xml"), "--out", str(tmp_path / "i"), "--backend", "bm25",
                 "--no-progress", "--no-vectors"]) == SUCCESS
    assert main(["index", "--check", str(tmp_path / "i")]) == SUCCESS
    (tmp_path / "eng.xml").write_text(ENG.replace("Norway", "Sweden"), encoding="utf-8")
    capsys.readouterr()
    assert main(["index", "--check", str(tmp_path / "i")]) == INVALID
    assert "eng.xml: content changed" in capsys.readouterr().err


def test_index_usage_error_without_out(capsys):
    assert main(["index", "x.xml"]) == USAGE


def test_bad_file_is_reported_with_skip_bad(tmp_path, capsys):
    (tmp_path / "good.xml").write_text(ENG, encoding="utf-8")
    (tmp_path / "bad.xml").write_text('<doc id="bolt-eng-DF-9-1-2">\n<post id="p1">\nunclosed\n', encoding="utf-8")
    out = tmp_path / "i"
    assert main(["index", str(tmp_path / "bad.xml"), "--out", str(out), "--backend", "bm25", "--no-progress"]) == INVALID
    assert "bad.xml" in capsys.readouterr().err and not out.exists()
    assert main(["index", str(tmp_path / "bad.xml"), str(tmp_path / "good.xml"), "--out", str(out),
                 "--backend", "bm25", "--skip-bad", "--no-progress", "--no-vectors"]) == SUCCESS
    captured = capsys.readouterr()
    assert captured.err.startswith("warning: ") and "bad.xml" in captured.err
    assert "skipped: 1" in captured.out


def test_help_does_not_start_java_or_torch():
    code = ("import sys; from bolt.cli import main\n"
            "for c in ('index', 'search'):\n"
            "    try: main([c, '--help'])\n"
            "    except SystemExit: pass\n"
            "bad = [m for m in ('pyserini', 'jnius', 'torch', 'spacy') if m in sys.modules]\n"
            "sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_search_takes_index_and_hits_like_every_other_command(built, capsys):
    capsys.readouterr()
    assert main(["search", "--index", str(built / "idx"), "airport Iceland", "--json", "--hits", "1"]) == SUCCESS
    new = json.loads(capsys.readouterr().out)
    assert main(["search", str(built / "idx"), "airport Iceland", "--json", "--k", "1"]) == SUCCESS
    assert json.loads(capsys.readouterr().out) == new and len(new) == 1 and new[0]["post"] == "p1"
    assert main(["search", "--index", str(built / "idx"), str(built / "idx"), "airport"]) == USAGE
    assert "once" in capsys.readouterr().err
    assert main(["search", "airport"]) == USAGE
    assert main(["search", "--index", str(built / "idx"), "airport", "--hits", "0"]) == USAGE


@pytest.mark.parametrize("command", ["index", "run", "assess", "demo"])
def test_long_commands_share_no_progress_and_quiet(command, capsys):
    assert main([command, "--help"]) == SUCCESS
    text = " ".join(capsys.readouterr().out.split())
    assert "--no-progress no progress bar or status spinner on standard error" in text
    assert "--quiet nothing on standard error but warnings and errors (implies --no-progress)" in text
