"""What each citation shows: the post it lands in, the nugget spans it anchors to, the cited text.

Threads are read through a bounded cache (runs cite threads in bursts) and each cited passage is
cut into sentences once, whichever bullet cites it.
"""
from __future__ import annotations

from typing import Any

from evaluation.assessment.config import AssessorConfig
from evaluation.assessment.records import SourceCheck, TopicPrep
from evaluation.matching import anchoring, lexical
from evaluation.matching.semantic import EmbeddingTable
from evaluation.matching.text import sentences
from indexing.lang import lang_of

TEXT_LANGS = ("eng", "und", None)  # thread languages whose text the English matchers can read
_PASSAGE_CHARS = 2000  # cited text read from the offset (bullets are far shorter)
_THREAD_CACHE = 512  # threads kept in memory while collecting


class SourceChecker:
    """Checks citations against a corpus; texts that need a cosine go to the shared embedding table."""

    def __init__(self, corpus, config: AssessorConfig, table: EmbeddingTable) -> None:
        self.corpus = corpus
        self.config = config
        self.table = table
        self._threads: dict[str, Any] = {}
        self._passages: dict[tuple[str, int], tuple[str, ...]] = {}

    def thread(self, thread_id: str):
        """The cited thread (None when absent); a bounded cache, since runs cite threads in bursts."""
        if thread_id in self._threads:
            return self._threads[thread_id]
        thread = self.corpus.get(thread_id) if self.corpus is not None else None
        if len(self._threads) >= _THREAD_CACHE:
            self._threads.pop(next(iter(self._threads)))
        self._threads[thread_id] = thread
        return thread

    def passage(self, thread, offset: int, length: int) -> str:
        """The cited text: whole sentences of the post from ``offset`` on, at least the bullet's length.

        The passage is cut at sentence boundaries so that a citation yields the same few windows
        whichever bullet cites it (each distinct window is embedded once).
        """
        key = (thread.id, offset)
        sents = self._passages.get(key)
        if sents is None:
            text = " ".join(thread.text_at(offset).split())[:_PASSAGE_CHARS]
            lang = getattr(thread, "lang", None) or "eng"
            sents = sentences(text, lang if lang in ("eng", "arz", "cmn") else "eng") if text else ("",)
            self._passages[key] = sents
        out, size = [], 0
        for sent in sents:
            out.append(sent)
            size += len(sent) + 1
            if size > length:
                break
        return " ".join(out)

    def check(self, src, prep: TopicPrep, bullet_text: str, bullet_terms, english: bool) -> SourceCheck:
        """One citation of a bullet: anchors, and for an English bullet citing an English thread the
        cited passage with its lexical overlap (queued for a cosine when overlap alone does not decide)."""
        thread = self.thread(src.thread)
        if thread is None:
            return SourceCheck(src.thread, src.offset, None, [], False, None, None, "thread not in the corpus",
                               lang_of(src.thread))
        tlang = getattr(thread, "lang", None) or lang_of(thread.id)
        post = thread.post_at(src.offset) if 0 <= src.offset < len(thread.raw) else None
        if post is None:
            return SourceCheck(src.thread, src.offset, None, [], False, None, None,
                               "offset outside every <post> element", tlang)
        found = anchoring.anchors(thread, src.offset, prep.spans, self.config.anchor_words)
        textual = english and tlang in TEXT_LANGS
        window = ov = None
        verbatim = False
        note = None
        if not textual:
            # No matcher reads this language pair, but an extract copied word for word from the
            # cited text (white space aside) is supported whatever its language.
            bullet = " ".join(bullet_text.split())
            verbatim = bool(bullet) and bullet in " ".join(thread.text_at(src.offset)[:len(bullet_text) + 200].split())
            note = None if verbatim else "cross-language: only anchoring or a verbatim extract can support"
        else:
            window = self.passage(thread, src.offset, len(bullet_text))
            ov = lexical.overlap(bullet_terms, lexical.content_terms(window))
            if (not found and self.config.semantic
                    and not lexical.lexical_match(ov, self.config.support_lexical_threshold,
                                                  self.config.lexical_min_terms)):
                self.table.add((bullet_text, window))
        return SourceCheck(src.thread, src.offset, post.id, found, textual, window, ov, note, tlang, verbatim)
