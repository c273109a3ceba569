"""The automatic assessor's matching steps, one module per job (SPEC §5).

``text``: script detection and word counts; ``lexical``: POURPRE-style stemmed term overlap;
``semantic``: batched, cached sentence embeddings; ``anchoring``: citations that land on a
nugget's span; ``statement``: does a text *state* a facet? (specificity features and the fitted
model ``statement_model.json``); ``crosslingual``: Arabic and Chinese bullets against English
facet texts (multilingual USE); ``pairlabels``: pair-label files and held-out-by-topic fitting;
``calibration``: the hand-written calibration set. ``evaluation.assessor`` combines them.
"""
