"""The forum XML reader (issue 3): real LDC samples, every input form, every bad input, lookups.

Expected values are hand-computed or published with the samples (../shared/real-samples/README.md).
"""
from __future__ import annotations

import gzip
import html
import zipfile

import pytest

from indexing.errors import CorpusError, ToolkitError
from indexing.lang import lang_of
from indexing.lookup import count_words, find_text_near, span_text, text_at, word_distance
from indexing.reader import BadThreads, _scan, find_posts, iter_threads, parse_thread_text, read_threads

ENG = "ENG_DF_000200_20061121_G00A06WU8.xml"
CMN = "CMN_DF_000181_20141021_F000000C9.xml"
BIG = "bolt-eng-DF-215.xml"


# --------------------------------------------------------------------------- real samples


@pytest.fixture(scope="module")
def big(real_samples):
    return read_threads(real_samples / BIG)


def test_published_vectors_eng(real_samples):
    (t,) = read_threads(real_samples / ENG)
    assert t.id == "ENG_DF_000200_20061121_G00A06WU8" and t.lang == "eng"
    assert t.raw[0:43] == '<doc id="ENG_DF_000200_20061121_G00A06WU8">'
    assert t.raw[107:113] == "Aralus"
    assert t.raw[339:343] == "&lt;"
    assert t.headline == "Random Variables Question"
    assert [p.id for p in t.posts] == ["p1", "p2"]
    assert t.posts[0].author == "Aralus" and t.posts[1].author == "James"
    # the raw text is the file's text, character for character
    assert t.raw == (real_samples / ENG).read_text(encoding="utf-8").rstrip("\n")
    # the entity at 339 decodes to one "<"; text_at starts there
    assert t.post_at(339).id == "p1"
    assert t.text_at(339).startswith("<= x <= 1\n")
    assert t.text_at(340).startswith("<= x")  # inside the entity: its character
    assert t.post_at(107).id == "p1"  # inside the post element's start tag: the post's whole text
    assert t.text_at(107) == t.text_at(t.posts[0].start) == t.text_map(t.posts[0], quotes=None).text


def test_published_vectors_cmn_truncated_file(real_samples):
    """The CMN sample stops inside its last post: the reader must say so, naming file, line, thread."""
    path = real_samples / CMN
    text = path.read_bytes().decode("utf-8")
    assert text[83:92] == "<headline"
    assert text[1166:1172] == "<quote"
    assert len(text[:1166].encode("utf-8")) == 2438  # code points, not bytes
    with pytest.raises(CorpusError) as e:
        read_threads(path)
    assert e.value.file == str(path) and e.value.line == 2
    assert e.value.thread == "CMN_DF_000181_20141021_F000000C9"
    assert "never closed" in str(e.value)
    bad = BadThreads()
    assert read_threads(path, skip_bad=True, bad=bad) == [] and len(bad) == 1
    # completed by hand, the same text parses and keeps every published offset
    t = parse_thread_text(text + "</post>\n</doc>\n", path=str(path))
    assert t.lang == "cmn" and t.raw[83:92] == "<headline" and t.raw[1166:1172] == "<quote"
    assert t.headline == "西方民主与正义的重大胜利——评刀锋战士一案"
    assert [p.id for p in t.posts] == [f"p{i}" for i in range(1, 9)]
    assert t.posts[0].author == "寒春江雪" and t.posts[1].author == "乡间山人 "  # attribute order id, author, datetime
    p6 = t.post("p6")
    q = [pc for pc in p6.pieces if pc.is_quote]
    assert q[0].orig_author == "sx5" and q[0].start > 1166 and q[0].text.strip() == "这货在中国 民意汹涌下妥妥的枪毙～～"
    assert t.raw.index("<quote") == 1166 and p6.start < 1166 < p6.end


