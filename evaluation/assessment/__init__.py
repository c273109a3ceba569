"""The automatic assessor's parts, one job each; :mod:`evaluation.assessor` runs them in order.

- ``config``: the settings (``AssessorConfig``) and the rule names;
- ``records``: the typed records the passes hand on (a topic's facet texts, a bullet awaiting its decision);
- ``topic_prep``: a topic's English facet texts, nugget spans and nuggets in other languages;
- ``sources``: what each citation shows (anchors, the cited passage, its overlap with the bullet);
- ``overlap``, ``statements``, ``crosslingual``: the three ways text is matched to facets;
- ``judging``: a pending bullet's matches and source checks turned into its judgment.
"""
