"""The help formatter of every ``bolt`` command: states a default once, and only when it says something.

argparse's ``ArgumentDefaultsHelpFormatter`` appends ``(default: X)`` to every option, so a flag
reads ``(default: False)``, an option without a default ``(default: None)``, and an option whose
help already names its default says it twice, and a repeatable option ``(default: [])``.
"""
from __future__ import annotations

import argparse


class DefaultsHelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``(default: X)`` only for options that take a value, have a default, and do not state it already."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if ("default" in text or action.default in (None, False, argparse.SUPPRESS) or action.default == []
                or action.nargs == 0 or not action.option_strings):
            return text
        return super()._get_help_string(action)


class RawDescriptionDefaultsHelpFormatter(DefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """:class:`DefaultsHelpFormatter` that keeps a description's or epilog's own line breaks."""
