// bolt judge: the assessor's page. Plain JavaScript, no build step. Every text from the server is
// put in with textContent (never innerHTML), every decision is sent as one operation and saved
// by the server before it answers.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
const TOKEN_RE = new RegExp(`[${CJK}]|[^\\s${CJK}]+`, "gu");

const state = { overview: null, topic: null, number: null, cur: 0, src: {}, context: new Set(),
                mode: "bullets", posts: null, rows: [], row: 0 };
const SUPPORT_LABEL = { true: "supports", partial: "partly", false: "does not" };

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

function setStatus(text, bad) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.classList.toggle("bad", !!bad);
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

async function api(path, body) {
  const opts = { headers: { "X-Bolt-Token": TOKEN }, cache: "no-store" };
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (err) {
    throw new Error("the bolt judge server does not answer (is it still running?); nothing was saved");
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.error || `the server answered ${res.status}`);
  return data;
}

// ------------------------------------------------------------------ topics

async function loadOverview() {
  state.overview = await api("/api/overview");
  const adj = state.overview.adjudicating || [];
  document.getElementById("who").textContent = state.overview.assessor +
    (adj.length ? ` · adjudicating ${adj.join(" and ")}` : "");
  document.getElementById("files").textContent =
    `→ ${state.overview.out} · added facets → ${state.overview.updated_topics}`;
  renderTopics();
}

function meter(pct) {
  const bar = el("i");
  bar.style.width = `${pct}%`;  // CSSOM, not a style attribute: the page's CSP forbids inline styles
  return el("span", { class: "meter" }, bar);
}

function renderTopics() {
  const nav = document.getElementById("topics");
  nav.replaceChildren(...state.overview.topics.map(t => {
    const pct = t.total ? Math.round(100 * t.done / t.total) : 100;
    return el("a", { href: `#topic=${encodeURIComponent(t.number)}`, class: t.number === state.number ? "active" : "",
                     "data-topic": t.number, title: t.query },
      el("span", { class: "num", text: t.number }), " ",
      el("span", { class: "count", text: `${t.done}/${t.total}` + (t.carried ? ` (+${t.carried} carried over)` : "") }),
      el("span", { class: "q", text: t.query }),
      meter(pct));
  }));
  const active = nav.querySelector("a.active");
  if (active) active.scrollIntoView({ block: "nearest" });
}

async function openTopic(number, keepPlace) {
  const data = await api(`/api/topic/${encodeURIComponent(number)}`);
  const sameTopic = state.number === number;
  const curId = sameTopic && state.topic && state.topic.items[state.cur] ? state.topic.items[state.cur].id : null;
  state.topic = data;
  state.number = number;
  const fresh = !(keepPlace && sameTopic);
  if (fresh) {
    const open = data.items.findIndex(it => !(it.decision && it.decision.confirmed));
    state.cur = open >= 0 ? open : 0;
    state.posts = null;
  } else if (curId) {
    const i = data.items.findIndex(it => it.id === curId);
    state.cur = i >= 0 ? i : 0;
  }
  if (fresh) window.scrollTo(0, 0);  // a new topic opens at its top, not at the last one's scroll position
  renderTopic();
  renderTopics();
  if (state.mode === "posts") await showPosts(!fresh);
  else if (fresh && state.cur > 0) focusItem(state.cur, true);
  setStatus(`topic ${number}: ${progressText()}`);
}

function progressText() {
  const items = state.topic.items;
  const done = items.filter(it => it.decision && it.decision.confirmed).length;
  return `${done} of ${items.length} bullets done` + (state.topic.carried ? `, ${state.topic.carried} carried over` : "");
}

