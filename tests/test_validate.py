"""bolt validate: one invalid submission per rule, hostile input, the corpus checks and the CLI."""
from __future__ import annotations

import json
import os
import re
import socket
import threading
from pathlib import Path

import pytest

from bolt import cli
from indexing.problems import ERROR, WARNING
from bolt.formats.submission import RULES
from bolt.formats.validate import CORPUS_RULES, text_follows, validate_runs, validate_topics, words

DATA = Path(__file__).parent / "data"
INVALID = DATA / "invalid_submissions"
TOPICS = DATA / "validate_topics.xml"
VALID = DATA / "validate_valid.xml"
CORPUS_DIR = DATA / "validate_corpus"
THREAD = "bolt-eng-DF-900-100001-1000001"
EXPECTED = json.loads((INVALID / "expected.json").read_text(encoding="utf-8"))
DOCS = Path(__file__).resolve().parents[1] / "docs" / "submissions.md"


@pytest.fixture(scope="module")
def corpus():
    from indexing.corpus import open_corpus

    return open_corpus(paths=[str(CORPUS_DIR)])


# ------------------------------------------------------------------ one file per rule


def test_invalid_corpus_covers_thirty_rules():
    rules = {e["rule"] for e in EXPECTED.values()}
    assert len(EXPECTED) >= 30 and len(rules) == len(EXPECTED)
    # every registered rule has its file, except file-unreadable (a missing path, tested below)
    assert set(RULES) - rules == {"file-unreadable"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_invalid_submission_yields_its_rule_and_line(name, corpus):
    e = EXPECTED[name]
    paths = [INVALID / a for a in e.get("also", [])] + [INVALID / name]
    report = validate_runs(paths, TOPICS, corpus if e["corpus"] else None)
    hits = [p for p in report.problems if p.rule == e["rule"]]
    assert hits, [p.format() for p in report.problems]
    assert hits[0].line == e["line"], hits[0].format()
    assert hits[0].file == str(INVALID / name)
    severity = RULES[e["rule"]].severity
    assert hits[0].severity == severity
    assert report.valid == (severity == WARNING)
    # the rule's own finding comes first among the errors of this file (one rule per file)
    errors = [p for p in report.errors if p.file == str(INVALID / name)]
    if severity == ERROR:
        assert min(errors, key=lambda p: p.line or 0).rule == e["rule"] or errors[0].rule == e["rule"]
    assert hits[0].message and ";" in hits[0].message + ";"  # says what to do


def test_topic_and_bullet_are_named(corpus):
    report = validate_runs([INVALID / "bullet-without-source.xml"], TOPICS)
    (p,) = report.errors
    assert (p.topic, p.bullet, p.line) == ("1.001", 1, 4)
    assert p.format().startswith(f"error: {INVALID / 'bullet-without-source.xml'}:4: topic 1.001 bullet 1: ")
    assert p.format().endswith("[bullet-without-source]")


def test_unknown_topic_suggests_the_closest_number():
    report = validate_runs([INVALID / "unknown-topic.xml"], TOPICS)
    (p,) = [p for p in report.errors if p.rule == "unknown-topic"]
    assert "did you mean 1.002?" in p.message


def test_missing_file_is_reported_not_raised(tmp_path):
    report = validate_runs([tmp_path / "nope.xml"], TOPICS)
    assert [p.rule for p in report.errors] == ["file-unreadable"]
    assert not report.valid


def test_every_rule_is_documented():
    text = DOCS.read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z0-9-]+)` \|", text, flags=re.M))
    assert set(RULES) <= documented, set(RULES) - documented


# ------------------------------------------------------------------ valid input, corpus checks


def test_valid_run_with_corpus_has_no_findings(corpus):
    report = validate_runs([VALID], TOPICS, corpus)
    assert report.valid and report.errors == [] and report.warnings == []
    assert report.skipped_checks == []
    assert (report.results, report.bullets) == (2, 3)


def test_without_corpus_says_which_checks_it_skipped():
    report = validate_runs([VALID], TOPICS)
    assert report.valid
    assert report.skipped_checks == list(CORPUS_RULES)


def test_offset_three_words_before_text_is_accepted_four_is_not(corpus, tmp_path):
    # p1 text at 148: "The committee approved the new bridge in March ..."
    def run(offset: int, text: str):
        f = tmp_path / "r.xml"
        f.write_text(f'<result number="1.001"><response><bullet>{text}<source post="{THREAD}" '
                     f'offset="{offset}"/></bullet></response></result>', encoding="utf-8")
        return [p.rule for p in validate_runs([f], TOPICS, corpus).warnings if p.rule != "missing-result"]

    assert run(148, "the new bridge in March") == []             # skips 3 words: The committee approved
    assert run(148, "new bridge in March after") == ["text-not-near-offset"]  # would skip 4 words
    assert run(155, "approved the new bridge") == []             # offset inside "committee": "mittee" skipped
    assert run(358, "Construction will start next spring & finish") == []  # &amp; decodes to &


def test_text_follows_hand_computed():
    bw = words("Bain Capital bought Ampad in 1992")
    assert text_follows("In 1992, Bain Capital bought Ampad from Mead", bw) is True   # skip 2 words
    assert text_follows("Mead sold Ampad to Bain Capital in 1992", bw) is False  # not the bullet's text
    assert text_follows("So, Bain Capital bought Ampad in 1992.", bw) is True   # skip 1 word
    assert text_follows("a b c Bain Capital bought Ampad", bw) is True           # skip 3 words
    assert text_follows("a b c d Bain Capital bought Ampad", bw) is False        # 4 words is too far
    assert text_follows("中国派出了救援队。", words("派出了救援队")) is True      # CJK: one word per character
    assert text_follows("end", words("end")) is True                            # end of post: fewer words


def test_offsets_in_quote_and_headline(corpus, tmp_path):
    f = tmp_path / "q.xml"
    raw = (CORPUS_DIR / f"{THREAD}.xml").read_text(encoding="utf-8")
    quote_at = raw.index("The committee", raw.index("<quote"))  # the quoted copy inside p2
    f.write_text(f'<result number="1.001"><response><bullet>The committee approved the new bridge'
                 f'<source post="{THREAD}" offset="{quote_at}"/></bullet></response></result>', encoding="utf-8")
    report = validate_runs([f], TOPICS, corpus)
    assert report.valid and [p.rule for p in report.warnings] == ["missing-result"]


# ------------------------------------------------------------------ topic files


def test_validate_topics_reports_topic_file_problems(tmp_path):
    bad = tmp_path / "t.xml"
    bad.write_text('<topics><topic><query>q</query></topic></topics>', encoding="utf-8")
    report = validate_topics(bad)
    assert not report.valid and "topic-number-missing" in [p.rule for p in report.errors]
    assert "nugget-thread-unknown" in report.skipped_checks
    assert validate_topics(TOPICS).valid


def test_bad_topic_file_makes_run_validation_fail_and_skip_topic_checks(tmp_path):
    bad = tmp_path / "t.xml"
    bad.write_text("<topics><topic number='1'>", encoding="utf-8")
    report = validate_runs([VALID], bad)
    assert not report.valid and report.errors[0].file == str(bad)
    assert "unknown-topic" in report.skipped_checks


# ------------------------------------------------------------------ hostile input


def test_xxe_file_entity_is_refused_without_opening_the_file(tmp_path):
    fifo = tmp_path / "secret.fifo"
    os.mkfifo(fifo)  # opening it for reading would block until a writer comes: we would hang
    run = tmp_path / "xxe.xml"
    run.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE results [\n<!ENTITY x SYSTEM "file://{fifo}">\n]>\n'
                   '<results><result number="1.001"><response><bullet>&x;<source post="a" offset="1"/>'
                   '</bullet></response></result></results>\n', encoding="utf-8")
    out = {}
    t = threading.Thread(target=lambda: out.setdefault("r", validate_runs([run], TOPICS)), daemon=True)
    t.start()
    t.join(20)
    if t.is_alive():  # unblock the reader, then fail
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("the parser opened the external entity")
    (p,) = out["r"].errors
    assert (p.rule, p.line) == ("doctype-refused", 2)
    with pytest.raises(OSError):  # ENXIO: nobody ever opened the FIFO for reading
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


def test_xxe_http_entity_opens_no_connection(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.5)
    port = server.getsockname()[1]
    run = tmp_path / "xxe.xml"
    run.write_text(f'<!DOCTYPE r [<!ENTITY % p SYSTEM "http://127.0.0.1:{port}/evil.dtd"> %p;]>\n'
                   '<result number="1.001"><response/></result>', encoding="utf-8")
    report = validate_runs([run], TOPICS)
    with pytest.raises(socket.timeout):
        server.accept()
    server.close()
    assert [(p.rule, p.line) for p in report.errors] == [("doctype-refused", 1)]


def test_billion_laughs_is_refused_at_the_doctype(tmp_path):
    ents = ['<!ENTITY lol "lol">'] + [f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 or "")) * 10}">' for i in range(1, 10)]
    run = tmp_path / "bomb.xml"
    run.write_text('<?xml version="1.0"?>\n<!DOCTYPE lolz [\n' + "\n".join(ents) + "\n]>\n"
                   '<results><result number="1.001"><response><bullet>&lol9;<source post="a" offset="1"/>'
                   "</bullet></response></result></results>", encoding="utf-8")
    report = validate_runs([run], TOPICS)
    assert [(p.rule, p.line) for p in report.errors] == [("doctype-refused", 2)]
    # the same bomb's references without the DTD are refused as undefined entities
    run.write_text('<result number="1.001"><response><bullet>&lol9;<source post="a" offset="1"/>'
                   "</bullet></response></result>", encoding="utf-8")
    assert [p.rule for p in validate_runs([run], TOPICS).errors] == ["entity-refused"]


def test_invalid_utf8_reports_byte_position_and_line(tmp_path):
    head = '<result number="1.001">\n<response>\n<bullet>naïve '.encode()
    run = tmp_path / "u.xml"
    run.write_bytes(head + b"\x80abc<source post='a' offset='1'/></bullet></response></result>")
    (p,) = validate_runs([run], TOPICS).errors
    assert p.rule == "invalid-utf8" and p.line == 3
    assert f"at byte {len(head)} " in p.message


def test_truncated_utf8_at_end_of_file(tmp_path):
    run = tmp_path / "u.xml"
    head = '<result number="1.001"><response/></result>\n'.encode()
    run.write_bytes(head + "中".encode()[:2])
    (p,) = validate_runs([run], TOPICS).errors
    assert p.rule == "invalid-utf8" and f"at byte {len(head)} " in p.message and p.line == 2


# ------------------------------------------------------------------ the command line


def _cli(capsys, *argv):
    code = cli.main(["validate", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_exit_codes_and_summary(capsys):
    code, out, err = _cli(capsys, VALID, "--topics", TOPICS, "--corpus", CORPUS_DIR)
    assert code == 0 and out == ""
    assert err.strip().splitlines()[-1] == "valid: 0 errors, 0 warnings in 1 file (2 results, 3 bullets)"
    code, out, err = _cli(capsys, INVALID / "duplicate-bullet.xml", "--topics", TOPICS)
    assert code == 1
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"error: {INVALID / 'duplicate-bullet.xml'}:5: topic 1.001 bullet 2: ")
    assert lines[1] == f"{INVALID / 'duplicate-bullet.xml'}: 1 error (duplicate-bullet: 1), 0 warnings"
    assert lines[-1].startswith("invalid: 1 error, 0 warnings in 1 file") and "skipped: unknown-thread" in lines[-1]
    code, out, err = _cli(capsys, INVALID / "empty-response.xml", "--topics", TOPICS)
    assert code == 0 and "warning:" in err


def test_cli_usage_error_is_2(capsys):
    assert _cli(capsys)[0] == 2  # neither runs nor --topics
    assert _cli(capsys, VALID, "--topics", TOPICS, "--corpus", CORPUS_DIR, "--index", "x")[0] == 2


def test_cli_json_shape(capsys):
    code, out, err = _cli(capsys, INVALID / "source-bad-offset.xml", INVALID / "duplicate-source.xml",
                          "--topics", TOPICS, "--json")
    doc = json.loads(out)
    assert code == 1 and set(doc) == {"valid", "errors", "warnings", "skipped_checks", "runs"}
    assert doc["valid"] is False
    assert doc["runs"] == {str(INVALID / n): {"system": None, "settings": None, "signature": None}
                           for n in ("source-bad-offset.xml", "duplicate-source.xml")}  # hand-written: no header
    (e,) = doc["errors"]
    assert e == {"file": str(INVALID / "source-bad-offset.xml"), "line": 4, "topic": "1.001", "bullet": 1,
                 "rule": "source-bad-offset", "message": e["message"]}
    assert [w["rule"] for w in doc["warnings"]] == ["duplicate-source"]
    assert doc["skipped_checks"] == list(CORPUS_RULES)


def test_cli_topics_only(capsys, tmp_path):
    code, out, err = _cli(capsys, "--topics", TOPICS)
    assert code == 0 and "skipped: nugget-thread-unknown" in err
    bad = tmp_path / "t.xml"
    bad.write_text("<topics><topic number='1'><query>q</query></topic><topic number='1'><query>r</query>"
                   "</topic></topics>", encoding="utf-8")
    code, out, err = _cli(capsys, "--topics", bad, "--json")
    assert code == 1 and json.loads(out)["errors"][0]["rule"] == "duplicate-topic"


def test_real_sample_citation_validates(real_samples, tmp_path, capsys):
    sample = real_samples / "ENG_DF_000200_20061121_G00A06WU8.xml"
    raw = sample.read_text(encoding="utf-8")
    at = raw.index("Any help would be appreciated")
    run = tmp_path / "real.xml"
    run.write_text(f'<results run="real"><result number="1.001"><response><bullet>Any help would be '
                   f'appreciated.<source post="ENG_DF_000200_20061121_G00A06WU8" offset="{at}"/></bullet>'
                   f'<bullet>f(x) = 2x for 0 &lt;= x &lt;= 1<source post="ENG_DF_000200_20061121_G00A06WU8" '
                   f'offset="{raw.index("f(x) = 2x")}"/></bullet></response></result></results>', encoding="utf-8")
    code, out, err = _cli(capsys, run, "--topics", TOPICS, "--corpus", sample, "--json")
    doc = json.loads(out)
    assert code == 0 and doc["errors"] == [] and [w["rule"] for w in doc["warnings"]] == ["missing-result"]
    assert raw.index("&lt;") == 339  # the published test vector: offsets count the escaped text