def test_bolt_eng_215_counts_and_pins(big, real_samples):
    assert len(big) == 55
    assert sum(len(t.posts) for t in big) == 1482
    assert sum(t.quotes for t in big) == 88
    assert {t.lang for t in big} == {"eng"}
    first, mid, last = big[0], big[27], big[-1]
    assert first.id == "bolt-eng-DF-215-192283-7011239"
    assert first.headline == "buyer claims vintage/pre-owned mink headband is dirty~help?"
    assert first.line == 1 and first.raw.startswith("<doc id=") and first.raw.endswith("</doc>")
    assert last.id == "bolt-eng-DF-215-192297-4056834"
    assert mid.id == real_samples.joinpath(BIG).read_text(encoding="utf-8").split('<doc id="')[28].split('"')[0]
    p4 = first.posts[3]
    assert (p4.id, p4.author, p4.datetime, p4.start, p4.end, p4.line) == (
        "p4", "thecatnanny5", "2012-03-09T04:21:00", 1583, 2162, 31)
    quote = [pc for pc in p4.pieces if pc.is_quote and pc.text.strip()][0]
    assert quote.orig_author == "meowkittykltty" and quote.quote_depth == 1
    assert quote.text.strip().startswith("Apologise & offer a refund")
    assert first.raw[quote.start:quote.end].strip().startswith("Apologise &amp; offer")
    assert p4.quote_count == 1


def test_bolt_eng_215_first_middle_last_posts(big):
    posts = [(t, p) for t in big for p in t.posts]
    pins = {0: ("bolt-eng-DF-215-192283-7011239", "p1", "macsmarketplace", "2012-03-09T00:04:00", 125, 690, 5,
                "\nBuyer received item on February 24"),
            741: ("bolt-eng-DF-215-192297-4056444", "p303", "dns029", "2007-01-23T00:29:00", 180614, 182337, 4602,
                  "\nHi, I am Judy."),
            1481: ("bolt-eng-DF-215-192297-4056834", "p8", "dailygaming", "2012-02-22T20:44:00", 2500, 2768, 9964,
                   "\nLOL... awesome, I need to do one of these.")}
    for i, (tid, pid, author, dt, start, end, line, text) in pins.items():
        t, p = posts[i]
        assert (t.id, p.id, p.author, p.datetime, p.start, p.end, p.line) == (tid, pid, author, dt, start, end, line)
        assert t.text_map(p).text.startswith(text)
    assert big[27].headline == "**** Introduce yourself post ****" and len(big[27].posts) == 624


def test_bolt_eng_215_every_post_and_piece(big):
    lines = 0
    for t in big:
        assert [p.id for p in t.posts] == [f"p{i}" for i in range(1, len(t.posts) + 1)]
        for p in t.posts:
            assert t.raw.startswith("<post", p.start) and t.raw[:p.end].endswith("</post>")
            assert t.post_at(p.start) is p and t.post_at(p.end - 1) is p
            for pc in p.pieces:
                assert p.start < pc.start <= pc.end < p.end
                if not pc.is_quote:  # re-escaping own text gives exactly its raw slice
                    esc = pc.text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                    assert t.raw[pc.start:pc.end] == esc
        lines += t.raw.count("\n") + 1
    assert big[-1].line + big[-1].raw.count("\n") == lines  # docs are separated by one newline


def test_nested_quotes_in_real_sample(big):
    deep = [(t, pc) for t in big for _, pc in t.iter_pieces() if pc.quote_depth == 2]
    assert deep, "bolt-eng-DF-215 has quotes nested two deep"
    t, pc = deep[0]
    assert t.raw.rfind("<quote", 0, pc.start) > t.raw.rfind("</quote>", 0, pc.start)


def test_fast_path_equals_careful_scanner(big):
    for t in big:
        slow = _scan(t.raw, t.path, t.line, None)
        assert slow == t and slow.posts == t.posts and slow.headline == t.headline


# --------------------------------------------------------------------------- input forms


def doc(tid: str, *posts: str, headline: str = "title") -> str:
    body = "".join(f'<post author="a{i}" datetime="2012-01-0{i}T00:00:00" id="p{i}">\n{p}\n</post>\n'
                   for i, p in enumerate(posts, 1))
    return f'<doc id="{tid}">\n<headline>\n{headline}\n</headline>\n{body}</doc>\n'