function renderTopic() {
  const t = state.topic;
  const facets = el("ol", { class: "facets" }, t.facets.map((f, i) => el("li", {},
    el("span", { class: "key", text: i < 9 ? String(i + 1) : "·" }),
    el("span", { text: f.desc, dir: "auto" }),
    el("span", { class: "imp", text: f.importance }),
    f.added ? el("span", { class: "added", text: "added by you" }) : null,
    f.nuggets.length ? el("details", {}, el("summary", { text: ` ${f.nuggets.length} nugget${f.nuggets.length > 1 ? "s" : ""}` }),
      el("ul", {}, f.nuggets.map(n => el("li", { text: n, dir: "auto" })))) : null)));
  const desc = el("textarea", { name: "desc", placeholder: "A facet you found in the responses (written to the updated topics file)", "aria-label": "new facet description" });
  const imp = el("select", { name: "importance", "aria-label": "importance" },
    el("option", { value: "vital", text: "vital" }), el("option", { value: "okay", text: "okay" }));
  const picked = el("div", { class: "picked", id: "nugget-pick" });
  state.renderPick = () => {
    const n = state.nugget;
    picked.replaceChildren(n
      ? el("span", {}, "Nugget: «", el("span", { dir: "auto", text: n.text.length > 120 ? n.text.slice(0, 118) + "…" : n.text }),
          `» from ${n.label} `, el("button", { type: "button", class: "small", text: "✕", title: "no nugget",
          onclick: () => { state.nugget = null; state.renderPick(); } }))
      : el("span", { text: "Tip: select text in a cited post first, and it becomes the new facet's nugget (with its offset)." }));
  };
  state.renderPick();
  const form = el("form", { class: "addfacet", onsubmit: async ev => {
      ev.preventDefault();
      try {
        const body = { topic: t.number, desc: desc.value, importance: imp.value };
        if (state.nugget) body.nugget = { text: state.nugget.text, item: state.nugget.item, source: state.nugget.source };
        await api("/api/facet", body);
        desc.value = "";
        state.nugget = null;
        await openTopic(t.number, true);
        setStatus("facet added; topics file updated");
        showError("");
      } catch (err) { showError(err.message); }
    } }, desc, imp, el("button", { type: "submit", id: "add-facet", text: "Add facet" }), picked);
  document.getElementById("topic").replaceChildren(
    el("h1", {}, `${t.number}: `, el("span", { text: t.query, dir: "auto" })),
    t.description ? el("p", { class: "desc", text: t.description, dir: "auto" }) : null,
    el("div", { class: "progress" }, el("span", { id: "progress", text: progressText() }), " · ",
      el("label", {}, el("input", { type: "checkbox", id: "hide-done", checked: hideDone(),
        onchange: ev => setHideDone(ev.target.checked) }), " hide done bullets (h)"), " · ",
      el("button", { type: "button", class: "small", id: "view-switch",
        text: state.mode === "posts" ? "Show bullets (v)" : "Judge by cited post (v)",
        onclick: () => switchView() })),
    facets, form);
  const items = document.getElementById("items");
  if (!t.items.length) {
    items.replaceChildren(el("p", { class: "empty", text: t.carried
      ? `Nothing new here: all ${t.carried} bullets were judged before and carried over.`
      : "No run gave a bullet for this topic." }));
    return;
  }
  if (state.mode === "posts") return;  // showPosts draws the items section
  items.replaceChildren(...t.items.map((it, i) => renderItem(it, i)));
  items.classList.toggle("hide-done", hideDone());
  focusItem(state.cur, false);
  revealCited(items);
}

// A post box scrolls on its own: bring its lit text (or the cited offset) into view.
function revealCited(root) {
  root.querySelectorAll(".post").forEach(post => {
    const mark = post.querySelector("mark") || post.querySelector(".cite");
    if (mark && mark.offsetTop + mark.offsetHeight > post.clientHeight) post.scrollTop = Math.max(0, mark.offsetTop - 24);
  });
}

// ------------------------------------------------------------------ one bullet

function hideDone() { return localStorage.getItem("bolt-judge-hide-done") === "1"; }

function setHideDone(on) {
  localStorage.setItem("bolt-judge-hide-done", on ? "1" : "0");
  document.getElementById("items").classList.toggle("hide-done", on);
  const box = document.getElementById("hide-done");
  if (box) box.checked = on;
}

