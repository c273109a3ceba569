"""Old path of :mod:`bolt.formats.topic_rules` (the file formats have their own room).

The module object is the same, so ``bolt.topic_rules.X`` is ``bolt.formats.topic_rules.X``.
"""
import sys

from bolt.formats import topic_rules as _impl

sys.modules[__name__] = _impl
