"""One rule catalogue per format, and one name per fault across formats (issue 15)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bolt.formats.submission import RULES as SUBMISSION_RULES, read_run
from indexing.problems import ProblemsError, RuleCatalogue
from bolt.formats.topic_rules import RULES as TOPIC_RULES
from bolt.formats.topics import check_topics
from bolt.formats.votes import RULES as VOTES_RULES, read_votes
from evaluation.judgments import RULES as JUDGMENT_RULES

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_submission_catalogue_is_whole_without_the_validator():
    """The validator's rules are declared with the others, not added when bolt.formats.validate is imported."""
    code = ("import sys, bolt.formats.submission as s; assert 'bolt.formats.validate' not in sys.modules; "
            "print(' '.join(sorted(s.RULES)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert {"unknown-topic", "missing-result", "duplicate-run-id", "unknown-thread", "text-not-near-offset",
            "not-well-formed"} <= set(out)
    assert set(out) == set(SUBMISSION_RULES)


def test_a_rule_is_registered_once():
    cat = RuleCatalogue("x")
    cat.register("a-rule", "error", "a")
    with pytest.raises(ValueError, match="already registered"):
        cat.register("a-rule", "warning", "b")
    with pytest.raises(KeyError):
        cat.problem("no-such-rule", "f", 1, "m")
    assert cat.problem("a-rule", "f", 1, "two\nlines").message == "two lines"


@pytest.mark.parametrize("body, rule", [
    (b"<topic number=\"1\"><query>caf\xe9</query></topic>", "invalid-utf8"),
    (b"<!DOCTYPE t [<!ENTITY x \"y\">]><topic number=\"1\"><query>Q</query></topic>", "doctype-refused"),
    (b"<topic number=\"1\"><query>Q</query>", "not-well-formed"),
])
def test_a_fault_has_one_name_in_topic_files_and_runs(tmp_path, body, rule):
    topics = tmp_path / "topics.xml"
    topics.write_bytes(body)
    run = tmp_path / "run.xml"
    run.write_bytes(body.replace(b"topic", b"result").replace(b"query", b"response"))
    assert [p.rule for p in check_topics(topics)] == [rule]
    with pytest.raises(ProblemsError) as exc:
        read_run(run)
    assert exc.value.problems[0].rule == rule
    assert rule in SUBMISSION_RULES and rule in TOPIC_RULES


def test_shared_names_mean_the_same_severity():
    for other in (TOPIC_RULES, VOTES_RULES, JUDGMENT_RULES):
        for name in set(other) & set(SUBMISSION_RULES):
            assert other[name].severity == SUBMISSION_RULES[name].severity, name


def test_a_votes_file_that_is_not_utf8_says_so(tmp_path):
    p = tmp_path / "votes.tsv"
    p.write_bytes(b"topic\tfacet\tassessor\tvote\n1\t1\tA\tvit\xe9l\n")
    with pytest.raises(ProblemsError) as exc:
        read_votes(p)
    assert [q.rule for q in exc.value.problems] == ["invalid-utf8"]


def test_every_topic_rule_is_documented():
    text = (DOCS / "topics.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`", text))
    assert set(TOPIC_RULES) <= documented, set(TOPIC_RULES) - documented


# Every name bolt/submission.py and evaluation/judgments.py defined before they became packages
# (issue 15); other modules and branches import them from the package.
SUBMISSION_NAMES = """Source Bullet Result Run Rule RULES register_rule FILE_UNREADABLE EMPTY_FILE INVALID_UTF8
BAD_ENCODING_DECLARATION DOCTYPE_REFUSED ENTITY_REFUSED NOT_WELL_FORMED TOO_LARGE UNKNOWN_ELEMENT UNKNOWN_ATTRIBUTE
MISPLACED_ELEMENT MIXED_ROOTS BAD_RUN_ID TEXT_OUTSIDE_BULLET NO_RESULTS MISSING_TOPIC_NUMBER DUPLICATE_RESULT
MISSING_RESPONSE MULTIPLE_RESPONSES EMPTY_RESPONSE EMPTY_BULLET_TEXT BULLET_WITHOUT_SOURCE DUPLICATE_BULLET
SOURCE_MISSING_POST SOURCE_MISSING_OFFSET SOURCE_BAD_OFFSET NEGATIVE_OFFSET SOURCE_HAS_CONTENT DUPLICATE_SOURCE
ELEMENTS ATTRIBUTES PARENT MAX_BULLETS_PER_RESULT MAX_ELEMENTS_PER_RESULT MAX_BULLET_CHARS MAX_OFFSET_DIGITS
MAX_RUN_ID_CHARS CHUNK_BYTES collapse _problem check_result run_id_from_path SubmissionReader iter_results read_run
clean_text write_run RunHeader read_header""".split()
JUDGMENT_NAMES = """META_KEY REQUIRED_KEYS SOURCE_REQUIRED_KEYS JudgedSource Judgment JudgmentSet gc_paused
parse_judgment iter_judgments read_judgments read_header load_judgments file_sha256 dumps_judgment write_judgments
HOLISTIC_COLUMNS HolisticJudgment read_holistic ERROR Problem ProblemsError""".split()


def test_the_packages_keep_every_former_name():
    import bolt.formats.submission
    import evaluation.judgments

    assert [n for n in SUBMISSION_NAMES if not hasattr(bolt.formats.submission, n)] == []
    assert [n for n in JUDGMENT_NAMES if not hasattr(evaluation.judgments, n)] == []
    assert set(bolt.formats.submission.__all__) <= set(dir(bolt.formats.submission))
    assert set(evaluation.judgments.__all__) <= set(dir(evaluation.judgments))


def test_every_judgments_rule_is_documented():
    text = (DOCS / "judgments.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`", text))
    assert set(JUDGMENT_RULES) <= documented, set(JUDGMENT_RULES) - documented