function isStruck(d, s, e) {
  return !!d && d.struck.some(([a, b]) => a < e && s < b);
}

function renderItem(it, i) {
  const t = state.topic;
  const d = it.decision;
  const pre = it.prefill;
  const facetsOn = new Set(d ? d.facets : pre ? pre.facets : []);
  const bullet = el("div", { class: "bullet", dir: "auto", "data-item": it.id });
  const before = (it.sources.find(s => s.before) || {}).before;
  const context = state.context.has(it.id) ? el("div", { class: "context", dir: "auto",
    text: before ? `… ${before}` : "(nothing before it: the bullet's text opens its post)" }) : null;
  let last = 0;
  for (const m of it.text.matchAll(TOKEN_RE)) {
    if (m.index > last) bullet.append(it.text.slice(last, m.index));
    const s = m.index, e = m.index + m[0].length;
    const struck = isStruck(d, s, e);
    bullet.append(el("span", { class: "tok" + (struck ? " struck" : ""), "data-s": s, "data-e": e, text: m[0],
      title: struck ? "struck as non-responsive; click to restore" : null,
      onclick: struck ? () => send(it, { op: "strike", spans: [[s, e]], on: false }) : null }));
    last = e;
  }
  if (last < it.text.length) bullet.append(it.text.slice(last));
  let badge;
  if (d && d.confirmed) badge = el("span", { class: "badge done", text: d.carried ? "carried over" : "done" });
  else if (d && d.carried) badge = el("span", { class: "badge carried", text: "carried over: judge the new sources" });
  else if (!d && pre) badge = el("span", { class: "badge auto", text: "automatic, not confirmed" });
  else if (d) badge = el("span", { class: "badge", text: "in progress" });
  else badge = el("span", { class: "badge", text: "open" });
  const facetBoxes = t.facets.map((f, k) => el("label", { class: "fchk", title: f.desc },
    el("input", { type: "checkbox", checked: facetsOn.has(f.id), "data-facet": f.id,
                  onchange: ev => send(it, { op: "facet", facet: f.id, on: ev.target.checked }) }),
    el("span", { class: "key", text: k < 9 ? String(k + 1) : "·" }),
    el("span", { class: "fdesc", dir: "auto", text: f.desc })));
  const autoBox = pre && !(d && d.confirmed) ? el("div", { class: "auto" },
    el("strong", { text: `Automatic assessor (${pre.assessor}), not confirmed: ` }),
    pre.facets.length ? `facets ${pre.facets.join(", ")}.` : "no facet.",
    pre.evidence && pre.evidence.length ? el("ul", {}, pre.evidence.slice(0, 6).map(ev => el("li", {
      text: `facet ${ev.facet}: ${ev.rule} ${typeof ev.score === "number" ? ev.score.toFixed(2) : ev.score}` +
            (ev.threshold !== undefined ? ` (threshold ${ev.threshold})` : "") }))) : null,
    pre.notes ? el("div", { text: pre.notes }) : null) : null;
  const sources = it.sources.map((s, k) => renderSource(it, s, k));
  const opinions = it.opinions ? el("div", { class: "opinions" }, it.opinions.map((o, k) => renderOpinion(it, o, k))) : null;
  return el("article", { class: "item" + (d && d.confirmed ? " done" : ""), id: `item-${it.id}`, "data-index": i,
                         onclick: () => { if (state.cur !== i) focusItem(i, false); } },
    el("h2", {}, el("span", { text: `Bullet ${i + 1} of ${t.items.length}` }), badge),
    context, bullet,
    el("div", { class: "controls" }, facetBoxes,
      el("button", { type: "button", class: "small strike", text: "Strike selection (x)",
                     onclick: ev => { ev.stopPropagation(); strikeSelection(it, true); } }),
      el("span", { class: "words", text: `${it.responsive_words} of ${it.words} words responsive` }),
      el("button", { type: "button", class: "small ctx", text: state.context.has(it.id) ? "Hide context (c)" : "Context (c)",
                     onclick: ev => { ev.stopPropagation(); toggleContext(it); } })),
    opinions, autoBox, sources,
    el("div", { class: "confirm" }, el("button", { type: "button", class: "done-button",
      text: d && d.confirmed ? "Done ✓ (Enter: next)" : "Done (Enter)",
      onclick: ev => { ev.stopPropagation(); confirmItem(i); } })));
}

