// bolt judge: the assessor's page. Plain JavaScript, no build step. Every text from the server is
// put in with textContent (never innerHTML), every decision is sent as one operation and saved
// by the server before it answers.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af";
const TOKEN_RE = new RegExp(`[${CJK}]|[^\\s${CJK}]+`, "gu");

const state = { overview: null, topic: null, number: null, cur: 0, src: {} };

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
  document.getElementById("who").textContent = state.overview.assessor;
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
}

async function openTopic(number, keepPlace) {
  const data = await api(`/api/topic/${encodeURIComponent(number)}`);
  const sameTopic = state.number === number;
  const curId = sameTopic && state.topic && state.topic.items[state.cur] ? state.topic.items[state.cur].id : null;
  state.topic = data;
  state.number = number;
  if (!(keepPlace && sameTopic)) {
    const open = data.items.findIndex(it => !(it.decision && it.decision.confirmed));
    state.cur = open >= 0 ? open : 0;
  } else if (curId) {
    const i = data.items.findIndex(it => it.id === curId);
    state.cur = i >= 0 ? i : 0;
  }
  renderTopic();
  renderTopics();
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
        onchange: ev => setHideDone(ev.target.checked) }), " hide done bullets (h)")),
    facets, form);
  const items = document.getElementById("items");
  if (!t.items.length) {
    items.replaceChildren(el("p", { class: "empty", text: t.carried
      ? `Nothing new here: all ${t.carried} bullets were judged before and carried over.`
      : "No run gave a bullet for this topic." }));
    return;
  }
  items.replaceChildren(...t.items.map((it, i) => renderItem(it, i)));
  items.classList.toggle("hide-done", hideDone());
  focusItem(state.cur, false);
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
    el("span", { class: "fdesc", dir: "auto", text: f.desc.length > 48 ? f.desc.slice(0, 46) + "…" : f.desc })));
  const autoBox = pre && !(d && d.confirmed) ? el("div", { class: "auto" },
    el("strong", { text: `Automatic assessor (${pre.assessor}), not confirmed: ` }),
    pre.facets.length ? `facets ${pre.facets.join(", ")}` : "no facet",
    `; ${pre.responsive_words} of ${pre.words} words responsive.`,
    pre.evidence && pre.evidence.length ? el("ul", {}, pre.evidence.slice(0, 6).map(ev => el("li", {
      text: `facet ${ev.facet}: ${ev.rule} ${typeof ev.score === "number" ? ev.score.toFixed(2) : ev.score}` +
            (ev.threshold !== undefined ? ` (threshold ${ev.threshold})` : "") }))) : null,
    pre.notes ? el("div", { text: pre.notes }) : null) : null;
  const sources = it.sources.map((s, k) => renderSource(it, s, k));
  return el("article", { class: "item" + (d && d.confirmed ? " done" : ""), id: `item-${it.id}`, "data-index": i,
                         onclick: () => { if (state.cur !== i) focusItem(i, false); } },
    el("h2", {}, el("span", { text: `Bullet ${i + 1} of ${t.items.length}` }), badge),
    bullet,
    el("div", { class: "controls" }, facetBoxes,
      el("button", { type: "button", class: "small strike", text: "Strike selection (x)",
                     onclick: ev => { ev.stopPropagation(); strikeSelection(it, true); } }),
      el("span", { class: "words", text: `${it.responsive_words} of ${it.words} words responsive` })),
    autoBox, sources,
    el("div", { class: "confirm" }, el("button", { type: "button", class: "done-button",
      text: d && d.confirmed ? "Done ✓ (Enter: next)" : "Done (Enter)",
      onclick: ev => { ev.stopPropagation(); confirmItem(i); } })));
}

function renderSource(it, s, k) {
  const d = it.decision;
  const pre = it.prefill;
  const value = d && s.id in d.supports ? d.supports[s.id] : null;
  const auto = !d && pre && s.id in pre.supports ? pre.supports[s.id] : null;
  const btn = (v, label) => el("button", { type: "button",
    class: (v ? "yes" : "no") + (value === v ? " on" : "") + (auto === v ? (v ? " auto-yes" : " auto-no") : ""),
    "aria-pressed": value === v ? "true" : "false", text: label,
    onclick: ev => { ev.stopPropagation(); state.src[it.id] = k; send(it, { op: "support", source: s.id, value: value === v ? null : v }); } });
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
      el("span", { class: "verdict" }, btn(true, "supports (y)"), " ", btn(false, "does not (n)"))),
    post);
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
    const i = state.topic.items.indexOf(it);
    const node = document.getElementById(`item-${it.id}`);
    if (node) {
      node.replaceWith(renderItem(it, i));
      if (i === state.cur) focusItem(i, false);
    }
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
    const node = document.getElementById(`item-${it.id}`);  // show what is saved, not the click that failed
    const i = state.topic.items.indexOf(it);
    if (node && i >= 0) { node.replaceWith(renderItem(it, i)); if (i === state.cur) focusItem(i, false); }
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
  else if (ev.key === "n") supportKey(false);
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
