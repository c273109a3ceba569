"""Fields renamed in code (the files' keys stay as SPEC says): the submission and topic records know
only the new names now that the pipeline writes them; the judgments' ``topic`` stays a read-only
alias (indexing.aliases.old_name) while its readers move."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from bolt.formats.submission import Result, Source
from bolt.formats.topics import Topic


def test_source_holds_a_thread_and_the_old_name_only_reads():
    s = Source("bolt-eng-DF-1-2-3", 17, 4)
    assert (s.thread, s.offset, s.line) == ("bolt-eng-DF-1-2-3", 17, 4)
    assert Source(thread="bolt-eng-DF-1-2-3", offset=17) == s  # line is not compared
    assert repr(Source("t", 1)) == "Source(thread='t', offset=1, line=0)"
    assert dataclasses.replace(s, offset=3) == Source("bolt-eng-DF-1-2-3", 3)
    assert pickle.loads(pickle.dumps(s)) == s
    assert s.post == s.thread  # a read-only alias for old scripts
    with pytest.raises(TypeError):
        Source(post="t", offset=1)  # type: ignore[call-arg]


def test_the_topic_id_has_one_name_in_code():
    """The topic file's ``number``, the run's ``number`` and the judgments' ``topic`` are ``topic_id``."""
    from evaluation.judgments import Judgment

    t = Topic("1.001", "q")
    assert t.topic_id == "1.001" and t.summary().topic_id == "1.001" and t.number == "1.001"  # read-only alias
    r = Result("1.001", ())
    assert r.topic_id == "1.001" and Result(topic_id="1.001", bullets=()) == r and r.number == "1.001"  # read-only alias
    for make in (lambda: Topic(number="1.001", query="q"), lambda: Result(number="1.001", bullets=())):
        with pytest.raises(TypeError):
            make()
    j = Judgment("1.001", "run", 1, "a", (), 0, 0, ())
    assert j.topic_id == j.topic == "1.001" and j.key == ("1.001", "run", 1)
    with pytest.raises((AttributeError, TypeError)):  # read-only (Python 3.11's slots dataclass says TypeError)
        j.topic = "1.002"  # type: ignore[misc]
    assert j.to_json()["topic"] == "1.001"  # the file's key stays (SPEC §5)


def test_the_pipeline_writes_the_new_names():
    from bolt.pipeline.run import to_result
    from bolt.pipeline.systems import DistilledBullet

    r = to_result("7.001", [DistilledBullet("x", (("bolt-eng-DF-1-2-3", 5),), 0.5, "eng")])
    assert r.topic_id == "7.001" and r.bullets[0].sources == (Source("bolt-eng-DF-1-2-3", 5),)


def test_files_keep_their_keys(tmp_path):
    from bolt.formats.submission import Bullet, read_run, write_run
    from bolt.formats.topics import read_topics, write_topics

    write_topics([Topic("7.001", "what?")], tmp_path / "t.xml")
    assert '<topic number="7.001">' in (tmp_path / "t.xml").read_text(encoding="utf-8")
    assert read_topics(tmp_path / "t.xml")[0].topic_id == "7.001"
    write_run("r", [Result("7.001", (Bullet(1, "x", (Source("bolt-eng-DF-1-2-3", 5),)),))], tmp_path / "r.xml")
    text = (tmp_path / "r.xml").read_text(encoding="utf-8")
    assert '<result number="7.001">' in text and '<source post="bolt-eng-DF-1-2-3" offset="5"/>' in text
    assert read_run(tmp_path / "r.xml").results["7.001"].bullets[0].sources[0].thread == "bolt-eng-DF-1-2-3"
