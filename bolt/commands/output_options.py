"""The two switches every long command shares, so they mean the same everywhere:

- ``--no-progress``: no progress bar or status spinner on standard error (notes still print);
- ``--quiet``: nothing on standard error but warnings and errors (no progress, no notes, no
  step lines). Results on standard output are never affected.

and ``--output`` as a second spelling of every ``--out`` (pyserini's and many tools' name for it).
"""
from __future__ import annotations

import argparse


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--no-progress`` and ``--quiet`` with their one meaning."""
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar or status spinner on standard error")
    parser.add_argument("--quiet", action="store_true",
                        help="nothing on standard error but warnings and errors (implies --no-progress)")


def show_progress(args: argparse.Namespace) -> bool:
    """Whether a progress bar or spinner may be drawn."""
    return not (getattr(args, "no_progress", False) or getattr(args, "quiet", False))


def chatty(args: argparse.Namespace) -> bool:
    """Whether notes and step lines may be printed on standard error."""
    return not getattr(args, "quiet", False)


OUT, OUTPUT = "--out", "--output"


def accept_output_alias(parser: argparse.ArgumentParser) -> None:
    """Let ``--output`` stand for ``--out`` in ``parser`` and its subcommands' parsers, wherever
    ``--out`` exists and ``--output`` is not taken (one option, two spellings, one help line)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                accept_output_alias(sub)
        elif OUT in action.option_strings and OUTPUT not in parser._option_string_actions:
            action.option_strings.append(OUTPUT)
            parser._option_string_actions[OUTPUT] = action
