"""The judgments formats' one rule catalogue: every problem a judgments or holistic file can have."""
from __future__ import annotations

from indexing.problems import ERROR, RuleCatalogue

RULES = RuleCatalogue("judgments files")
_r = RULES.register

# The JSONL judgments file (SPEC §5)
JUDGMENT_JSON = _r("judgment-json", ERROR, "a line that is not one complete JSON object")
JUDGMENT_MISSING_KEY = _r("judgment-missing-key", ERROR, "a line without one of the required keys")
JUDGMENT_FORMAT = _r("judgment-format", ERROR, "a value of the wrong type or range")
JUDGMENT_META = _r("judgment-meta", ERROR, "a {\"_meta\"} header that is not the first line, or not an object")
JUDGMENT_DUPLICATE = _r("judgment-duplicate", ERROR, "a second judgment of one (topic, run, bullet)")
# The holistic scores file (AQUAINT pilot)
HOLISTIC_JSON = _r("holistic-json", ERROR, "a .jsonl line that is not valid JSON")
HOLISTIC_HEADER = _r("holistic-header", ERROR, "a TSV whose first line is not the header")
HOLISTIC_FORMAT = _r("holistic-format", ERROR, "a missing column, or a score that is not a number")
HOLISTIC_RANGE = _r("holistic-range", ERROR, "a score outside 0..10")
HOLISTIC_DUPLICATE = _r("holistic-duplicate", ERROR, "an assessor's second score of one (topic, run)")
