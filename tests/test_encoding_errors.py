"""Real-shaped LDC forum files with faults: bytes that are not UTF-8 and repeated threads.

The files are written here in the BOLT layout (concatenated ``<doc>`` elements, no root, no XML
declaration) with Windows-1252 bytes inside posts, as LDC-derived files hold them; no LDC text.
"""
from __future__ import annotations

import json

import pytest

from indexing.errors import CorpusError, ToolkitError
from indexing.reader import BadThreads, read_threads

CLEAN = "bolt-eng-DF-7-700-1"
DIRTY = "bolt-eng-DF-7-700-2"
# post p2 of DIRTY: 0x92 0x93 0x94 0x97 are Windows-1252 punctuation, 0x81 is undefined there,
# and 0xE2 0x80 is a UTF-8 sequence cut short (two bytes that begin a three-byte character)
DIRTY_P2 = (b"The river bridge wasn\x92t safe, the mayor said, \x93at all\x94 \x97 caf\xe9 \x81 "
            b"\xe2\x80 closed. Engineers from the county inspected the river bridge on Tuesday.")
P2_CP1252 = ("The river bridge wasn\u2019t safe, the mayor said, \u201cat all\u201d \u2014 caf\u00e9 \ufffd "
             "\u00e2\u20ac closed. Engineers from the county inspected the river bridge on Tuesday.")
P2_REPLACE = ("The river bridge wasn\ufffdt safe, the mayor said, \ufffdat all\ufffd \ufffd caf\ufffd \ufffd "
              "\ufffd\ufffd closed. Engineers from the county inspected the river bridge on Tuesday.")
BAD_BYTES_P2 = 8


def thread_bytes(tid: str, posts: list[bytes], head: bytes = b"news") -> bytes:
    out = f'<doc id="{tid}">\n<headline>\n'.encode() + head + b"\n</headline>\n"
    for i, p in enumerate(posts, 1):
        out += (f'<post author="u{i}" datetime="2012-05-0{i}T10:00:00" id="p{i}">\n').encode() + p + b"\n</post>\n"
    return out + b"</doc>\n"


CLEAN_DOC = thread_bytes(CLEAN, [b"The flood in Riverton destroyed the old river bridge on Monday.",
                                 b"Rescue teams arrived in Riverton the next day."])
DIRTY_DOC = thread_bytes(DIRTY, [b"Did the flood damage the river bridge?", DIRTY_P2])


@pytest.fixture
def dirty_file(tmp_path):
    f = tmp_path / "forum.xml"
    f.write_bytes(CLEAN_DOC + DIRTY_DOC)
    return f


# --------------------------------------------------------------------------- strict


def test_strict_error_names_file_line_thread_post_byte_and_option(dirty_file):
    with pytest.raises(CorpusError) as e:
        read_threads(dirty_file)
    err = e.value
    data = dirty_file.read_bytes()
    at = data.index(b"\x92")
    assert err.file == str(dirty_file) and err.thread == DIRTY
    assert err.line == data[:at].count(b"\n") + 1  # the line of the bad byte
    msg = str(err)
    assert f"invalid UTF-8 byte 0x92 at byte {at} of the file (in post p2)" in msg
    assert "--encoding-errors cp1252" in msg and "--encoding-errors replace" in msg


def test_strict_error_before_the_first_post(tmp_path):
    f = tmp_path / "head.xml"
    f.write_bytes(thread_bytes(DIRTY, [b"fine"], head=b"caf\xe9"))
    with pytest.raises(CorpusError, match="before the first post"):
        read_threads(f)


def test_strict_skip_bad_skips_only_the_dirty_thread(dirty_file):
    bad = BadThreads()
    kept = read_threads(dirty_file, skip_bad=True, bad=bad)
    assert [t.id for t in kept] == [CLEAN] and len(bad) == 1 and bad.errors[0].thread == DIRTY


# --------------------------------------------------------------------------- lenient


def _p2(thread):
    post = thread.posts[1]
    body = thread.raw[post.start:post.end]
    return body[body.index(">\n") + 2: body.rindex("\n</post>")]


