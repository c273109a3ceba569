"""Judgments that carry over to new runs (incremental pooling, as TREC pools).

A person's decision about a bullet is about its text, not about the run that gave it: two runs
that output the same sentence for the same topic get the same facets and the same struck words.
Support is about a cited post, so it carries over per (topic, bullet text, thread, post id).
This module holds those keys (the one definition of "the same bullet") and the index of earlier
human judgments that ``bolt judge --reuse`` and ``bolt assess --reuse`` consult.

Earlier judgments must say which text they judged: ``bolt judge`` writes it in the extra key
``text``; a hand-written judgment without it judged the bullet of its run, so its text is read from
that run when the run is given (:func:`read_reusable`), else the read says which line to fix.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from indexing.problems import ERROR, Problem, ProblemsError
from evaluation.judgments import JudgedSource, Judgment, is_unfinished, read_header, read_judgments
from evaluation.metrics.facts import unit_key

TEXT_KEY = "text"          # the judged bullet text (extra key written by `bolt judge`)
STRUCK_KEY = "struck"      # struck character spans [[start, end], ...] of that text
JUDGED_BY_KEY = "judged_by"  # "human", "mixed" or "machine" on a judgment; on a source, who judged it
FACETS_BY_KEY = "facets_by"  # who chose a judgment's facets, when not the person (see VERDICT_BY)

SUPPORT_KEY = "support"      # graded support on a source, written when "partial" (TREC RAG 2024's grades)
SUPPORT_GRADES = ("full", "partial", "none")
#: How a partial support reads as SPEC §5's yes/no ``supports``: not supporting (TREC RAG 2024's strict
#: reading). The grade stays on the source (``"support": "partial"``) for a lenient reading later.
PARTIAL_SUPPORTS = False

def support_verdict(supports: bool, extra: Any) -> "bool | str":
    """A source's graded verdict: "partial" when its extra keys say so, else its yes/no."""
    return "partial" if extra.get(SUPPORT_KEY) == "partial" else bool(supports)


def support_fields(verdict: "bool | str") -> tuple[bool, dict[str, str]]:
    """(SPEC §5 ``supports``, extra keys) of a graded verdict; today's files stay valid (yes/no)."""
    if verdict == "partial":
        return PARTIAL_SUPPORTS, {SUPPORT_KEY: "partial"}
    return verdict is True, {}


#: Who made one verdict (the facets of a bullet, or one source's support). Absent means ``human``
#: (every file written before verdicts said who made them). ``machine``: the automatic assessor's
#: pre-set verdict, shown but not yet decided by the person; ``machine-confirmed``: that verdict,
#: accepted as it stood when the person pressed Done; ``adjudicated``: decided in an adjudication.
VERDICT_BY = ("human", "machine", "machine-confirmed", "adjudicated")


def persons_verdict(by: object) -> bool:
    """True when a person made (or accepted) the verdict ``by`` labels; None is a person's."""
    return by is None or (by in VERDICT_BY and by != "machine")


def judged_by(labels: Iterable[str]) -> str:
    """A judgment's ``judged_by`` from its verdicts' labels: human, machine, or mixed."""
    mine = [persons_verdict(b) for b in labels]
    return "human" if all(mine) else "machine" if not any(mine) else "mixed"


def is_reusable(assessor: str, extra: Any) -> bool:
    """The one definition of a judgment that may be carried over to other runs: a person's, finished.

    ``extra`` is the judgment's extra keys (or a whole JSON line). Skipped: a machine's judgment
    (``auto:`` assessor or ``judged_by: machine``) and one the person has not finished
    (``complete: false``), which is never carried over as finished. Used by ``bolt judge --reuse``,
    ``bolt assess --reuse`` and ``scripts/carry_judgments.py``.
    """
    return (not str(assessor).startswith("auto:") and extra.get(JUDGED_BY_KEY) != "machine"
            and not is_unfinished(extra))

_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def normalise_text(text: str) -> str:
    """The form two bullets share when they say the same thing in the same words.

    NFKC (full-width and compatibility forms), case folded, white space collapsed, punctuation
    at both ends dropped ("Bain bought Ampad." and "bain bought  Ampad" are one bullet).
    """
    t = " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    stripped = _EDGE_PUNCT.sub("", t)
    return stripped or t


BulletKey = tuple[str, str]            # (topic, normalised text)


def bullet_key(topic: str, text: str) -> BulletKey:
    """Key of a judged bullet: its topic and normalised text."""
    return (topic, normalise_text(text))


#: Key of a judged citation: the scorer's source unit (thread, post id or "@offset"), so two offsets
#: into one post share one support decision, as they share one unit in scoring.
source_key = unit_key


