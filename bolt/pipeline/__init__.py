"""The distillation systems (``main``, ``lead``, ``bm25-sentences``) and cross-language query translation.

Public API: :class:`SystemConfig` / :func:`parse_config` (a system as a value object),
:class:`Distiller` (one system over an open index), :func:`plan_query` (query concepts and their
Arabic/Chinese translations), :func:`run_topics` (topics -> submission results).
"""
from bolt.pipeline.config import SYSTEMS, SystemConfig, parse_config
from bolt.pipeline.systems import STAGES, DistilledBullet, Distiller
from bolt.pipeline.translate import Concept, QueryPlan, plan_query
from bolt.pipeline import main, reference_systems  # noqa: F401,E402 (they fill SYSTEM_CLASSES)

__all__ = ["SYSTEMS", "STAGES", "SystemConfig", "parse_config", "Distiller", "DistilledBullet",
           "Concept", "QueryPlan", "plan_query", "run_topics", "to_result"]


def __getattr__(name):  # run_topics imports bolt.submission, kept lazy for import speed
    if name in ("run_topics", "to_result"):
        from bolt.pipeline import run

        return getattr(run, name)
    raise AttributeError(name)
