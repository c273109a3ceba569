"""The ``bolt`` command line: a table of subcommands, each imported only when it runs.

Every command module in ``bolt.commands`` defines ``add_arguments(parser)`` and ``run(args) -> int``
and keeps heavy imports (pyserini, torch, the model) inside ``run``, so ``bolt --help`` and
``bolt <cmd> --help`` stay fast and start neither the JVM nor torch.
"""
from __future__ import annotations

import argparse
import difflib
import importlib
import signal
import sys
from typing import NamedTuple, Sequence

from bolt import __version__
from bolt.cli_parser import CommandParser
from bolt.commands.output_options import accept_output_alias
from indexing.exit_codes import INVALID, SUCCESS, USAGE
from indexing.help_format import DefaultsHelpFormatter


class Command(NamedTuple):
    module: str
    summary: str


COMMANDS: dict[str, Command] = {
    "doctor": Command("bolt.commands.doctor", "check Python, Java, Lucene and the embedding model"),
    "corpus": Command("bolt.commands.corpus", "inspect a collection: stats, or the post at an offset"),
    "index": Command("bolt.commands.index", "build (or --check) a Lucene or rank-bm25 index"),
    "search": Command("bolt.commands.search", "search an index"),
    "run": Command("bolt.commands.run", "run a distillation system over topics; write a submission"),
    "validate": Command("bolt.commands.validate", "validate submissions or a topic file"),
    "assess": Command("evaluation.commands.assess", "judge runs automatically against the topics' facets"),
    "score": Command("evaluation.commands.score", "score runs from judgments (P_n, R_n, F_c, F_GD, ERR, ...)"),
    "compare": Command("evaluation.commands.compare", "rank runs, Kendall's tau, significance, stability"),
    "agree": Command("evaluation.commands.agree", "agreement of two judgment files, or the assessor vs pair labels"),
    "demo": Command("evaluation.commands.demo", "the whole loop on the bundled sample, with an HTML report"),
    "convert": Command("evaluation.commands.convert", "import/export other evaluations' files (AQUAINT, TREC QA, RAG)"),
    "judge": Command("evaluation.commands.judge", "judge runs by hand in the browser (local page, autosaved)"),
}


def _parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = argparse.ArgumentParser(
        prog="bolt",
        description="BOLT-style distillation and its evaluation. Run 'bolt <command> --help' for details.",
    )
    parser.add_argument("--version", action="version", version=f"bolt {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="<command>")
    for name, cmd in COMMANDS.items():
        sub.add_parser(name, help=cmd.summary, add_help=False)
    return parser, sub


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bolt`` console script."""
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `bolt ... | head` exits quietly
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, _ = _parser()
    if not argv or argv[0] in ("-h", "--help", "--version"):
        parser.parse_args(argv or ["--help"])
        return SUCCESS
    name = argv[0]
    if name not in COMMANDS:
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        hint = f" (maybe you meant '{close[0]}')" if close else ""
        print(f"error: unknown command '{name}'{hint}; run 'bolt --help' for the list", file=sys.stderr)
        return USAGE
    module = importlib.import_module(COMMANDS[name].module)
    cmd_parser = CommandParser(prog=f"bolt {name}", description=COMMANDS[name].summary,
                               formatter_class=DefaultsHelpFormatter)
    module.add_arguments(cmd_parser)
    accept_output_alias(cmd_parser)
    try:
        args = cmd_parser.parse_args(argv[1:])
    except SystemExit as exc:  # argparse exits 2 on usage errors and 0 on --help
        return int(exc.code or 0)
    return run_command(module, args)


def run_command(module, args: argparse.Namespace) -> int:
    """Run a command; a ToolkitError becomes one ``error:`` line and exit status 1."""
    from indexing.errors import ToolkitError

    try:
        return int(module.run(args) or 0)
    except ToolkitError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return INVALID
    except KeyboardInterrupt:
        print("error: interrupted; partial outputs were not kept", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
