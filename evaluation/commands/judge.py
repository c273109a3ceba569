"""``bolt judge``: a person judges the runs' bullets in the browser; every decision saved at once.

Serves a local page (127.0.0.1 only; the printed URL carries a per-session token) over the pooled,
de-duplicated bullets of all runs, and writes SPEC §5 judgments to ``--out`` with
``assessor: human:NAME``, so ``bolt score`` and ``bolt agree`` read them as they read the machine's.
Facets the person adds go to ``OUT.topics.xml`` beside the judgments. See ``docs/judging.md``.
"""
from __future__ import annotations

import argparse
import getpass
import os
import sys

from indexing.exit_codes import SUCCESS


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from evaluation.commands.assess import add_judging_inputs

    add_judging_inputs(parser, "judgments file to write (read back first when it exists: the session resumes)")
    parser.add_argument("--assessor", default=None, metavar="NAME",
                        help="your name, written as assessor 'human:NAME' (default: the assessor of an existing "
                             "--out, else $BOLT_ASSESSOR or your login name)")
    parser.add_argument("--prefill", default=None, metavar="AUTO.jsonl",
                        help="the automatic assessor's judgments, shown (marked) until you confirm them")
    parser.add_argument("--reuse", nargs="+", default=[], metavar="OLD.jsonl",
                        help="earlier human judgments: bullets judged there are carried over and not shown again")
    parser.add_argument("--adjudicate", nargs=2, default=None, metavar=("A.jsonl", "B.jsonl"),
                        help="two assessors' judgments of these runs: show only the bullets they disagree on and "
                             "write the adjudicated judgments to --out (the bullets they agree on carried over)")
    parser.add_argument("--sample", type=int, default=None, metavar="N",
                        help="judge only a simple random sample of N distinct bullets (over all topics), to "
                             "correct the machine's scores with: bolt score --correct-with OUT")
    parser.add_argument("--sample-seed", type=int, default=0, metavar="S",
                        help="seed of the --sample draw (the same seed draws the same bullets)")
    parser.add_argument("--port", type=int, default=0, metavar="N", help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--no-browser", action="store_true", help="print the URL only; do not open a browser")


def _assessor_name(value: str | None, owner: str | None = None) -> str:
    """--assessor, else the existing file's assessor (``owner``), else $BOLT_ASSESSOR or the login name."""
    from indexing.errors import ToolkitError

    if value is None and owner is not None:
        return owner
    name = value if value is not None else (os.environ.get("BOLT_ASSESSOR") or _login())
    name = name.strip()
    if not name or len(name) > 100 or any(c.isspace() and c != " " for c in name):
        raise ToolkitError(f"assessor name {name!r} is not usable", hint="give --assessor NAME (one line, 1-100 characters)")
    return name


def _login() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in containers without a passwd entry
        return "anonymous"


def build_session(args: argparse.Namespace):
    """Read everything the page needs (fails before the server starts, with file and fix)."""
    from evaluation.api import read_runs
    from evaluation.commands.assess import open_judged_corpus
    from evaluation.judgments import read_judgments
    import functools

    from evaluation.judgments.reuse import read_reusable, same_file
    from evaluation.metrics.facts import post_id_at
    from evaluation.workbench.session import JudgingSession, file_assessor, hold_out_file
    from indexing.errors import ToolkitError

    sample = getattr(args, "sample", None)
    if sample is not None and sample < 1:
        raise ToolkitError(f"--sample {sample}: a sample needs at least one bullet", hint="give --sample N with N >= 1")
    adjudicate = getattr(args, "adjudicate", None) or []
    for path in [*args.reuse, *([args.prefill] if args.prefill else []), *adjudicate]:
        if same_file(path, args.out):
            raise ToolkitError("--out is also given as --reuse/--prefill/--adjudicate", file=str(path),
                               hint="the session resumes from --out by itself; give earlier files only")
    runs = read_runs(args.runs)
    # a resumed session, and the machine's judgments shown, were made from text read one way: read it so again
    corpus = open_judged_corpus(args, [p for p in (args.out, args.prefill) if p and os.path.isfile(p)])
    lock = hold_out_file(args.out)  # held by the session until the process ends
    prefill = read_judgments(args.prefill) if args.prefill else ()
    reuse = read_reusable(args.reuse, runs, functools.partial(post_id_at, corpus)) if args.reuse else None
    owner = file_assessor(args.out)
    assessor = _assessor_name(args.assessor, owner)
    if args.assessor is None and owner is not None:
        print(f"resuming as {owner}, the assessor of {args.out} (give your own --out to judge as someone else)",
              file=sys.stderr)
    if adjudicate:
        from evaluation.workbench.adjudicate import read_assessors

        adjudicate = read_assessors(adjudicate)
    session = JudgingSession(topics_path=args.topics, runs=runs, corpus=corpus, out=args.out,
                             assessor=assessor, prefill=prefill, reuse=reuse, adjudicate=adjudicate,
                             sample=None if sample is None else (sample, getattr(args, "sample_seed", 0)))
    session.lock_file = lock
    if reuse is not None:
        shown = session.updated_topics if session.updated_topics.exists() else args.topics
        warning = reuse.unknown_facets_warning(session.topics, shown)
        if warning:
            print(f"warning: --reuse: {warning}", file=sys.stderr)
    return session


def run(args: argparse.Namespace) -> int:
    import signal
    import socket
    import webbrowser

    import uvicorn

    from evaluation.workbench.server import create_app, session_token
    from indexing.errors import ToolkitError

    if not 0 <= args.port <= 65535:
        raise ToolkitError(f"--port {args.port} is not a port", hint="give 1-65535, or 0 for a free one")
    session = build_session(args)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", args.port))
    except OSError as exc:
        raise ToolkitError(f"cannot listen on 127.0.0.1:{args.port} ({exc.strerror})",
                           hint="choose another --port, or 0 for a free one") from None
    port = sock.getsockname()[1]
    sock.listen(128)  # connections queue from now on, so the printed URL answers as soon as it is shown
    token = session_token(args.out)  # the same --out keeps its token: an open tab survives a restart
    session.save()  # carried-over decisions are on disk before the first click
    app = create_app(session, token=token, port=port)
    url = f"http://127.0.0.1:{port}/?token={token}"
    overview = session.overview()
    total = sum(t["total"] for t in overview["topics"])
    done = sum(t["done"] for t in overview["topics"])
    what = ("adjudicating " + " and ".join(overview["adjudicating"]) + ": " if session.adjudicating else "judging ")
    source = "agreed on" if session.adjudicating else "carried over from --reuse"
    print(f"{what}{total} bullets of {len(session.runs)} runs over {len(overview['topics'])} topics "
          f"({done} done, {session.carried} {source}) as {session.assessor}", file=sys.stderr)
    if getattr(args, "sample", None) is not None:
        print(f"a random sample: {total} of the {session.pooled} distinct bullets (seed {args.sample_seed}); "
              f"correct the machine's scores with 'bolt score ... --correct-with {session.out}'", file=sys.stderr)
    print(f"judgments -> {session.out}; added facets -> {session.updated_topics}", file=sys.stderr)
    if session.stale:
        print(f"warning: {session.stale} judgments in {session.out} are about bullets the runs no longer hold "
              f"at that position (the runs were made again); moved to {session.stale_path}", file=sys.stderr)
    print(f"open {url}", flush=True)
    print("press Ctrl-C to stop (every decision is already saved)", file=sys.stderr, flush=True)
    if not args.no_browser and (os.environ.get("DISPLAY") or sys.platform == "darwin"):
        webbrowser.open(url)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    previous = signal.signal(signal.SIGTERM, _stop)  # `kill PID` stops as Ctrl-C does, summary printed
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, _Stopped):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"stopped; {session.saves} saves, judgments in {session.out}", file=sys.stderr, flush=True)
    return SUCCESS


class _Stopped(Exception):
    """SIGTERM arrived (uvicorn shuts down on it, then passes it on to the handler it found)."""


def _stop(signum, frame) -> None:
    raise _Stopped()
