"""Metric value objects, their registry and the parser of their names (ir_measures style).

A metric is a name plus a params dict. ``repr`` leaves out default-valued params, so the repr is the
canonical spelling (``nugget_F`` at beta=3, ``nugget_F(beta=5)``), equality and hashing go through it,
and :func:`parse_metric` reads it back with ``ast`` (never ``eval``). Bad params raise ``ValueError``
naming the allowed values (never ``assert``, which ``python -O`` strips).

A metric declares the reducers of its family (``REDUCERS``: functions of a response's per-bullet
facts and the topic's context, ``evaluation.metrics.facts``) and computes its score from what they
return; scoring runs each reducer once per response (:class:`TopicStats`) and knows no metric.
"""
from __future__ import annotations

from indexing.spec import parse_call

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Mapping, NamedTuple, Sequence

from evaluation.metrics.facts import Reducer


class ParamInfo(NamedTuple):
    """A declared parameter: its type, allowed values (None: any of the type), default, meaning."""

    dtype: type
    choices: tuple | None = None
    default: Any = None
    desc: str = ""


class TopicStats(NamedTuple):
    """One run's response to one topic, reduced by every metric family asked for (SPEC §6).

    ``reduced`` maps each family's :data:`~evaluation.metrics.facts.Reducer` to its statistics
    (None when the family's input was not given); ``responded`` is False for a topic the run did
    not answer. Paired tests and the bootstrap resample these, never the judgments.
    """

    topic: str
    run: str
    responded: bool
    reduced: Mapping[Reducer, Any]

    def of(self, reducer: Reducer) -> Any:
        """The statistics one family's reducer made of this response."""
        return self.reduced[reducer]


def _fmt(value: Any) -> str:
    """``5`` for 5.0 (so ``nugget_F(beta=5)`` reads as written), ``repr`` otherwise."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


class Metric:
    """A named metric with validated params.

    Subclasses declare ``NAME``, ``SUPPORTED_PARAMS``, ``REDUCERS`` (the family's reducers, whose
    results ``compute`` receives in that order) and ``compute``. A metric with no reducers computes
    from a statistics record of its own (``evaluation.convert.track_metrics``).
    """

    NAME: ClassVar[str] = ""
    SUPPORTED_PARAMS: ClassVar[dict[str, ParamInfo]] = {}
    DEFAULT: ClassVar[float] = 0.0  # score of a topic the run did not answer (counted, not dropped)
    REDUCERS: ClassVar[tuple[Reducer, ...]] = ()
    #: True when the score depends on source units (the pool, ``C_i``, supporting units), which only
    #: the collection can place when the judgments lack them: the scorer then refuses rather than guess
    #: (docs/metrics.md, "Source units: one answer").
    READS_UNITS: ClassVar[bool] = False

    __slots__ = ("params",)

    def __init__(self, **params: Any) -> None:
        full = {k: p.default for k, p in self.SUPPORTED_PARAMS.items()}
        for key, value in params.items():
            full[key] = self._check(key, value)
        object.__setattr__(self, "params", full)

    @classmethod
    def _check(cls, key: str, value: Any) -> Any:
        info = cls.SUPPORTED_PARAMS.get(key)
        if info is None:
            allowed = ", ".join(cls.SUPPORTED_PARAMS) or "none"
            raise ValueError(f"{cls.NAME} has no parameter {key!r}; allowed parameters: {allowed}")
        if info.dtype is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, info.dtype) or (info.dtype is not bool and isinstance(value, bool)):
            raise ValueError(f"{cls.NAME}: {key} must be {info.dtype.__name__}, got {value!r}")
        if info.choices is not None and value not in info.choices:
            raise ValueError(f"{cls.NAME}: {key}={value!r} is not allowed; choose one of "
                             f"{', '.join(repr(c) for c in info.choices)}")
        if info.dtype is float and not value > 0:
            raise ValueError(f"{cls.NAME}: {key} must be a positive number, got {value!r}")
        return value

    def __call__(self, **params: Any) -> "Metric":
        """A copy with some params changed: ``nugget_F(beta=5)``."""
        return type(self)(**{**self.params, **params})

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("metrics are immutable; call the metric with new params instead")

    def non_default_params(self) -> dict[str, Any]:
        return {k: v for k, v in self.params.items() if v != self.SUPPORTED_PARAMS[k].default}

    def __repr__(self) -> str:
        nd = self.non_default_params()
        if not nd:
            return self.NAME
        return f"{self.NAME}({', '.join(f'{k}={_fmt(v)}' for k, v in sorted(nd.items()))})"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Metric) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    def settings(self) -> dict[str, Any]:
        """Every param with its value (defaults included), for the score signature."""
        return dict(self.params)

    def available(self, stats: TopicStats) -> bool:
        """Whether the statistics carry what this metric needs (votes, holistic scores)."""
        return all(stats.reduced.get(r) is not None for r in self.REDUCERS)

    def compute(self, *stats: Any) -> float:  # pragma: no cover - abstract
        """The score from the statistics of ``REDUCERS``, one argument each."""
        raise NotImplementedError

    def score(self, stats: TopicStats) -> float:
        """The topic's score: the declared default when the run gave no response to the topic."""
        if not stats.responded:
            return self.DEFAULT
        if not self.REDUCERS:  # computes from a statistics record of its own (evaluation.convert.track_metrics)
            return float(self.compute(stats))
        reduced = stats.reduced
        try:
            args = [reduced[r] for r in self.REDUCERS]
        except KeyError:
            raise ValueError(f"the statistics of topic {stats.topic}, run {stats.run} were reduced without "
                             f"{self!r}'s reducers; build them with this metric among build_stats(metrics=...)") from None
        return float(self.compute(*args))


