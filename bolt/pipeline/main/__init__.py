"""``main``: the baseline to beat, as a list of stages (docs/system.md says why each one is there;
docs/architecture.md shows the records and what each stage reads).

1. *candidates* (:mod:`.candidates`): translate the query, retrieve passages per language (English
   first, its numbers and names feed the others), leave out the languages whose threads are about
   something else, join the threads dense retrieval and the thread sweep find.
2. *thread evidence* (:mod:`.threads`): each candidate thread's relevance, decided in one place
   with its precedence written down, and the cross-language gate (:mod:`.gate`) with its evidence.
3. *sentences* (:mod:`.sentences`, :mod:`.priors`): every post of the most relevant threads is a
   candidate; their own sentences, questions and signatures dropped, with their query evidence,
   prior (informativeness x role x answer position) and semantic similarity.
4. *scores* (:mod:`.scores`): relevance x prior, sharpened by the thread's relative relevance; the
   learned ranker orders the English sentences that pass main's cuts.
5. *clustering* and 6. *selection* (:mod:`.selection`, :mod:`.thread_first`): near-duplicates
   grouped, then the clusters that pass their language's cut and the gate, at most
   ``max_per_post`` from one post and ``max_bullets`` in all, Arabic and Chinese with their own
   quota and thread-first picks.
7. *bullets* (:mod:`.bullets`): one per cluster, citing every post in it.
"""
from bolt.pipeline.main.system import MainSystem

__all__ = ["MainSystem"]
