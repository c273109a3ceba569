#!/usr/bin/env python3
"""Carry careful (human) judgments over to new runs, so only NEW bullets need judging.

SPEC §5 judgment lines are keyed by (topic, run, bullet position); when a system changes, the
same sentence comes back at another position or in another run. This script keys a person's
judgments by (topic, normalised bullet text) instead -- each line of the judgments file keeps the
bullet's ``text`` as an optional key for this -- and a source's support by (topic, text, cited
post unit)::

    python scripts/carry_judgments.py RUN.xml... --judgments J.jsonl --corpus PATH... [--todo TODO.jsonl]
        [--encoding-errors strict|replace|cp1252]

For every bullet of every run that has no line of its own in J.jsonl, it appends to J.jsonl a
line carried over from an earlier judgment of the same text (facets, responsive words, and the
support of every source whose post was judged before). Bullets it cannot carry (new text, or a
source citing a post never judged for that text) go to TODO.jsonl as lines to fill in: ``facets``,
``responsive_words`` and each source's ``supports`` are null, and ``post_text`` shows the cited
post's words near the offset. Fill them in, then add them with ``--add TODO.jsonl``.
Exit status 1 while anything is left to judge, so a script can tell.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bolt.commands.encoding_option import add_encoding_option  # noqa: E402 (after the sys.path line)
from evaluation.judgments.reuse import bullet_key, is_reusable, persons_verdict, source_key  # noqa: E402


def numbered_lines(path: Path, skip_meta: bool = False) -> Iterator[tuple[int, dict]]:
    """(line number, object) of each non-blank line of a JSON-lines file (and, with ``skip_meta``,
    not its ``_meta`` line); a line that is not JSON exits naming the file and line."""
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or (skip_meta and line.startswith('{"_meta"')):
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as exc:
            sys.exit(f"error: {path}:{n}: not a JSON line ({exc.msg}); fix or remove the line")


def load_lines(path: Path) -> list[dict]:
    """A judgments file's lines, its ``_meta`` line left out; [] when there is no file yet."""
    if not path.exists():
        return []
    return [d for _, d in numbered_lines(path, skip_meta=True)]


def _index(lines: list[dict]) -> tuple[dict, dict]:
    """(topic, normalised text) -> judgment, and (that key, (thread, post unit)) -> supports.

    The keys are ``evaluation.judgments.reuse``'s (the one definition of "the same bullet", shared
    with ``bolt judge --reuse`` and ``bolt assess --reuse``), and so is what may be carried:
    ``is_reusable`` (a person's finished judgment, never one with ``"complete": false``).
    """
    by_text, support = {}, {}
    for j in lines:
        if "text" not in j or j.get("facets") is None or not is_reusable(j.get("assessor", ""), j):
            continue
        k = bullet_key(j["topic"], j["text"])
        by_text.setdefault(k, j)
        for s in j["sources"]:
            if (s.get("supports") is not None and s.get("decided", True) is not False
                    and persons_verdict(s.get("judged_by"))):
                support.setdefault((k, source_key(s["post"], s.get("unit"), s["offset"])), s["supports"])
    return by_text, support


def carried_responsive(old: dict, words: int) -> int:
    """The responsive words of a carried judgment under today's word count.

    A judgment made under another definition of a word (``indexing.textfacts``) may count the same
    text differently: a wholly responsive bullet stays wholly responsive, a partly struck one keeps
    its struck share, never more than the text's words.
    """
    judged_words, responsive = int(old.get("words") or 0), int(old["responsive_words"])
    if judged_words <= 0 or responsive >= judged_words:
        return words if judged_words > 0 and responsive > 0 else 0
    return min(words, round(words * responsive / judged_words))