TWO = doc("bolt-eng-DF-1-2-3", "hello &amp; bye", "second") + doc("bolt-arz-DF-1-2-4", "مرحبا")


def test_declaration_file_counts_from_file_start(tmp_path):
    text = '<?xml version="1.0" encoding="utf-8"?>\n' + doc("CMN_DF_1_2_3", "你好")
    f = tmp_path / "one.xml"
    f.write_bytes(text.encode())
    (t,) = read_threads(f)
    assert t.raw == text.rstrip("\n") and t.raw.startswith("<?xml")
    assert t.raw.index("<doc") == 39 and t.posts[0].start == text.index("<post")
    assert t.lang == "cmn" and t.text_at(text.index("你")) == "你好\n"


def test_byte_order_mark(tmp_path):
    f = tmp_path / "bom.xml"
    f.write_bytes(b"\xef\xbb\xbf" + TWO.encode())
    a, b = read_threads(f)
    assert a.raw.startswith("<doc") and a.raw == TWO[:TWO.index("</doc>") + 6]
    g = tmp_path / "bomdecl.xml"
    g.write_bytes(b'\xef\xbb\xbf<?xml version="1.0"?>\n' + doc("bolt-eng-DF-1-1-1", "x").encode())
    (t,) = read_threads(g)
    assert t.raw.startswith("\ufeff<?xml")  # counted from the file's first character


def test_gzip_zip_and_folder(tmp_path):
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "sub" / "a.xml").write_text(TWO, encoding="utf-8")
    (tmp_path / "sub" / "deeper" / "b.xml.gz").write_bytes(gzip.compress(doc("ARZ_DF_9_9_9", "x").encode()))
    (tmp_path / "sub" / "notes.txt").write_text("ignored")
    with zipfile.ZipFile(tmp_path / "sub" / "c.zip", "w") as z:
        z.writestr("inner/d.xml", doc("bolt-cmn-NG-5-6-7", "中文"))
        z.writestr("inner/e.xml.gz", gzip.compress(doc("bolt-eng-DF-8-8-8", "gz in zip").encode()))
        z.writestr("readme.txt", "not a thread")
    got = {t.id: t for t in iter_threads(tmp_path)}
    assert set(got) == {"bolt-eng-DF-1-2-3", "bolt-arz-DF-1-2-4", "ARZ_DF_9_9_9", "bolt-cmn-NG-5-6-7",
                        "bolt-eng-DF-8-8-8"}
    assert got["bolt-cmn-NG-5-6-7"].path.endswith("c.zip/inner/d.xml")
    assert got["bolt-eng-DF-8-8-8"].posts[0].pieces[0].text == "\ngz in zip\n"
    assert got["bolt-arz-DF-1-2-4"].line == TWO.count("\n", 0, TWO.index('<doc id="bolt-arz')) + 1
    assert [t.lang for t in got.values()] == ["eng", "arz", "cmn", "eng", "arz"]  # a folder's files before its subfolders


def test_multi_member_gzip_and_gzip_without_suffix(tmp_path):
    f = tmp_path / "threads.dat"
    f.write_bytes(gzip.compress(doc("bolt-eng-DF-1-1-1", "one").encode()) + gzip.compress(TWO.encode()))
    assert [t.id for t in read_threads(f)] == ["bolt-eng-DF-1-1-1", "bolt-eng-DF-1-2-3", "bolt-arz-DF-1-2-4"]


def test_concatenated_offsets_start_at_each_doc(tmp_path):
    f = tmp_path / "two.xml"
    f.write_text(TWO, encoding="utf-8")
    a, b = read_threads(f)
    assert a.raw.startswith("<doc") and b.raw.startswith("<doc") and b.raw.endswith("</doc>")
    i = a.raw.index("&amp;")
    assert a.text_at(i) == "& bye\n" and a.post_at(i).id == "p1"
    assert b.text_at(b.raw.index("مرحبا")) == "مرحبا\n"