def test_cp1252_reads_each_bad_byte_as_its_windows_1252_character(dirty_file):
    bad = BadThreads()
    clean, dirty = read_threads(dirty_file, encoding_errors="cp1252", bad=bad)
    assert _p2(dirty) == P2_CP1252
    assert clean.raw == CLEAN_DOC.decode().rstrip("\n")
    assert [(r.thread, r.bytes) for r in bad.repaired] == [(DIRTY, BAD_BYTES_P2)]
    assert bad.counts() == {"encoding_errors": "cp1252", "threads_repaired": 1, "bad_bytes": BAD_BYTES_P2,
                            "duplicates_read_once": 0, "skipped": 0}
    assert bad.warnings() == [f"{dirty_file}:{dirty.line}: thread {DIRTY}: {BAD_BYTES_P2} bytes not UTF-8, "
                              "read as cp1252 (one character each)"]


def test_replace_gives_one_replacement_character_per_byte(dirty_file):
    _, dirty = read_threads(dirty_file, encoding_errors="replace")
    assert _p2(dirty) == P2_REPLACE
    # Python's own 'replace' would fold the cut-short E2 80 into ONE U+FFFD: offsets would move
    assert len(DIRTY_P2.decode("utf-8", "replace")) == len(P2_REPLACE) - 1


def test_both_lenient_policies_give_the_same_offsets(dirty_file):
    (_, a), (_, b) = (read_threads(dirty_file, encoding_errors=p) for p in ("cp1252", "replace"))
    assert len(a.raw) == len(b.raw) == len(DIRTY_DOC) - 1  # ASCII and bad bytes only (one character each); raw ends at </doc>
    assert [(p.id, p.start, p.end) for p in a.posts] == [(p.id, p.start, p.end) for p in b.posts]
    # the sentence after the repairs starts at the same code point: its byte offset, as every byte
    # before it is ASCII or a bad byte (one character each)
    s = "Engineers from the county"
    assert a.raw.index(s) == b.raw.index(s) == len(DIRTY_DOC[:DIRTY_DOC.index(s.encode())])
    assert a.text_at(a.raw.index(s)).startswith(s) and b.text_at(b.raw.index(s)).startswith(s)


def test_unknown_policy_is_refused(dirty_file):
    with pytest.raises(ToolkitError, match="unknown encoding-errors policy"):
        read_threads(dirty_file, encoding_errors="latin-1")


def test_bad_byte_split_across_read_chunks(tmp_path, monkeypatch):
    """A bad byte or a cut-short sequence at a chunk boundary is still one character per byte."""
    import indexing.reader as reader

    f = tmp_path / "forum.xml"
    f.write_bytes(CLEAN_DOC + DIRTY_DOC)
    whole = read_threads(f, encoding_errors="cp1252")
    cut = len(CLEAN_DOC) + DIRTY_DOC.index(b"\xe2\x80") + 1  # between E2 and 80
    monkeypatch.setattr(reader, "CHUNK", cut)
    assert [t.raw for t in read_threads(f, encoding_errors="cp1252")] == [t.raw for t in whole]


# --------------------------------------------------------------------------- repeated threads


def test_identical_repeat_is_read_once_with_a_warning(tmp_path):
    f = tmp_path / "rep.xml"
    f.write_bytes(CLEAN_DOC + DIRTY_DOC + CLEAN_DOC)
    bad = BadThreads()
    threads = read_threads(f, encoding_errors="cp1252", bad=bad)
    assert [t.id for t in threads] == [CLEAN, DIRTY]
    second_line = (CLEAN_DOC + DIRTY_DOC).count(b"\n") + 1
    assert [(d.thread, d.line, d.first_line) for d in bad.duplicates] == [(CLEAN, second_line, 1)]
    assert bad.warnings()[-1] == (f"{f}:{second_line}: thread {CLEAN}: identical copy of the thread at {f}:1; "
                                  "read once")


def test_different_contents_under_one_id_name_both_places(tmp_path):
    a, b = tmp_path / "a.xml", tmp_path / "b.xml"
    a.write_bytes(CLEAN_DOC)
    b.write_bytes(DIRTY_DOC + CLEAN_DOC.replace(b"Monday", b"Sunday"))
    with pytest.raises(CorpusError) as e:
        read_threads([a, b], encoding_errors="cp1252")
    line = DIRTY_DOC.count(b"\n") + 1
    assert (e.value.file, e.value.line, e.value.thread) == (str(b), line, CLEAN)
    assert f"different contents (first copy at {a}:1)" in str(e.value)
    bad = BadThreads()
    kept = read_threads([a, b], encoding_errors="cp1252", skip_bad=True, bad=bad)
    assert [t.id for t in kept] == [CLEAN, DIRTY] and len(bad) == 1


