"""Evaluation of distillation runs: judgments, the automatic assessor, metrics, statistics, reports."""
