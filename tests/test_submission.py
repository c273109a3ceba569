"""The one submission parser and writer: records, line numbers, streaming, chunk boundaries, writing."""
from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from bolt.formats import submission
from indexing.problems import ProblemsError
from bolt.formats.submission import Bullet, Result, Source, iter_results, read_run, write_run
from bolt.formats.validate import validate_runs

DATA = Path(__file__).parent / "data"
TOPICS = DATA / "validate_topics.xml"
CORPUS_DIR = DATA / "validate_corpus"
THREAD = "bolt-eng-DF-900-100001-1000001"

GUIDELINE_STYLE = """\
<result number="1.001">
<response>
  <bullet>Soon after, in October 1993,
     Bain Capital became majority shareholder &amp; more.
    <source post="bolt-eng-DF-170-181103-8882806" offset="1207"/>
  </bullet>
  <bullet><source post="bolt-cmn-DF-20-191614-4129558" offset="5114"/><source offset="6120" post="bolt-cmn-DF-20-191614-4129558"/>中国派出了<!-- c -->救援队。</bullet>
</response>
</result>
<result number="1.002">
<response>
  <bullet>Before <source post="ENG_DF_000200_20061121_G00A06WU8" offset="0"/> after</bullet>
</response>
</result>
"""


def _write(tmp_path: Path, text: str | bytes, name: str = "run1.xml") -> Path:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return p


def test_rootless_run_records_and_lines(tmp_path):
    run = read_run(_write(tmp_path, GUIDELINE_STYLE))
    assert run.run_id == "run1" and list(run.results) == ["1.001", "1.002"]
    r1 = run.results["1.001"]
    assert r1.line == 1
    b1, b2 = r1.bullets
    assert b1 == Bullet(1, "Soon after, in October 1993, Bain Capital became majority shareholder & more.",
                        (Source("bolt-eng-DF-170-181103-8882806", 1207),))
    assert (b1.line, b1.sources[0].line) == (3, 5)
    assert b2.text == "中国派出了救援队。" and [s.offset for s in b2.sources] == [5114, 6120]
    assert b2.position == 2 and b2.line == 7
    (b3,) = run.results["1.002"].bullets
    assert b3.text == "Before after" and run.results["1.002"].line == 10 and b3.line == 12


def test_root_declaration_and_bom_keep_lines(tmp_path):
    text = '\ufeff<?xml version="1.0" encoding="utf-8"?>\n<results run="team-a">\n' + GUIDELINE_STYLE + "</results>\n"
    run = read_run(_write(tmp_path, text))
    assert run.run_id == "team-a"
    assert run.results["1.001"].line == 3 and run.results["1.002"].bullets[0].line == 14


def test_gzip_and_stem(tmp_path):
    p = tmp_path / "myrun.xml.gz"
    with gzip.open(p, "wb") as fh:
        fh.write(GUIDELINE_STYLE.encode())
    run = read_run(p)
    assert run.run_id == "myrun" and len(run.results) == 2


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 1 << 20])
def test_chunk_boundaries_do_not_change_anything(tmp_path, monkeypatch, chunk):
    monkeypatch.setattr(submission.stream, "CHUNK_BYTES", chunk)
    good = read_run(_write(tmp_path, GUIDELINE_STYLE))
    assert [b.text for r in good for b in r.bullets][1] == "中国派出了救援队。"
    assert good.results["1.002"].bullets[0].line == 12
    # a bad byte after multi-byte characters: same position whatever the chunking
    bad = GUIDELINE_STYLE.encode().replace("救援队".encode(), "救".encode() + b"\xc3\x28")
    pos = bad.index(b"\xc3\x28")
    problems = []
    list(iter_results(_write(tmp_path, bad), problems))
    assert [(p.rule, p.line) for p in problems] == [("invalid-utf8", 7)]
    assert f"at byte {pos} " in problems[0].message
    # a DOCTYPE and an undefined entity split across chunks are still found, on the right line
    problems = []
    list(iter_results(_write(tmp_path, "<result number='1'>\n\n<!DOCTYPE x>"), problems))
    assert [(p.rule, p.line) for p in problems] == [("doctype-refused", 3)]
    problems = []
    list(iter_results(_write(tmp_path, "<result number='1'>\n<response><bullet>a &eacute;\n"), problems))
    assert [(p.rule, p.line) for p in problems] == [("entity-refused", 2)]


def test_results_stream_before_the_file_ends(tmp_path):
    # a broken tail does not stop earlier results from being yielded, in order
    p = _write(tmp_path, GUIDELINE_STYLE + "<result number='1.003'><response><bullet>x</bullet>\n<oops")
    problems = []
    got = [r.topic_id for r in iter_results(p, problems)]
    assert got == ["1.001", "1.002"] and problems[-1].rule == "not-well-formed"
    with pytest.raises(ProblemsError) as exc:  # without a list: raised after the last result
        list(iter_results(p))
    assert exc.value.problems[-1].rule == "not-well-formed" and exc.value.line == problems[-1].line


def test_read_run_collects_every_error(tmp_path):
    text = GUIDELINE_STYLE.replace('offset="1207"', 'offset="12x"').replace("<bullet>Before", "<bullet foo='1'>Before")
    with pytest.raises(ProblemsError) as exc:
        read_run(_write(tmp_path, text))
    assert [p.rule for p in exc.value.problems] == ["source-bad-offset", "unknown-attribute"]
    assert "(and 1 more errors)" in str(exc.value)
    found = []
    run = read_run(_write(tmp_path, text), found)  # with a list: no raise, records kept
    assert len(found) == 2 and run.results["1.001"].bullets[0].sources == ()


