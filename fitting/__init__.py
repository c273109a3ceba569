"""Fitting the assessor's decisions: the procedures that chose the models and thresholds it ships.

Not installed with the toolkit (``setup.py`` lists ``bolt``, ``indexing`` and ``evaluation``
only): the toolkit needs only the fitted results at run time. Used by ``scripts/bench.py`` and the
tests, from the repository's root. ``pairfit``: held-out-by-topic fitting on pair labels;
``transfer``: held out by source; ``calibration``: the hand-written calibration set and its sweep.
"""
