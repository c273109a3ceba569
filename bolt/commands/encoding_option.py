"""The one ``--encoding-errors`` option of every command that reads thread files or an index,
and the one way those commands tell the user what the reader repaired or read once."""
from __future__ import annotations

import argparse
import sys

from indexing.encoding import OPTION, POLICIES


def add_encoding_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--encoding-errors strict|replace|cp1252`` (left out: strict, or what an index or
    judgments file records)."""
    parser.add_argument(OPTION, dest="encoding_errors", choices=POLICIES, default=None,
                        help="how bytes that are not UTF-8 are read (left out: strict, or what the index or judgments "
                        "record); see docs/cli.md")


def report_read(corpus, *, quiet: bool = False) -> None:
    """Print an ``open_corpus`` result's policy note (not when ``quiet``) and its reader's warnings
    (threads repaired, identical repeats read once) on standard error."""
    if corpus.note and not quiet:
        print(f"note: {corpus.note}", file=sys.stderr)
    for line in corpus.bad.warnings():
        print(f"warning: {line}", file=sys.stderr)