def test_offsets_must_be_plain_integers(tmp_path):
    for raw in ["+12", " 12", "1_000", "١٢", "1e3", "9" * 16, "0x10"]:
        problems = []
        list(iter_results(_write(tmp_path, f'<result number="1"><response><bullet>a<source post="t" '
                                           f'offset="{raw}"/></bullet></response></result>'), problems))
        assert [p.rule for p in problems] == ["source-bad-offset"], raw


def test_write_read_round_trip_and_validates(tmp_path):
    results = {
        "1.001": Result("1.001", (Bullet(1, "The committee approved the new bridge in March.",
                                         (Source(THREAD, 148),)),
                                  Bullet(2, "approved the  new\nbridge <&> \x01", (Source(THREAD, 148), Source(THREAD, 360))))),
        "1.002": Result("1.002", ()),
    }
    out = tmp_path / "out" / "run.xml"
    write_run("sys-1", results, out, system="main -- v1", settings="k=10 --x-")
    run = read_run(out)
    assert run.run_id == "sys-1" and list(run.results) == ["1.001", "1.002"]
    assert run.results["1.001"].bullets[1].text == "approved the new bridge <&>"
    assert run.results["1.001"].bullets[1].sources == (Source(THREAD, 148), Source(THREAD, 360))
    assert run.results["1.002"].bullets == ()
    text = out.read_text(encoding="utf-8")
    assert "<!-- system: main - - v1 -->" in text and "<!-- settings: k=10 - -x -->" in text
    from indexing.corpus import open_corpus

    report = validate_runs([out], TOPICS, open_corpus(paths=[str(CORPUS_DIR)]))
    assert report.errors == [] and [w.rule for w in report.warnings] == ["empty-response"]
    assert list(tmp_path.joinpath("out").iterdir()) == [out]  # no temp file left


def test_write_refuses_what_would_not_validate(tmp_path):
    out = tmp_path / "run.xml"
    out.write_text("old", encoding="utf-8")
    bad = [Result("1", (Bullet(1, "  ", (Source(THREAD, 1),)), Bullet(2, "x", ()), Bullet(3, "y", (Source("", -1),)))),
           Result("1", ())]
    with pytest.raises(ProblemsError) as exc:
        write_run("has space", bad, out)
    rules = [p.rule for p in exc.value.problems]
    assert rules == ["bad-run-id", "empty-bullet-text", "bullet-without-source", "source-missing-post",
                     "negative-offset", "duplicate-result"]
    assert out.read_text(encoding="utf-8") == "old"  # untouched


def test_size_limits_are_too_large(tmp_path, monkeypatch):
    # a text node over libxml2's 10 MB limit (huge_tree stays off)
    p = _write(tmp_path, '<result number="1"><response><bullet>' + "a" * 10_100_000
               + '<source post="x" offset="1"/></bullet></response></result>')
    problems = []
    assert list(iter_results(p, problems)) == []
    assert [(q.rule, q.line) for q in problems] == [("too-large", 1)]
    # too many bullets in one result stops reading (memory stays bounded by one result)
    monkeypatch.setattr(submission.parse, "MAX_BULLETS_PER_RESULT", 2)
    bullets = "".join(f'<bullet>b{i}<source post="x" offset="{i}"/></bullet>\n' for i in range(3))
    problems = []
    list(iter_results(_write(tmp_path, f'<result number="1"><response>\n{bullets}</response></result>'), problems))
    assert [(q.rule, q.line) for q in problems] == [("too-large", 4)]
    # a file over max_bytes is refused before parsing
    problems = []
    list(iter_results(_write(tmp_path, GUIDELINE_STYLE), problems, max_bytes=100))
    assert [q.rule for q in problems] == ["too-large"]


def test_records_know_only_the_new_names_and_files_keep_their_keys(tmp_path):
    """A citation's thread is ``Source.thread`` (``<source post=...>``), a topic's id ``topic_id``
    (``<topic number=...>``, ``<result number=...>``, the judgments' ``topic``); no other name reads them."""
    from bolt.formats.topics import Topic, read_topics, write_topics
    from evaluation.judgments import Judgment

    s, t, r = Source("bolt-eng-DF-1-2-3", 5), Topic("7.001", "what?"), Result("7.001", ())
    j = Judgment("7.001", "run", 1, "a", (), 0, 0, ())
    assert not any(hasattr(obj, old) for obj, old in ((s, "post"), (t, "number"), (r, "number"), (j, "topic")))
    assert j.to_json()["topic"] == "7.001"
    write_topics([t], tmp_path / "t.xml")
    assert '<topic number="7.001">' in (tmp_path / "t.xml").read_text(encoding="utf-8")
    assert read_topics(tmp_path / "t.xml")[0].topic_id == "7.001"
    write_run("r", [Result("7.001", (Bullet(1, "x", (s,)),))], tmp_path / "r.xml")
    text = (tmp_path / "r.xml").read_text(encoding="utf-8")
    assert '<result number="7.001">' in text and '<source post="bolt-eng-DF-1-2-3" offset="5"/>' in text
    assert read_run(tmp_path / "r.xml").results["7.001"].bullets[0].sources[0] == s
