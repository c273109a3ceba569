"""Old path of :mod:`indexing.spec` (the shared basics sit at the bottom of the layering).

The module object is the same, so ``bolt.spec.X`` and ``indexing.spec.X`` are one thing.
"""
import sys

from indexing import spec as _impl

sys.modules[__name__] = _impl
