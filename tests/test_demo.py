"""``bolt demo`` on the bundled sample, run once (real Lucene index, real model), and its report checked.

Slow (JVM + embedding model, ~40 s on 2 cores): the demo runs once per module.
"""
from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser

import pytest

from bolt.cli import main as bolt_main
from indexing.exit_codes import INVALID, SUCCESS

SYSTEMS = ("main", "lead", "bm25-sentences")
METRICS = ("P_n", "R_n", "P_c", "R_c", "F_c", "F_GD", "ERR", "nugget_F", "pyramid_F")


class Page(HTMLParser):
    """Tables, sections, images, citation links and the text (and <mark>) of every citation block."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.tables = 0
        self.imgs: list[str] = []
        self.links: list[str] = []
        self.h3: list[str] = []
        self.blocks: dict[str, dict] = {}
        self._block: str | None = None
        self._depth = 0
        self._mark = False
        self._h3 = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "table":
            self.tables += 1
        elif tag == "img":
            self.imgs.append(a.get("src", ""))
        elif tag == "a" and a.get("href", "").startswith("#cite-"):
            self.links.append(a["href"][1:])
        elif tag == "h3":
            self._h3 = True
            self.h3.append("")
        elif tag == "mark":
            self._mark = True
        if tag == "div":
            if self._block is not None:
                self._depth += 1
            elif a.get("id", "").startswith("cite-"):
                self._block, self._depth = a["id"], 0
                self.blocks[a["id"]] = {"thread": a.get("data-thread"), "offset": int(a.get("data-offset")),
                                        "unit": a.get("data-unit"), "text": "", "mark": ""}

    def handle_endtag(self, tag):
        if tag == "mark":
            self._mark = False
        elif tag == "h3":
            self._h3 = False
        elif tag == "div" and self._block is not None:
            if self._depth == 0:
                self._block = None
            else:
                self._depth -= 1

    def handle_data(self, data):
        if self._h3:
            self.h3[-1] += data
        if self._block is not None:
            b = self.blocks[self._block]
            b["text"] += data
            if self._mark:
                b["mark"] += data


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    work = tmp_path_factory.mktemp("demo") / "out"
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        code = bolt_main(["demo", "--workdir", str(work), "--quiet"])
    return code, buf.getvalue(), work


def test_demo_exits_zero_and_prints_the_leaderboard_and_paths(demo):
    code, out, work = demo
    assert code == SUCCESS
    assert "Leaderboard" in out
    for metric in METRICS:
        assert metric in out
    rows = [line for line in out.splitlines() if any(f"│ {s} " in line for s in SYSTEMS)]
    assert len(rows) == 3  # one row per run, each with nine numbers
    for row in rows:
        assert len(re.findall(r"\d\.\d{3}", row)) == len(METRICS)
    assert str(work / "report.html") in out and f"Everything is in {work}" in out


def test_demo_writes_every_output(demo):
    _, _, work = demo
    for name in ("index/manifest.json", "judgments.jsonl", "scores.json", "scores.csv", "compare.json",
                 "report.html", "demo.json"):
        assert (work / name).is_file(), name
    assert sorted(p.name for p in (work / "runs").iterdir()) == sorted(f"{s}.xml" for s in SYSTEMS)
    scores = json.loads((work / "scores.json").read_text(encoding="utf-8"))
    assert sorted(scores["runs"]) == sorted(SYSTEMS)
    for run in scores["runs"].values():
        assert set(METRICS) <= set(run["mean"]) and len(run["topics"]) == 12
    compare = json.loads((work / "compare.json").read_text(encoding="utf-8"))
    assert compare["metric"] == "F_GD" and sorted(compare["rankings"]["F_GD"]) == sorted(SYSTEMS)
    # one judgment per bullet of the three runs (first line is the _meta header)
    from bolt.formats.submission import read_run

    bullets = sum(len(r.bullets) for s in SYSTEMS for r in read_run(work / "runs" / f"{s}.xml").results.values())
    lines = (work / "judgments.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]).keys() == {"_meta"} and len(lines) - 1 == bullets
    csv_lines = (work / "scores.csv").read_text(encoding="utf-8").splitlines()
    assert len(csv_lines) == 1 + 3 * (12 + 1)
    marker = json.loads((work / "demo.json").read_text(encoding="utf-8"))
    assert list(marker["steps"]) == ["index", "run", "validate", "assess", "score", "compare", "report"]


def test_report_content(demo):
    _, _, work = demo
    html = (work / "report.html").read_text(encoding="utf-8")
    page = Page()
    page.feed(html)
    # sections and tables: leaderboard, settings, 3 per-topic, conditions, tau, compare rankings, tests
    for section in ("leaderboard", "settings", "per-topic", "conditions", "tau", "bullets"):
        assert section in page.ids
    assert page.tables >= 9
    board = html[html.index('id="leaderboard"'):html.index('id="settings"')]
    for metric in METRICS:
        assert f"<th>{metric}</th>" in board
    # every run listed: in the leaderboard, with a per-topic table, and with bullets for every topic
    for s in SYSTEMS:
        assert re.search(rf"\d\. {re.escape(s)}</td>", board), s
        assert s in page.h3
    assert len(re.findall(r'<div class="topic" id="topic-', html)) == 12
    # every plot embedded: bars, precision/recall, two tau heat-maps; PNG data, nothing external
    assert len(page.imgs) == 4
    for src in page.imgs:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<script" not in html and "<link" not in html and 'src="http' not in html
    # every citation link resolves to a block quoting the cited post's text at the cited offset
    from indexing.corpus import open_corpus

    corpus = open_corpus(index_dir=work / "index")
    assert page.links and len(page.links) == len(set(page.links))
    for anchor in page.links:
        block = page.blocks[anchor]
        thread = corpus.get(block["thread"])
        post = thread.post_at(block["offset"])
        assert post is not None and post.id == block["unit"]
        text = thread.text_map(post, quotes=None).text
        assert block["mark"].strip() and block["mark"] in text, anchor
        assert "cited text unavailable" not in block["text"]
    # as many citation links as sources in the three runs
    from bolt.formats.submission import read_run

    sources = sum(len(b.sources) for s in SYSTEMS for r in read_run(work / "runs" / f"{s}.xml").results.values()
                  for b in r.bullets)
    assert len(page.links) == sources


def test_demo_refuses_a_folder_it_did_not_make(tmp_path, capsys):
    (tmp_path / "precious.txt").write_text("keep me", encoding="utf-8")
    code = bolt_main(["demo", "--workdir", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == INVALID
    assert err[-1].startswith("error: ") and "--force" in err[-1] and str(tmp_path) in err[-1]
    assert (tmp_path / "precious.txt").read_text(encoding="utf-8") == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["precious.txt"]


def test_demo_help_is_fast_and_light():
    import subprocess
    import sys

    code = ("import sys; from bolt.cli import main; rc = main(['demo', '--help']); "
            "heavy = [m for m in ('torch', 'pyserini', 'sentence_transformers', 'matplotlib', 'spacy') "
            "if m in sys.modules]; print(heavy); sys.exit(rc)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "--workdir" in res.stdout
    assert res.stdout.strip().splitlines()[-1] == "[]"


def test_workdir_rules(tmp_path):
    """A folder the demo made (marker file) is reused; a foreign one needs --force; a file is refused."""
    import argparse

    from evaluation.commands.demo import MARKER, Demo
    from indexing.errors import ToolkitError

    def args(work, force=False):
        return argparse.Namespace(workdir=str(work), backend="bm25", force=force, metric="F_GD",
                                  no_semantic=True, quiet=True, debug=False)

    new = tmp_path / "new"
    Demo(args(new)).prepare_workdir()
    assert (new / "runs").is_dir()
    (new / MARKER).write_text("{}", encoding="utf-8")
    (new / "scores.json").write_text("{}", encoding="utf-8")
    Demo(args(new)).prepare_workdir()  # ours: fine without --force
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "x").write_text("x", encoding="utf-8")
    with pytest.raises(ToolkitError, match="did not make"):
        Demo(args(foreign)).prepare_workdir()
    Demo(args(foreign, force=True)).prepare_workdir()
    assert (foreign / "x").exists() and (foreign / "runs").is_dir()
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(ToolkitError, match="not a folder"):
        Demo(args(afile, force=True)).prepare_workdir()
