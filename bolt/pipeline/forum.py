"""What the structure of a forum thread says about its sentences: who asks, who answers, what is a signature.

- The *opening post* of a thread usually asks; its sentences describe the asker's situation and
  rarely answer anybody's query. Later posts by the same author (the *asker*) are mostly
  follow-ups and thanks. Replies by other people carry the answers.
- Replies answer first: a forum reply usually opens with its answer ("No, Half doesn't take
  PayPal.") and then explains, qualifies or drifts; the later a sentence comes in its post, the
  less likely it states the answer. The *answer position* counts only the specific statements
  before a sentence (long enough to be candidates, informativeness >= ``SPECIFIC``), so a
  leading "Hi,", a name or an anecdote ("My neighbour lost 400 dollars this way.") does not push
  the answer after it down.
- A *signature* is text an author repeats at the end of several posts (a motto, a quotation, a
  shop slogan, board rules pasted again): the same sentence by the same author in two or more
  posts is never an answer.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from bolt.pipeline.candidates import Sentence

QUESTION = re.compile(r"[?؟？]")
# A question mark that closes a question: right after a word (no space before it) and before the end, a
# space, a quote or bracket, or more punctuation. A "?" inside a URL ("story?id=7"), between
# letters ("Asia?s") or standing alone (" ? ") is a character lost in a pasted article's encoding (an
# apostrophe, a dash) or a query string, not a question (docs/system.md).
ASKING = re.compile(r"(?<=[^\s?])\?+(?=$|[\s\"'\u201d\u2019()\[\]\u00bb.!,;:])|[؟？]")


@dataclass(frozen=True, slots=True)
class ThreadRoles:
    """The opening post's id, its author, and whether it asks a question."""

    opening: str | None
    asker: str | None
    asks: bool


def thread_roles(thread, sentences: Iterable[Sentence], strict: bool = False) -> ThreadRoles:
    """Roles of one thread, from its first post and that post's own sentences. With ``strict`` only a
    question mark that closes a question (``ASKING``) makes the thread ask, so an opening post that
    pastes an article whose URL or lost characters hold a "?" reports rather than asks."""
    posts = thread.posts if thread is not None else ()
    if not posts:
        return ThreadRoles(None, None, False)
    first = posts[0]
    mark = ASKING if strict else QUESTION
    asks = any(mark.search(s.text) for s in sentences if s.post == first.id)
    return ThreadRoles(first.id, first.author, asks)


def role_weight(thread, post_id: str, roles: ThreadRoles, opening: float, asker: float) -> float:
    """``opening`` for the opening post of a thread that asks, ``asker`` for later posts by the
    asker, 1.0 for replies by anybody else and for every post of a thread that opens without a
    question (a report or an announcement: its opening post is evidence like any other)."""
    if roles.opening is None or not roles.asks:
        return 1.0
    if post_id == roles.opening:
        return opening
    if roles.asker:
        post = thread.post(post_id)
        if post is not None and post.author == roles.asker:
            return asker
    return 1.0


def position_weight(position: int, decay: float) -> float:
    """``1 / (1 + decay x position)``: 1 for the first content sentence of a post, lower later on
    (answer first; ``decay`` 0: off). ``position`` is 0-based among the post's content sentences."""
    return 1.0 / (1.0 + decay * max(0, position)) if decay > 0 else 1.0


def content_positions(sentences: Iterable[Sentence], is_content) -> dict[tuple[str, int], int]:
    """(post, sentence position) -> how many content sentences (``is_content(sentence)``) come
    before it in its post: the answer position of every sentence of a thread."""
    out: dict[tuple[str, int], int] = {}
    seen: dict[str, int] = {}
    for s in sorted(sentences, key=lambda s: (s.post, s.position)):
        n = seen.get(s.post, 0)
        out[(s.post, s.position)] = n
        if is_content(s):
            seen[s.post] = n + 1
    return out


def normalised(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def signatures(threads: Iterable, sentences_of, tail: int = 3) -> frozenset[tuple[str, str]]:
    """(author, normalised sentence) pairs that are one author's signature in ``threads``.

    A signature closes a post: the sentence is among the last ``tail`` sentences of two or more
    posts by one author, and in at least one of them some text of the post comes before it (a
    post that is only the sentence is a repost, not a signature). ``sentences_of(thread)`` gives
    a thread's own-text sentences. Short sentences (under four words) are left alone: "Thanks!"
    repeats without being a signature, and chatter is handled by :mod:`bolt.pipeline.informative`.
    """
    seen: dict[tuple[str, str], set[tuple[str, str]]] = {}
    after_text: set[tuple[str, str]] = set()
    for th in threads:
        if th is None:
            continue
        sents = list(sentences_of(th))
        count: dict[str, int] = {}
        for s in sents:
            count[s.post] = max(count.get(s.post, 0), s.position + 1)
        for s in sents:
            post = th.post(s.post)
            if post is None or not post.author or s.position < count[s.post] - tail:
                continue
            key = (post.author, normalised(s.text))
            if len(key[1].split()) < 4:
                continue
            seen.setdefault(key, set()).add((th.id, s.post))
            if s.position > 0:
                after_text.add(key)
    return frozenset(k for k, where in seen.items() if len(where) >= 2 and k in after_text)


def other_members(thread, post_id: str) -> frozenset[str]:
    """The lower-cased user names (at least 3 characters) of the thread's members other than the
    writer of ``post_id``: whom a sentence of that post may address."""
    posts = thread.posts if thread is not None else ()
    post = thread.post(post_id) if thread is not None else None
    own = (post.author or "").lower() if post is not None else ""
    return frozenset(a for a in {(p.author or "").lower() for p in posts} if len(a) >= 3 and a != own)
