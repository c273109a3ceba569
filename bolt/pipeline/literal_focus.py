"""Literal evidence for the language of the answer (``lang_anchor``).

Some query tokens pass unchanged across scripts: numbers that are not years (tickers such as
6415 or 0050) and Latin acronyms or product names written in capitals (ETF, VTI, QQQM). When
such a token is the subject of retrieved threads of exactly one non-English language (their
headline or opening post states it) and occurs in no retrieved English thread, that language
holds what the query names: the other languages' threads are about something else that merely
shares common words. A token only a reply quotes is no anchor: a commenter mentioned it, the
thread is about something else (a Weibo comment asking for the WHO name COVID-19 under a post on
the treatment plan). No embedding is needed: the check reads the text of threads already
retrieved.
"""
from __future__ import annotations

import re

# a number that is part of an amount (200,000; $3,900; 1.5) is no identifier: no digit group, decimal
# point or currency sign adjoins it; an acronym may take a plural s (ETFs)
_TOKEN = re.compile(r"(?<![A-Za-z0-9$€£¥])(?<![0-9][,.])([0-9]{3,}(?![A-Za-z0-9]|[,.][0-9])|[A-Z][A-Z0-9]{1,7}(?=s?(?![A-Za-z0-9])))"
                    r"(?![0-9]|[,.][0-9])")


def literal_tokens(query: str) -> list[str]:
    """The query's literal tokens, in order, once each: numbers of three or more digits that are
    not years (1900-2099) and all-capital Latin words of 2-8 characters (acronyms, tickers)."""
    out: list[str] = []
    for m in _TOKEN.finditer(query):
        t = m.group(1)
        if t.isdigit() and len(t) == 4 and 1900 <= int(t) <= 2099:
            continue
        if t not in out:
            out.append(t)
    return out


def holds(text: str, token: str) -> bool:
    """Whether ``text`` states ``token`` as a word of its own (no letter or digit adjoining it;
    case-insensitive for Latin: forums write acronyms in either case). CJK characters may adjoin."""
    pat = r"(?<![A-Za-z0-9])" + re.escape(token) + r"(?![A-Za-z0-9])"
    return re.search(pat, text, flags=re.IGNORECASE) is not None


def subject_and_text(headline: str | None, posts: list[str]) -> tuple[str, str]:
    """A thread's subject (its headline and opening post: what the thread is about) and its whole
    text (headline and every post), from the headline and the posts' own texts in order."""
    head = headline or ""
    return "\n".join([head, *posts[:1]]), "\n".join([head, *posts])


def anchored_language(tokens: list[str],
                      threads: dict[str, tuple[str, str, str]]) -> tuple[str | None, set[str]]:
    """The language whose retrieved threads state a literal token in their subject that no English
    thread holds anywhere, and those threads. ``threads``: thread id -> (language, subject, whole
    text), the subject being the headline and opening post. None (and no threads) when no token
    qualifies or when two non-English languages tie on the number of threads holding one."""
    eng = [text for lang, _, text in threads.values() if lang == "eng"]
    tokens = [t for t in tokens if not any(holds(x, t) for x in eng)]
    if not tokens:
        return None, set()
    hits: dict[str, set[str]] = {}
    for tid, (lang, subject, _) in threads.items():
        if lang != "eng" and any(holds(subject, t) for t in tokens):
            hits.setdefault(lang, set()).add(tid)
    if not hits:
        return None, set()
    ranked = sorted(hits, key=lambda lg: (-len(hits[lg]), lg))
    if len(ranked) > 1 and len(hits[ranked[0]]) == len(hits[ranked[1]]):
        return None, set()
    return ranked[0], hits[ranked[0]]
