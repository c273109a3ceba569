"""The systems' settings as a table, read from their declarations in :mod:`bolt.pipeline.config`:
docs/settings.md (:func:`markdown`, written by ``scripts/settings_doc.py``) and the listing of
``bolt run --list-settings`` (:func:`listing`). One source, so neither can drift from the code.
"""
from __future__ import annotations

from typing import NamedTuple

from bolt.pipeline.config import SECTIONS, settings_fields


class SettingRow(NamedTuple):
    """One setting as listed: its section, name, type, default (as a spec writes it), values, meaning."""

    section: str
    name: str
    type: str
    default: str
    values: str
    meaning: str


def rows() -> list[SettingRow]:
    """Every setting, by section (in :data:`SECTIONS` order), then in declaration order."""
    out = []
    for f in settings_fields():
        s = f.metadata["setting"]
        out.append(SettingRow(s.section, f.name, str(f.type), repr(f.default), s.values(str(f.type)), s.meaning))
    return sorted(out, key=lambda r: SECTIONS.index(r.section))


def listing() -> str:
    """Plain text, one setting a line under its section: ``name = default  (values)  meaning``."""
    lines = ["Settings of a --system spec, e.g. --system \"main(k_eng=50, abs_floor=0.3)\" (defaults shown):"]
    section = None
    table = rows()
    width = max(len(f"{r.name} = {r.default}") for r in table)
    for r in table:
        if r.section != section:
            section = r.section
            lines += ["", f"{section}:"]
        lines.append(f"  {f'{r.name} = {r.default}':<{width}}  {r.meaning} [{r.values}]")
    return "\n".join(lines) + "\n"


def markdown() -> str:
    """The whole of docs/settings.md."""
    out = ["# Settings", "",
           "Every setting of a system, by section, as `bolt run --system` takes them: "
           "`--system \"main(k_eng=50, abs_floor=0.3)\"` (a run file names its system the same way, "
           "with only the settings that differ from the defaults). `lead` and `bm25-sentences` read "
           "`k_eng`/`k_arz`/`k_cmn`, `translate` and `translator`; `lead` also `lead_posts`, "
           "`bm25-sentences` `min_words`, `max_words` and `max_bullets`; `main` reads all but `lead_posts`. "
           "`bolt run --list-settings` prints this list.", "",
           "This page is written from the declarations in `bolt/pipeline/config.py` by "
           "`python scripts/settings_doc.py`; a test fails when it is out of date.", ""]
    section = None
    for r in rows():
        if r.section != section:
            section = r.section
            out += [f"## {section.capitalize()}", "", "| setting | type | default | values | meaning |",
                    "|---|---|---|---|---|"]
        out.append(f"| `{r.name}` | {r.type} | `{r.default}` | {r.values} | {r.meaning.replace('|', '/')} |")
    return "\n".join(_with_breaks(out)) + "\n"


def _with_breaks(lines: list[str]) -> list[str]:
    """A blank line before each section heading after a table."""
    out: list[str] = []
    for line in lines:
        if line.startswith("## ") and out and out[-1] != "":
            out.append("")
        out.append(line)
    return out

