"""A topic made ready for matching: its English facet texts, nugget spans, and non-English nuggets."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from evaluation.assessment.records import Ref, TopicPrep
from evaluation.matching import anchoring, lexical
from evaluation.matching.text import script_lang

if TYPE_CHECKING:  # pragma: no cover
    from bolt.formats.topics import Topic


def prepare_topic(topic: "Topic", thread: Callable[[str], Any]) -> TopicPrep:
    """English descriptions and nuggets become references to match text against; a nugget with a
    place in a thread (``thread(id)`` reads it) becomes a span citations anchor to; a nugget in
    Arabic or Chinese is kept for the cross-language features of bullets in that language."""
    refs: list[Ref] = []
    spans: list[anchoring.NuggetSpan] = []
    native: dict[str, dict[str, list[str]]] = {}
    for facet in topic.facets:
        if facet.desc and script_lang(facet.desc) == "eng":
            refs.append(Ref(facet.id, "desc", facet.desc, lexical.content_terms(facet.desc)))
        for i, nug in enumerate(facet.nuggets, start=1):
            nlang = script_lang(nug.text) if nug.text else "eng"
            if nug.text and nlang == "eng":
                refs.append(Ref(facet.id, i, nug.text, lexical.content_terms(nug.text)))
            elif nug.text:
                native.setdefault(nlang, {}).setdefault(facet.id, []).append(nug.text)
            if nug.post is not None and nug.offset is not None:
                span = anchoring.locate(thread(nug.post), facet.id, i, nug)
                if span is not None:
                    spans.append(span)
    order = {f.id: k for k, f in enumerate(topic.facets)}
    return TopicPrep(topic, refs, spans, order, native=native)
