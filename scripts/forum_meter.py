#!/usr/bin/env python3
"""Choose the assessor's forum operating point in training folds and measure its held-out bias.

    python scripts/forum_meter.py --workdir DIR [--json-out FILE] [--write evaluation/matching/forum_point.json]

Judges every careful forum judgment's bullet again with today's assessor (cached in DIR), then per
bullet language (English, Arabic, Chinese) chooses the probability threshold that minimises the
squared per-run R_n bias, leaving one round out and, apart, one board/site out; reports per-run
bias of R_n, P_n, F_GD per run family with bootstrap intervals, bullet-relevance kappa and
Kendall's tau, today and held out (docs/experiments/assessor-forum-operating-point.md). ``--write``
writes the operating point and its held-out bias, the file the assessor reads and prints.
Skips (exit 0) when ../shared/real-samples is absent.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

COMMAND = "python scripts/forum_meter.py --workdir DIR --write evaluation/matching/forum_point.json"


def dev_rounds() -> dict:
    """The tac2013 and xl rounds (``scripts/benchmarks/run.py: DEV_SETS``), one definition."""
    spec = importlib.util.spec_from_file_location("bench_run", REPO / "scripts" / "benchmarks" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return {"tac2013": mod.DEV_SETS["tac2013"].rounds, "xl": mod.DEV_SETS["xl"].rounds,
            "xl-sites": mod.DEV_SETS["xl-sites"].rounds, "round_name": mod.round_name}


def set_folds(name: str, topics: list) -> tuple:
    """(round of a topic number, board or site of a topic number) for one careful set: the folds
    the operating point is held out by (xl: youm7 / PTT by number, xl-sites: alriyadh-alghad / Weibo)."""
    from fitting import forum_judged as fj
    from fitting import forum_meter as fm

    dr = dev_rounds()
    rounds = {"ebay": lambda t: dr["round_name"](t, fm.EBAY_ROUNDS), "sample": lambda t: "sample",
              "tac2013": lambda t: dr["round_name"](t, dr["tac2013"]), "xl": lambda t: dr["round_name"](t, dr["xl"]),
              "xl-sites": lambda t: dr["round_name"](t, dr["xl-sites"])}
    by_id = {t.topic_id: t for t in topics}
    if name == "xl":
        board = lambda t: "youm7" if t < "4.1" else "ptt"
    elif name == "xl-sites":
        board = lambda t: "alriyadh-alghad" if t < "5.1" else "weibo"
    elif name == "sample":
        board = lambda t: "sample"
    else:
        board = lambda t: fj.board_of(by_id[t])
    return rounds[name], board


def gather(workdir: Path):
    """Every set's cells, per language; the models' thresholds and today's shipped forum point per language."""
    from bolt.formats.topics import read_topics
    from evaluation.matching.crosslingual import load_cross_model
    from evaluation.matching.operating_point import load_point
    from evaluation.matching.statement import load_model
    from fitting import forum_judged as fj
    from fitting import forum_meter as fm

    cells: dict = {}
    for name, s in fj.judged_sets().items():
        topics = read_topics(s.topics)
        careful = fj.careful_judgments(s)
        fm.collect(name, topics, careful, fj.machine_judgments(s, workdir), *set_folds(name, topics), cells)
        print(f"{name}: {len(careful)} careful judgments", file=sys.stderr, flush=True)
    cross = load_cross_model()
    model = {"eng": load_model().threshold, **{k: float(v) for k, v in cross.thresholds.items()}}
    return cells, model, dict(load_point().thresholds)


def per_board_abs_bias(c, thresholds: dict[str, float], boards: dict[str, str]) -> dict[str, dict]:
    """Per board/site: topics, mean |per-run R_n bias|, and per run family the mean per-run R_n bias
    (no interval: a board has few topics) at the given per-topic thresholds."""
    import numpy as np

    from fitting import forum_meter as fm

    mac, car = fm._at(c, thresholds)
    out = {}
    for b in sorted(set(boards.values())):
        ts = {t for t, x in boards.items() if x == b}
        runs: dict[str, list[float]] = {}
        for i, (t, r) in enumerate(zip(c.topic, c.run)):
            if t in ts:
                runs.setdefault(r, []).append(mac[i, 0] - car[i, 0])
        if runs:
            fams: dict[str, list[float]] = {}
            for r, v in runs.items():
                fams.setdefault(fm.family(r.split(":", 1)[1]), []).append(float(np.mean(v)))
            out[b] = {"topics": len(ts), "abs_R_n_bias": round(float(np.mean([abs(np.mean(v)) for v in runs.values()])), 4),
                      "R_n_bias": {f: round(float(np.mean(v)), 4) for f, v in sorted(fams.items())}}
    return out


