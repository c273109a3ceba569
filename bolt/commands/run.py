"""``bolt run``: run a distillation system over a topic file and write a submission (SPEC §4, §8)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bolt.commands.encoding_option import add_encoding_option
from bolt.commands.output_options import add_output_options, chatty, show_progress
from bolt.commands.settings_option import add_settings_option
from indexing.exit_codes import SUCCESS, USAGE


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", metavar="DIR", help="index folder built by 'bolt index' (required to run)")
    parser.add_argument("--topics", metavar="FILE",
                        help="topic file, full or query-only (only number and query are read; required to run)")
    parser.add_argument("--out", metavar="RUN.xml", help="submission file to write (required to run)")
    parser.add_argument("--run-id", metavar="ID", help="run name (default: the --out file's stem)")
    parser.add_argument("--system", default="main", metavar="NAME",
                        help="main | lead | bm25-sentences, or a spec such as 'main(abs_floor=0.3)' (see --list-settings)")
    add_settings_option(parser)
    parser.add_argument("--model", metavar="NAME",
                        help="sentence-transformers model name or local folder (default: bundled all-MiniLM-L6-v2)")
    parser.add_argument("--no-translate", action="store_true",
                        help="send the English query unchanged to the Arabic and Chinese indexes")
    parser.add_argument("--translator", metavar="MODULE:FUNC",
                        help="optional function (text, lang) -> English gloss for arz/cmn bullets")
    parser.add_argument("--print-config", action="store_true",
                        help="print the signature a run of --system would record (settings, models and "
                        "their weights' hashes, lexicons, commit, version) and every setting; run nothing")
    add_output_options(parser)
    add_encoding_option(parser)


def _options(args: argparse.Namespace) -> dict:
    """The options beside ``--system`` as :func:`bolt.api.config` takes them."""
    return {"model": args.model, "translate": not args.no_translate, "translator": args.translator}


def config_from_args(args: argparse.Namespace):
    """The system's settings from ``--system`` and the options beside it."""
    from bolt import api

    return api.config(args.system, **_options(args))


def print_config(args: argparse.Namespace) -> int:
    """The signature line, then one ``key = value`` line per setting (defaults included)."""
    from bolt import api

    cfg = config_from_args(args)
    print(f"signature: {api.signature(cfg)}")
    for key, value in cfg.settings().items():
        print(f"{key} = {value!r}")
    return SUCCESS


def run(args: argparse.Namespace) -> int:
    from bolt import api

    if args.print_config:
        return print_config(args)
    missing = [f"--{n}" for n in ("index", "topics", "out") if not getattr(args, n)]
    if missing:
        print(f"bolt run: error: the following arguments are required: {', '.join(missing)} "
              "(or --print-config to run nothing)", file=sys.stderr)
        return USAGE
    cfg = config_from_args(args)
    note = (lambda text: print(f"note: {text}", file=sys.stderr)) if chatty(args) else None
    result = api.run(args.index, args.topics, cfg, run_id=args.run_id or Path(args.out).name.split(".")[0],
                     encoding_errors=args.encoding_errors, progress=show_progress(args), on_note=note)
    api.write_run(result, args.out)
    n = sum(len(r.bullets) for r in result)
    if chatty(args):
        print(f"wrote {args.out}: {len(result.results)} topics, {n} bullets ({cfg!r})", file=sys.stderr)
    return SUCCESS
