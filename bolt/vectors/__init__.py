"""The vectors a system needs from an index (:mod:`bolt.vectors.needs`) and ``bolt index``'s
encoding of them (:mod:`bolt.vectors.build`); the storage is :mod:`indexing.vectors`."""