def measure(cells, model: dict[str, float], shipped: dict[str, float]) -> dict:
    """Per language: figures at today's shipped point and at the model's threshold, held out (by
    round, by board/site), per board/site, and the point chosen on all folds."""
    from fitting import forum_meter as fm

    out = {}
    for lang in fm.LANGS:
        c = cells.get(lang)
        if c is None:
            continue
        topics = set(c.topic)
        chosen = fm.choose(c, topics, model[lang])
        by_round = fm.held_out(c, c.round_of, model[lang])
        by_board = fm.held_out(c, c.board_of, model[lang])
        now = {t: shipped[lang] for t in topics}
        boards_today = per_board_abs_bias(c, now, c.board_of)
        boards_held = per_board_abs_bias(c, by_board, c.board_of)
        worse = [b for b, v in boards_held.items() if v["topics"] >= 3
                 and v["abs_R_n_bias"] > boards_today[b]["abs_R_n_bias"] + 0.02]
        per_site = {}
        for b in sorted(set(c.board_of.values())):
            sub = fm.subset(c, {t for t, x in c.board_of.items() if x == b})
            if len(set(sub.topic)) >= 3:
                per_site[b] = {k: fm.figures(sub, th) for k, th in
                               (("today", now), ("held_out_by_round", by_round), ("held_out_by_board", by_board))}
        out[lang] = {"model_threshold": model[lang], "today_threshold": shipped[lang], "chosen_on_all": chosen,
                     "ships": not worse, "boards_worse": worse,
                     "thresholds_by_round": dict(sorted({c.round_of[t]: by_round[t] for t in topics}.items())),
                     "thresholds_by_board": dict(sorted({c.board_of[t]: by_board[t] for t in topics}.items())),
                     "today": fm.figures(c, now), "model": fm.figures(c, {t: model[lang] for t in topics}),
                     "held_out_by_round": fm.figures(c, by_round), "held_out_by_board": fm.figures(c, by_board),
                     "per_board_today": boards_today, "per_board_held_out": boards_held, "per_site": per_site}
    return out


SOURCES = {"today": "in-sample where it was chosen, held out elsewhere",
           "held_out_by_round": "held out by round",
           "held_out_by_board": "held out by board"}


def stated_key(r: dict) -> str:
    """Which held-out figures a language's stated error comes from: by board/site when a board or
    site could be held out (another one to choose on), else by round; today's when nothing ships."""
    if not r["ships"]:
        return "today"
    one_site = len(r["per_board_today"]) < 2
    return "held_out_by_round" if one_site else "held_out_by_board"


def point_file(result: dict) -> dict:
    """The shipped data file: per language the threshold and the held-out bias the assessor states."""
    langs = {}
    for lang, r in result.items():
        key = stated_key(r)
        fig = r[key]
        langs[lang] = {"threshold": r["chosen_on_all"] if r["ships"] else r["today_threshold"],
                       "model_threshold": r["model_threshold"],
                       "bias_from": SOURCES[key] if lang == "eng" else SOURCES[key].replace("board", "site"),
                       "bias": fig["families"]["all"],
                       "bias_by_family": {f: v for f, v in fig["families"].items() if f != "all"},
                       "relevance_kappa": {"kappa": fig["relevance"]["kappa"], "ci": fig["relevance"]["kappa_ci"]},
                       "kendall_tau_R_n": fig["kendall_tau_R_n"],
                       "bias_by_site": {b: {"topics": v[key]["families"]["all"]["topics"],
                                            "R_n": v[key]["families"]["all"]["R_n"]}
                                        for b, v in r["per_site"].items()},
                       "bias_at_model_threshold": r["model"]["families"]["all"]}
    return {"domain": "forum", "what": "bullets of BOLT-style discussion-forum runs (English boards; Egyptian, Gulf "
            "and Jordanian Arabic; Traditional and Simplified Chinese), judged against careful readers",
            "languages": langs,
            "bias": "assessor minus careful readers: mean over runs of each run's mean over its topics; 95% "
                    "interval resampling topics", "regenerate": COMMAND}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workdir", required=True, type=Path,
                   help="cache of the assessor's judgments (empty it after changing the assessor)")
    p.add_argument("--json-out", type=Path)
    p.add_argument("--write", type=Path, metavar="FILE", help="write the operating point file")
    a = p.parse_args()
    from fitting.forum_judged import SHARED

    if not SHARED.exists():
        print(f"skipped: {SHARED} is absent")
        return 0
    a.workdir.mkdir(parents=True, exist_ok=True)
    result = measure(*gather(a.workdir))
    text = json.dumps(result, indent=1)
    print(text)
    if a.json_out:
        a.json_out.write_text(text + "\n", encoding="utf-8")
    if a.write:
        a.write.write_text(json.dumps(point_file(result), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
