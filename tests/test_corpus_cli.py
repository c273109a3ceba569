"""``bolt corpus stats`` and ``bolt corpus show``: SPEC §8 JSON shapes, errors, exit codes."""
from __future__ import annotations

import json

import pytest

from bolt.cli import main

GOOD = ('<doc id="bolt-eng-DF-1-2-3">\n<headline>t</headline>\n'
        '<post id="p1" author="ann" datetime="2012-01-01T00:00:00">\nHello &amp; welcome.\n</post>\n'
        '<post id="p2" author="bob" datetime="2012-01-02T00:00:00">\n<quote orig_author="ann">\nHello\n'
        '<quote>deep</quote>\n</quote>\nThanks!\n</post>\n</doc>\n'
        '<doc id="CMN_DF_000181_20141021_X">\n<post id="p1" author="李">\n中文\n</post>\n</doc>\n')
BAD = '<doc id="bolt-arz-DF-9-9-9">\n<post id="p1">\nx &nbsp; y\n</post>\n</doc>\n'


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "good.xml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.xml").write_text(BAD + GOOD.replace("1-2-3", "4-5-6").replace("_X", "_Y"), encoding="utf-8")
    return tmp_path


def test_stats_json(files, capsys):
    assert main(["corpus", "stats", str(files / "good.xml"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"threads": 2, "posts": 3, "quotes": 2,
                   "by_lang": {"cmn": {"threads": 1, "posts": 1}, "eng": {"threads": 1, "posts": 2}},
                   "errors": [], "warnings": [],
                   "read": {"encoding_errors": "strict", "threads_repaired": 0, "bad_bytes": 0,
                            "duplicates_read_once": 0, "skipped": 0}}


def test_stats_stops_at_a_bad_thread_by_default(files, capsys):
    assert main(["corpus", "stats", str(files), "--json"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {files / 'bad.xml'}:3: thread bolt-arz-DF-9-9-9:")
    assert "&nbsp;" in err[0]


def test_stats_skip_bad_counts_and_reports(files, capsys):
    assert main(["corpus", "stats", str(files), "--json", "--skip-bad"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["threads"] == 4 and out["posts"] == 6 and len(out["errors"]) == 1
    assert "bolt-arz-DF-9-9-9" in out["errors"][0] and "bad.xml:3" in out["errors"][0]
    assert cap.err.startswith("warning:")
    assert main(["corpus", "stats", str(files), "--skip-bad", "--lang", "arz"]) == 0
    table = capsys.readouterr().out
    assert "arz" in table and "eng" not in table and "4" in table


def test_show_json(files, capsys):
    raw = GOOD
    off = raw.index("&amp;")
    assert main(["corpus", "show", str(files / "good.xml"), "--post", "bolt-eng-DF-1-2-3", "--offset", str(off),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"thread": "bolt-eng-DF-1-2-3", "post": "p1", "post_start": raw.index("<post"), "offset": off,
                   "text": "& welcome.\n"}
    off2 = raw.index("Hello\n<quote>")
    assert main(["corpus", "show", str(files), "--skip-bad", "--post", "bolt-eng-DF-1-2-3", "--offset", str(off2),
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["post"] == "p2" and out["text"] == "Hello\n\ndeep\n\n\n\nThanks!\n"  # a newline at each quote boundary


def test_show_human_and_errors(files, capsys):
    second = GOOD[GOOD.index('<doc id="CMN'):]
    off = second.index("中")  # offsets count from the thread's own <doc
    assert main(["corpus", "show", str(files / "good.xml"), "--post", "CMN_DF_000181_20141021_X",
                 "--offset", str(off)]) == 0
    assert "post p1 by 李" in capsys.readouterr().out
    assert main(["corpus", "show", str(files / "good.xml"), "--post", "nope", "--offset", "0"]) == 1
    assert "thread nope is not in" in capsys.readouterr().err
    assert main(["corpus", "show", str(files / "good.xml"), "--post", "bolt-eng-DF-1-2-3", "--offset", "3"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error:") and "not inside a <post>" in err and "p1" in err
    assert main(["corpus", "show", str(files / "good.xml"), "--post", "bolt-eng-DF-1-2-3", "--offset", "99999"]) == 1
    assert "outside thread" in capsys.readouterr().err
    assert main(["corpus", "show", str(files / "nope.xml"), "--post", "x", "--offset", "1"]) == 1
    assert "no such file" in capsys.readouterr().err


def test_usage_errors(files):
    assert main(["corpus"]) == 2
    assert main(["corpus", "show", str(files), "--offset", "1"]) == 2  # --post is required
    assert main(["corpus", "show", str(files), "--post", "x", "--offset", "one"]) == 2


def test_real_sample_citation(real_samples, capsys):
    """A citation into the real ENG sample: offset 339 is the '&lt;' of p1."""
    assert main(["corpus", "show", str(real_samples / "ENG_DF_000200_20061121_G00A06WU8.xml"),
                 "--post", "ENG_DF_000200_20061121_G00A06WU8", "--offset", "339", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["post"] == "p1" and out["post_start"] == 93 and out["text"].startswith("<= x <= 1\n")
