"""Fields renamed in code (the files' keys stay as SPEC says) keep their old names as read-only
aliases while the system's pipeline moves over (indexing.aliases.old_name)."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from bolt.formats.submission import Source


def test_source_holds_a_thread_and_keeps_post_as_an_alias():
    s = Source("bolt-eng-DF-1-2-3", 17, 4)
    assert (s.thread, s.offset, s.line) == ("bolt-eng-DF-1-2-3", 17, 4)
    assert s.post == "bolt-eng-DF-1-2-3"
    assert Source(post="bolt-eng-DF-1-2-3", offset=17) == s  # line is not compared
    assert repr(Source("t", 1)) == "Source(thread='t', offset=1, line=0)"
    assert dataclasses.replace(s, offset=3) == Source("bolt-eng-DF-1-2-3", 3)
    assert pickle.loads(pickle.dumps(s)) == s


def test_the_old_name_is_read_only_and_not_given_twice():
    s = Source("t", 1)
    with pytest.raises((AttributeError, TypeError)):  # frozen (Python 3.11's slots dataclass says TypeError)
        s.post = "u"  # type: ignore[misc]
    assert s.thread == "t"
    with pytest.raises(TypeError, match="not both"):
        Source(thread="t", post="u", offset=1)


def test_the_topic_id_has_one_name_in_code_and_the_old_ones_as_aliases():
    """The topic file's ``number``, the run's ``number`` and the judgments' ``topic`` are ``topic_id``."""
    from bolt.formats.submission import Result
    from bolt.formats.topics import Topic
    from evaluation.judgments import Judgment

    t = Topic("1.001", "q")
    assert t.topic_id == t.number == "1.001"
    assert t.summary().topic_id == "1.001"
    r = Result("1.001", ())
    assert r.topic_id == r.number == "1.001" and Result(number="1.001", bullets=()) == r
    j = Judgment("1.001", "run", 1, "a", (), 0, 0, ())
    assert j.topic_id == j.topic == "1.001" and j.key == ("1.001", "run", 1)
    with pytest.raises(TypeError):  # only records the pipeline still builds take the old keyword
        Topic(number="1.001", query="q")
    assert j.to_json()["topic"] == "1.001"  # the file's key stays (SPEC §5)


def test_files_keep_their_keys(tmp_path):
    from bolt.formats.submission import Bullet, Result, read_run, write_run
    from bolt.formats.topics import Topic, read_topics, write_topics

    write_topics([Topic("7.001", "what?")], tmp_path / "t.xml")
    assert '<topic number="7.001">' in (tmp_path / "t.xml").read_text(encoding="utf-8")
    assert read_topics(tmp_path / "t.xml")[0].topic_id == "7.001"
    write_run("r", [Result("7.001", (Bullet(1, "x", (Source("bolt-eng-DF-1-2-3", 5),)),))], tmp_path / "r.xml")
    text = (tmp_path / "r.xml").read_text(encoding="utf-8")
    assert '<result number="7.001">' in text and '<source post="bolt-eng-DF-1-2-3" offset="5"/>' in text
    assert read_run(tmp_path / "r.xml").results["7.001"].bullets[0].sources[0].thread == "bolt-eng-DF-1-2-3"
