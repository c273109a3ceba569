"""The score report: the one typed object every number of a scoring leaves the scorer in.

``bolt score`` builds it (``evaluation.api.score``), writes it (:meth:`ScoreReport.write_json`,
SPEC §8 shape; :meth:`ScoreReport.to_csv`), and ``bolt compare``, ``bolt report`` and ``bolt demo``
read it back (:meth:`ScoreReport.read`) instead of picking through raw dicts. Readers only render
or compare what it holds; nothing downstream recomputes a mean, a condition group or a series.
"""
from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from indexing.atomic import atomic_write_text
from indexing.errors import ToolkitError


@dataclass
class ScoreReport:
    """All numbers of one ``bolt score`` invocation, with their settings.

    ``metrics`` are the result keys (a metric's name; its params are in the settings); ``name`` is
    what ``bolt compare`` calls the report (the file stem when read from a file).
    """

    settings: dict[str, Any]
    metrics: list[str]
    topics: dict[str, dict[str, dict[str, float]]]   # run -> topic -> metric -> score
    means: dict[str, dict[str, float]]               # run -> metric -> mean over topics
    conditions: dict[str, dict[str, dict[str, Any]]]  # run -> condition -> {"topics": n, metric: mean}
    series: dict[str, dict[str, dict[str, float]]]   # run -> series -> metric -> score
    series_means: dict[str, dict[str, float]]        # run -> metric -> macro-average over series
    zero_median: dict[str, list[str]]                # metric -> topics
    unjudged: dict[str, int]
    #: per run, the cited sources whose support the machine decided, not a person (runs with none left out;
    #: ``evaluation.scoring.machine_support``); written per run as ``support_by_machine``
    machine_support: dict[str, int] = field(default_factory=dict)
    name: str = field(default="scores", compare=False)
    path: str | None = field(default=None, compare=False)
    signature_text: str | None = field(default=None, compare=False)  # as read, when the file has one
    #: what the scorer noticed about its inputs, for the CLI's warnings (not written to the score file):
    #: ``unknown_facets`` {topic: [ids]}, ``unfinished`` count, ``topics_file``, ``judged_with`` (the
    #: topics files the judgments' headers name), ``left_out`` (topics dropped by ``judged_only``)
    notes: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def signature(self) -> str:
        if self.signature_text is not None:
            return self.signature_text
        return signature(self.settings) if "params" in self.settings else ""

    @property
    def runs(self) -> list[str]:
        return list(self.means)

    def per_topic(self, metric: str) -> dict[str, dict[str, float]]:
        """``{run: {topic: score}}`` of one metric (what paired tests and stability resample)."""
        return {r: {t: s[metric] for t, s in by_t.items() if metric in s} for r, by_t in self.topics.items()}

    # ------------------------------------------------------------------------- JSON (SPEC §8)

    def to_json(self) -> dict[str, Any]:
        runs = {r: {"mean": self.means[r], "topics": self.topics.get(r, {}), "conditions": self.conditions.get(r, {}),
                    "series": self.series.get(r, {}), "series_mean": self.series_means.get(r, {}),
                    "unjudged_bullets": self.unjudged.get(r, 0)} for r in self.means}
        for r, n in self.machine_support.items():
            if r in runs:
                runs[r]["support_by_machine"] = n
        return {
            "settings": self.settings,
            "signature": self.signature,
            "runs": runs,
            "zero_median_topics": {m: {"count": len(ts), "topics": ts} for m, ts in self.zero_median.items()},
            "unjudged_bullets": sum(self.unjudged.values()),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n"

    def write_json(self, path: str | os.PathLike) -> Path:
        """Write the SPEC §8 document atomically."""
        return atomic_write_text(path, self.dumps())

    @classmethod
    def from_json(cls, doc: Any, *, name: str = "scores", path: str | None = None) -> "ScoreReport":
        """The report a ``bolt score --json`` document holds; a clear error when it is not one."""
        where = path or "<scores>"
        runs = doc.get("runs") if isinstance(doc, Mapping) else None
        if not isinstance(runs, Mapping) or not all(isinstance(v, Mapping) and isinstance(v.get("mean"), Mapping)
                                                    for v in runs.values()):
            raise ToolkitError("no \"runs\" with \"mean\" scores", file=where,
                               hint="give the output of 'bolt score --json'")
        try:
            means = {r: {k: float(v) for k, v in d["mean"].items()} for r, d in runs.items()}
            topics = {r: {t: {k: float(v) for k, v in s.items()} for t, s in (d.get("topics") or {}).items()}
                      for r, d in runs.items()}
        except (TypeError, ValueError, AttributeError) as exc:
            raise ToolkitError(f"a score is not a number ({exc})", file=where,
                               hint="give the output of 'bolt score --json'") from None
        metrics: list[str] = []
        for m in means.values():
            metrics.extend(k for k in m if k not in metrics)
        zero = {m: list(v.get("topics", [])) if isinstance(v, Mapping) else list(v)
                for m, v in (doc.get("zero_median_topics") or {}).items()}
        settings = doc.get("settings") if isinstance(doc.get("settings"), Mapping) else {}
        return cls(dict(settings), metrics, topics, means,
                   {r: dict(d.get("conditions") or {}) for r, d in runs.items()},
                   {r: dict(d.get("series") or {}) for r, d in runs.items()},
                   {r: dict(d.get("series_mean") or {}) for r, d in runs.items()},
                   zero, {r: int(d.get("unjudged_bullets") or 0) for r, d in runs.items()},
                   {r: int(d["support_by_machine"]) for r, d in runs.items() if d.get("support_by_machine")},
                   name=name, path=path, signature_text=doc.get("signature"))

    @classmethod
    def read(cls, path: str | os.PathLike) -> "ScoreReport":
        """Read a ``bolt score --json`` file; errors name the file and what to do."""
        path = Path(path)
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ToolkitError("scores file not found", file=str(path),
                               hint="write it with 'bolt score ... --json > FILE'") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ToolkitError(f"not a JSON document ({exc})", file=str(path),
                               hint="give the output of 'bolt score --json'") from None
        return cls.from_json(doc, name=path.stem, path=str(path))

    # ------------------------------------------------------------------------- CSV

    def to_csv(self) -> str:
        """Per-topic scores and means (run, topic, metrics...; topic ``all`` holds the mean)."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["run", "topic", *self.metrics])
        for run, by_topic in self.topics.items():
            for topic, scores in by_topic.items():
                w.writerow([run, topic, *(f"{scores[m]:.6f}" for m in self.metrics)])
            w.writerow([run, "all", *(f"{self.means[run][m]:.6f}" for m in self.metrics)])
        return buf.getvalue()

    def write_csv(self, path: str | os.PathLike) -> Path:
        return atomic_write_text(path, self.to_csv(), newline="")


def signature(settings: Mapping[str, Any]) -> str:
    """sacrebleu-style ``key:value|...`` line; version last. Long hashes shortened to 12 digits."""
    parts = []
    for k, v in settings["params"].items():
        parts.append(f"{k}:{_fmt(v)}")
    for js in settings.get("judgments", []):
        parts.append(f"judgments:{js['sha256'][:12]}")
    if settings.get("assessors"):
        parts.append(f"assessor:{'+'.join(settings['assessors'])}")
    for key in ("assessor_version", "embedding_model"):
        if settings.get(key):
            parts.append(f"{key}:{'+'.join(settings[key])}")
    skip = {"params", "judgments", "assessors", "assessor_version", "embedding_model", "assessor_meta",
            "metrics", "version", "nugget_units"}
    for k, v in settings.items():
        if k in skip or v is None or isinstance(v, (dict, list)):
            continue
        parts.append(f"{k}:{_fmt(v)[:12] if k.endswith('sha256') else _fmt(v)}")
    parts.append(f"version:{settings.get('version')}")
    return "|".join(parts)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def as_report(scores: "ScoreReport | Mapping[str, Any]") -> ScoreReport:
    """A ScoreReport from itself or from a ``bolt score --json`` document."""
    return scores if isinstance(scores, ScoreReport) else ScoreReport.from_json(scores)


__all__ = ["ScoreReport", "as_report", "signature"]