function renderSource(it, s, k) {
  const d = it.decision;
  const pre = it.prefill;
  const value = d && s.id in d.supports ? d.supports[s.id] : null;
  const auto = !d && pre && s.id in pre.supports ? pre.supports[s.id] : null;
  const btn = supportButton(it, s, value, auto, () => { state.src[it.id] = k; });
  const post = el("div", { class: "post", dir: s.dir || "auto", lang: s.lang || null });
  if (s.missing) post.append(el("span", { class: "missing", text: s.missing }));
  for (const seg of s.segments || []) {
    let node = seg.hl ? el("mark", { text: seg.t }) : document.createTextNode(seg.t);
    if (seg.q) node = el("span", { class: "quote" }, node);
    if (seg.cite) node = el("span", { class: "cite", title: "cited offset" }, node);
    post.append(node);
  }
  const cur = (state.src[it.id] || 0) === k;
  return el("div", { class: "source" + (cur ? " current" : ""), "data-source": s.id },
    el("div", { class: "srchead" },
      el("span", { text: `${s.thread}${s.post ? " · " + s.post : ""}${s.author ? " · " + s.author : ""}` }),
      s.found === false ? el("span", { text: "(bullet text not found verbatim: the cited sentence is lit)" }) : null,
      el("span", { class: "verdict" }, btn(true, "supports (y)"), " ", btn("partial", "partly (p)"), " ",
         btn(false, "does not (n)"))),
    post);
}

// One support button: click to set this verdict for source s of bullet it, click again to clear it.
function supportButton(it, s, value, auto, before) {
  return (v, label) => el("button", { type: "button",
    class: (v === true ? "yes" : v === "partial" ? "partial" : "no") + (value === v ? " on" : "") +
           (auto === v ? (v ? " auto-yes" : " auto-no") : ""),
    "aria-pressed": value === v ? "true" : "false", text: label, "data-value": String(v),
    onclick: ev => { ev.stopPropagation(); before(); send(it, { op: "support", source: s.id, value: value === v ? null : v }).catch(() => {}); } });
}

// Adjudicating: one assessor's decision, with a button that starts from it.
function renderOpinion(it, o, k) {
  const letter = "ab"[k];
  if (!o) return el("div", { class: "opinion missing" }, el("strong", { text: `Assessor ${k + 1}` }), " did not finish this bullet.");
  const srcs = it.sources.map((s, i) => `${s.post || s.thread}: ${s.id in o.supports ? SUPPORT_LABEL[o.supports[s.id]] : "—"}`);
  return el("div", { class: "opinion" },
    el("strong", { text: `${o.assessor}: ` }),
    o.facets.length ? `facets ${o.facets.join(", ")}` : "no facet",
    `; ${o.responsive_words} of ${o.words} words responsive; `, srcs.join(", "), " ",
    el("button", { type: "button", class: "small take", "data-take": String(k), text: `Take this (${letter})`,
                   onclick: ev => { ev.stopPropagation(); send(it, { op: "take", from: k }).catch(() => {}); } }));
}

function toggleContext(it) {
  if (state.context.has(it.id)) state.context.delete(it.id); else state.context.add(it.id);
  redraw(it);
}

function redraw(it) {
  if (state.mode === "posts") { renderPosts(); return; }
  const node = document.getElementById(`item-${it.id}`);
  const i = state.topic.items.indexOf(it);
  if (node && i >= 0) { node.replaceWith(renderItem(it, i)); if (i === state.cur) focusItem(i, false); }
}

// ------------------------------------------------------------------ one cited post at a time

async function switchView() {
  state.mode = state.mode === "posts" ? "bullets" : "posts";
  renderTopic();
  if (state.mode === "posts") await showPosts(false);
  else focusItem(state.cur, true);
}

