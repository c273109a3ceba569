"""The automatic assessor's matching steps, one module per job (SPEC §5).

``text``: script detection and word counts; ``lexical``: POURPRE-style stemmed term overlap;
``semantic``: batched, cached sentence embeddings; ``anchoring``: citations that land on a
nugget's span. ``evaluation.assessor`` combines them into judgments.
"""
