"""Old path of :mod:`indexing.problems` (the shared basics sit at the bottom of the layering).

The module object is the same, so ``bolt.problems.X`` and ``indexing.problems.X`` are one thing.
"""
import sys

from indexing import problems as _impl

sys.modules[__name__] = _impl
