"""Old path of :mod:`indexing.exit_codes` (the shared basics sit at the bottom of the layering).

The module object is the same, so ``bolt.exit_codes.X`` and ``indexing.exit_codes.X`` are one thing.
"""
import sys

from indexing import exit_codes as _impl

sys.modules[__name__] = _impl
