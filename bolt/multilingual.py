"""Old path of :mod:`indexing.models.multilingual` (the loader lives below the system and the assessor).

The module object is the same, so patching ``bolt.multilingual.X`` patches the loader itself.
"""
import sys

from indexing.models import multilingual as _impl

sys.modules[__name__] = _impl
