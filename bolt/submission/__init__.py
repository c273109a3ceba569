"""Old path of :mod:`bolt.formats.submission` (the file formats have their own room).

The package and each of its modules are the same objects under both names, so
``bolt.submission.records.Bullet`` is ``bolt.formats.submission.records.Bullet``.
"""
import importlib
import sys

from bolt.formats import submission as _impl

for _name in ("records", "rules", "checks", "stream", "parse", "write"):
    sys.modules[f"{__name__}.{_name}"] = importlib.import_module(f"bolt.formats.submission.{_name}")
sys.modules[__name__] = _impl
