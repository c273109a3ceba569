"""``bolt run --list-settings``: every setting a ``--system`` spec takes, by section, then exit.

Read from the settings' declarations (:func:`bolt.pipeline.settings_table.listing`), so the list
is never out of date; it is a flag rather than an epilog so that ``--help`` stays short.
"""
from __future__ import annotations

import argparse


class ListSettings(argparse.Action):
    """Print the settings and exit, as ``--version`` does (before the required options are checked)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from bolt.pipeline.settings_table import listing

        print(listing(), end="")
        parser.exit()


def add_settings_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--list-settings", action=ListSettings, nargs=0,
                        help="list every setting a --system spec takes (by section, with defaults) and exit")
