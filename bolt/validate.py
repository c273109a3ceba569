"""Old path of :mod:`bolt.formats.validate` (the file formats have their own room).

The module object is the same, so ``bolt.validate.X`` is ``bolt.formats.validate.X``.
"""
import sys

from bolt.formats import validate as _impl

sys.modules[__name__] = _impl
