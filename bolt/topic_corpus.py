"""Old path of :mod:`bolt.formats.topic_corpus` (the file formats have their own room).

The module object is the same, so ``bolt.topic_corpus.X`` is ``bolt.formats.topic_corpus.X``.
"""
import sys

from bolt.formats import topic_corpus as _impl

sys.modules[__name__] = _impl
