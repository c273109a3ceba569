"""Regenerate this folder: one invalid submission per rule, and expected.json (rule, line).

Run from this folder: ``python _generate.py``. Each file is the same valid two-topic run
(topics in ../validate_topics.xml, citations into ../validate_corpus) with one change.
"""
import json
T = "bolt-eng-DF-900-100001-1000001"
B1 = f'<bullet>The committee approved the new bridge.<source post="{T}" offset="148"/></bullet>'
B2 = f'<bullet>Construction will start next spring.<source post="{T}" offset="358"/></bullet>'
def base(name):
    return [f'<results run="{name}">', '<result number="1.001">', '<response>', B1, '</response>', '</result>',
            '<result number="1.002">', '<response>', B2, '</response>', '</result>', '</results>']
cases = {}
def case(rule, line, edit=None, text=None, data=None, corpus=False, also=None, note=""):
    name = rule
    if data is None:
        if text is None:
            lines = base(name)
            edit(lines)
            text = "\n".join(lines) + "\n"
        data = text.encode("utf-8")
    open(f"{name}.xml", "wb").write(data)
    cases[f"{name}.xml"] = {"rule": rule, "line": line, "corpus": corpus, **({"also": also} if also else {}), "note": note}

def rep(i, s):
    def f(lines): lines[i - 1] = s
    return f
def ins(i, s):  # insert so that s becomes line i
    def f(lines): lines.insert(i - 1, s)
    return f

case("empty-file", None, data=b"\n  \n", note="only white space")
case("invalid-utf8", 4, data="\n".join(base("invalid-utf8")).encode().replace(b"approved", b"appr\xe9ved"),
     note="Latin-1 e-acute inside bullet 1 at byte 103")
case("bad-encoding-declaration", 1, text='<?xml version="1.0" encoding="ISO-8859-1"?>\n' + "\n".join(base("bad-encoding-declaration")[0:]) + "\n")
case("doctype-refused", 2, text='<?xml version="1.0"?>\n<!DOCTYPE results [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' + "\n".join(base("doctype-refused")) + "\n", note="XXE attempt")
case("entity-refused", 4, rep(4, B1.replace("bridge.", "bridge&nbsp;today.")), note="HTML entity without a DTD")
case("not-well-formed", 5, rep(4, B1.replace("</bullet>", "")), note="unclosed <bullet>: the mismatch is seen at </response>")
case("too-large", 4, rep(4, "<bullet>" + "<b>" * 300 + "deep" + "</b>" * 300 + f'<source post="{T}" offset="148"/></bullet>'), note="nesting deeper than 256")
case("unknown-element", 4, rep(4, B1.replace("bridge.", "<em>bridge</em>.")))
case("unknown-attribute", 4, rep(4, B1.replace("<bullet>", '<bullet rank="1">')))
case("misplaced-element", 4, rep(4, f'<source post="{T}" offset="148"/>'), note="<source> directly in <response>")
case("mixed-roots", 13, lambda l: l.append('<result number="1.003"><response/></result>'))
case("bad-run-id", 1, rep(1, '<results run="my run">'))
case("text-outside-bullet", 4, ins(4, "A sentence outside any bullet."))
case("no-results", None, text='<results run="no-results">\n</results>\n')
case("missing-topic-number", 2, rep(2, "<result>"))
case("duplicate-result", 7, rep(7, '<result number="1.001">'), note="and 1.002 then has no result")
case("missing-response", 7, lambda l: l.__setitem__(slice(6, 11), ['<result number="1.002">', B2, '</result>']),
     note="bullets directly in <result>: both rules fire at line 7/8")
case("multiple-responses", 5, ins(5, f'</response><response>'), note="a second <response> opened on line 5")
case("empty-response", 7, lambda l: l.__setitem__(slice(6, 11), ['<result number="1.002"><response>', '</response></result>']))
case("empty-bullet-text", 4, rep(4, f'<bullet> <source post="{T}" offset="148"/> </bullet>'))
case("bullet-without-source", 4, rep(4, "<bullet>The committee approved the new bridge.</bullet>"))
case("duplicate-bullet", 5, ins(5, B1.replace('offset="148"', 'offset="152"')))
case("source-missing-post", 4, rep(4, B1.replace(f'post="{T}" ', "")))
case("source-missing-offset", 4, rep(4, B1.replace(' offset="148"', "")))
case("source-bad-offset", 4, rep(4, B1.replace('offset="148"', 'offset="148.5"')))
case("negative-offset", 4, rep(4, B1.replace('offset="148"', 'offset="-148"')))
case("source-has-content", 4, rep(4, f'<bullet><source post="{T}" offset="148">The committee approved the new bridge.</source></bullet>'),
     note="the text inside <source> is not bullet text, so empty-bullet-text fires too")
case("duplicate-source", 4, rep(4, B1.replace("</bullet>", f'<source post="{T}" offset="148"/></bullet>')))
case("unknown-topic", 7, rep(7, '<result number="1.02">'), note="1.002 is suggested; 1.002 then has no result")
case("missing-result", None, lambda l: l.__delitem__(slice(6, 11)))
case("duplicate-run-id", 1, rep(1, '<results run="same-id">'), also=["_same_run_id.xml"])
open("_same_run_id.xml", "w").write("\n".join(base("same-id")) + "\n")
case("bad-thread-id", 4, rep(4, B1.replace(T, "p4")), note="a post id where the thread id belongs")
case("unknown-thread", 4, rep(4, B1.replace(T, "bolt-eng-DF-900-100001-9999999")), corpus=True)
case("offset-outside-thread", 4, rep(4, B1.replace('offset="148"', 'offset="5000"')), corpus=True, note="the thread has 430 code points")
case("offset-outside-post", 4, rep(4, B1.replace('offset="148"', 'offset="50"')), corpus=True, note="offset 50 is in <headline>")
case("text-not-near-offset", 4, rep(4, B1.replace('offset="148"', 'offset="358"')), corpus=True, note="cites p2's construction text")
json.dump(cases, open("expected.json", "w"), indent=1)
print(len(cases))
