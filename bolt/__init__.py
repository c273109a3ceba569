"""The BOLT distillation system: topic and submission formats, the pipeline, the ``bolt`` CLI."""

__version__ = "1.0.0"
