"""The assessor's forum operating point: per bullet language, the probability a facet match needs,
and the bias against careful readers that remains at it, measured held out.

The statement and cross-language models each carry the threshold that maximised agreement where
they were fitted; on forum runs that point is strict (every run's R_n reads low, the better run
more). ``forum_point.json`` holds the thresholds chosen in training folds so that per-run scores
of forum runs are unbiased, the held-out bias and interval of R_n, P_n and F_GD per language,
and the command that regenerates it. The assessor uses it for forum bullets (``bolt assess``);
pair labels of other kinds of text (``bolt agree --pairs``) keep the model's own threshold.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Mapping

from indexing.models.logistic import load_model_json, shipped_model

POINT_FILE = "forum_point.json"
LANG_NAMES = {"eng": "English", "arz": "Arabic", "cmn": "Chinese"}


@dataclass(frozen=True)
class OperatingPoint:
    """Per language (``eng``, ``arz``, ``cmn``): the threshold, and the stated error at it."""

    domain: str
    thresholds: Mapping[str, float]
    languages: Mapping[str, Mapping[str, Any]]
    regenerate: str

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "OperatingPoint":
        langs = d["languages"]
        return cls(str(d["domain"]), {k: float(v["threshold"]) for k, v in langs.items()}, dict(langs),
                   str(d.get("regenerate", "")))

    def stated_error(self, metrics: tuple[str, ...] = ("R_n", "P_n", "F_GD")) -> list[str]:
        """Per language: each metric's bias (assessor - careful readers) and its interval, then R_n's per
        board or site, which can be far from the pooled figure on a site the point was not chosen on."""
        lines = []
        order = sorted(self.languages, key=lambda k: (list(LANG_NAMES).index(k) if k in LANG_NAMES else 99, k))
        for lang, v in ((k, self.languages[k]) for k in order):
            bias = v.get("bias", {})
            figs = ", ".join(f"{m} {bias[m]['bias']:+.3f} [{bias[m]['ci'][0]:+.3f}, {bias[m]['ci'][1]:+.3f}]"
                             for m in metrics if m in bias)
            kappa = v.get("relevance_kappa", {}).get("kappa")
            lines.append(f"{LANG_NAMES.get(lang, lang)} bullets (p >= {self.thresholds[lang]:.2f}): {figs}"
                         + (f"; bullet kappa {kappa:.2f}" if kappa is not None else "")
                         + f" ({v.get('bias_from', 'held out')})")
            sites = v.get("bias_by_site", {})
            if len(sites) > 1:
                lines.append("  R_n per board or site: " + ", ".join(
                    f"{name} {s['R_n']['bias']:+.3f} [{s['R_n']['ci'][0]:+.3f}, {s['R_n']['ci'][1]:+.3f}]"
                    for name, s in sorted(sites.items())))
        return lines


@functools.lru_cache(maxsize=2)
def load_point(path: str | None = None) -> OperatingPoint:
    """The shipped forum operating point, or the one at ``path``."""
    return load_model_json(path if path is not None else shipped_model(__package__, POINT_FILE),
                           OperatingPoint.from_dict, what="operating point",
                           hint="regenerate it with 'python scripts/forum_meter.py --workdir DIR --write FILE'")


def stated_error_text(point: OperatingPoint | None = None) -> str:
    """What ``bolt assess`` and ``bolt score`` print under machine judgments: the assessor's
    expected bias per metric and language on forum runs, held out."""
    p = point or load_point()
    return ("the assessor's error on forum runs (assessor minus careful readers, mean per-run bias, "
            "95% interval over topics):\n  " + "\n  ".join(p.stated_error()))
