"""The HTML report: one self-contained file a person would rather look at than read.

``render_report`` is a pure function of what an evaluation produced (topics, runs, judgments, the
score JSON of ``bolt score``, optionally the compare JSON and a corpus to quote cited posts from),
so it can be tested on small hand-made inputs without the JVM or the embedding model.

Sections: settings signature; leaderboard (every SPEC §6 metric present in the scores); per-topic
scores per run (heat-map cells); means per topic condition; a precision/recall plot; Kendall's tau
between metrics (table and heat-maps); and for each topic the bullets of each run with the facets
they matched and, for each citation, a link to ``#cite-<run>-<topic>-<bullet>-<k>``, a block that
quotes the cited post around the cited offset with the cited text highlighted.

Everything from inputs (bullets, posts, ids, queries) is untrusted and goes through ``html.escape``.
Plots are PNG data URIs (``evaluation.plots``); the file needs no network, script, or font.
"""
from __future__ import annotations

from indexing.atomic import atomic_write_text

import html
import json
import math
import os
import re
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from evaluation import plots
from evaluation.metrics import METRIC_ORDER
from evaluation.results import ScoreReport, as_report

METRICS = METRIC_ORDER
PRIMARY = "F_GD"
CONTEXT_CHARS = 240  # decoded characters of post text shown on each side of a citation
MARK_MAX = 300  # at most this many characters are highlighted when the bullet text is not found
_SENTENCE_END = re.compile(r"[.!?。！？؟\n]")
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_BLANKS = re.compile(r"[ \t]*\n\s*")


def h(value: Any) -> str:
    """HTML-escape anything (quotes too, so the result is safe inside attribute values)."""
    return html.escape(str(value), quote=True)


def cite_id(run: str, topic: str, bullet: int, k: int) -> str:
    """The anchor id of citation ``k`` (1-based) of ``bullet`` of ``run`` for ``topic``."""
    return "cite-" + "-".join(_ID_UNSAFE.sub("_", str(x)) for x in (run, topic, bullet, k))


# ----------------------------------------------------------------------------- citation text


class CitationContext(NamedTuple):
    """The post text around a citation: ``before`` + ``marked`` + ``after`` is a slice of the post.

    ``unit`` is the post id holding the offset; ``problem`` says why no text could be shown
    (then the text fields are empty); ``found`` tells whether the bullet text was found at the
    offset (the mark is then exactly that text) or the mark runs to the end of the sentence.
    """

    thread: str
    offset: int
    unit: str | None
    before: str
    marked: str
    after: str
    found: bool = False
    problem: str | None = None


def citation_context(corpus, post: str, offset: int, bullet_text: str = "",
                     width: int = CONTEXT_CHARS, cache: dict | None = None) -> CitationContext:
    """Quote the post that holds ``offset`` in thread ``post``, marking the cited text.

    ``corpus`` is anything with ``.get(thread_id) -> Thread | None`` (``indexing.corpus.Corpus``);
    ``cache`` (a dict the caller keeps) saves re-reading threads and re-decoding posts.
    """
    cache = {} if cache is None else cache
    if ("thread", post) not in cache:
        cache[("thread", post)] = corpus.get(post) if corpus is not None else None
    thread = cache[("thread", post)]
    if thread is None:
        why = "no collection was given" if corpus is None else "the thread is not in the collection"
        return CitationContext(post, offset, None, "", "", "", problem=why)
    p = thread.post_at(offset)
    if p is None:
        return CitationContext(post, offset, None, "", "", "",
                               problem=f"offset {offset} lies outside every <post> of the thread")
    key = ("post", post, p.id)
    if key not in cache:
        cache[key] = thread.text_map(p, quotes=None)
    tm = cache[key]
    text = tm.text
    i = min(tm.index_at_raw(offset), len(text))
    j, found = None, False
    span = _find(thread, bullet_text, offset)
    if span is not None and p.start <= span[0] < p.end:
        i2, j2 = tm.index_of_raw(span[0]), tm.index_of_raw(span[1])
        if i2 < j2:
            i, j, found = i2, j2, True
    if j is None:
        m = _SENTENCE_END.search(text, i, min(len(text), i + MARK_MAX))
        j = m.end() if m else min(len(text), i + MARK_MAX)
    lo, hi = max(0, i - width), min(len(text), j + width)
    before = ("…" if lo > 0 else "") + _tidy(text[lo:i]).lstrip()
    after = _tidy(text[j:hi]).rstrip() + ("…" if hi < len(text) else "")
    return CitationContext(post, offset, p.id, before, text[i:j], after, found)


