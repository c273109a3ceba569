"""The submission format's one rule catalogue: every named check, its severity and summary (SPEC §4).

Every finding about a run, from the parser (:mod:`bolt.formats.submission.parse`), the record checks and
the validator (:mod:`bolt.formats.validate`: topic set, other runs, corpus), is a
:class:`indexing.problems.Problem` whose ``rule`` is a key of :data:`RULES`, all declared here;
docs/submissions.md lists them with what to do. Also the format itself as data (``ELEMENTS``,
``ATTRIBUTES``, ``PARENT``).
"""
from __future__ import annotations

from indexing.problems import ERROR, WARNING, Problem, Rule, RuleCatalogue  # noqa: F401  (Rule re-exported)

RULES = RuleCatalogue("submissions")
register_rule = RULES.register

# File and encoding level
FILE_UNREADABLE = register_rule("file-unreadable", ERROR, "the file cannot be opened or read")
EMPTY_FILE = register_rule("empty-file", ERROR, "the file is empty or holds only white space")
INVALID_UTF8 = register_rule("invalid-utf8", ERROR, "the file is not valid UTF-8")
BAD_ENCODING_DECLARATION = register_rule("bad-encoding-declaration", ERROR,
                                         "the XML declaration names an encoding other than UTF-8")
DOCTYPE_REFUSED = register_rule("doctype-refused", ERROR, "a <!DOCTYPE> or <!ENTITY> declaration")
ENTITY_REFUSED = register_rule("entity-refused", ERROR,
                               "a reference to an entity other than &amp; &lt; &gt; &quot; &apos;")
NOT_WELL_FORMED = register_rule("not-well-formed", ERROR, "the XML is not well-formed")
TOO_LARGE = register_rule("too-large", ERROR, "a file, result, bullet or nesting depth over the limits")
# Structure
UNKNOWN_ELEMENT = register_rule("unknown-element", ERROR, "an element that is not part of the format")
UNKNOWN_ATTRIBUTE = register_rule("unknown-attribute", ERROR, "an attribute that is not part of the format")
MISPLACED_ELEMENT = register_rule("misplaced-element", ERROR, "a known element in the wrong place")
MIXED_ROOTS = register_rule("mixed-roots", ERROR,
                            "several <results> roots, or a <results> root mixed with bare <result>s")
BAD_RUN_ID = register_rule("bad-run-id", ERROR, "results/@run is empty, too long or has white space")
TEXT_OUTSIDE_BULLET = register_rule("text-outside-bullet", ERROR, "text outside every <bullet>")
NO_RESULTS = register_rule("no-results", ERROR, "the file holds no <result>")
MISSING_TOPIC_NUMBER = register_rule("missing-topic-number", ERROR, "a <result> without a number")
DUPLICATE_RESULT = register_rule("duplicate-result", ERROR, "two <result>s for one topic")
MISSING_RESPONSE = register_rule("missing-response", ERROR, "a <result> without a <response>")
MULTIPLE_RESPONSES = register_rule("multiple-responses", ERROR, "a <result> with several <response>s")
EMPTY_RESPONSE = register_rule("empty-response", WARNING, "a <response> without bullets")
EMPTY_BULLET_TEXT = register_rule("empty-bullet-text", ERROR, "a bullet with no text")
BULLET_WITHOUT_SOURCE = register_rule("bullet-without-source", ERROR, "a bullet with no <source>")
DUPLICATE_BULLET = register_rule("duplicate-bullet", ERROR, "the same bullet text twice in one response")
SOURCE_MISSING_POST = register_rule("source-missing-post", ERROR, "a <source> without a thread id")
SOURCE_MISSING_OFFSET = register_rule("source-missing-offset", ERROR, "a <source> without an offset")
SOURCE_BAD_OFFSET = register_rule("source-bad-offset", ERROR, "an offset that is not a decimal integer")
NEGATIVE_OFFSET = register_rule("negative-offset", ERROR, "an offset below 0")
SOURCE_HAS_CONTENT = register_rule("source-has-content", ERROR, "text or elements inside <source>")
DUPLICATE_SOURCE = register_rule("duplicate-source", WARNING, "the same citation twice in one bullet")
# Checks of bolt.formats.validate that need the topic set, the other runs, or the corpus
UNKNOWN_TOPIC = register_rule("unknown-topic", ERROR, "a result for a topic not in the topic file")
MISSING_RESULT = register_rule("missing-result", WARNING, "a topic of the topic file with no result")
DUPLICATE_RUN_ID = register_rule("duplicate-run-id", ERROR, "two runs validated together share a run id")
BAD_THREAD_ID = register_rule("bad-thread-id", WARNING,
                              "a thread id in neither LDC style (checked only without a corpus)")
UNKNOWN_THREAD = register_rule("unknown-thread", ERROR, "a cited thread that is not in the corpus")
OFFSET_OUTSIDE_THREAD = register_rule("offset-outside-thread", ERROR, "an offset past the thread's end")
OFFSET_OUTSIDE_POST = register_rule("offset-outside-post", ERROR, "an offset outside every <post>")
TEXT_NOT_NEAR_OFFSET = register_rule("text-not-near-offset", WARNING,
                                     "no offset of the bullet is within three words of its text")
CORPUS_RULES = (UNKNOWN_THREAD, OFFSET_OUTSIDE_THREAD, OFFSET_OUTSIDE_POST, TEXT_NOT_NEAR_OFFSET)
TOPIC_RULES = (UNKNOWN_TOPIC, MISSING_RESULT)

# The format, as data.
ELEMENTS = ("results", "result", "response", "bullet", "source")
ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "results": ("run",),
    "result": ("number",),
    "response": (),
    "bullet": (),
    "source": ("post", "offset"),
}
PARENT = {"result": "<results> or the top level", "response": "<result>", "bullet": "<response>",
          "source": "<bullet>", "results": "the top level"}


def _problem(rule: str, file: str, line: int | None, message: str, topic: str | None = None,
             bullet: int | None = None) -> Problem:
    """A finding of a registered rule; the message is kept to one line (it quotes user input)."""
    return RULES.problem(rule, file, line, message, topic, bullet)
