#!/usr/bin/env python3
"""Benchmarks with performance targets: ``python scripts/bench.py NAME [options]``.

Each benchmark lives in ``scripts/benchmarks/NAME.py`` with ``add_arguments(parser)`` and
``run(args) -> dict``; the result is printed as JSON (and as a table) so figures can be quoted.
Targets live here, never in timed tests.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "benchmarks"
REPO = HERE.parents[1]
if str(REPO) not in sys.path:  # the benchmarks import this checkout and its fitting/ folder (not installed)
    sys.path.insert(0, str(REPO))


def main() -> int:
    names = sorted(p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_"))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="name", required=True)
    modules = {}
    for name in names:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", HERE / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        modules[name] = mod
        p = sub.add_parser(name, help=(mod.__doc__ or "").strip().splitlines()[0] if mod.__doc__ else None)
        p.add_argument("--json-out", help="also write the result JSON to this file")
        mod.add_arguments(p)
    args = parser.parse_args()
    result = modules[args.name].run(args)
    text = json.dumps(result, indent=2, ensure_ascii=False)
    print(text)
    if args.json_out:
        Path(args.json_out).write_text(text + "\n", encoding="utf-8")
    return 0 if not result.get("failed_targets") else 1


if __name__ == "__main__":
    sys.exit(main())
