"""Old path of :mod:`evaluation.judgments.reuse` (the "same bullet" identity belongs with judgments).

The module object is the same, so ``evaluation.workbench.reuse.X`` is ``evaluation.judgments.reuse.X``.
"""
import sys

from evaluation.judgments import reuse as _impl

sys.modules[__name__] = _impl
