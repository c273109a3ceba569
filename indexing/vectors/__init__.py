"""Vectors stored with an index: what the system's encoders need, encoded once by ``bolt index``.

One table per encoder under ``<index>/vectors/<encoder>/`` (:mod:`indexing.vectors.table`), an
approximate nearest-neighbour index over a large language's sentence vectors
(:mod:`indexing.vectors.ann`) and the batched, shardable encoding that fills them
(:mod:`indexing.vectors.encode`). A run maps the tables; it never encodes the collection.
"""
