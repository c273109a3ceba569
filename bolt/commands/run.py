"""``bolt run``: run a distillation system over a topic file and write a submission (SPEC §4, §8)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bolt.commands.encoding_option import add_encoding_option
from bolt.commands.output_options import add_output_options, chatty, show_progress
from bolt.commands.settings_option import add_settings_option
from indexing.exit_codes import SUCCESS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", required=True, metavar="DIR", help="index folder built by 'bolt index'")
    parser.add_argument("--topics", required=True, metavar="FILE",
                        help="topic file, full or query-only (only number and query are read)")
    parser.add_argument("--out", required=True, metavar="RUN.xml", help="submission file to write")
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
    add_output_options(parser)
    add_encoding_option(parser)


def config_from_args(args: argparse.Namespace):
    from dataclasses import replace

    from bolt.pipeline.config import parse_config
    from indexing.errors import ToolkitError

    try:
        cfg = parse_config(args.system)
        changes = {}
        if args.model:
            changes["model"] = args.model
        if args.no_translate:
            changes["translate"] = False
        if args.translator:
            changes["translator"] = args.translator
        return replace(cfg, **changes)
    except (ValueError, TypeError) as exc:
        raise ToolkitError(f"bad --system {args.system!r}: {exc}",
                           hint="use main, lead or bm25-sentences, optionally with (key=value, ...)") from exc


def run(args: argparse.Namespace) -> int:
    from bolt.pipeline.run import make_distiller, run_topics
    from bolt.formats.submission import write_run
    from bolt.formats.topics import read_topics
    from indexing.encoding import STRICT, resolve_policy
    from indexing.errors import ToolkitError
    from indexing.manifest import recorded_policy

    cfg = config_from_args(args)
    if not Path(args.index).is_dir():
        raise ToolkitError(f"index folder {args.index} does not exist", file=args.index,
                           hint="build one with 'bolt index PATH... --out DIR'")
    policy, note = resolve_policy(args.encoding_errors, [(recorded_policy(args.index), args.index)])
    if note and chatty(args):
        print(f"note: {note}", file=sys.stderr)
    topics = read_topics(args.topics)
    distiller = make_distiller(args.index, cfg)
    results = run_topics(topics, distiller, progress=show_progress(args))
    run_id = args.run_id or Path(args.out).name.split(".")[0]
    settings = f"{cfg!r} index={Path(args.index).resolve().name} topics={len(topics)}"
    if policy != STRICT:
        settings += f" encoding_errors={policy}"
    if cfg.name == "main":
        from indexing.models.embedding import get_embedder

        settings += f" model={get_embedder(cfg.model).model_id}"
    write_run(run_id, results, args.out, system=cfg.name, settings=settings)
    n = sum(len(r.bullets) for r in results)
    if chatty(args):
        print(f"wrote {args.out}: {len(results)} topics, {n} bullets ({repr(cfg)})", file=sys.stderr)
    return SUCCESS