def test_crlf_c1_and_emoji_are_characters(tmp_path):
    text = doc("bolt-eng-DF-1-1-1", "a\r\nb\u0085c 😀 &#x1F600; d").replace("\n", "\r\n")
    f = tmp_path / "crlf.xml"
    f.write_bytes(text.encode())
    (t,) = read_threads(f)
    assert t.raw == text.rstrip("\r\n")
    pc = t.posts[0].pieces[0]
    assert pc.text == "\r\na\r\r\nb\u0085c 😀 😀 d\r\n"
    i = t.raw.index("😀")
    assert t.raw[i] == "😀" and t.text_at(i).startswith("😀 😀 d")
    assert t.posts[1 - 1].line == 5


def test_lang_override_and_unknown(tmp_path):
    f = tmp_path / "x.xml"
    f.write_text(doc("thread-42", "hi") + doc("bolt-cmn-DF-1-2-3", "hi"), encoding="utf-8")
    assert [t.lang for t in read_threads(f)] == ["und", "cmn"]
    assert [t.lang for t in read_threads(f, lang="ARZ")] == ["arz", "arz"]


@pytest.mark.parametrize("tid, lang", [
    ("bolt-arz-DF-170-181103-8882806", "arz"), ("ARZ_DF_000181_20141021_F000000C9", "arz"),
    ("bolt-eng-NG-12-34-56", "eng"), ("CMN_DF_1_2_3", "cmn"), ("cmn_NG_1", "cmn"), ("bolt-xyz-DF-1", None),
    ("thread-7", None)])
def test_lang_of(tid, lang):
    assert lang_of(tid) == lang
    assert lang_of(tid, "cnm") == "cmn"


# --------------------------------------------------------------------------- bad input


def _bad(tmp_path, text: str | bytes, name: str = "bad.xml"):
    f = tmp_path / name
    f.write_bytes(text.encode() if isinstance(text, str) else text)
    with pytest.raises(CorpusError) as e:
        read_threads(f)
    assert e.value.file == str(f) or e.value.file.startswith(f"{f}/")
    bad = BadThreads()
    kept = read_threads(f, skip_bad=True, bad=bad)
    return e.value, kept, bad


GOOD = doc("bolt-eng-DF-0-0-1", "fine")


@pytest.mark.parametrize("broken, line, words", [
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\n<quote>\nx\n</post>\n</doc>\n', 5, "mismatched </post>"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\nAT&T\n</post>\n</doc>\n', 3, "&T"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\na &nbsp; b\n</post>\n</doc>\n', 3, "unknown entity &nbsp;"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\na &#0; b\n</post>\n</doc>\n', 3, "&#0;"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<headline>t</headline>\n</doc>\n', 1, "no <post>"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\na < b\n</post>\n</doc>\n', 3, "malformed markup"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\n<post id="p2">x</post>\n</post>\n</doc>\n', 3, "inside <post>"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\n<a href="x>y</a>\n</post>\n</doc>\n', 3, "malformed"),
    ('<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\nctrl \x01 char\n</post>\n</doc>\n', 3, "not well-formed XML"),
])
def test_bad_thread_is_reported_and_skipped(tmp_path, broken, line, words):
    err, kept, bad = _bad(tmp_path, GOOD + broken + GOOD.replace("0-0-1", "0-0-2"))
    assert err.thread == "bolt-eng-DF-9-9-9" and words in str(err)
    assert err.line == GOOD.count("\n") + line, str(err)
    assert err.hint
    assert [t.id for t in kept] == ["bolt-eng-DF-0-0-1", "bolt-eng-DF-0-0-2"]
    assert len(bad) == 1 and bad.errors[0].thread == "bolt-eng-DF-9-9-9"


def test_invalid_utf8_names_byte_and_line(tmp_path):
    data = GOOD.encode() + b'<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\nbad \xff byte\n</post>\n</doc>\n' \
        + GOOD.replace("0-0-1", "0-0-2").encode()
    err, kept, bad = _bad(tmp_path, data)
    at = data.index(b"\xff")
    assert "invalid UTF-8 byte 0xFF" in str(err) and f"at byte {at}" in str(err)
    assert err.line == GOOD.count("\n") + 3 and err.thread == "bolt-eng-DF-9-9-9"
    assert len(kept) == 2 and len(bad) == 1


