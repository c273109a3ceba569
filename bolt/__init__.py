"""The BOLT distillation system: topic and submission formats, the pipeline, the ``bolt`` CLI."""

__version__ = "0.1.0"
