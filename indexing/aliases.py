"""Renamed record fields keep working under their old names while their last readers move.

``old_name("topic", "topic_id")`` on a dataclass makes ``obj.topic`` a read-only alias of
``obj.topic_id``; the constructor, ``repr``, equality, ``dataclasses.replace`` and pickling know only
the new name.
"""
from __future__ import annotations

from typing import Callable, TypeVar

C = TypeVar("C", bound=type)


def old_name(old: str, new: str) -> Callable[[C], C]:
    """Class decorator: ``old`` is a read-only alias of the field ``new``."""
    def decorate(cls: C) -> C:
        setattr(cls, old, property(lambda self: getattr(self, new), doc=f"The old name of ``{new}``."))
        return cls
    return decorate
