"""The `qaconform` command. Each subcommand lives in its own module with ``add_arguments`` and ``main``.

The table below is the one place that names them; a module is imported only when its command runs, so that a
broken or heavy dependency of one command (locust, say) never slows or breaks another.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

from qaconform import __version__, exitcodes

COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("qaconform.runner", "run the suites against a target (or the reference server) and write the reports"),
    "serve": ("qaconform.reference.cli", "start the embedded reference server"),
    "load": ("qaconform.load.cli", "run a Locust load profile against a target"),
    "capacity": ("qaconform.load.capacity", "raise load in steps until a threshold breaks"),
    "selftest": ("qaconform.selftest", "prove the suites catch every planted fault of the reference server"),
    "diff": ("qaconform.report.diff", "compare two runs: regressions, recoveries, changed observations"),
    "report": ("qaconform.report.cli", "rebuild a run's reports from its results file"),
    "profile-schema": ("qaconform.profile_schema", "print the JSON Schema of a target profile (for editors)"),
}


def _entry_points(module: object) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[..., int]]:
    """A command module offers ``add_arguments`` + ``main(args)``; the reference server names them for `serve`
    (its ``main`` takes an argv list, for ``python -m qaconform.reference``)."""
    if hasattr(module, "add_serve_arguments"):
        return module.add_serve_arguments, module.run_serve  # type: ignore[attr-defined]
    return module.add_arguments, module.main  # type: ignore[attr-defined]


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, str]]:
    parser = argparse.ArgumentParser(prog="qaconform", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"qaconform {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    unavailable: dict[str, str] = {}
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            unavailable[name] = f"{module_name}: {exc}"
            continue
        add, _run = _entry_points(module)
        add(p)
    return parser, unavailable


def main(argv: Sequence[str] | None = None) -> int:
    parser, unavailable = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return exitcodes.USAGE
    if args.command in unavailable:
        print(f"qaconform {args.command}: not available in this installation ({unavailable[args.command]})",
              file=sys.stderr)
        return exitcodes.KIT_ERROR
    _add, run = _entry_points(importlib.import_module(COMMANDS[args.command][0]))
    try:
        return int(run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into `head` and the like: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return exitcodes.OK


if __name__ == "__main__":
    sys.exit(main())
