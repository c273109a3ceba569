"""Renamed record fields keep working under their old names while their last users move.

``old_name("post", "thread")`` on a dataclass makes ``obj.post`` a read-only alias of ``obj.thread``
and (``keyword=True``) lets the constructor still take ``post=``: that wraps ``__init__``, a cost on
every construction, so only records still built under the old keyword ask for it. ``repr``,
equality, ``dataclasses.replace`` and pickling know only the new name.
"""
from __future__ import annotations

import functools
from typing import Callable, TypeVar

C = TypeVar("C", bound=type)


def old_name(old: str, new: str, *, keyword: bool = False) -> Callable[[C], C]:
    """Class decorator: ``old`` is a read-only alias of the field ``new`` (with ``keyword``, also a
    constructor keyword)."""
    def decorate(cls: C) -> C:
        setattr(cls, old, property(lambda self: getattr(self, new), doc=f"The old name of ``{new}``."))
        if not keyword:
            return cls
        init = cls.__init__

        @functools.wraps(init)
        def __init__(self, *args, **kwargs) -> None:
            if old in kwargs:
                if new in kwargs:
                    raise TypeError(f"{cls.__name__}() takes {new} or its old name {old}, not both")
                kwargs[new] = kwargs.pop(old)
            init(self, *args, **kwargs)

        cls.__init__ = __init__
        return cls
    return decorate
