"""Old path of :mod:`bolt.formats.topics` (the file formats have their own room).

The module object is the same, so ``bolt.topics.X`` is ``bolt.formats.topics.X``.
"""
import sys

from bolt.formats import topics as _impl

sys.modules[__name__] = _impl
