"""The one loader of shipped logistic-model JSON (indexing.models.logistic): clear errors naming the
file, the shipped files found in their package, and the logistic function."""
from __future__ import annotations

import json
import math

import pytest

from indexing.errors import ToolkitError
from indexing.models.logistic import load_model_json, logistic, shipped_model


def test_logistic_values():
    assert logistic(0.0) == 0.5
    assert logistic(math.log(3)) == pytest.approx(0.75)
    assert logistic(-800.0) == 0.0  # exp(800) would overflow


def _parse(d):
    return (d["name"], float(d["intercept"]))


def test_a_good_file_is_parsed(tmp_path):
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"name": "m", "intercept": "1.5"}), encoding="utf-8")
    assert load_model_json(f, _parse, what="test model", hint="fix it") == ("m", 1.5)


@pytest.mark.parametrize("text, says", [
    (None, "cannot read the test model"),
    ("{not json", "cannot read the test model"),
    ("[1, 2]", "is not a JSON object"),
    ('{"intercept": 1}', "has no field 'name'"),
    ('{"name": "m", "intercept": "x"}', "does not fit this code"),
])
def test_bad_files_name_the_file_and_the_fix(tmp_path, text, says):
    f = tmp_path / "m.json"
    if text is not None:
        f.write_text(text, encoding="utf-8")
    with pytest.raises(ToolkitError) as err:
        load_model_json(f, _parse, what="test model", hint="fix it")
    assert err.value.file == str(f) and says in err.value.message and err.value.hint == "fix it"


def test_the_assessor_models_load_through_it(tmp_path):
    from evaluation.matching.crosslingual import CrossModel, load_cross_model
    from evaluation.matching.statement import MODEL_FILE, StatementModel, load_model

    shipped = json.loads(shipped_model("evaluation.matching", MODEL_FILE).read_text(encoding="utf-8"))
    assert load_model() == StatementModel.from_dict(shipped)
    assert isinstance(load_cross_model(), CrossModel)
    bad = tmp_path / "statement.json"
    bad.write_text(json.dumps(dict(shipped, features=["colour"])), encoding="utf-8")
    with pytest.raises(ToolkitError) as err:
        load_model(str(bad))
    assert err.value.file == str(bad) and "statement model" in err.value.message
    with pytest.raises(ToolkitError, match="cross-language model"):
        load_cross_model(str(tmp_path / "missing.json"))