def _tidy(text: str) -> str:
    """Blank lines and indentation around quotes folded to one line break (the post reads as prose)."""
    return _BLANKS.sub("\n", text)


def _find(thread, bullet_text: str, offset: int) -> tuple[int, int] | None:
    """Raw span of the bullet text near the offset (None when absent or the lookup is unavailable)."""
    if not bullet_text.strip():
        return None
    try:
        return thread.find_text(bullet_text, offset)
    except (ImportError, AttributeError, ValueError):
        return None


# ----------------------------------------------------------------------------- numbers


def metric_names(scores: ScoreReport | Mapping) -> list[str]:
    """The SPEC §6 metrics present in the scores, in SPEC order, then any other metric found."""
    seen = as_report(scores).metrics
    return [m for m in METRICS if m in seen] + [m for m in seen if m not in METRICS]


def _num(v: Any) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return float(v) if math.isfinite(v) else None


def _kendall(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Kendall's tau-b (ties handled); None when undefined (fewer than two items or a constant list)."""
    if len(a) < 2 or len(set(a)) < 2 or len(set(b)) < 2:
        return None
    from evaluation.compare import kendall_tau

    tau = kendall_tau(dict(enumerate(a)), dict(enumerate(b)))
    return tau if math.isfinite(tau) else None


def metric_tau(scores: ScoreReport | Mapping, metrics: Sequence[str], level: str = "runs") -> list[list[float | None]]:
    """Kendall's tau-b (``evaluation.compare.kendall_tau``) between every two metrics.

    ``level="runs"``: between the rankings of runs by their means (how the metrics order systems);
    ``level="topics"``: over every (run, topic) score, how the metrics agree topic by topic.
    """
    rep = as_report(scores)
    vectors: dict[str, list[float]] = {}
    for m in metrics:
        if level == "runs":
            vectors[m] = [_num(rep.means[r].get(m)) for r in rep.runs]
        else:
            vectors[m] = [_num(t.get(m)) for r in rep.runs for _, t in sorted(rep.topics.get(r, {}).items())]
    out = []
    for a in metrics:
        row = []
        for b in metrics:
            pairs = [(x, y) for x, y in zip(vectors[a], vectors[b]) if x is not None and y is not None]
            row.append(1.0 if a == b and len({x for x, _ in pairs}) > 1 else
                       _kendall([x for x, _ in pairs], [y for _, y in pairs]))
        out.append(row)
    return out


def _condition_label(key: str) -> str:
    """The scorer's condition key (``language:arz``, ``threads:single``) as labelled here."""
    kind, _, value = key.partition(":")
    return {"language": f"language ∋ {value}", "languages": f"languages = {value}",
            "threads": f"threads = {value}", "asks_about": f"asks about = {value}",
            "asks_for": f"asks for = {value}"}.get(kind, key)


class _Unread(NamedTuple):
    text: str = ""
    sources: tuple = ()


def newly_covered(judgments: Sequence, order: Sequence[int]) -> dict[int, tuple[str, ...]]:
    """``N_k`` per bullet position, as the scorer counts it (``evaluation.scoring.bullet_facts``)."""
    from evaluation.scoring import bullet_facts

    by_pos = {j.bullet: j for j in judgments}
    facts, _ = bullet_facts([_Unread()] * len(order), lambda k: by_pos.get(order[k - 1]))
    return {pos: f.newly_covered for pos, f in zip(order, facts)}


# ----------------------------------------------------------------------------- HTML pieces

CSS = """
:root{--ink:#1d2330;--mute:#5b6474;--line:#dde2ea;--bg:#f6f7fb;--card:#fff;--acc:#0b5cad}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","Noto Sans Arabic","PingFang SC","Microsoft YaHei",sans-serif;color:var(--ink);background:var(--bg)}
header{background:#14213d;color:#fff;padding:18px 28px}
header h1{margin:0 0 4px;font-size:22px}
header p{margin:0;color:#c9d3e6}
nav{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid var(--line);padding:8px 28px;display:flex;gap:16px;flex-wrap:wrap}
nav a{color:var(--acc);text-decoration:none;font-weight:600;font-size:13px}
main{padding:8px 28px 60px;max-width:1500px}
section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:14px 18px;margin:16px 0}
h2{font-size:18px;margin:0 0 10px}
h3{font-size:15px;margin:14px 0 6px}
h4{font-size:14px;margin:12px 0 4px}
p.note{color:var(--mute);margin:4px 0 10px;font-size:13px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:6px 0 10px}
th,td{border:1px solid var(--line);padding:4px 8px;text-align:right;white-space:nowrap}
th{background:#eef1f6;font-weight:600}
td.l,th.l,table.kv th{text-align:left;white-space:normal}
summary{cursor:pointer;color:var(--acc);font-weight:600;margin:6px 0}
tr.best td.run{font-weight:700}
td.top{font-weight:700;outline:2px solid #14213d;outline-offset:-2px}
.scroll{overflow-x:auto}
code,.sig{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.sig{background:#f1f3f8;border:1px solid var(--line);padding:8px;border-radius:6px;word-break:break-all}
img.plot{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px;background:#fff}
.plots{display:flex;gap:16px;flex-wrap:wrap;align-items:flex-start}
.badge{display:inline-block;border-radius:10px;padding:0 7px;margin:0 3px 2px 0;font-size:11px;font-weight:600;border:1px solid}
.badge.new{background:#1a7f37;border-color:#1a7f37;color:#fff}
.badge.okay.new{background:#6a9f2a;border-color:#6a9f2a}
.badge.again{background:#fff;border-color:#8a96a8;color:#5b6474}
.badge.none{background:#fff;border-color:#c94a4a;color:#b03030}
.badge.facet{background:#eef1f6;border-color:#c8cfdb;color:var(--ink)}
ol.bullets{margin:4px 0 8px;padding-left:26px}
ol.bullets li{margin:0 0 8px}
.btext{display:block;text-align:left}
table.compact th,table.compact td{padding:2px 5px;font-size:12.5px}
.meta{color:var(--mute);font-size:12px}
a.cite{font-size:12px;text-decoration:none;color:var(--acc);margin-right:6px;white-space:nowrap}
a.cite.bad{color:#b03030}
.cites{border-left:3px solid var(--line);margin:4px 0 12px 8px;padding-left:10px}
.cite-ctx{margin:4px 0;padding:4px 8px;border-radius:6px;background:#fafbfd;border:1px solid var(--line);font-size:12.5px}
.cite-ctx:target{border-color:#e0a100;box-shadow:0 0 0 3px #ffe08a}
.cite-ctx .ctx{white-space:pre-wrap;display:block;margin-top:3px;color:#3a4252;text-align:left}
.cite-ctx mark{background:#ffe08a;color:#000;padding:0 1px}
.facets{margin:4px 0 8px;padding-left:20px}
.topic{border-top:2px solid var(--line);padding-top:6px;margin-top:16px}
.run-block{margin-left:6px}
.legend span{margin-right:10px}
"""


def _fmt(v: Any) -> str:
    n = _num(v)
    return "–" if n is None else f"{n:.3f}"


def _heat(v: Any) -> str:
    """Background for a 0..1 score: white for 0, deep green for 1 (text turns white when dark)."""
    n = _num(v)
    if n is None:
        return ""
    x = max(0.0, min(1.0, n))
    light = 97 - 60 * x
    fg = "#fff" if light < 55 else "#1d2330"
    return f' style="background:hsl(140,45%,{light:.0f}%);color:{fg}"'


def _table(head: Sequence[str], rows: Iterable[str], cls: str = "", left: int = 1) -> str:
    ths = "".join(f'<th class="l">{h(x)}</th>' if i < left else f"<th>{h(x)}</th>" for i, x in enumerate(head))
    return f'<div class="scroll"><table class="{cls}"><thead><tr>{ths}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


def _img(png: bytes, alt: str) -> str:
    return f'<img class="plot" alt="{h(alt)}" src="{plots.data_uri(png)}">'


def _settings_section(scores: ScoreReport) -> str:
    settings = scores.settings
    sig = scores.signature or settings.get("signature")
    if not sig and settings:
        sig = "|".join(f"{k}:{v if isinstance(v, (str, int, float)) else json.dumps(v, sort_keys=True)}"
                       for k, v in settings.items())
    rows = [f'<tr><td class="l"><code>{h(k)}</code></td><td class="l">'
            f'{h(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True))}</td></tr>'
            for k, v in (settings.items() if isinstance(settings, Mapping) else ())]
    return ('<section class="card" id="settings"><h2>Settings signature</h2>'
            '<p class="note">Every number in this report was computed under these settings; quote the '
            'signature with any score.</p>'
            f'<div class="sig">{h(sig or "(no settings in the score file)")}</div>'
            + (f'<details><summary>all {len(rows)} settings</summary>{_table(("setting", "value"), rows, "kv")}'
               '</details>' if rows else "") + "</section>")


def _leaderboard(scores: ScoreReport, metrics: Sequence[str], rank_by: str, pr_png: bytes | None,
                 bars_png: bytes | None) -> str:
    from evaluation.compare import rank_runs

    means = scores.means
    order = rank_runs({r: _num(means[r].get(rank_by)) or 0.0 for r in means})
    best = {m: max((_num(means[r].get(m)) for r in means
                    if _num(means[r].get(m)) is not None), default=None) for m in metrics}
    rows = []
    for i, run in enumerate(order, 1):
        mean = means[run]
        cells = "".join(f'<td{_heat(mean.get(m))}{" class=top" if best[m] is not None and _num(mean.get(m)) == best[m] else ""}>'
                        f"{_fmt(mean.get(m))}</td>" for m in metrics)
        rows.append(f'<tr><td class="l run">{i}. {h(run)}</td>{cells}</tr>')
    extra = _zero_median(scores.zero_median, metrics)
    signature = scores.signature
    sig = (f'<p class="note">Signature: <code>{h(signature)}</code> (<a href="#settings">all settings</a>)</p>'
           if signature else "")
    figs = "".join(x for x in (
        _img(bars_png, "bar chart of mean scores per metric and run") if bars_png else "",
        _img(pr_png, "precision/recall scatter of runs and topics") if pr_png else "") if x)
    return ('<section class="card" id="leaderboard"><h2>Leaderboard</h2>'
            f'<p class="note">Runs ranked by mean {h(rank_by)} over topics, best first; the best value '
            'of each metric is framed. Cells are shaded from 0 (white) to 1 (green).</p>'
            + _table(["run"] + list(metrics), rows) + extra + sig
            + f'<div class="plots" id="pr-plot">{figs}</div></section>')


def _zero_median(zero: Any, metrics: Sequence[str]) -> str:
    """The scorer's ``{metric: {"count", "topics"}}`` (or a plain list) as one line per metric."""
    if not zero:
        return ""
    if isinstance(zero, Mapping):
        items = []
        for m in [m for m in metrics if m in zero] + [m for m in zero if m not in metrics]:
            v = zero[m]
            ts = v.get("topics", []) if isinstance(v, Mapping) else (v if isinstance(v, list) else [])
            n = v.get("count", len(ts)) if isinstance(v, Mapping) else len(ts)
            items.append(f"{h(m)} {h(n)}" + (f' <span class="meta">({h(", ".join(map(str, ts)))})</span>'
                                              if ts and len(ts) <= 12 else ""))
        body = "; ".join(items)
    else:
        body = h(", ".join(map(str, zero)) if isinstance(zero, (list, tuple)) else zero)
    return f'<p class="note">Topics whose median score over the runs is zero: {body}</p>'


def _per_topic(scores: ScoreReport, metrics: Sequence[str], topics: Sequence) -> str:
    queries = {t.topic_id: t.query for t in topics}
    numbers = list(queries) or sorted({n for r in scores.topics.values() for n in r})
    for r in scores.topics.values():
        numbers += [n for n in sorted(r) if n not in numbers]
    parts = ['<section class="card" id="per-topic"><h2>Per-topic scores</h2>'
             '<p class="note">One table per run; a dash means the score file has no value for that topic. '
             'Topic numbers link to the topic\'s bullets.</p><div class="plots">']
    for run in scores.runs:
        per = scores.topics.get(run, {})
        rows = []
        for n in numbers:
            vals = per.get(n, {})
            q = queries.get(n, "")
            rows.append(f'<tr><td class="l" title="{h(q)}"><a href="#topic-{h(_ID_UNSAFE.sub("_", n))}">'
                        f'{h(n)}</a></td>' + "".join(f"<td{_heat(vals.get(m))}>{_fmt(vals.get(m))}</td>"
                                                      for m in metrics) + "</tr>")
        mean = scores.means[run]
        rows.append('<tr><th class="l">mean</th>' + "".join(f"<th>{_fmt(mean.get(m))}</th>" for m in metrics)
                    + "</tr>")
        parts.append(f'<div><h3 class="per-topic-run">{h(run)}</h3>' + _table(["topic"] + list(metrics), rows, "compact")
                     + "</div>")
    parts.append("</div></section>")
    return "".join(parts)


_CONDITION_ORDER = ("language ∋", "languages =", "threads =", "asks about", "asks for")


def _conditions(scores: ScoreReport, metrics: Sequence[str]) -> str:
    """The scorer's condition means (``ScoreReport.conditions``), rendered; nothing is recomputed here."""
    counts: dict[str, Any] = {}
    for by_cond in scores.conditions.values():
        for cond, vals in by_cond.items():
            counts.setdefault(cond, vals.get("topics") if isinstance(vals, Mapping) else None)
    if not counts:
        return ('<section class="card" id="conditions"><h2>By topic condition</h2>'
                '<p class="note">The topics carry no properties (languages, threads, asks-about, '
                'asks-for), so the score file has no breakdown.</p></section>')
    labels = {c: _condition_label(c) for c in counts}
    order = sorted(counts, key=lambda c: (next((i for i, o in enumerate(_CONDITION_ORDER)
                                                if labels[c].startswith(o)), len(_CONDITION_ORDER)), labels[c]))
    runs = scores.runs
    rows = []
    for cond in order:
        for i, run in enumerate(runs):
            vals = scores.conditions.get(run, {}).get(cond, {})
            first = (f'<td class="l" rowspan="{len(runs)}">{h(labels[cond])}</td><td class="l" rowspan="{len(runs)}">'
                     f"{h(counts[cond] if counts[cond] is not None else '')}</td>") if i == 0 else ""
            rows.append(f"<tr>{first}<td class=\"l\">{h(run)}</td>"
                        + "".join(f"<td{_heat(vals.get(m))}>{_fmt(vals.get(m))}</td>" for m in metrics) + "</tr>")
    return ('<section class="card" id="conditions"><h2>By topic condition</h2>'
            '<p class="note">Mean per-topic score over the topics of each condition, from the topic '
            'properties; a topic belongs to every language it involves.</p>'
            + _table(["condition", "topics", "run"] + list(metrics), rows, left=3) + "</section>")


def _tau_section(scores: ScoreReport, metrics: Sequence[str], compare: Mapping | None) -> str:
    runs_m = metric_tau(scores, metrics, "runs")
    topics_m = metric_tau(scores, metrics, "topics")
    rows = [f'<tr><th class="l">{h(a)}</th>' + "".join(
        f"<td>{'n/a' if v is None else f'{v:.2f}'}</td>" for v in row) + "</tr>"
        for a, row in zip(metrics, runs_m)]
    n_runs = len(scores.runs)
    imgs = _img(plots.tau_heatmap(metrics, runs_m, title=f"Kendall's τ-b between metrics: ranking of {n_runs} runs"),
                "Kendall tau heat-map between metrics over run rankings")
    imgs += _img(plots.tau_heatmap(metrics, topics_m, title="Kendall's τ-b between metrics: all (run, topic) scores"),
                 "Kendall tau heat-map between metrics over per-topic scores")
    cmp_html = _compare_html(compare, metrics) if compare else ""
    return ('<section class="card" id="tau"><h2>Agreement between metrics (Kendall\'s τ-b)</h2>'
            f'<p class="note">Table: τ-b between the rankings of the {n_runs} runs by each metric (ties '
            'handled; n/a when a metric gives every run the same score). With few runs τ takes few values; '
            'the second heat-map correlates the metrics over every (run, topic) score.</p>'
            + _table(["metric"] + list(metrics), rows) + f'<div class="plots">{imgs}</div>' + cmp_html
            + "</section>")


def _compare_html(compare: Mapping, metrics: Sequence[str]) -> str:
    """Rankings, tau between score files (when several were compared) and paired tests from ``bolt compare``."""
    rk = compare.get("rankings", {})
    per_metric = bool(rk) and all(name in metrics for name in rk)
    rows = [f'<tr><td class="l">{h(name)}</td><td class="l">{h(" > ".join(map(str, order)))}</td></tr>'
            for name, order in rk.items()]
    out = [f'<h3>Rankings ({"one per metric" if per_metric else "one per score file"}; bolt compare)</h3>',
           _table(("metric" if per_metric else "scores", "ranking, best first"), rows, left=2) if rows else ""]
    taus = compare.get("kendall_tau", {})
    if taus and not per_metric:  # per-metric taus are the table above
        out.append(_table(("pair", "Kendall's τ-b"), [f'<tr><td class="l">{h(k)}</td><td>{_fmt(v)}</td></tr>'
                                                      for k, v in taus.items()]))
    for name, tests in (compare.get("significance") or {}).items():
        trs = [f'<tr><td class="l">{h(t.get("a"))}</td><td class="l">{h(t.get("b"))}</td><td>{_fmt(t.get("diff"))}</td>'
               f'<td>{_fmt(t.get("p"))}</td><td>{h(t.get("topics", ""))}</td></tr>' for t in tests if isinstance(t, Mapping)]
        if trs:
            test = next((t.get("test") for t in tests if isinstance(t, Mapping)), "")
            out.append(f'<h3>Paired {h(test)} tests on {h(compare.get("metric", PRIMARY))} ({h(name)})</h3>'
                       '<p class="note">diff = mean(a) − mean(b) over topics; p two-sided. With few topics, '
                       'small differences are rarely significant.</p>'
                       + _table(("run a", "run b", "diff", "p", "topics"), trs, left=2))
    return "".join(out)


def _bullets_section(topics: Sequence, runs: Sequence, judgments: Sequence, corpus,
                     width: int) -> str:
    from evaluation.scoring import bullet_facts, count_words, judged_words

    cache: dict = {}
    by_key: dict[tuple[str, str], list] = defaultdict(list)
    for j in judgments:
        by_key[(j.topic_id, j.run)].append(j)
    parts = ['<section class="card" id="bullets"><h2>Responses: bullets, matched facets, citations</h2>'
             '<p class="note legend"><span class="badge new">F1</span>facet newly covered by a counting bullet '
             '<span class="badge again">F1</span>facet matched again, or by a bullet with no supporting source '
             '<span class="badge none">no facet</span>irrelevant or unjudged. Citation links: ✓ the cited post '
             'supports the bullet, ✗ it does not; each opens the post text around the offset.</p>']
    for t in topics:
        tid = _ID_UNSAFE.sub("_", t.topic_id)
        facets = "".join(f'<li><span class="badge facet">F{h(f.id)}</span><span class="meta">{h(f.importance)}'
                         f'</span> {h(f.desc)}</li>' for f in t.facets)
        parts.append(f'<div class="topic" id="topic-{h(tid)}"><h3>Topic {h(t.topic_id)}: {h(t.query)}</h3>'
                     + (f'<ul class="facets">{facets}</ul>' if facets else ""))
        importance = {f.id: f.importance for f in t.facets}
        for run in runs:
            result = run.results.get(t.topic_id)
            bullets = list(result.bullets) if result is not None else []
            parts.append(f'<div class="run-block"><h4>{h(run.run_id)} <span class="meta">'
                         f'({len(bullets)} bullet{"s" if len(bullets) != 1 else ""})</span></h4>')
            if not bullets:
                parts.append('<p class="meta">No response for this topic.</p></div>')
                continue
            js = by_key.get((t.topic_id, run.run_id), [])
            jpos = {j.bullet: j for j in js}
            facts, _ = bullet_facts(bullets, lambda k: jpos.get(bullets[k - 1].position),
                                    known={f.id for f in t.facets})
            new = {b.position: f.newly_covered for b, f in zip(bullets, facts)}  # the scorer's N_k
            items, ctxs = [], []
            for b in bullets:
                j = jpos.get(b.position)
                badges = _badges(j, new.get(b.position, ()), importance)
                links = []
                for k, s in enumerate(b.sources, 1):
                    anchor = cite_id(run.run_id, t.topic_id, b.position, k)
                    sup = _supports(j, s, k)
                    mark = "✓" if sup else ("✗" if sup is False else "?")
                    ctx = citation_context(corpus, s.thread, s.offset, b.text, width, cache)
                    label = f"[{k}] {s.thread}" + (f" {ctx.unit}" if ctx.unit else "") + f" @{s.offset} {mark}"
                    links.append(f'<a class="cite{"" if sup else " bad"}" href="#{h(anchor)}">{h(label)}</a>')
                    ctxs.append(_context_html(anchor, b.position, k, ctx, sup))
                words = ("{1}/{0} responsive words".format(*judged_words(count_words(b.text), j.words,
                                                                         j.responsive_words))
                         if j is not None else "not judged")  # W_k and w_k as the scorer counts them
                items.append(f'<li><span class="btext" dir="auto">{h(b.text)}</span>{badges} <span class="meta">{h(words)}'
                             f'</span><br>{"".join(links)}</li>')
            parts.append(f'<ol class="bullets">{"".join(items)}</ol><div class="cites">{"".join(ctxs)}</div></div>')
        parts.append("</div>")
    parts.append("</section>")
    return "".join(parts)


def _supports(j, source, k: int) -> bool | None:
    """Whether the judgment says source ``k`` supports the bullet (None: not judged)."""
    if j is None:
        return None
    if len(j.sources) >= k and j.sources[k - 1].post == source.thread and j.sources[k - 1].offset == source.offset:
        return j.sources[k - 1].supports
    for s in j.sources:
        if s.post == source.thread and s.offset == source.offset:
            return s.supports
    return None


def _badges(j, new: Sequence[str], importance: Mapping[str, str]) -> str:
    if j is None:
        return ' <span class="badge none">not judged</span>'
    if not j.facets:
        return ' <span class="badge none">no facet</span>'
    out = []
    for f in j.facets:
        cls = "new" if f in new else "again"
        out.append(f'<span class="badge {cls} {h(importance.get(f, ""))}" title="facet {h(f)}: '
                   f'{"newly covered" if cls == "new" else "matched, not newly covered"}">F{h(f)}</span>')
    return " " + "".join(out)


def _context_html(anchor: str, bullet: int, k: int, ctx: CitationContext, sup: bool | None) -> str:
    head = (f"bullet {bullet}, citation {k}: {ctx.thread}" + (f" {ctx.unit}" if ctx.unit else "")
            + f" at offset {ctx.offset}" + {True: " — supports the bullet", False: " — does not support the bullet",
                                            None: ""}[sup])
    if ctx.problem:
        body = f'<span class="ctx meta">cited text unavailable: {h(ctx.problem)}</span>'
    else:
        body = (f'<span class="ctx" dir="auto">{h(ctx.before)}<mark>{h(ctx.marked)}</mark>{h(ctx.after)}</span>')
    return (f'<div class="cite-ctx" id="{h(anchor)}" data-thread="{h(ctx.thread)}" data-offset="{ctx.offset}" '
            f'data-unit="{h(ctx.unit or "")}"><span class="meta">{h(head)}</span>{body}</div>')


# ----------------------------------------------------------------------------- the report


def render_report(*, topics: Sequence, runs: Sequence, judgments: Iterable, scores: ScoreReport | Mapping,
                  compare: Mapping | None = None, corpus=None, title: str = "BOLT distillation evaluation",
                  subtitle: str = "", files: Mapping[str, str] | None = None,
                  context_chars: int = CONTEXT_CHARS) -> str:
    """The whole report as one HTML string (no file access except through ``corpus``).

    ``topics``: ``bolt.formats.topics.Topic`` records (with facets); ``runs``: ``bolt.formats.submission.Run``
    records; ``judgments``: ``evaluation.judgments.Judgment`` records; ``scores``: the score report
    (``evaluation.results.ScoreReport``, or the ``bolt score --json`` document it reads); ``compare``: the ``bolt compare --json`` document (optional); ``corpus``:
    anything with ``.get(thread_id) -> Thread`` to quote cited posts; ``files``: label -> path of
    the outputs the report sits beside (listed, not read).
    """
    judgments = list(judgments)
    scores = as_report(scores)
    metrics = metric_names(scores)
    rank_by = (compare or {}).get("metric") or (PRIMARY if PRIMARY in metrics else (metrics[0] if metrics else PRIMARY))
    means = scores.means
    pr_png = bars_png = None
    if means and {"P_n", "R_n"} <= set(metrics):
        points = {r: (_num(v.get("R_n")) or 0.0, _num(v.get("P_n")) or 0.0) for r, v in means.items()}
        per = {r: [(_num(t.get("R_n")) or 0.0, _num(t.get("P_n")) or 0.0) for t in scores.topics.get(r, {}).values()]
               for r in means}
        pr_png = plots.precision_recall(points, per)
    if means and metrics:
        bars_png = plots.metric_bars(dict(means), metrics)
    files_html = ""
    if files:
        rows = [f'<tr><td class="l">{h(k)}</td><td class="l"><code>{h(v)}</code></td></tr>' for k, v in files.items()]
        files_html = ('<section class="card" id="files"><h2>Files</h2>'
                      + _table(("what", "path"), rows) + "</section>")
    nav = "".join(f'<a href="#{a}">{h(b)}</a>' for a, b in (
        ("leaderboard", "Leaderboard"), ("settings", "Settings"), ("per-topic", "Per topic"),
        ("conditions", "Conditions"), ("tau", "Kendall's τ"), ("bullets", "Bullets & citations"))
        + ((("files", "Files"),) if files else ()))
    body = "".join((
        _leaderboard(scores, metrics, rank_by, pr_png, bars_png),
        _settings_section(scores),
        _per_topic(scores, metrics, topics),
        _conditions(scores, metrics),
        _tau_section(scores, metrics, compare) if metrics else "",
        _bullets_section(topics, runs, judgments, corpus, context_chars),
        files_html,
    ))
    sub = subtitle or f"{len(means)} runs, {len(topics)} topics, {len(judgments)} judged bullets"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{h(title)}</title><style>{CSS}</style></head><body>"
            f"<header><h1>{h(title)}</h1><p>{h(sub)}</p></header><nav>{nav}</nav><main>{body}</main>"
            "</body></html>\n")


def write_report(path: str | os.PathLike, **kwargs: Any) -> Path:
    """Render the report (``render_report`` keywords) and write it atomically to ``path``."""
    return atomic_write_text(path, render_report(**kwargs))
