"""The toolkit's modules import one another without a cycle (function-level imports included;
imports under ``if TYPE_CHECKING:`` are annotations only and do not count).

A cycle (``records -> reader -> records``) forces imports inside functions and makes the import
order matter; the graph is read from the source with ``ast``, so the test needs no runtime.
"""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("indexing", "bolt", "evaluation")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:``."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)


def import_graph() -> dict[str, set[str]]:
    """``{module: {toolkit modules it imports anywhere in its source}}``."""
    files = {_module_name(p): p for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in files}
    for mod, path in files.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([base] if base else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            for t in targets:
                if t in files and t != mod:
                    graph[mod].add(t)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_records_reader_lookup_circle_is_open():
    """``reader -> records -> markup``; ``Thread`` owns the offset path and ``lookup`` delegates to its
    methods (no runtime import either way: records never calls back into lookup)."""
    g = import_graph()
    assert "indexing.markup" in g["indexing.records"] and "indexing.records" in g["indexing.reader"]
    assert "indexing.reader" not in g["indexing.records"] and "indexing.records" not in g["indexing.lookup"]
    assert "indexing.lookup" not in g["indexing.records"]


def test_no_import_cycle_in_the_toolkit():
    assert cycles(import_graph()) == []


# The system's rooms: the evaluator may read formats from bolt, never the system it measures.
SYSTEM = ("bolt.pipeline", "bolt.lexicon", "bolt.provenance", "bolt.api")
# The end-to-end demo runs the system and then judges it: a composition root like bolt/cli.py.
COMPOSITION = {"evaluation.commands.demo"}


def _in(mod: str, packages: tuple[str, ...]) -> bool:
    return any(mod == p or mod.startswith(p + ".") for p in packages)


def test_evaluation_never_imports_the_system():
    g = import_graph()
    leaks = {m: sorted(t for t in ts if _in(t, SYSTEM)) for m, ts in g.items()
             if _in(m, ("evaluation",)) and m not in COMPOSITION}
    assert {m: ts for m, ts in leaks.items() if ts} == {}


def test_layers_run_one_way():
    """indexing imports neither bolt nor evaluation; bolt imports evaluation only from its CLI."""
    g = import_graph()
    up = {m: sorted(t for t in ts if _in(t, ("bolt", "evaluation"))) for m, ts in g.items() if _in(m, ("indexing",))}
    assert {m: ts for m, ts in up.items() if ts} == {}
    bolt_up = {m: sorted(t for t in ts if _in(t, ("evaluation",))) for m, ts in g.items()
               if _in(m, ("bolt",)) and m != "bolt.cli"}
    assert {m: ts for m, ts in bolt_up.items() if ts} == {}


def test_the_system_rule_can_fail():
    """The rule sees a leak: the demo (exempt) does import the pipeline."""
    assert any(_in(t, SYSTEM) for t in import_graph()["evaluation.commands.demo"])


def test_evaluation_reads_only_formats_from_bolt():
    """Outside its commands, evaluation imports from bolt only the formats (``bolt.formats``), the
    bundled sample (``bolt.data``) and the version; its commands may also use bolt's CLI options."""
    g = import_graph()
    allowed = ("bolt.formats", "bolt.data")
    wrong = {}
    for m, ts in g.items():
        if not _in(m, ("evaluation",)) or m in COMPOSITION:
            continue
        ok = allowed + (("bolt.commands",) if _in(m, ("evaluation.commands",)) else ())
        bad = sorted(t for t in ts if _in(t, ("bolt",)) and t != "bolt" and not _in(t, ok))
        if bad:
            wrong[m] = bad
    assert wrong == {}


def _imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


def test_the_installed_packages_never_import_the_fitting_code():
    """``fitting/`` (the assessor's fits) lives in the repository only: an installed toolkit that
    imported it would fail on a user's machine."""
    leaks = {str(p.relative_to(REPO)): sorted(n for n in _imports_of(p) if n == "fitting" or n.startswith("fitting."))
             for pkg in PACKAGES for p in (REPO / pkg).rglob("*.py")}
    assert {p: ns for p, ns in leaks.items() if ns} == {}
    # the rule can fail: the benchmarks do import it
    assert any(n == "fitting" or n.startswith("fitting.") for p in (REPO / "scripts").rglob("*.py")
               for n in _imports_of(p))
