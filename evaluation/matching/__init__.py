"""The automatic assessor's matching steps, one module per job (SPEC §5).

``text``: script detection and word counts; ``lexical``: POURPRE-style stemmed term overlap;
``semantic``: batched, cached sentence embeddings; ``anchoring``: citations that land on a
nugget's span; ``statement``: does a text *state* a facet? (specificity features and the fitted
model ``statement_model.json``); ``crosslingual``: Arabic and Chinese bullets against English
facet texts (multilingual USE); ``pairlabels``: pair-label files and their features, decided by
the shipped model (``bolt agree --pairs``). ``evaluation.assessor`` combines them. The fitting of
the models and thresholds is not installed: it lives in the repository's ``fitting/`` folder.
"""