@dataclass
class HumanDecision:
    """What a person decided about one bullet text: facets, struck spans, support per cited post."""

    facets: tuple[str, ...]
    struck: tuple[tuple[int, int], ...]
    supports: dict[tuple[str, str], "bool | str"] = field(default_factory=dict)  # True, False or "partial"
    assessor: str = ""
    origin: str = ""  # "FILE:LINE" of the judgment it came from
    struck_count: int | None = None  # words struck, for a judgment that gives counts, not spans


def struck_spans(value: object, text: str) -> tuple[tuple[int, int], ...] | None:
    """Validated, merged struck spans of ``text``; None when ``value`` is not a list of [start, end]."""
    if value is None:
        return ()
    if not isinstance(value, list):
        return None
    spans = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2 or not all(type(v) is int for v in item)
                or not 0 <= item[0] < item[1] <= len(text)):
            return None
        spans.append((item[0], item[1]))
    return merge_spans(spans)


def merge_spans(spans: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Sorted, non-overlapping spans covering the same characters."""
    out: list[list[int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return tuple((s, e) for s, e in out)


def unstruck_text(text: str, struck: Iterable[tuple[int, int]]) -> str:
    """``text`` with every struck span replaced by a space (what stays responsive)."""
    chars = list(text)
    for s, e in struck:
        for i in range(s, min(e, len(chars))):
            chars[i] = " "
    return "".join(chars)


def struck_words(text: str, struck: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """(words, responsive words) of a judged text: what a person's struck spans leave responsive.

    The one reading of struck spans as ``w_k``/``W_k``, shared by the judging page and by
    ``bolt assess --reuse``, so a decision counts the same wherever it is written.
    """
    from evaluation.matching.text import count_words

    words = count_words(text)
    return words, min(words, count_words(unstruck_text(text, struck)))


def struck_extra(text: str, struck: Iterable[tuple[int, int]]) -> dict[str, Any]:
    """The extra keys every human-decided judgment starts with: chars, responsive chars, text, struck."""
    from evaluation.matching.text import count_chars

    struck = tuple(struck)
    return {"chars": count_chars(text), "responsive_chars": count_chars(unstruck_text(text, struck)),
            TEXT_KEY: text, STRUCK_KEY: [list(s) for s in struck]}


class ReuseIndex:
    """Earlier human decisions by bullet key; later files win over earlier ones."""

    def __init__(self) -> None:
        self.decisions: dict[BulletKey, HumanDecision] = {}
        self.files: list[str] = []
        self.judged_with: list[str] = []  # the topics files the files' headers name

    def unknown_facets_warning(self, topics: Iterable[Any], topics_path: object) -> str | None:
        """A warning when the decisions name facet ids ``topics`` lack (None when they name none).

        Such ids (facets added in the workbench, in another topics file) are carried as they are,
        but the scorer ignores them unless it is given the topics file that holds them.
        """
        from evaluation.judgments import unknown_facets, unknown_facets_warning

        unknown = unknown_facets(topics, ((k[0], d.facets) for k, d in self.decisions.items()))
        return unknown_facets_warning(unknown, topics_path, self.judged_with) if unknown else None

    def __len__(self) -> int:
        return len(self.decisions)

    def get(self, topic: str, text: str) -> HumanDecision | None:
        return self.decisions.get(bullet_key(topic, text))

    def add(self, j: Judgment, origin: str, text: str | None = None, unit_of: Any = None) -> None:
        """Fold one judgment in: its facets and struck words, and each source's support.

        ``text`` is the judged bullet text (default: the judgment's ``text``); ``unit_of``
        ``(thread, offset) -> post id`` places a source without ``unit``, as the scorer does."""
        text = j.extra[TEXT_KEY] if text is None else text
        key = bullet_key(j.topic_id, text)
        struck = struck_spans(j.extra.get(STRUCK_KEY), text) or ()
        count = None
        if STRUCK_KEY not in j.extra and j.responsive_words is not None:  # counts, as written by hand
            from evaluation.matching.text import count_words

            words = j.words if j.words is not None else count_words(text)
            count = max(0, words - j.responsive_words) or None
        d = self.decisions.get(key)
        if d is None or d.origin.rsplit(":", 1)[0] != origin.rsplit(":", 1)[0]:
            d = HumanDecision(j.facets, struck, dict(d.supports) if d else {}, j.assessor, origin, count)
            self.decisions[key] = d
        for src in j.sources:
            if src.extra.get("decided", True) is not False and persons_verdict(src.extra.get(JUDGED_BY_KEY)):
                unit = src.unit or (unit_of(src.post, src.offset) if unit_of is not None else None)
                d.supports[unit_key(src.post, unit, src.offset)] = support_verdict(src.supports, src.extra)


def read_reusable(paths: Iterable[str | os.PathLike], runs: Iterable[Any] = (), unit_of: Any = None) -> ReuseIndex:
    """Human judgments from ``paths`` (in order; a later file overrides an earlier one).

    Only finished judgments a person made count (:func:`is_reusable`), and of a mixed one only the
    sources the person judged, so the machine's guesses and unfinished work never pass for a
    person's decision. A judgment without its ``text`` judged the bullet of its run in ``runs``
    (``bolt.submission.Run`` records); one whose run is not given stops the read with the line to
    fix. ``unit_of`` places sources without ``unit`` in posts (the collection), so a hand-written
    support decision keys the same post as the machine's citation of it.
    """
    texts = {(r.run_id, res.topic_id, b.position): b.text for r in runs for res in r for b in res.bullets}
    index = ReuseIndex()
    for path in paths:
        name = str(path)
        problems: list[Problem] = []
        for j in read_judgments(path):
            if not is_reusable(j.assessor, j.extra):
                continue
            text = j.extra.get(TEXT_KEY)
            if TEXT_KEY not in j.extra:
                text = texts.get((j.run, j.topic_id, j.bullet))
            if not isinstance(text, str) or not text.strip():
                problems.append(Problem(ERROR, name, j.line, "reuse-no-text",
                                        f"this judgment does not say which bullet text it judged, and run {j.run} "
                                        "is not among the runs given; give that run's file too, or add "
                                        "\"text\": \"...\" (the bullet's text)", j.topic_id, j.bullet))
                continue
            if struck_spans(j.extra.get(STRUCK_KEY), text) is None:
                problems.append(Problem(ERROR, name, j.line, "reuse-struck",
                                        f"\"struck\" must be a list of [start, end] character spans inside "
                                        f"the text (0 <= start < end <= {len(text)})", j.topic_id, j.bullet))
                continue
            index.add(j, f"{name}:{j.line}", text, unit_of)
            if len(problems) >= 50:
                break
        if problems:
            raise ProblemsError(problems)
        index.files.append(name)
        header_topics = (read_header(path) or {}).get("topics")
        if isinstance(header_topics, str) and header_topics not in index.judged_with:
            index.judged_with.append(header_topics)
    return index


def apply_human(machine: Judgment, text: str, human: HumanDecision) -> Judgment:
    """The machine's judgment of a bullet with a person's decisions put in where they exist.

    Facets and struck words come from the person. Each source takes the person's support decision
    for its (thread, post) when there is one, else the machine's, and says which
    (``judged_by`` on the source). The judgment says ``judged_by: human`` (all from a person) or
    ``mixed`` (some sources still the machine's); ``assessor`` names the person.
    """
    sources: list[JudgedSource] = []
    machine_sources = 0
    for src in machine.sources:
        k = unit_key(src.post, src.unit, src.offset)
        if k in human.supports:
            supports, grade = support_fields(human.supports[k])
            sources.append(JudgedSource(src.post, src.offset, src.unit, supports, None,
                                        {JUDGED_BY_KEY: "human", **grade}))
        else:
            machine_sources += 1
            sources.append(JudgedSource(src.post, src.offset, src.unit, src.supports, src.facets,
                                        {**src.extra, JUDGED_BY_KEY: "machine"}))
    extra = {**struck_extra(text, human.struck),
             JUDGED_BY_KEY: "human" if machine_sources == 0 else "mixed", "reused_from": human.origin}
    words, responsive = struck_words(text, human.struck)
    if human.struck_count is not None:
        responsive = max(0, words - human.struck_count)
    return Judgment(machine.topic_id, machine.run, machine.bullet, human.assessor or machine.assessor,
                    tuple(human.facets), words, responsive, tuple(sources), extra)


def mark_machine(j: Judgment, text: str) -> Judgment:
    """The machine's judgment, saying so (``judged_by: machine``) and which text it judged."""
    return Judgment(j.topic_id, j.run, j.bullet, j.assessor, j.facets, j.words, j.responsive_words, j.sources,
                    {**j.extra, TEXT_KEY: text, JUDGED_BY_KEY: "machine"})


def same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    """True when two paths name one existing file (so --reuse never reads what --out replaces)."""
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def with_human(judgments: Iterable[Judgment], runs: Iterable, index: ReuseIndex,
               counts: dict[str, int]) -> Iterable[Judgment]:
    """Pass the machine's judgments through, a person's decision replacing each where one exists.

    ``runs`` are the judged :class:`bolt.formats.submission.Run` objects (the bullet texts); ``counts``
    gets how many judgments are ``human``, ``mixed`` and ``machine``.
    """
    texts = {(r.run_id, res.topic_id, b.position): b.text for r in runs for res in r for b in res.bullets}
    for j in judgments:
        text = texts.get((j.run, j.topic_id, j.bullet), "")
        human = index.get(j.topic_id, text) if text else None
        out = apply_human(j, text, human) if human is not None else mark_machine(j, text)
        counts[out.extra[JUDGED_BY_KEY]] += 1
        yield out
