"""Old path of :mod:`bolt.formats.votes` (the file formats have their own room).

The module object is the same, so ``bolt.votes.X`` is ``bolt.formats.votes.X``.
"""
import sys

from bolt.formats import votes as _impl

sys.modules[__name__] = _impl
