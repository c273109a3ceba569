"""The shared ``name(key=value)`` spelling of value objects: parsed with ast, never eval."""
from __future__ import annotations

import pytest

from bolt.pipeline.config import SystemConfig, parse_config
from indexing.spec import parse_call
from evaluation.assessor import AssessorConfig
from evaluation.metrics import parse_metric


def test_parse_call_reads_literals_and_bare_names():
    assert parse_call("main", what="x") == ("main", {})
    assert parse_call("main(k_eng=50, abs_floor=0.3)", what="x") == ("main", {"k_eng": 50, "abs_floor": 0.3})
    assert parse_call("ERR(denominator=total)", what="x", bare_words=True) == ("ERR", {"denominator": "total"})


@pytest.mark.parametrize("bad", ["main(", "main(1)", "__import__('os').system('x')", "main(**{'a': 1})",
                                 "main(k=open('x'))"])
def test_parse_call_refuses_non_literals(bad):
    with pytest.raises(ValueError):
        parse_call(bad, what="system spec")


def test_every_value_object_round_trips_through_its_repr():
    cfg = SystemConfig(name="main", k_eng=50)
    assert parse_config(repr(cfg)) == cfg
    bm = SystemConfig(name="bm25-sentences", max_bullets=3)
    assert parse_config(repr(bm)) == bm
    ac = AssessorConfig(semantic_threshold=0.6)
    assert AssessorConfig.parse(repr(ac)) == ac
    m = parse_metric("nugget_F(beta=5)")
    assert parse_metric(repr(m)) == m and repr(m) == "nugget_F(beta=5)"


def test_unknown_parameters_are_named():
    with pytest.raises(ValueError, match="no parameter 'sematic'"):
        AssessorConfig.parse("AssessorConfig(sematic=False)")
    with pytest.raises(ValueError, match="unknown system parameter"):
        parse_config("main(k_english=3)")
