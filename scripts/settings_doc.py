#!/usr/bin/env python3
"""Write docs/settings.md from the settings' declarations (``bolt.pipeline.settings_table.markdown``).

    python scripts/settings_doc.py           # write it
    python scripts/settings_doc.py --check   # exit 1 when it is out of date
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DOC = REPO / "docs" / "settings.md"


def main(argv=None) -> int:
    from bolt.pipeline.settings_table import markdown

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--check", action="store_true", help="only say whether docs/settings.md is up to date")
    args = p.parse_args(argv)
    text = markdown()
    if args.check:
        same = DOC.is_file() and DOC.read_text(encoding="utf-8") == text
        print("docs/settings.md is up to date" if same else "docs/settings.md is out of date: run scripts/settings_doc.py")
        return 0 if same else 1
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
