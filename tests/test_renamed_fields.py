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