async function showPosts(keepRow) {
  const data = await api(`/api/posts/${encodeURIComponent(state.number)}`);
  state.posts = data.posts;
  const curRow = keepRow && state.rows[state.row] ? state.rows[state.row] : null;
  state.rows = [];
  for (const p of data.posts) for (const id of p.items) state.rows.push({ post: p.id, item: id });
  const back = curRow ? state.rows.findIndex(r => r.post === curRow.post && r.item === curRow.item) : -1;
  state.row = back >= 0 ? back : 0;
  renderPosts();
  focusRow(state.row, !keepRow);
}

function renderPosts() {
  const byId = new Map(state.topic.items.map(it => [it.id, it]));
  const items = document.getElementById("items");
  items.classList.remove("hide-done");
  if (!state.posts || !state.posts.length) {
    items.replaceChildren(el("p", { class: "empty", text: "No cited post to judge here." }));
    return;
  }
  let row = 0;
  items.replaceChildren(...state.posts.map((p, n) => {
    const post = el("div", { class: "post", dir: p.dir || "auto", lang: p.lang || null });
    if (p.missing) post.append(el("span", { class: "missing", text: p.missing }));
    for (const seg of p.segments || []) {
      let node = seg.hl ? el("mark", { text: seg.t }) : document.createTextNode(seg.t);
      if (seg.q) node = el("span", { class: "quote" }, node);
      if (seg.cite) node = el("span", { class: "cite", title: "cited offset" }, node);
      post.append(node);
    }
    const rows = p.items.map(id => {
      const it = byId.get(id);
      const i = row++;
      const d = it.decision;
      const value = d && p.id in d.supports ? d.supports[p.id] : null;
      const auto = !d && it.prefill && p.id in it.prefill.supports ? it.prefill.supports[p.id] : null;
      const btn = supportButton(it, { id: p.id }, value, auto, () => { state.row = i; });
      return el("div", { class: "prow", "data-row": String(i), "data-item": id,
                         onclick: () => focusRow(i, false) },
        el("div", { class: "bullet", dir: "auto", text: it.text }),
        el("span", { class: "verdict" }, btn(true, "supports (y)"), " ", btn("partial", "partly (p)"), " ",
           btn(false, "does not (n)")));
    });
    return el("article", { class: "item postcard", "data-post": p.id },
      el("h2", {}, el("span", { text: `Post ${n + 1} of ${state.posts.length}: ${p.thread}${p.post ? " · " + p.post : ""}` +
                                       `${p.author ? " · " + p.author : ""}` }),
         el("span", { class: "badge", text: `${p.items.length} bullet${p.items.length > 1 ? "s" : ""} cite it` })),
      post, el("div", { class: "prows" }, rows));
  }));
  revealCited(items);
  focusRow(state.row, false);
}

function focusRow(i, scroll) {
  if (!state.rows.length) return;
  state.row = Math.max(0, Math.min(state.rows.length - 1, i));
  document.querySelectorAll(".prow.current").forEach(e => e.classList.remove("current"));
  const node = document.querySelector(`.prow[data-row="${state.row}"]`);
  if (node) {
    node.classList.add("current");
    if (scroll) node.scrollIntoView({ block: "nearest", behavior: "instant" });
  }
}

function rowSupport(v) {
  const r = state.rows[state.row];
  if (!r) return;
  const it = state.topic.items.find(x => x.id === r.item);
  const next = state.row + 1;
  send(it, { op: "support", source: r.post, value: v }).then(() => focusRow(next, true)).catch(() => {});
}

function focusItem(i, scroll = true) {
  const items = state.topic.items;
  if (!items.length) return;
  state.cur = Math.max(0, Math.min(items.length - 1, i));
  document.querySelectorAll(".item.current").forEach(e => e.classList.remove("current"));
  const node = document.querySelector(`.item[data-index="${state.cur}"]`);
  if (node) {
    node.classList.add("current");
    if (scroll) node.scrollIntoView({ block: "nearest", behavior: "instant" });
  }
}

