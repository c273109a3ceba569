"""What the command line says about a mistyped flag or value: "did you mean", as pip and the topic
validator do. argparse alone reports a missing required option before an unknown one, so
``--judgements`` read "the following arguments are required: --judgments" and hid its cause."""
from __future__ import annotations

import argparse
import re
import sys
from typing import Sequence

from indexing.suggest import closest, did_you_mean

_CHOICE = re.compile(r"argument (?P<arg>\S+): invalid choice: '(?P<value>[^']*)' \(choose from (?P<choices>.*)\)")


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose usage errors name an unknown option first, with a "did you mean",
    and suggest the closest choice for a misspelled value (``--system bm25``)."""

    def parse_known_args(self, args: Sequence[str] | None = None, namespace=None):
        self._given = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(self._given, namespace)

    def error(self, message: str):  # type: ignore[override]
        unknown = self.unknown_options(getattr(self, "_given", []))
        if unknown:
            message = "; ".join(f"unrecognized option '{u}'{self._option_hint(u)}" for u in unknown)
        else:
            m = _CHOICE.search(message)
            if m:
                choices = re.findall(r"'([^']*)'", m.group("choices"))
                message += did_you_mean(m.group("value"), choices)
        super().error(message)

    def _long_options(self) -> list[str]:
        return [o for o in self._option_string_actions if o.startswith("--")]

    def _option_hint(self, option: str) -> str:
        if len(option) == 2:  # "-o": the long options that letter starts
            starts = list(dict.fromkeys(next(o for o in a.option_strings if o.startswith("--"))
                                        for o, a in self._option_string_actions.items()
                                        if o.startswith("--") and o[2:3] == option[1]))
            return f" (did you mean '{starts[0]}'?)" if len(starts) == 1 else (
                f" (did you mean one of {', '.join(repr(s) for s in starts)}?)" if starts else "")
        names = {o[2:]: o for o in self._long_options()}
        match = closest(option.lstrip("-"), names)
        return f" (did you mean '{names[match]}'?)" if match else ""

    def unknown_options(self, given: Sequence[str]) -> list[str]:
        """Options in ``given`` this parser does not know (nor abbreviates); none for a parser with
        subcommands, whose options belong to them."""
        if any(isinstance(a, argparse._SubParsersAction) for a in self._actions):
            return []
        out = []
        for token in given:
            if token == "--":
                break
            if not token.startswith("-") or token == "-" or re.fullmatch(r"-[0-9.]+", token):
                continue
            name = token.split("=", 1)[0]
            if name in self._option_string_actions:
                continue
            if name.startswith("--") and any(o.startswith(name) for o in self._long_options()):
                continue  # an abbreviation argparse accepts
            if not name.startswith("--") and len(name) > 2 and name[:2] in self._option_string_actions:
                continue  # "-mF_GD": a short option with its value attached
            out.append(name)
        return out
