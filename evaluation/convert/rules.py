"""The converted formats' one rule catalogue: every problem ``bolt convert import`` can report.

Declared once here, as every other format's faults are (``indexing.problems.RuleCatalogue``); the
importers name them as strings and :class:`evaluation.convert.common.Problems` looks each one up, so
a fault that is not declared here cannot be reported. A fault the AQUAINT pilot and TREC QA files share
(they use the same item and mark lines) has one name.
"""
from __future__ import annotations

from indexing.problems import ERROR, WARNING, RuleCatalogue

RULES = RuleCatalogue("converted files (bolt convert)")
_r = RULES.register

# Any line-based or JSONL input
_r("json", ERROR, "a JSONL line that is not one complete JSON object")
_r("record-kind", ERROR, "a JSONL record of no known kind, or of another kind than the file's others")
_r("empty-answer", ERROR, "an answer item without text")
_r("duplicate-answer", ERROR, "an answer text repeated within one response (our submission rule duplicate-bullet)")
# AQUAINT pilot and TREC QA: questions, answer items (responses), nuggets, marks (judgments)
_r("question-line", ERROR, "a questions line that is not 'QNUM question text'")
_r("question-duplicate", ERROR, "a question number given twice")
_r("item-fields", ERROR, "an answer line that is not 'QNUM RUN DOCID answer text'")
_r("item-qnum", ERROR, "an answer line whose question number is not one")
_r("item-run-split", ERROR, "a run's answers to one question not kept together")
_r("item-wrong-file", ERROR, "an answer to another question than its file's")
_r("item-unknown-question", ERROR, "an answer to a question not in the questions file")
_r("nugget-line", ERROR, "a pilot nugget line that is not 'NUMBER [*] nugget text'")
_r("nugget-fields", ERROR, "a TREC QA answer-key line that is not 'QID NUGGET-ID vital|okay nugget text'")
_r("nugget-id", ERROR, "a TREC QA question or nugget id that is not a number")
_r("nugget-importance", ERROR, "a nugget importance other than vital or okay")
_r("nugget-duplicate", ERROR, "a nugget listed twice")
_r("nugget-unknown-question", ERROR, "a nugget of a question not in the questions file")
_r("nuggets-unknown-question", ERROR, "a nugget file of a question not in the questions file")
_r("nuggets-missing", WARNING, "a question without a nugget file")
_r("marks-without-nuggets", ERROR, "an assessor's marks without the assessor's nugget files")
_r("mark-fields", ERROR, "a mark line that is not 'QNUM RUN ITEM NUGGET DOCID marked text'")
_r("mark-number", ERROR, "a mark whose question or item is not a whole number")
_r("mark-nugget", ERROR, "a mark whose nugget is not a number")
_r("mark-wrong-file", ERROR, "a mark of another question than its file's")
_r("mark-unknown-item", ERROR, "a mark of an answer item the responses do not have")
_r("mark-unknown-nugget", ERROR, "a mark of a nugget the nugget list does not have")
_r("otherjudged-fields", ERROR, "a NIST RUN.otherjudged line that is neither an item nor a nugget mark")
_r("otherjudged-item-number", ERROR, "a NIST RUN.otherjudged item out of its 1, 2, ... order")
# AQUAINT pilot holistic scores (the names the judgments catalogue gives the same faults)
_r("holistic-fields", ERROR, "a holistic line that is not 'QNUM RUN' then content/organization pairs")
_r("holistic-range", ERROR, "a content or organization score outside 0..10")
_r("holistic-duplicate", ERROR, "a second holistic score of one (question, run)")
_r("holistic-no-response", WARNING, "a holistic score of a run that gave no answer")
# TREC QA pyramid votes
_r("votes-fields", ERROR, "a votes line that is not 'QID NUGGET-ID' then one label per assessor")
_r("votes-label", ERROR, "a vote label other than vital, okay or -")
_r("votes-columns", ERROR, "a votes line with another number of labels than assessors")
_r("votes-unknown-nugget", ERROR, "a vote on a nugget the nugget list does not have")
# TREC RAG / NeuCLIR / RAGTIME reports and AutoNuggetizer nuggets and assignments
_r("report-ids", ERROR, "a report without run_id and topic_id")
_r("report-references", ERROR, "report references that are not a list of document ids")
_r("report-sentences", ERROR, "a report answer that is not a list of {text, citations}")
_r("report-sentence", ERROR, "a report sentence that is not an object with a text string")
_r("report-citations", ERROR, "citations that are not reference indices (or their confidences not numbers)")
_r("report-citation-index", ERROR, "a citation of a reference the report does not have")
_r("report-duplicate", ERROR, "a run's second report on one topic")
_r("nuggets-qid", ERROR, "a nugget record without a qid")
_r("nugget-text", ERROR, "a nugget without text")
_r("nugget-assignment", ERROR, "a nugget assignment other than the AutoNuggetizer's grades")
_r("nuggets-duplicate", ERROR, "a topic's second nugget list")
_r("nuggets-repeated", ERROR, "a topic that lists a nugget text twice (nuggets are matched by text)")
_r("assignment-run", ERROR, "an assignment without the judged answer's run_id")
_r("assignment-unknown-nugget", ERROR, "an assignment of a nugget the topic's list does not have")
_r("assignment-duplicate", ERROR, "a second assignment of one run on one topic")
_r("assignment-no-answer", ERROR, "an assignment of a run with no answer to the topic")
_r("topic-no-text", WARNING, "topics whose text is in none of the inputs (one warning for all)")
_r("repeated-sentence", WARNING, "a report sentence repeating an earlier one (kept once, its citations merged)")
_r("request-fields", ERROR, "a request without topic_id/request_id or without title, problem_statement, background")
_r("request-duplicate", ERROR, "a topic's second request")
_r("assignment-missing", WARNING, "answered topics no assignment judges (left out of the AutoNuggetizer mean)")
# ARGUE nugget banks and sentence judgments
_r("bank-shape", ERROR, "a nugget bank in neither published shape (ARGUE v3 query_id + nugget_bank object, "
   "RAGTIME 2026 metadata.topic_id + nugget_bank list)")
_r("bank-nugget", ERROR, "a bank nugget without a question text (claims are not read)")
_r("bank-sub-nuggets", ERROR, "a bank nugget with sub_nuggets (not read)")
_r("bank-answers", ERROR, "bank answers that are neither an object nor a list")
_r("bank-aggregator", ERROR, "an aggregator other than OR and AND")
_r("bank-duplicate", ERROR, "a topic's second nugget bank")
_r("judgments-sentences", ERROR, "a judged report with another number of judged sentences than sentences")
_r("judgments-text", ERROR, "a judged sentence whose text differs from the report's")
_r("judgments-attested", ERROR, "an is_attested that is not true or false")
_r("judgment-unknown-question", ERROR, "a judgment of a question the topic's bank does not have")