async function send(it, op) {
  const t0 = performance.now();
  setStatus("saving…");
  try {
    const res = await api("/api/decide", { item: it.id, op });
    const ms = Math.round(performance.now() - t0);
    Object.assign(it, { decision: res.decision, words: res.words, responsive_words: res.responsive_words });
    redraw(it);
    const entry = state.overview.topics.find(t => t.number === state.number);
    if (entry) { entry.done = res.progress.done; entry.total = res.progress.total; renderTopics(); }
    document.getElementById("progress").textContent = progressText();
    setStatus(`saved in ${ms} ms`);
    document.body.dataset.saves = String(Number(document.body.dataset.saves || 0) + 1);
    showError("");
    return res;
  } catch (err) {
    setStatus("not saved", true);
    showError(`Not saved: ${err.message}`);
    redraw(it);  // show what is saved, not the click that failed
    throw err;
  }
}

function strikeSelection(it, on) {
  const sel = window.getSelection();
  const node = document.getElementById(`item-${it.id}`);
  if (!sel || sel.isCollapsed || !node) { showError("Select words in the bullet first, then press x."); return; }
  const spans = [];
  node.querySelectorAll(".bullet .tok").forEach(tok => {
    if (sel.containsNode(tok, true)) spans.push([Number(tok.dataset.s), Number(tok.dataset.e)]);
  });
  if (!spans.length) { showError("Select words in the bullet itself (not in the post) to strike them."); return; }
  sel.removeAllRanges();
  send(it, { op: "strike", spans, on }).catch(() => {});
}

async function confirmItem(i) {
  const it = state.topic.items[i];
  if (!it) return;
  if (!(it.decision && it.decision.confirmed)) await send(it, { op: "confirm", value: true }).catch(() => null);
  const items = state.topic.items;
  let next = items.findIndex((x, k) => k > i && !(x.decision && x.decision.confirmed));
  if (next < 0) next = items.findIndex(x => !(x.decision && x.decision.confirmed));
  focusItem(next >= 0 ? next : Math.min(i + 1, items.length - 1));
}

function step(dir) {  // the next bullet in that direction, skipping done ones while they are hidden
  const items = state.topic.items;
  let i = state.cur + dir;
  while (hideDone() && i >= 0 && i < items.length && items[i].decision && items[i].decision.confirmed) i += dir;
  return i < 0 || i >= items.length ? state.cur : i;
}

function currentItem() { return state.topic && state.topic.items[state.cur]; }

function supportKey(v) {
  const it = currentItem();
  if (!it || !it.sources.length) return;
  const k = Math.min(state.src[it.id] || 0, it.sources.length - 1);
  state.src[it.id] = (k + 1) % it.sources.length;
  send(it, { op: "support", source: it.sources[k].id, value: v }).catch(() => {});
}

function moveTopic(step) {
  const list = state.overview.topics;
  const i = list.findIndex(t => t.number === state.number);
  const next = list[Math.max(0, Math.min(list.length - 1, i + step))];
  if (next) location.hash = `topic=${encodeURIComponent(next.number)}`;
}