def reducers_of(metrics: Iterable[Metric]) -> list[Reducer]:
    """The distinct reducers the metrics need, first-seen order (each runs once per response)."""
    out: list[Reducer] = []
    for m in metrics:
        for r in m.REDUCERS:
            if r not in out:
                out.append(r)
    return out


# ---------------------------------------------------------------------------------- registry

#: The family of ``bolt score``'s metrics; the tracks' metrics (``evaluation.convert.track_metrics``)
#: are the families ``autonuggetizer`` and ``argue`` of the same registry.
SCORE = "score"


@dataclass
class Registry:
    """Metric prototypes by name, each in a family; duplicates are refused (across families too),
    aliases resolve to the canonical name."""

    metrics: dict[str, Metric]
    aliases: dict[str, str]
    families: dict[str, str] = field(default_factory=dict)  # name -> family (left out: SCORE)

    def register(self, metric: Metric, aliases: tuple[str, ...] = (), family: str = SCORE) -> Metric:
        for name in (metric.NAME, *aliases):
            if name in self.metrics or name in self.aliases:
                raise ValueError(f"metric name {name!r} is already registered")
        self.metrics[metric.NAME] = metric
        self.families[metric.NAME] = family
        for a in aliases:
            self.aliases[a] = metric.NAME
        return metric

    def family(self, name: str) -> str:
        return self.families.get(self.aliases.get(name, name), SCORE)

    def get(self, name: str, families: Sequence[str] | None = None) -> Metric:
        canonical = self.aliases.get(name, name)
        if canonical not in self.metrics or (families is not None and self.family(canonical) not in families):
            from indexing.suggest import did_you_mean

            names = self.names(families)
            raise ValueError(f"unknown metric {name!r}{did_you_mean(name, names)}; known metrics: {', '.join(names)}")
        return self.metrics[canonical]

    def names(self, families: Sequence[str] | None = None) -> list[str]:
        return [n for n in self.metrics if families is None or self.family(n) in families]

    def prototypes(self, families: Sequence[str] | None = None) -> list[Metric]:
        return [self.metrics[n] for n in self.names(families)]


REGISTRY = Registry({}, {})


def register(metric: Metric, aliases: tuple[str, ...] = (), family: str = SCORE) -> Metric:
    """Add a metric prototype to the global registry (refuses a name already taken)."""
    return REGISTRY.register(metric, aliases, family)


def parse_metric(text: str, families: Sequence[str] | None = (SCORE,)) -> Metric:
    """``"nugget_F(beta=5)"`` -> the metric object, using ``ast`` (never ``eval``); only a metric of
    ``families`` (left out: ``bolt score``'s; None: any)."""
    name, params = parse_call(text, what="metric", bare_words=True)
    proto = REGISTRY.get(name, families)
    return proto(**params) if params else proto


def parse_metrics(texts: list[str], families: Sequence[str] | None = (SCORE,)) -> list[Metric]:
    """Parse several metric names, reporting every bad one in one ValueError."""
    out, bad = [], []
    for t in texts:
        try:
            out.append(parse_metric(t, families))
        except ValueError as exc:
            bad.append(str(exc))
    if bad:
        raise ValueError("; ".join(bad))
    return out


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


Params = Mapping[str, Any]
