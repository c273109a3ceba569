"""The topic file format's one rule catalogue (SPEC §3): every check of ``bolt.formats.topics`` by name.

A fault a topic file shares with a submission has the submission's name (``not-well-formed``,
``invalid-utf8``, ``doctype-refused``, ``too-large``, ``file-unreadable``, ``unknown-element``,
``unknown-attribute``), so one name means one fault whichever file it is found in.
docs/topics.md lists them.
"""
from __future__ import annotations

from indexing.problems import ERROR, WARNING, RuleCatalogue

RULES = RuleCatalogue("topic files")
_r = RULES.register

# The file (names shared with bolt.formats.submission.RULES)
FILE_UNREADABLE = _r("file-unreadable", ERROR, "the file cannot be opened or read")
TOO_LARGE = _r("too-large", ERROR, "the file is over the size limit")
INVALID_UTF8 = _r("invalid-utf8", ERROR, "the file is not valid UTF-8")
DOCTYPE_REFUSED = _r("doctype-refused", ERROR, "a <!DOCTYPE> or <!ENTITY> declaration")
NOT_WELL_FORMED = _r("not-well-formed", ERROR, "the XML is not well-formed")
UNKNOWN_ELEMENT = _r("unknown-element", ERROR, "an element that is not part of the format")
UNKNOWN_ATTRIBUTE = _r("unknown-attribute", ERROR, "an attribute that is not part of the format")
# Topics
NO_TOPICS = _r("no-topics", ERROR, "the file holds no <topic>")
DUPLICATE_TOPIC = _r("duplicate-topic", ERROR, "two topics with one number")
TOPIC_NUMBER_MISSING = _r("topic-number-missing", ERROR, "a <topic> without a number")
QUERY_MISSING = _r("query-missing", ERROR, "a topic without query text")
UNKNOWN_PROPERTY = _r("unknown-property", ERROR, "an element inside <properties> that is not a property")
DUPLICATE_QUERY = _r("duplicate-query", ERROR, "a topic with two <query>s")
DUPLICATE_DESCRIPTION = _r("duplicate-description", ERROR, "a topic with two <description>s")
DUPLICATE_PROPERTIES = _r("duplicate-properties", ERROR, "a topic with two <properties>")
DUPLICATE_RULES = _r("duplicate-rules", ERROR, "a topic with two <rules>")
BAD_FLAG = _r("bad-flag", ERROR, "a <languages>/<threads> value other than T or F")
ATTRIBUTE_MISSING = _r("attribute-missing", ERROR, "a required attribute is missing")
STRAY_TEXT = _r("stray-text", ERROR, "text directly inside an element that holds elements")
NO_FACETS = _r("no-facets", WARNING, "a topic with a description or properties but no facet")
# Facets and nuggets
DUPLICATE_FACET = _r("duplicate-facet", ERROR, "two facets of a topic with one id")
DUPLICATE_DESC = _r("duplicate-desc", ERROR, "a facet with two <desc>s")
FACET_DESC_MISSING = _r("facet-desc-missing", ERROR, "a facet without <desc>")
BAD_IMPORTANCE = _r("bad-importance", ERROR, "a facet importance other than vital or okay")
NUGGET_EMPTY = _r("nugget-empty", ERROR, "a nugget without text")
BAD_OFFSET = _r("bad-offset", ERROR, "a nugget offset that is not a decimal integer")
NUGGET_CITATION_INCOMPLETE = _r("nugget-citation-incomplete", ERROR, "a nugget with post but no offset, or the reverse")
# Against a corpus (bolt.formats.topic_corpus; skipped without one)
NUGGET_THREAD_UNKNOWN = _r("nugget-thread-unknown", ERROR, "a nugget's thread is not in the corpus")
NUGGET_OFFSET_OUTSIDE_THREAD = _r("nugget-offset-outside-thread", ERROR, "a nugget offset past the thread's end")
NUGGET_OFFSET_OUTSIDE_POST = _r("nugget-offset-outside-post", ERROR, "a nugget offset outside every <post>")
NUGGET_OFFSET_MISMATCH = _r("nugget-offset-mismatch", ERROR,
                            "the nugget text is not at, nor within three words after, its offset")
CORPUS_RULES = (NUGGET_THREAD_UNKNOWN, NUGGET_OFFSET_OUTSIDE_THREAD, NUGGET_OFFSET_OUTSIDE_POST,
                NUGGET_OFFSET_MISMATCH)