def test_a_repeat_differing_only_inside_a_long_thread_is_found(tmp_path):
    """Equal length and equal ends are not enough: the first copy (here in a gzip file) is compared in full."""
    import gzip

    body = b" ".join(b"word%d" % i for i in range(600))
    long_doc = thread_bytes(CLEAN, [body, b"short reply"])
    changed = long_doc.replace(b"word300 ", b"WORD300 ")
    assert len(changed) == len(long_doc)
    first = tmp_path / "a.xml.gz"
    first.write_bytes(gzip.compress(DIRTY_DOC + long_doc))
    (tmp_path / "same.xml").write_bytes(long_doc)
    (tmp_path / "changed.xml").write_bytes(changed)
    bad = BadThreads()
    assert [t.id for t in read_threads([first, tmp_path / "same.xml"], encoding_errors="cp1252", bad=bad)] == \
        [DIRTY, CLEAN]
    assert [(d.file, d.first_file, d.first_line) for d in bad.duplicates] == \
        [(str(tmp_path / "same.xml"), str(first), DIRTY_DOC.count(b"\n") + 1)]
    with pytest.raises(CorpusError, match="different contents"):
        read_threads([first, tmp_path / "changed.xml"], encoding_errors="cp1252")


def test_corpus_stats_counts_both_faults(tmp_path, capsys):
    from bolt.cli import main

    f = tmp_path / "rep.xml"
    f.write_bytes(CLEAN_DOC + DIRTY_DOC + CLEAN_DOC)
    assert main(["corpus", "stats", str(f), "--json"]) == 1  # strict: stops at the bad byte
    assert "--encoding-errors" in capsys.readouterr().err
    assert main(["corpus", "stats", str(f), "--json", "--encoding-errors", "replace"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert out["threads"] == 2 and out["posts"] == 4
    assert out["read"] == {"encoding_errors": "replace", "threads_repaired": 1, "bad_bytes": BAD_BYTES_P2,
                           "duplicates_read_once": 1, "skipped": 0}
    assert cap.err.count("warning: ") == 2


def test_corpus_show_reads_a_repaired_thread(dirty_file, capsys):
    from bolt.cli import main

    _, dirty = read_threads(dirty_file, encoding_errors="cp1252")
    at = dirty.raw.index("wasn")
    assert main(["corpus", "show", str(dirty_file), "--post", DIRTY, "--offset", str(at), "--json",
                 "--encoding-errors", "cp1252"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["post"] == "p2" and out["text"].startswith("wasn\u2019t safe, the mayor said, \u201cat all\u201d")


# --------------------------------------------------------------------------- the real file


def test_real_tac2013_file_reads_86_threads_under_cp1252(real_samples):
    path = real_samples / "bolt-eng-DF-tac2013-sentiment.xml"
    if not path.exists():
        pytest.skip("bolt-eng-DF-tac2013-sentiment.xml is absent")
    with pytest.raises(CorpusError, match="--encoding-errors cp1252"):
        read_threads(path)
    bad = BadThreads()
    threads = read_threads(path, encoding_errors="cp1252", bad=bad)
    assert len(threads) == 86 and sum(len(t.posts) for t in threads) == 3811
    assert len(bad.repaired) == 24 and not bad.duplicates and not bad.errors
    replaced = read_threads(path, encoding_errors="replace")
    assert [(t.id, len(t.raw), [p.start for p in t.posts]) for t in threads] == \
        [(t.id, len(t.raw), [p.start for p in t.posts]) for t in replaced]


# --------------------------------------------------------------------------- index, run, validate


@pytest.fixture(scope="module")
def lenient_index(tmp_path_factory):
    """A collection with a repaired thread and a repeated one, indexed under cp1252 by the CLI."""
    from bolt.cli import main

    root = tmp_path_factory.mktemp("lenient")
    (root / "coll").mkdir()
    (root / "coll" / "forum.xml").write_bytes(CLEAN_DOC + DIRTY_DOC + CLEAN_DOC)
    (root / "topics.xml").write_text('<topics>\n<topic number="T1"><query>Is the river bridge safe after the '
                                     'flood?</query></topic>\n</topics>\n', encoding="utf-8")
    assert main(["index", str(root / "coll"), "--out", str(root / "strict"), "--backend", "bm25",
                 "--no-progress", "--no-vectors"]) == 1
    assert main(["index", str(root / "coll"), "--out", str(root / "idx"), "--backend", "bm25", "--no-progress",
                 "--no-vectors", "--encoding-errors", "cp1252"]) == 0
    return root


def test_index_records_the_policy_and_the_faults(lenient_index):
    m = json.loads((lenient_index / "idx" / "manifest.json").read_text(encoding="utf-8"))
    assert m["settings"]["encoding_errors"] == "cp1252"
    assert m["read"] == {"encoding_errors": "cp1252", "threads_repaired": 1, "bad_bytes": BAD_BYTES_P2,
                         "duplicates_read_once": 1, "skipped": 0}
    assert m["counts"]["eng"]["threads"] == 2 and len(m["warnings"]) == 2


def test_run_then_validate_a_repaired_thread_under_the_same_policy(lenient_index, capsys):
    from bolt.cli import main
    from bolt.formats.submission import read_run

    root = lenient_index
    out = root / "run.xml"
    args = ["run", "--index", str(root / "idx"), "--topics", str(root / "topics.xml"), "--out", str(out),
            "--system", "bm25-sentences"]
    assert main(args + ["--encoding-errors", "replace"]) == 1  # not the index's policy: refused with the fix
    assert "pass --encoding-errors cp1252" in capsys.readouterr().err
    assert main(args) == 0
    assert "as recorded in" in capsys.readouterr().err
    cited = {b.text: (s.thread, s.offset) for b in read_run(out).results["T1"].bullets for s in b.sources}
    _, dirty = read_threads(root / "coll", encoding_errors="cp1252")[:2]
    engineers = "Engineers from the county inspected the river bridge on Tuesday."
    assert cited[engineers] == (DIRTY, dirty.raw.index(engineers))
    repaired = next(t for t in cited if t.startswith("The river bridge wasn\u2019t"))
    assert cited[repaired] == (DIRTY, dirty.raw.index("The river bridge wasn"))
    val = ["validate", str(out), "--topics", str(root / "topics.xml")]
    assert main(val + ["--corpus", str(root / "coll")]) == 1  # strict: the thread cannot be read
    assert "--encoding-errors cp1252" in capsys.readouterr().err
    for policy in ("cp1252", "replace"):  # the offsets are the same under both lenient policies
        assert main(val + ["--corpus", str(root / "coll"), "--encoding-errors", policy]) == 0
        assert "valid: 0 errors, 0 warnings" in capsys.readouterr().err
    assert main(val + ["--index", str(root / "idx")]) == 0
    assert main(val + ["--index", str(root / "idx"), "--encoding-errors", "strict"]) == 1
    assert "differs from the policy" in capsys.readouterr().err


# --------------------------------------------------------------------------- assess and judge: the round trip

UNSAFE = "The river bridge wasn\u2019t safe, the mayor said"  # as cp1252 reads post p2 of DIRTY


def _full_topics(root, offset: int):
    path = root / "full-topics.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<topics>\n<topic number="T1">\n'
        '  <query>Is the river bridge safe after the flood?</query>\n'
        '  <description>Whether the river bridge can be used after the flood.</description>\n'
        '  <facet id="1" importance="vital">\n    <desc>The mayor said the river bridge was not safe.</desc>\n'
        f'    <nugget post="{DIRTY}" offset="{offset}">{UNSAFE}</nugget>\n  </facet>\n'
        '</topic>\n</topics>\n', encoding="utf-8")
    return path


def _judge_args(*argv: str):
    import argparse

    from evaluation.commands import judge

    parser = argparse.ArgumentParser()
    judge.add_arguments(parser)
    return parser.parse_args([str(a) for a in argv])


def test_offsets_in_a_repaired_thread_round_trip_through_assess_and_judge(lenient_index, tmp_path, capsys):
    """run -> validate (above) -> assess -> judge, one policy throughout, recorded in the files."""
    from bolt.cli import main
    from evaluation.commands.judge import build_session
    from evaluation.judgments import read_header, read_judgments

    root = lenient_index
    run = root / "rt-run.xml"
    assert main(["run", "--index", str(root / "idx"), "--topics", str(root / "topics.xml"), "--out", str(run),
                 "--system", "bm25-sentences", "--quiet"]) == 0
    _, dirty = read_threads(root / "coll", encoding_errors="cp1252")[:2]
    at = dirty.raw.index("The river bridge wasn")
    topics = _full_topics(tmp_path, at)
    judged = tmp_path / "auto.jsonl"
    assess = ["assess", str(run), "--topics", str(topics), "--out", str(judged), "--decision", "overlap",
              "--no-semantic", "--no-crosslingual", "--quiet", "--json"]
    assert main(assess + ["--corpus", str(root / "coll")]) == 1  # strict: the cited thread is unreadable
    assert "--encoding-errors cp1252" in capsys.readouterr().err
    assert main(assess + ["--corpus", str(root / "coll"), "--encoding-errors", "cp1252"]) == 0
    capsys.readouterr()
    assert read_header(judged)["encoding_errors"] == "cp1252"
    js = {j.bullet: j for j in read_judgments(judged)}
    unsafe = next(j for j in js.values() if any(s.post == DIRTY and s.offset == at for s in j.sources))
    assert unsafe.facets == ("1",) and [s.supports for s in unsafe.sources] == [True]
    assert [s.unit for s in unsafe.sources] == ["p2"]
    # the index records cp1252 too: the same judgments come from it
    judged_ix = tmp_path / "auto-ix.jsonl"
    assert main(assess[:5] + [str(judged_ix)] + assess[6:] + ["--index", str(root / "idx")]) == 0
    capsys.readouterr()
    assert [j.facets for j in read_judgments(judged_ix)] == [j.facets for j in read_judgments(judged)]

    # score places citations in posts from the collection: read as the judgments were
    score = ["score", str(run), "--topics", str(topics), "--judgments", str(judged), "--corpus", str(root / "coll"),
             "--json"]
    assert main(score + ["--encoding-errors", "replace"]) == 1
    assert "differs from the policy" in capsys.readouterr().err
    assert main(score) == 0
    assert json.loads(capsys.readouterr().out)["settings"]["units"] == "corpus"

    # judge: the machine's judgments were made under cp1252; a different policy is refused with the fix
    out = tmp_path / "human.jsonl"
    common = [run, "--topics", topics, "--corpus", root / "coll", "--out", out, "--prefill", judged,
              "--assessor", "tester"]
    with pytest.raises(ToolkitError, match="differs from the policy") as e:
        build_session(_judge_args(*common, "--encoding-errors", "replace"))
    assert "--encoding-errors cp1252" in e.value.hint
    session = build_session(_judge_args(*common))  # left out: the judgments' policy, said in a note
    assert f"reading with --encoding-errors cp1252, as recorded in {judged}" in capsys.readouterr().err
    view = session.topic_view("T1")
    item = next(it for it in view["items"] if it["text"].startswith("The river bridge wasn\u2019t"))
    (src,) = item["sources"]
    assert src["post"] == "p2"
    segs = src["segments"]
    cite = next(i for i, s in enumerate(segs) if s["cite"])
    assert segs[cite]["t"].startswith(UNSAFE) and segs[cite]["hl"]  # the cited text, lit, at the offset
    session.save()
    assert read_header(out)["encoding_errors"] == "cp1252"
    session.lock_file.close()


def test_resolve_policy_rules():
    from indexing.encoding import resolve_policy

    assert resolve_policy(None, []) == ("strict", None)
    assert resolve_policy("replace", []) == ("replace", None)
    assert resolve_policy(None, [(None, "old.jsonl")]) == ("strict", None)  # records none: no constraint
    assert resolve_policy("cp1252", [(None, "old.jsonl"), ("cp1252", "idx")]) == ("cp1252", None)
    assert resolve_policy(None, [("strict", "idx")]) == ("strict", None)
    policy, note = resolve_policy(None, [("cp1252", "idx")])
    assert policy == "cp1252" and note == "reading with --encoding-errors cp1252, as recorded in idx"
    with pytest.raises(ToolkitError, match="idx was made with --encoding-errors cp1252 but a.jsonl with replace"):
        resolve_policy(None, [("cp1252", "idx"), ("replace", "a.jsonl")])
    with pytest.raises(ToolkitError, match="unknown encoding-errors policy"):
        resolve_policy("utf-16", [])
