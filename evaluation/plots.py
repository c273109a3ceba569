"""Plots for the HTML report, drawn with matplotlib's Agg backend and returned as PNG bytes.

Each function takes plain numbers (no toolkit records) so it can be tested alone, and returns the
PNG; ``data_uri`` turns it into a ``data:image/png;base64,...`` string, which keeps the report one
self-contained file. matplotlib is imported inside the functions: importing this module is cheap.
"""
from __future__ import annotations

import base64
import io
import math
from typing import Mapping, Sequence

PNG_DPI = 110
# A palette that stays distinguishable for the common forms of colour blindness (Okabe & Ito).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")


def data_uri(png: bytes) -> str:
    """``data:image/png;base64,...`` for an ``<img src>``."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)  # no display, no GUI toolkit: same output on every machine
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    # metadata={"Software": None} leaves the matplotlib version out, so identical plots give identical bytes
    fig.savefig(buf, format="png", dpi=PNG_DPI, bbox_inches="tight", metadata={"Software": None})
    _pyplot().close(fig)
    return buf.getvalue()


def precision_recall(points: Mapping[str, tuple[float, float]],
                     topic_points: Mapping[str, Sequence[tuple[float, float]]] | None = None,
                     *, x_label: str = "R_n (facet recall)", y_label: str = "P_n (facet precision)",
                     iso_f: Sequence[float] = (0.2, 0.4, 0.6, 0.8)) -> bytes:
    """Scatter of each run's mean (recall, precision), per-topic points faint behind it.

    ``points`` maps run -> (recall, precision); ``topic_points`` run -> [(recall, precision), ...].
    Dotted curves are iso-lines of the harmonic mean of P and R (F1), to read the trade-off.
    """
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(5.2, 4.4))
    for f in iso_f:  # P = f R / (2R - f) for R > f/2
        rs = [f / 2 + (1 - f / 2) * i / 200 for i in range(1, 201)]
        ps = [f * r / (2 * r - f) for r in rs]
        keep = [(r, p) for r, p in zip(rs, ps) if 0 <= p <= 1.02]
        if keep:
            ax.plot([r for r, _ in keep], [p for _, p in keep], ":", color="#bbbbbb", lw=1, zorder=1)
            ax.annotate(f"F1={f:g}", keep[-1], fontsize=7, color="#999999", ha="right", va="bottom")
    for i, (run, (r, p)) in enumerate(points.items()):
        color = PALETTE[i % len(PALETTE)]
        for tr, tp in (topic_points or {}).get(run, ()):
            ax.scatter(tr, tp, s=18, color=color, alpha=0.3, lw=0, zorder=2)
        ax.scatter(r, p, s=110, color=color, edgecolor="black", lw=0.8, zorder=3, label=run)
    ax.set_xlim(-0.03, 1.03)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    ax.grid(alpha=0.25)
    ax.set_title("Precision and recall: run means (large), topics (small)", fontsize=10)
    if points:
        ax.legend(loc="best", fontsize=8, frameon=True)
    return _png(fig)


def metric_bars(means: Mapping[str, Mapping[str, float]], metrics: Sequence[str]) -> bytes:
    """Grouped bars: one group per metric, one bar per run (means over topics)."""
    plt = _pyplot()
    runs = list(means)
    fig, ax = plt.subplots(figsize=(max(5.0, 0.55 * len(metrics) + 1.4), 4.0))
    width = 0.8 / max(1, len(runs))
    for i, run in enumerate(runs):
        xs = [j + (i - (len(runs) - 1) / 2) * width for j in range(len(metrics))]
        ys = [_finite(means[run].get(m)) for m in metrics]
        ax.bar(xs, ys, width=width, color=PALETTE[i % len(PALETTE)], label=run)
    ax.set_xticks(range(len(metrics)))
    ax.set_xticklabels(metrics, fontsize=9, rotation=30 if len(metrics) > 6 else 0,
                       ha="right" if len(metrics) > 6 else "center")
    ax.set_ylim(0, 1.0)
    ax.set_ylabel("mean over topics")
    ax.grid(axis="y", alpha=0.25)
    ax.legend(fontsize=8, ncol=min(4, max(1, len(runs))), loc="lower center", bbox_to_anchor=(0.5, 1.0),
              frameon=False)
    ax.set_title("Leaderboard: mean score per metric", fontsize=10, pad=22)
    return _png(fig)


def tau_heatmap(names: Sequence[str], matrix: Sequence[Sequence[float | None]], *, title: str) -> bytes:
    """A square heat-map of Kendall's tau (-1..1) with the value written in each cell (n/a: undefined)."""
    plt = _pyplot()
    n = len(names)
    size = max(3.4, 0.4 * n + 1.4)
    fig, ax = plt.subplots(figsize=(size + 0.8, size))
    values = [[(v if v is not None and math.isfinite(v) else float("nan")) for v in row] for row in matrix]
    im = ax.imshow(values, cmap="RdBu", vmin=-1, vmax=1)
    ax.set_xticks(range(n))
    ax.set_yticks(range(n))
    ax.set_xticklabels(names, rotation=45, ha="right", fontsize=8)
    ax.set_yticklabels(names, fontsize=8)
    for i in range(n):
        for j in range(n):
            v = values[i][j]
            text = "n/a" if math.isnan(v) else f"{v:.2f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=7,
                    color="white" if not math.isnan(v) and abs(v) > 0.6 else "black")
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def _finite(v: float | None) -> float:
    return float(v) if v is not None and math.isfinite(v) else 0.0
