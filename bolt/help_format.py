"""Old path of :mod:`indexing.help_format` (the shared basics sit at the bottom of the layering).

The module object is the same, so ``bolt.help_format.X`` and ``indexing.help_format.X`` are one thing.
"""
import sys

from indexing import help_format as _impl

sys.modules[__name__] = _impl