def test_truncated_gzip_keeps_what_came_before(tmp_path):
    many = "".join(doc(f"bolt-eng-DF-1-1-{i}", "some text " * 50) for i in range(200))
    data = gzip.compress(many.encode())
    err, kept, bad = _bad(tmp_path, data[: len(data) // 2], name="cut.xml.gz")
    assert "truncated" in str(err) and err.line > 1
    assert 0 < len(kept) < 200 and [t.id for t in kept] == [f"bolt-eng-DF-1-1-{i}" for i in range(len(kept))]
    assert len(bad) == 1


def test_unclosed_doc_costs_only_itself(tmp_path):
    broken = '<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\nx\n</post>\n'
    err, kept, bad = _bad(tmp_path, GOOD + broken + GOOD.replace("0-0-1", "0-0-2"))
    assert "never closed" in str(err) and err.thread == "bolt-eng-DF-9-9-9" and err.line == GOOD.count("\n") + 1
    assert [t.id for t in kept] == ["bolt-eng-DF-0-0-1", "bolt-eng-DF-0-0-2"]


def test_doctype_and_entities_are_refused(tmp_path):
    bomb = ('<?xml version="1.0"?>\n<!DOCTYPE doc [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n'
            '<doc id="bolt-eng-DF-9-9-9">\n<post id="p1">\n&b;\n</post>\n</doc>\n')
    err, kept, _ = _bad(tmp_path, bomb)
    assert "DOCTYPE" in str(err) and kept == []
    ext = '<!DOCTYPE doc SYSTEM "file:///etc/passwd">\n' + GOOD
    err, _, _ = _bad(tmp_path, ext, name="ext.xml")
    assert "DOCTYPE" in str(err)


def test_text_outside_doc_and_missing_id(tmp_path):
    err, kept, _ = _bad(tmp_path, GOOD + "stray words\n" + GOOD.replace("0-0-1", "0-0-2"))
    assert "outside" in str(err) and err.line == GOOD.count("\n") + 1 and len(kept) == 2
    err, _, _ = _bad(tmp_path, '<doc>\n<post id="p1">x</post>\n</doc>\n', name="noid.xml")
    assert "no id" in str(err)


def test_bad_zip_archives(tmp_path):
    (tmp_path / "fake.zip").write_text(GOOD, encoding="utf-8")
    err, kept, bad = _bad(tmp_path, GOOD, name="fake.zip")
    assert "not a zip archive" in str(err) and kept == [] and len(bad) == 1
    good = tmp_path / "good.zip"
    with zipfile.ZipFile(good, "w", compression=zipfile.ZIP_STORED) as z:
        z.writestr("a.xml", GOOD)
        z.writestr("b.xml", GOOD.replace("0-0-1", "0-0-2"))
    data = bytearray(good.read_bytes())
    i = data.index(b"0-0-2") + 50  # inside b.xml's stored bytes: its CRC no longer matches
    data[i:i + 1] = b"X" if data[i:i + 1] != b"X" else b"Y"
    err, kept, bad = _bad(tmp_path, bytes(data), name="crc.zip")
    assert "corrupt zip member" in str(err) and err.file.endswith("crc.zip/b.xml")
    assert [t.id for t in kept] == ["bolt-eng-DF-0-0-1"] and len(bad) == 1


def test_missing_paths_and_empty_folder(tmp_path):
    with pytest.raises(ToolkitError, match="no such file") as e:
        read_threads(tmp_path / "nope.xml")
    assert e.value.hint
    (tmp_path / "empty").mkdir()
    with pytest.raises(ToolkitError, match="no .xml"):
        read_threads(tmp_path / "empty")


def test_rare_forms_take_the_careful_path():
    raw = ('<doc id="bolt-eng-DF-1-1-1">\n<!-- note </post> -->\n<post id="p1" author="x &amp; y"><![CDATA[a<b]]>'
           '</post >\n<post id="p2"/>\n<post id="p3">\n<quote>\n<quote orig_author="q">in</quote>\n</quote>\nz\n</post>\n</doc>')
    t = parse_thread_text(raw, path="x")
    assert [p.id for p in t.posts] == ["p1", "p2", "p3"] and t.posts[0].author == "x & y"
    assert t.posts[0].pieces[0].text == "a<b" and raw[t.posts[0].end - 8:t.posts[0].end] == "</post >"
    assert t.posts[1].pieces == () and raw[t.posts[1].start:t.posts[1].end] == '<post id="p2"/>'
    inner = [pc for pc in t.posts[2].pieces if pc.text == "in"][0]
    assert inner.quote_depth == 2 and inner.orig_author == "q"
    assert find_posts(raw, 1) == t.posts
    fake = (raw.replace("<!-- note </post> -->", '<!-- <post id="px"></post> -->').replace("</post >", "</post>")
            .replace('<post id="p2"/>', '<post id="p2"></post>'))
    assert [p.id for p in parse_thread_text(fake, path="x").posts] == ["p1", "p2", "p3"]


_PLAIN = ('<doc id="bolt-eng-DF-1-2-3">\n<headline>\nA &amp; B &#x4E2D;\r\n  c\n</headline>\n'
          '<post author="a" datetime="d1" id="p1">\nhi &lt;x&gt; <quote orig_author="z">q</quote>\n</post>\n'
          '<post author="b" datetime="d2" id="p2">\nbye\n</post>\n</doc>')


@pytest.mark.parametrize("raw, ids, authors", [
    (_PLAIN, ["p1", "p2"], ["a", "b"]),
    ('<?xml version="1.0"?>\n' + _PLAIN, ["p1", "p2"], ["a", "b"]),
    # a ">" inside a value cuts the fast split's start tag short: both attribute readers must notice
    (_PLAIN.replace('author="a"', 'author="a>b"'), ["p1", "p2"], ["a>b", "b"]),
    (_PLAIN.replace('author="a"', 'author="a>b"').replace('datetime="d2" ', ""), ["p1", "p2"], ["a>b", "b"]),
    # attribute orders, quotes, spacing and entities that differ between posts
    (_PLAIN.replace('<post author="b" datetime="d2" id="p2">', "<post id='p2'\n author = 'b&amp;c' >"),
     ["p1", "p2"], ["a", "b&c"]),
    (_PLAIN.replace(' id="p2"', ' id=""'), ["p1", "p2"], ["a", "b"]),
    (_PLAIN.replace(' id="p1"', ""), ["p1", "p2"], ["a", "b"]),
    # a value that looks like the next attribute, and one holding "/>"
    (_PLAIN.replace('author="a"', 'author=" id=" x="/>"'), ["p1", "p2"], [" id=", "b"]),
    # layouts that need libxml2's tree: an element between posts, a headline with markup
    (_PLAIN.replace("</post>\n<post", "</post>\n<br/><post"), ["p1", "p2"], ["a", "b"]),
    (_PLAIN.replace("<headline>\n", "<headline><i>x</i> "), ["p1", "p2"], ["a", "b"]),
])
def test_fast_reading_matches_the_careful_scanner(raw, ids, authors):
    t = parse_thread_text(raw, path="x")
    careful = _scan(raw, "x", 1, None)
    assert [p.id for p in t.posts] == ids and [p.author for p in t.posts] == authors
    assert [tuple(p) for p in t.posts] == [tuple(p) for p in careful.posts] == [tuple(p) for p in find_posts(raw)]
    assert (t.id, t.headline) == (careful.id, careful.headline)
    assert all(raw[p.start:p.end].startswith("<post") and raw[p.start:p.end].endswith("</post>") for p in t.posts)


def test_fast_reading_headline_and_id():
    t = parse_thread_text(_PLAIN, path="x")
    assert t.id == "bolt-eng-DF-1-2-3" and t.headline == "A & B \u4e2d c"  # entities decoded, white space collapsed
    assert parse_thread_text(_PLAIN.replace("<headline>", "<headline><i>x</i>"), path="x").headline.startswith("x")
    odd = parse_thread_text(_PLAIN.replace('id="bolt', 'id="a&amp;bolt'), path="x")
    assert odd.id == "a&bolt-eng-DF-1-2-3"  # an escaped id takes libxml2's reading
    with pytest.raises(CorpusError, match="unknown entity &nbsp;"):
        parse_thread_text(_PLAIN.replace("&amp; B", "&nbsp; B"), path="x")
    with pytest.raises(CorpusError, match="mismatched </quote>: <post> opened at line 9 is still open") as e:
        parse_thread_text(_PLAIN.replace("bye", "bye</quote>"), path="x")
    assert e.value.line == 10


# --------------------------------------------------------------------------- lookups


@pytest.fixture(scope="module")
def small():
    raw = ('<doc id="bolt-eng-DF-1-1-1">\n<headline>h</headline>\n'
           '<post id="p1" author="a">\nOne two &amp; three four five six.\n<quote orig_author="b">\nquoted words here\n'
           '</quote>\nSeven <a href="u">eight</a> nine.\n</post>\n<post id="p2">\n中文字符测试\n</post>\n</doc>')
    return parse_thread_text(raw, path="mem")


def test_records_are_immutable_and_pickle(small):
    import pickle

    with pytest.raises(AttributeError):
        small.raw = "x"
    with pytest.raises(AttributeError):
        small.posts[0].start = 3
    back = pickle.loads(pickle.dumps(small))
    assert back == small and back.posts == small.posts and back.posts[0].pieces == small.posts[0].pieces
    assert "raw" not in repr(small) and "thread_raw" not in repr(small.posts[0])


def test_post_at_boundaries(small):
    p1, p2 = small.posts
    assert small.post_at(p1.start) is p1 and small.post_at(p1.end - 1) is p1
    assert small.post_at(p1.end) is None and small.post_at(p2.start) is p2
    assert small.post_at(0) is None and small.post_at(len(small.raw)) is None


def test_text_map_spans_are_exact(small):
    p1 = small.posts[0]
    tm = small.text_map(p1)
    assert tm.text == "\nOne two & three four five six.\n\n\nSeven eight nine.\n"
    amp = tm.text.index("&")
    assert tm.raw_span(amp, amp + 1) == (small.raw.index("&amp;"), small.raw.index("&amp;") + 5)
    s, e = tm.raw_span(tm.text.index("Seven"), tm.text.index("nine.") + 5)
    assert small.raw[s:e] == 'Seven <a href="u">eight</a> nine.'
    q = small.text_map(p1, quotes=True)
    assert q.text.strip() == "quoted words here"
    every = small.text_map(p1, quotes=None)
    assert "quoted words here" in every.text and every.text.count("\n\n") >= 1
    for i, ch in enumerate(tm.text):
        a, b = tm.raw_span(i, i + 1)
        assert html.unescape(small.raw[a:b]) == ch or (ch == "\n" and a == b)


def test_text_at_find_text_and_word_distance(small):
    raw = small.raw
    i = raw.index("two")
    assert text_at(small, i).startswith("two & three")
    assert small.find_text("three four", i) == (raw.index("three"), raw.index("three") + 10)
    assert find_text_near(small, "five six", i) == (raw.index("five"), raw.index("six") + 3)  # 3 words on
    assert find_text_near(small, "five six", raw.index("One")) is None  # four words on: too far
    assert find_text_near(small, "five  six.", raw.index("One"), max_words=4) == (raw.index("five"), raw.index("six.") + 4)
    assert small.find_text("two & three", raw.index("One")) == (i, raw.index("three") + 5)
    assert small.find_text("eight nine", raw.index("Seven")) == (raw.index("eight"), raw.index("nine") + 4)
    assert word_distance(small, raw.index("One"), raw.index("three")) == 2  # "&amp;" is no word
    assert word_distance(small, raw.index("three"), raw.index("One")) == 0
    j = raw.index("中文")
    assert word_distance(small, j, j + 3) == 3 and count_words("中文 ab") == 3
    assert span_text(small, raw.index("two"), raw.index("three") + 5) == "two & three"