document.addEventListener("keydown", ev => {
  const tag = (ev.target && ev.target.tagName) || "";
  if (["INPUT", "TEXTAREA", "SELECT"].includes(tag) && ev.target.type !== "checkbox") return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const it = currentItem();
  const help = document.getElementById("help");
  if (ev.key === "?") { help.hidden = !help.hidden; ev.preventDefault(); return; }
  if (ev.key === "Escape") { help.hidden = true; return; }
  if (!state.topic) return;
  if (ev.key === "v") { switchView().catch(err => showError(err.message)); return; }
  if (state.mode === "posts") {
    if (ev.key === "j" || ev.key === "ArrowDown") { focusRow(state.row + 1, true); ev.preventDefault(); }
    else if (ev.key === "k" || ev.key === "ArrowUp") { focusRow(state.row - 1, true); ev.preventDefault(); }
    else if (ev.key === "y") rowSupport(true);
    else if (ev.key === "p") rowSupport("partial");
    else if (ev.key === "n") rowSupport(false);
    else if (ev.key === "]") moveTopic(1);
    else if (ev.key === "[") moveTopic(-1);
    return;
  }
  if (ev.key === "j" || ev.key === "ArrowDown") { focusItem(step(1)); ev.preventDefault(); }
  else if (ev.key === "k" || ev.key === "ArrowUp") { focusItem(step(-1)); ev.preventDefault(); }
  else if (ev.key === "h") setHideDone(!hideDone());
  else if (ev.key === "]") moveTopic(1);
  else if (ev.key === "[") moveTopic(-1);
  else if (!it) return;
  else if (/^[1-9]$/.test(ev.key)) {
    const f = state.topic.facets[Number(ev.key) - 1];
    if (!f) return;
    const on = new Set(it.decision ? it.decision.facets : it.prefill ? it.prefill.facets : []);
    send(it, { op: "facet", facet: f.id, on: !on.has(f.id) }).catch(() => {});
    ev.preventDefault();
  }
  else if (ev.key === "y") supportKey(true);
  else if (ev.key === "p") supportKey("partial");
  else if (ev.key === "n") supportKey(false);
  else if (ev.key === "c") toggleContext(it);
  else if ((ev.key === "a" || ev.key === "b") && it.opinions) {
    send(it, { op: "take", from: ev.key === "a" ? 0 : 1 }).catch(() => {});
  }
  else if (ev.key === "s") {
    state.src[it.id] = ((state.src[it.id] || 0) + 1) % Math.max(1, it.sources.length);
    const node = document.getElementById(`item-${it.id}`);
    node.replaceWith(renderItem(it, state.cur)); focusItem(state.cur, false);
  }
  else if (ev.key === "x" || ev.key === "X") { strikeSelection(it, !ev.shiftKey); ev.preventDefault(); }
  else if (ev.key === "Enter") { confirmItem(state.cur); ev.preventDefault(); }
});

// Text selected in a cited post is remembered as the nugget of the next facet added.
document.addEventListener("selectionchange", () => {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || !sel.anchorNode) return;
  const start = sel.anchorNode.nodeType === 1 ? sel.anchorNode : sel.anchorNode.parentElement;
  const post = start && start.closest(".post");
  const text = sel.toString().trim();
  if (!post || !text || !post.contains(sel.focusNode)) return;
  const source = post.closest(".source");
  const item = post.closest(".item");
  if (!source || !item || !item.id) return;  // the post-at-a-time view: add facets from the bullets view
  state.nugget = { text, item: item.id.slice(5), source: source.dataset.source,
                   label: source.querySelector(".srchead span").textContent };
  if (state.renderPick) state.renderPick();
});

function topicFromHash() {
  const m = /topic=([^&]+)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

window.addEventListener("hashchange", () => {
  const n = topicFromHash();
  if (n && n !== state.number) openTopic(n).catch(err => showError(err.message));
});

// Another tab may have judged meanwhile: refresh when this one comes back.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && state.number) {
    Promise.all([loadOverview(), openTopic(state.number, true)]).catch(err => showError(err.message));
  }
});

document.getElementById("help-button").addEventListener("click", () => {
  const h = document.getElementById("help"); h.hidden = !h.hidden; });
document.getElementById("help-close").addEventListener("click", () => { document.getElementById("help").hidden = true; });

(async function start() {
  try {
    if (!TOKEN) throw new Error("this page needs the session token: open the full URL that 'bolt judge' printed");
    await loadOverview();
    const topics = state.overview.topics;
    const wanted = topicFromHash();
    const first = topics.find(t => t.number === wanted) || topics.find(t => t.done < t.total) || topics[0];
    if (!first) { setStatus("no topics"); return; }
    await openTopic(first.number);
    document.body.dataset.ready = "1";
  } catch (err) {
    setStatus("error", true);
    showError(err.message);
  }
})();
