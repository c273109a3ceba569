"""Property tests: generated threads (entities, CRLF, C1 controls, emoji, nested quotes, Arabic,
Chinese) read back with offsets that round-trip exactly, through every reader path."""
from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indexing.reader import _scan, parse_thread_text, split_docs

ALPHABET = st.sampled_from(list("ab xyz.,!?'\"&<>\r\n\t\u0085\u0080\u009f") + ["😀", "é", "ج", "مرحبا", "中", "文字", "\u3000"])
TEXT = st.lists(ALPHABET, min_size=1, max_size=12).map("".join)


_ONE = re.compile(r"&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9a-fA-F]+));|[^&]", re.S)
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}


def _char(m: re.Match) -> str:
    if m.group(1):
        return _NAMED[m.group(1)]
    if m.group(2) or m.group(3):
        return chr(int(m.group(2)) if m.group(2) else int(m.group(3), 16))
    return m.group(0)


def unescape(raw: str) -> str:
    """Strict XML unescaping: every '&' must open a complete reference (unlike html.unescape)."""
    out, pos = [], 0
    for m in _ONE.finditer(raw):
        assert m.start() == pos, f"not strict XML text: {raw!r}"
        out.append(_char(m))
        pos = m.end()
    assert pos == len(raw), f"not strict XML text: {raw!r}"
    return "".join(out)


def one_char(raw: str) -> str:
    """The single character a raw span encodes (exactly one character or one reference)."""
    m = _ONE.fullmatch(raw)
    assert m is not None, f"not one character: {raw!r}"
    return _char(m)


def escape(text: str, style: int) -> str:
    """XML-escape text; ``style`` picks named or numeric references for some characters."""
    out = text.replace("&", "&amp;").replace("<", "&lt;")
    out = out.replace(">", "&gt;") if style % 2 else out
    if style % 3 == 0:
        out = out.replace('"', "&quot;").replace("😀", "&#x1F600;").replace("é", "&#233;")
    return out


# a post body: a list of items, each plain text, a quote (nested), an <a> link or an <img/>
BODY = st.recursive(
    st.lists(st.tuples(st.just("text"), TEXT), min_size=1, max_size=3),
    lambda inner: st.lists(st.one_of(
        st.tuples(st.just("text"), TEXT),
        st.tuples(st.just("quote"), st.tuples(st.one_of(st.none(), st.sampled_from(["ann", "b&b", "سارة"])), inner)),
        st.tuples(st.just("a"), TEXT),
        st.tuples(st.just("img"), st.just("")),
    ), min_size=1, max_size=4),
    max_leaves=8,
)


def render(body, style: int, depth: int = 0, author=None, out=None):
    """Serialise a body; collect the expected (text, depth, orig_author) of each text run."""
    parts: list[str] = []
    for kind, val in body:
        if kind == "text":
            parts.append(escape(val, style))
            out.append((val, depth, author))
        elif kind == "a":
            parts.append(f'<a href="http://x/?a=1&amp;b=2">{escape(val, style)}</a>')
            out.append((val, depth, author))
        elif kind == "img":
            parts.append('<img src="i.gif"/>')
        else:
            who, inner = val
            attr = f' orig_author="{escape(who, 3)}"' if who is not None else ""
            parts.append(f"<quote{attr}>" + render(inner, style, depth + 1, who, out) + "</quote>")
    return "".join(parts)


@st.composite
def threads(draw):
    style = draw(st.integers(0, 5))
    tid = draw(st.sampled_from(["bolt-eng-DF-1-2-3", "ARZ_DF_000181_20141021_X", "bolt-cmn-NG-4-5-6"]))
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    decl = draw(st.booleans())
    posts, expected = [], []
    for k in range(1, draw(st.integers(1, 4)) + 1):
        runs: list = []
        body = render(draw(BODY), style, out=runs)
        who = draw(st.sampled_from(["ann", "b&b", "寒春", "سارة"]))
        q = draw(st.sampled_from(['"', "'"]))
        attrs = [f"id={q}p{k}{q}", f"author={q}{escape(who, 3)}{q}", 'datetime="2012-01-01T00:00:00"']
        attrs = draw(st.permutations(attrs))  # attribute order varies between releases
        posts.append(f'<post {" ".join(attrs)}>{body}</post>')
        expected.append((f"p{k}", who, runs))
    head = draw(TEXT)
    raw = (f'<doc id="{tid}">{nl}<headline>{escape(head, style)}</headline>{nl}' + nl.join(posts) + f"{nl}</doc>")
    if decl:
        raw = f'<?xml version="1.0" encoding="utf-8"?>{nl}' + raw
    return raw, head, expected


def check(t, raw, head, expected):
    assert t.raw == raw
    assert t.headline == " ".join(head.split())
    assert [(p.id, p.author) for p in t.posts] == [(e[0], e[1]) for e in expected]
    for p, (_, _, runs) in zip(t.posts, expected):
        assert raw.startswith("<post", p.start) and raw[:p.end].endswith("</post>")
        # adjacent text runs with no tag between them are one piece
        got = [(pc.text, pc.quote_depth, pc.orig_author) for pc in p.pieces]
        assert "".join(g[0] for g in got) == "".join(r[0] for r in runs)
        assert {(g[1], g[2]) for g in got} <= {(r[1], r[2]) for r in runs}
        for pc in p.pieces:
            assert unescape(raw[pc.start:pc.end]) == pc.text
        for quotes in (False, True, None):
            tm = t.text_map(p, quotes=quotes)
            for i, ch in enumerate(tm.text):
                a, b = tm.raw_span(i, i + 1)
                assert a == tm.raw_offset(i) and p.start < a <= b < p.end
                assert (a == b and ch == "\n") or one_char(raw[a:b]) == ch
                assert tm.index_at_raw(a) == i or (a == b)
            if tm.text:
                a, b = tm.raw_span(0, len(tm.text))
                assert t.post_at(a) is p and t.post_at(b - 1) is p


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(threads())
def test_offsets_round_trip(case):
    raw, head, expected = case
    t = parse_thread_text(raw, path="gen.xml")
    check(t, raw, head, expected)
    slow = _scan(raw, "gen.xml", 1, None)  # the careful path agrees with the fast one
    assert slow == t and slow.posts == t.posts


@settings(max_examples=40, deadline=None)
@given(st.lists(threads(), min_size=1, max_size=4), st.integers(1, 64))
def test_streaming_split_in_any_chunks(cases, chunk):
    """Cutting the bytes anywhere (inside a UTF-8 sequence too) never moves an offset."""
    docs = [c[0].split("?>", 1)[1].lstrip("\r\n") if c[0].startswith("<?xml") else c[0] for c in cases]
    data = "\n".join(docs).encode("utf-8") + b"\n"
    chunks = [data[i:i + chunk] for i in range(0, len(data), chunk)]
    got = list(split_docs(chunks, "gen.xml"))
    assert [g.raw for g in got] == docs
    line = 1
    for g, d in zip(got, docs):
        assert g.line == line
        line += d.count("\n") + 1
