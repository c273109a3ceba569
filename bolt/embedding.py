"""Old path of :mod:`indexing.models.embedding` (the loader lives below the system and the assessor).

The module object is the same, so patching ``bolt.embedding.X`` patches the loader itself.
"""
import sys

from indexing.models import embedding as _impl

sys.modules[__name__] = _impl
