"""scripts/selection_variants.py re-runs only main's selection from one trace, so it must refuse
specs that differ from the first in a setting read before the selection."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("selection_variants", REPO / "scripts" / "selection_variants.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_selection_and_output_settings_may_differ_from_the_first_spec():
    configs = _script().check_specs({"base": "main", "a": "main(max_per_post=1, max_bullets=5)"})
    assert [c.max_per_post for c in configs] == [2, 1]


def test_only_mains_specs_are_taken_and_a_setting_read_earlier_is_traced_in_full():
    script = _script()
    with pytest.raises(ValueError, match="only main"):
        script.check_specs({"base": "main", "lead": "lead"})
    from bolt.pipeline import parse_config

    base = parse_config("main")
    assert script.same_records(parse_config("main(max_bullets=5)"), base)  # a selection setting: base's records
    assert not script.same_records(parse_config("main(thread_focus=1.0)"), base)  # a threads setting: its own trace


