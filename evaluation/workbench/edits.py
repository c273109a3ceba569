"""The operations a page sends about one bullet (tick a facet, strike words, grade a source, take an
assessor's decision, confirm), and nuggets selected in a cited post; each refuses bad input with
:class:`~evaluation.workbench.decision.BadInput`."""
from __future__ import annotations

from typing import Any

from bolt.formats.topics import Nugget, Topic, find_nugget_offsets, nugget_resolves
from evaluation.judgments.reuse import merge_spans, struck_spans
from evaluation.workbench.decision import BadInput, Decision
from evaluation.workbench.pool import PoolItem

MAX_FACET_CHARS = 2000


def change(item: PoolItem, d: Decision, op: dict[str, Any], topic: Topic, label: str,
           adjudicating: list) -> None:
    """Apply ``op`` to the decision ``d`` about ``item``; ``label`` marks who decided (``reuse.VERDICT_BY``)."""
    kind = op.get("op")
    if kind == "facet":
        fid, on = op.get("facet"), op.get("on")
        if not isinstance(fid, str) or topic.facet(fid) is None:
            raise BadInput(f"topic {item.topic} has no facet {fid!r}")
        if not isinstance(on, bool):
            raise BadInput("\"on\" must be true or false")
        (d.facets.add if on else d.facets.discard)(fid)
        d.facets_by = label
    elif kind == "strike":
        spans, on = struck_spans(op.get("spans"), item.text), op.get("on")
        if spans is None or not isinstance(on, bool):
            raise BadInput(f"strike needs \"spans\": [[start, end], ...] inside the bullet's "
                           f"{len(item.text)} characters and \"on\": true or false")
        if on:
            d.struck = merge_spans(d.struck + spans)
        else:
            keep = [i for s, e in d.struck for i in range(s, e) if not any(a <= i < b for a, b in spans)]
            d.struck = merge_spans((i, i + 1) for i in keep)
    elif kind == "support":
        _support(item, d, op, label)
    elif kind == "take":
        take(item, d, op.get("from"), topic, label, adjudicating)
    elif kind == "confirm":
        value = op.get("value", True)
        if not isinstance(value, bool):
            raise BadInput("\"value\" must be true or false")
        if value:
            d.confirm()
        else:
            d.confirmed = False
    else:
        raise BadInput(f"unknown operation {kind!r}; use facet, strike, support, take or confirm")


def _support(item: PoolItem, d: Decision, op: dict[str, Any], label: str) -> None:
    sid, value = op.get("source"), op.get("value")
    if sid not in item.source_by_id:
        raise BadInput(f"this bullet cites no source {sid!r}")
    if value is None:
        d.supports.pop(sid, None)
    elif isinstance(value, bool) or value == "partial":
        d.supports[sid] = value
    else:
        raise BadInput("\"value\" must be true (supports), \"partial\", false (does not) or null (undecided)")
    d.supports_by.pop(sid, None)
    if value is not None and label != "human":
        d.supports_by[sid] = label


def take(item: PoolItem, d: Decision, which: Any, topic: Topic, label: str, adjudicating: list) -> None:
    """Adjudication: start from one assessor's decision (every verdict then the adjudicator's)."""
    from evaluation.workbench.adjudicate import opinion

    if not adjudicating or which not in (0, 1):
        raise BadInput("\"take\" copies assessor 0's or 1's decision, and only when adjudicating")
    view = opinion(item, adjudicating[which])
    if view is None:
        raise BadInput(f"{adjudicating[which].name} did not finish this bullet; decide it yourself")
    d.facets = {f for f in view["facets"] if topic.facet(f) is not None}
    d.struck = tuple((s, e) for s, e in view["struck"])
    d.supports = dict(view["supports"])
    d.facets_by = label
    d.supports_by = {k: label for k in d.supports}


def selected_nugget(value: str | dict, items: dict[str, PoolItem], corpus) -> Nugget:
    """A nugget from plain text, or from text selected in a cited post (then with thread and offset)."""
    text = value.get("text") if isinstance(value, dict) else value
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_FACET_CHARS:
        raise BadInput(f"a nugget is text of 1 to {MAX_FACET_CHARS} characters")
    text = " ".join(text.split())
    if not isinstance(value, dict):
        return Nugget(text)
    item = items.get(value.get("item"))  # type: ignore[arg-type]
    source = item.source_by_id.get(value.get("source")) if item is not None else None  # type: ignore[arg-type]
    if source is None:
        raise BadInput("the nugget's text must be selected in a post cited by a bullet of this session")
    thread = corpus.get(source.thread)
    post = thread.post_at(source.offsets[0]) if thread is not None else None
    spans = [sp for sp in find_nugget_offsets(thread, text) if thread.post_at(sp[0]) is post] if post else []
    if not spans:
        raise BadInput("the selected text was not found in that post; select it again")
    nugget = Nugget(text, thread.id, spans[0][0])
    if not nugget_resolves(thread, nugget):
        raise BadInput("the selected text cannot be cited at an offset of that post; select it again")
    return nugget
