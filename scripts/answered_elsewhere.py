#!/usr/bin/env python3
"""Why main answers a Chinese topic from a thread on another subject or in another language.

    python scripts/answered_elsewhere.py --index DIR --topics topics/xl-dev.xml \
        --judgments tests/data/careful/xl-dev.judgments.jsonl [--only 4.199 --only 4.140] [--json OUT]
        [--spec 'main(lang_anchor=0)']

Traces main (``MainSystem.trace``) over every topic whose languages are Chinese only. A topic's
*answering threads* are those its nuggets cite and those a judged bullet stating a facet cites with
a supporting source (``scripts/thread_reach.py``). A topic is *answered elsewhere* when half or
more of main's bullets cite a thread that is not an answering thread. Its cause is the first stage,
in pipeline order, that let that thread win (:func:`cause`). With ``--only``, each topic's
answering and anchored threads are listed too: headline, where each literal token stands, and the
thread's place in a deep Chinese passage search with the Chinese query main searched with.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CAUSES = ("retrieval never found the answering thread", "language focus chose the wrong language",
          "the anchor lifted another thread", "the sweep ranked another thread first",
          "thread relevance ranked another thread first", "cut or selection")


@dataclass
class TopicFacts:
    """What main's trace shows of one topic, the answering threads against the bullets' thread."""

    topic: str
    answering: list[str]
    bullet_threads: list[str]  # one per bullet (its first source), in bullet order
    bullet_langs: list[str]
    stating: int  # main's bullets a careful judgment credits with a facet
    unjudged: int  # main's bullets no careful judgment reads (by topic and text)
    answer_lang: str | None  # the language focus's answer (None: not measured)
    cosines: dict[str, float]  # per language: the focus's best thread cosine to the query
    left_out: list[str]  # languages the focus left out
    retrieved: list[str]  # threads retrieval returned before the focus
    candidates: list[str]  # threads of the candidate posts
    anchored: list[str]
    tokens: list[str]
    swept: bool  # whether the sweep scored the candidates
    relevance: dict[str, float]  # thread relevance after the sweep and the anchor lift
    read: list[str]  # threads whose sentences were scored
    best_score: dict[str, float] = field(default_factory=dict)  # thread -> its best sentence score

    @property
    def other(self) -> list[str]:
        """main's bullets' threads that no careful judgment credits with a facet, one per bullet."""
        return [t for t in self.bullet_threads if t not in self.answering]

    @property
    def main_thread(self) -> str | None:
        """The uncredited thread most bullets cite (the earliest bullet's on a tie)."""
        if not self.other:
            return None
        n = Counter(self.other)
        return max(self.other, key=lambda t: (n[t], -self.other.index(t)))

    @property
    def elsewhere(self) -> bool:
        """Half or more of main's bullets cite a thread no careful judgment credits with a facet."""
        return bool(self.bullet_threads) and 2 * len(self.other) >= len(self.bullet_threads)


def cause(f: TopicFacts, lang: str = "cmn") -> str:
    """The first stage, in pipeline order, that let the uncredited thread win (one of ``CAUSES``)."""
    top = f.main_thread
    if top is None:
        return "-"
    if f.bullet_langs[f.bullet_threads.index(top)] != lang:
        return CAUSES[1]  # the focus kept (or chose) the language of a thread on another subject
    ans = set(f.answering)
    if not ans & (set(f.retrieved) | set(f.candidates)):
        return CAUSES[0]
    if not ans & set(f.candidates):
        return CAUSES[2] if f.anchored else CAUSES[1]
    best_ans = max((f.relevance.get(t, 0.0) for t in ans & set(f.candidates)), default=0.0)
    if top in f.anchored and not ans & set(f.anchored):
        return CAUSES[2]
    if f.relevance.get(top, 0.0) > best_ans:
        return CAUSES[3] if f.swept else CAUSES[4]
    return CAUSES[5]


def token_places(thread, tokens: list[str]) -> dict[str, str]:
    """Per literal token: where the thread states it first (headline, opening post, reply N, or nowhere)."""
    from bolt.pipeline.literal_focus import holds

    out = {}
    for tok in tokens:
        place = "nowhere"
        if holds(thread.headline or "", tok):
            place = "headline"
        else:
            for i, p in enumerate(thread.posts):
                if holds(p.own_text, tok):
                    place = "opening post" if i == 0 else f"reply {i}"
                    break
        out[tok] = place
    return out


def topic_facts(system, topic, answering: set[str], judged: dict[tuple[str, str], bool]) -> TopicFacts:
    """Trace one topic through main and read off the facts :func:`cause` needs."""
    from bolt.pipeline.literal_focus import literal_tokens
    from bolt.pipeline.main.candidates import language_cosines, unfocused_languages

    d, q = system.d, topic.query
    tr = system.trace(q)
    _, raw = d.retrieve_with_feedback(d.plan(q))
    top = language_cosines(d, q, raw) if d.config.lang_floor > 0 else {}
    best: dict[str, float] = {}
    if tr.sentences is not None and tr.scores is not None:
        for s, v in zip(tr.sentences.sents, tr.scores.scores):
            best[s.thread] = max(best.get(s.thread, float("-inf")), float(v))
    c = tr.candidates
    return TopicFacts(
        topic.topic_id, sorted(answering), [b.sources[0][0] for b in tr.bullets if b.sources],
        [b.lang for b in tr.bullets if b.sources], sum(judged.get((topic.topic_id, b.text), False) for b in tr.bullets),
        sum((topic.topic_id, b.text) not in judged for b in tr.bullets),
        c.answer, {lg: round(v, 4) for lg, v in top.items()}, sorted(unfocused_languages(d, q, raw, top)), sorted({p.thread for p in raw}),
        sorted({p.thread for p in c.posts}), sorted(c.anchored), literal_tokens(q), bool(c.sweep),
        {t: round(float(v), 4) for t, v in tr.threads.relevance.items()},
        sorted({s.thread for s in tr.sentences.sents}) if tr.sentences else [], {t: round(v, 4) for t, v in best.items()})


def rank_of(f: TopicFacts, thread: str | None) -> int | str:
    """1-based rank of ``thread`` among every candidate thread by relevance ("-": not a candidate)."""
    order = sorted(f.relevance, key=lambda t: (-f.relevance[t], t))
    return order.index(thread) + 1 if thread in order else "-"


def row(f: TopicFacts) -> str:
    """One markdown row: topic, uncredited bullets, main's other thread (language, rank), the best
    answering thread's rank, main's bullets stating a facet, literal tokens, cause."""
    ans = [t for t in f.answering if t in f.relevance]
    best = min(ans, key=lambda t: (rank_of(f, t), t)) if ans else None
    top = f.main_thread
    lang = f.bullet_langs[f.bullet_threads.index(top)] if top else "-"
    return (f"| {f.topic} | {len(f.other)}/{len(f.bullet_threads)} | {top} ({lang}, rank {rank_of(f, top)}) | "
            f"{best or '-'} (rank {rank_of(f, best)}) | {f.stating} | {', '.join(f.tokens) or '-'} | {cause(f)} |")


def thread_lines(system, topic, f: TopicFacts, depth: int = 2000) -> list[str]:
    """Per answering and anchored thread of ``f``: headline, token places and its place among the
    threads of a ``depth``-passage Chinese search with the Chinese query main searched with (after
    English feedback, or the query's own words when the language focus leaves English out)."""
    from bolt.pipeline.main.candidates import find_candidates

    d = system.d
    plan = find_candidates(d, topic.query).plan
    order: list[str] = []
    for h in d.searcher.search(plan.query_for("cmn"), k=depth, lang="cmn", units="passage"):
        if h.thread not in order:
            order.append(h.thread)
    out = [f"{f.topic}: Chinese query {plan.query_for('cmn')!r}; {len(order)} threads in the search"]
    for kind, threads in (("answering", f.answering), ("anchored", f.anchored)):
        for t in threads:
            th = d.thread(t)
            place = order.index(t) + 1 if t in order else "-"
            out.append(f"  {kind} {t} [{(th.headline or '')[:40]}] search place {place}, "
                       f"candidate {t in f.candidates}, tokens {token_places(th, f.tokens)}")
    return out


def bullet_lines(system, topic, f: TopicFacts) -> list[str]:
    """The focus cosines and cuts per language, then per bullet of main: score, language, thread,
    the query concepts its sentence matches and its start (main traced again)."""
    tr = system.trace(topic.query)
    out = [f"{f.topic}: focus cosines {f.cosines}, left out {f.left_out}, cut "
           f"{ {lg: round(v, 3) for lg, v in tr.clusters.cut.items()} }" if tr.clusters else f"{f.topic}: no sentences"]
    if tr.selection is None:
        return out
    n = len(tr.sentences.sents)
    for c in tr.selection.keep:
        st, i = tr.selection.sents[c.head], c.head
        matched = sorted(tr.sentences.matched[i]) if i < n else []
        out.append(f"  {tr.selection.scores[i]:.3f} {st.lang} {st.thread} {matched} {st.text[:40]}")
    return out


def main() -> int:
    from scripts.thread_reach import traced_topics_arguments

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    traced_topics_arguments(p)
    p.add_argument("--only", action="append", default=[], help="a topic number (repeatable)")
    p.add_argument("--json", type=Path, help="write every topic's facts here")
    p.add_argument("--spec", default="main", help="the system traced (a spec of main, e.g. 'main(lang_anchor=0)')")
    a = p.parse_args()
    from bolt.formats.topics import read_topics
    from bolt.pipeline import Distiller, parse_config
    from bolt.pipeline.main.system import MainSystem
    from indexing.search import open_index
    from scripts.thread_reach import answering_threads, read_lines

    topics = [t for t in read_topics(a.topics) if t.properties and t.properties.languages == {"cmn"}
              and (not a.only or t.topic_id in a.only)]
    lines = read_lines(a.judgments)
    answering = answering_threads(topics, lines)
    judged: dict[tuple[str, str], bool] = {}
    for j in lines:
        key = (j["topic"], j.get("text", ""))
        judged[key] = judged.get(key, False) or bool(j.get("facets"))
    searcher = open_index(a.index)
    system = MainSystem(Distiller(searcher, searcher.corpus, parse_config(a.spec)))
    facts = [topic_facts(system, t, answering[t.topic_id], judged) for t in topics]
    print("| topic | bullets from uncredited threads | main's other thread (language, rank) | best answering thread "
          "(rank) | main's bullets stating a facet | literal tokens | cause |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for f in facts:
        if f.elsewhere or a.only:
            print(row(f))
    counts = Counter(cause(f) for f in facts if f.elsewhere)
    print(f"\n{sum(f.elsewhere for f in facts)} of {len(facts)} Chinese topics answered elsewhere; "
          f"{sum(f.elsewhere and not set(f.bullet_threads) & set(f.answering) for f in facts)} with no bullet "
          "from an answering thread")
    print(f"main's bullets no careful judgment reads: {sum(f.unjudged for f in facts)}")
    for c in CAUSES:
        print(f"- {c}: {counts.get(c, 0)}")
    for t, f in zip(topics, facts) if a.only else ():
        print("\n".join(bullet_lines(system, t, f) + thread_lines(system, t, f)))
    if a.json:
        a.json.write_text(json.dumps([asdict(f) | {"cause": cause(f), "elsewhere": f.elsewhere} for f in facts],
                                     ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
