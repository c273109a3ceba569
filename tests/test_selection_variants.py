"""scripts/selection_variants.py re-runs only main's clustering and selection from one trace, so it
must refuse specs that differ from the first in a setting read before them, and re-run the
clustering for a spec that changes it."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.test_settings import QUERY, searcher  # noqa: F401 (the small real index, a fixture)

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




def test_a_clustering_setting_is_re_run_from_the_first_specs_records(searcher):  # noqa: F811
    """A spec that only changes how near-duplicates are grouped (``dup_cosine``, a selection setting)
    gets, from the first spec's trace, the bullets its own full trace gives; the first spec gets
    its own bullets back."""
    from bolt.pipeline import SystemConfig
    from bolt.pipeline.run import make_distiller

    script = _script()
    base = make_distiller("", SystemConfig(), searcher=searcher)
    loose = make_distiller("", SystemConfig(dup_cosine=0.1), searcher=searcher)
    tr = base.system.trace(QUERY)
    own = [b.text for b in loose.system.trace(QUERY).bullets]
    assert own != [b.text for b in tr.bullets]  # the setting changes the bullets here
    assert [b.text for b in script.reselect(loose, tr)] == own
    assert [b.text for b in script.reselect(base, tr)] == [b.text for b in tr.bullets]