def carry(runs: list[Path], judgments: Path, corpus_paths: list[str], todo: Path | None, assessor: str,
          only: set[str] | None = None, encoding_errors: str | None = None) -> int:
    from bolt.formats.submission import read_run
    from evaluation.metrics.facts import post_id_at
    from indexing.corpus import open_corpus
    from indexing.lookup import count_words, text_at

    corpus = open_corpus(corpus_paths, encoding_errors=encoding_errors)
    lines = load_lines(judgments)
    have = {(j["topic"], j["run"], j["bullet"]): j.get("text") for j in lines}
    by_text, support = _index(lines)
    new, pending, stale = [], [], []
    for path in runs:
        run = read_run(path)
        for number, res in sorted(run.results.items()):
            if only and number not in only:
                continue
            for b in res.bullets:
                at = (number, run.run_id, b.position)
                if at in have:
                    judged = have[at]
                    if judged is not None and bullet_key(number, judged) != bullet_key(number, b.text):
                        stale.append(f"{number} {run.run_id} bullet {b.position}")
                    continue
                k = bullet_key(number, b.text)
                old = by_text.get(k)
                sources, unknown = [], False
                for s in b.sources:
                    th = corpus.get(s.thread)
                    unit = post_id_at(corpus, s.thread, s.offset)  # the scorer's unit rule, as bolt judge's pool
                    sup = support.get((k, source_key(s.thread, unit, s.offset)))
                    if unit is None:
                        sup = False  # an offset outside every post supports nothing
                    src = {"post": s.thread, "offset": s.offset, "unit": unit, "supports": sup}
                    if sup is None:
                        unknown = True
                        src["post_text"] = text_at(th, s.offset)[:300] if th is not None else ""
                    sources.append(src)
                words = count_words(b.text)
                line = {"topic": number, "run": run.run_id, "bullet": b.position, "assessor": assessor,
                        "facets": list(old["facets"]) if old else None, "words": words,
                        "responsive_words": carried_responsive(old, words) if old else None,
                        "sources": sources, "text": b.text}
                if old and old.get("notes"):
                    line["notes"] = old["notes"]
                (pending if (old is None or unknown) else new).append(line)
    if stale:  # a line judged another text at this (topic, run, bullet): the run was made again under its old id
        sys.exit(f"error: {judgments}: {len(stale)} judgment lines hold another text than the run's bullet at the same "
                 f"(topic, run, bullet), e.g. {stale[0]}; give the new run another run id (its bullets are then "
                 "carried by text), or remove those lines")
    _append(judgments, new)
    if todo is not None:
        todo.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in pending), encoding="utf-8")
    print(f"carried {len(new)} judgments into {judgments}; {len(pending)} bullets left to judge"
          + (f" in {todo}" if todo else ""), file=sys.stderr)
    return 1 if pending else 0


def add(todo: Path, judgments: Path) -> int:
    """Append filled-in TODO lines (every facets/responsive_words/supports given) to the judgments."""
    lines = load_lines(todo)
    bad = [f"{todo}:{i}" for i, j in enumerate(lines, 1)
           if j.get("facets") is None or j.get("responsive_words") is None
           or any(s.get("supports") is None for s in j["sources"])]
    if bad:
        print("error: not judged yet (fill in facets, responsive_words, supports): " + ", ".join(bad[:10]),
              file=sys.stderr)
        return 1
    for j in lines:
        for s in j["sources"]:
            s.pop("post_text", None)
    _append(judgments, lines)
    print(f"added {len(lines)} judgments to {judgments}", file=sys.stderr)
    return 0


def _append(path: Path, lines: list[dict]) -> None:
    if not lines:
        return
    with path.open("a", encoding="utf-8") as fh:
        for j in lines:
            fh.write(json.dumps(j, ensure_ascii=False) + "\n")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="*", type=Path, help="run XML files to carry judgments over to")
    p.add_argument("--judgments", type=Path, required=True, help="the careful judgments JSONL (appended to)")
    p.add_argument("--corpus", nargs="+", default=[], help="corpus files or folders (to find each cited post)")
    p.add_argument("--todo", type=Path, help="write bullets left to judge here")
    p.add_argument("--add", type=Path, metavar="TODO", help="append a filled-in TODO file to the judgments")
    p.add_argument("--topic", action="append", help="only these topic numbers (repeat; default: all)")
    p.add_argument("--assessor", default="careful:bolt-distill", help="assessor name for carried lines")
    add_encoding_option(p)
    a = p.parse_args()
    if a.add:
        return add(a.add, a.judgments)
    if not a.runs or not a.corpus:
        p.error("give RUN.xml files and --corpus (or --add TODO.jsonl)")
    return carry(a.runs, a.judgments, a.corpus, a.todo, a.assessor, set(a.topic or ()), a.encoding_errors)


if __name__ == "__main__":
    sys.exit(main())
