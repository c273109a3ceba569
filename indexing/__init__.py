"""Forum-thread reading with exact raw offsets, and the index builders and searchers.

The lowest layer of the toolkit: it imports nothing from ``bolt`` or ``evaluation``.
"""
