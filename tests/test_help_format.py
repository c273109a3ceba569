"""Help text states each default once, and only when it says something (no "(default: False)")."""
from __future__ import annotations

import re

import pytest

from bolt.cli import COMMANDS, main


def test_corpus_stats_help_states_each_default_once(capsys):
    assert main(["corpus", "stats", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: False)" not in out and "(default: None)" not in out
    assert out.count("(default: stop at the first)") == 1
    assert out.count("(default: read from each thread id)") == 1


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_command_prints_an_empty_default(capsys, name):
    assert main([name, "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: False)" not in out and "(default: None)" not in out
    assert not re.search(r"\(default: [^)]*\) \(default:", out)


def test_a_real_default_is_still_shown(capsys):
    assert main(["compare", "--help"]) == 0
    assert "(default: F_GD)" in " ".join(capsys.readouterr().out.split())
