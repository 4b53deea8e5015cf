"""Command line of the reference server: ``qaconform serve`` and ``python -m qaconform.reference``."""

from __future__ import annotations

import argparse
import sys

from . import faults, variants
from .seed import parse_size


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port; 0 picks a free one (default 8080)")
    parser.add_argument("--db", default=":memory:", help="SQLite file, reused if already seeded (default :memory:)")
    parser.add_argument("--size", default="small", help="'small' (a few dozen nodes) or a node count up to 1000000")
    parser.add_argument("--page-size", type=int, default=15, help="default pageSize of every list (default 15)")
    parser.add_argument("--profile-out", default=None,
                        help="write a target profile describing this server here (its passwords: --print-env)")
    parser.add_argument("--print-env", action="store_true",
                        help="print the export line that sets the demo accounts' passwords the profile names "
                             "(QACONFORM_<ROLE>_PASSWORD, the names qaconform init reads) and exit: "
                             "eval \"$(qaconform serve --print-env)\"")
    # ReferenceServer's throwaway profile, in a private folder removed when it stops: the passwords themselves
    parser.add_argument("--inline-passwords", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="NAME",
        help="switch on a planted bug (repeatable); see --list-faults",
    )
    parser.add_argument("--list-faults", action="store_true", help="print the known faults and exit")
    parser.add_argument("--list-left-out", action="store_true",
                        help="print the planted faults kept wired but out of the registry, each with its reason, and "
                             "exit (a new fault must not repeat one of these paths either)")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME",
        help="switch on an allowed variant: another behaviour the description leaves open (repeatable; 'all' for "
        "every variant that composes); see --list-variants",
    )
    parser.add_argument(
        "--variants",
        dest="variant",
        action="append",
        choices=[variants.ALL],
        help="--variants all: every variant at once",
    )
    parser.add_argument("--list-variants", action="store_true", help="print the allowed variants and exit")
    parser.add_argument("--exit-with-parent", type=int, default=None, metavar="PID", help=argparse.SUPPRESS)
    # bench/bench_capacity.py: the same server made slower (each request burns this much more CPU)
    parser.add_argument("--work-us", type=float, default=0.0, metavar="US", help=argparse.SUPPRESS)


def exit_with_parent(pid: int, every_s: float = 1.0) -> None:
    """End this server when process ``pid`` (the one that started it) is gone: an embedded server must not outlive a
    kit command or a test session that was killed before it could stop it (a hard timeout, SIGKILL, a CI runner
    cancelling the job). Checked once a second on a daemon thread; the parent of an orphan changes. A server forked
    from the self-test's fork server (``ReferenceServer(launch=...)``) has a waiter of that server as its parent, not
    ``pid``: it ends when its parent changes or ``pid`` is gone."""
    import os
    import threading
    import time

    parent = os.getppid()

    def alive() -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:  # it exists (another user's, or not ours to signal)
            return True
        return True

    def watch() -> None:
        while os.getppid() == parent and (parent == pid or alive()):
            time.sleep(every_s)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def run_serve(args: argparse.Namespace) -> int:
    if args.list_faults:
        print(faults.describe())
        return 0
    if args.list_left_out:
        from .left_out import describe

        print(describe(frozenset(faults.FAULTS)))
        return 0
    if args.list_variants:
        print(variants.describe())
        return 0
    if args.print_env:
        from .profile_out import export_line

        print(export_line())
        return 0
    try:
        parse_size(args.size)
        faults.activate(args.fault)
        variants.activate(args.variant)
    except ValueError as exc:
        print(f"qaconform serve: {exc}", file=sys.stderr)
        return 2
    if args.page_size < 1:
        print(f"qaconform serve: --page-size must be 1 or more, not {args.page_size}", file=sys.stderr)
        return 2
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}: the demo accounts' passwords are public (qaconform serve "
              "--print-env)", file=sys.stderr)
    from .server import serve

    if args.exit_with_parent is not None:
        exit_with_parent(args.exit_with_parent)
    if args.work_us:
        from . import dispatch

        dispatch.EXTRA_WORK_S = args.work_us / 1e6
    try:
        return serve(
            args.host, args.port, args.db, args.size, args.page_size, args.profile_out, args.fault,
            variant_names=args.variant, inline_passwords=args.inline_passwords,
        )
    except OSError as exc:
        print(
            f"qaconform serve: cannot listen on {args.host}:{args.port} ({exc.strerror}); pick another --port"
            " or 0 for a free one",
            file=sys.stderr,
        )
        return 3
    except KeyboardInterrupt:
        return 0


def build_parser() -> argparse.ArgumentParser:
    """``python -m qaconform.reference``'s options; no abbreviations, as qaconform's own (a typo is an error, not a
    guess: ``--por 1`` must not start a server on port 1)."""
    parser = argparse.ArgumentParser(prog="python -m qaconform.reference", description="qaconform reference server",
                                     allow_abbrev=False)
    add_serve_arguments(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    return run_serve(build_parser().parse_args(argv))
