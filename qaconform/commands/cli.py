"""The `qaconform` command. Each subcommand lives in its own module with ``add_arguments`` and ``main``.

The table below is the one place that names them, with what each does and examples, so that ``qaconform --help``
and ``qaconform COMMAND --help`` speak to the person running the kit, not to its developers. A module is imported
only when its command runs or its help is built, so that a broken or heavy dependency of one command (locust, say)
never slows or breaks another. Mistyped commands, options and choices get a "did you mean" (argparse's own
messages, with the closest names added). A command stops by raising a ``qaconform.errors.KitError``; ``main`` is the
one place that says it and exits with its code (:func:`stopped`).
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, Protocol, cast

from qaconform import __version__, exitcodes
from qaconform.commands import help_groups
from qaconform.errors import KitError


@dataclass(frozen=True)
class Command:
    module: str
    summary: str
    examples: tuple[tuple[str, str], ...] = ()


COMMANDS: dict[str, Command] = {
    "init": Command(
        "qaconform.commands.init", "write a first profile for a server: what it shows, TODOs for the rest", (
        ("qaconform init my-site.toml --base-url https://qa.example.com --admin qa-admin --moderator qa-mod "
         "--member qa-member --novice qa-novice", "passwords from QACONFORM_ADMIN_PASSWORD ... (--password-env)"),
        ("qaconform init --example my-site.toml", "the commented example profile, every key"),
    )),
    "run": Command(
        "qaconform.commands.run", "check a server against the interface, rule by rule, and write the reports", (
        ("qaconform run", "try it: checks the embedded reference server, nothing to set up"),
        ("qaconform run --profile my-site.toml", "check your server (`qaconform init` writes a first profile)"),
        ("qaconform run --profile my-site.toml --only comments COMMENT-4", "only an area and a rule"),
        ("qaconform run --profile my-site.toml --read-only", "only tests that write nothing"),
        ("qaconform run --profile p.toml --report-dir out/qa --junitxml out/junit.xml", "CI: files at fixed paths"),
        ("qaconform run -- -x -k comments -n 2", "pytest arguments after --: stop at the first failure, filter "
                                                 "by name, 2 processes"),
    )),
    "cleanup": Command(
        "qaconform.commands.cleanup", "remove what an earlier run created, with the site's delete action", (
        ("qaconform cleanup reports/latest --profile my-site.toml", "delete the answers and comments of the newest "
                                                                    "run (the profile's [cleanup])"),
        ("qaconform run --profile my-site.toml --no-cleanup", "keep them at the end of a run, to debug"),
    )),
    "doctor": Command(
        "qaconform.commands.doctor", "check a profile against its server before any test (reads only)", (
        ("qaconform doctor --profile my-site.toml", "every problem of the profile at once, each with its fix"),
        ("qaconform doctor --profile my-site.toml --json", "the same findings as JSON"),
    )),
    "load": Command("qaconform.load.cli", "put a server under load (Locust) and check latency and error limits", (
        ("qaconform load --duration 30", "30 s of the mixed scenario against the embedded reference server"),
        ("qaconform load --profile my-site.toml -s browse -u 20 -t 60", "20 users browsing for 60 s"),
        ("qaconform load --profile my-site.toml --rate 50 -t 60", "50 requests/s whatever the latency"),
    )),
    "capacity": Command("qaconform.load.capacity", "find the highest load a server sustains within the limits", (
        ("qaconform capacity", "browse and mixed against the embedded reference server, at most 180 s"),
        ("qaconform capacity --profile my-site.toml -s browse --max-time 120", "one scenario, two minutes"),
        ("qaconform capacity -s browse --baseline old/capacity.json", "exit 1 if capacity fell beyond --tolerance"),
    )),
    "selftest": Command(
        "qaconform.commands.selftest", "prove the suites catch every fault planted in the reference server", (
        ("qaconform selftest", "every fault (takes minutes; shows n of N and an estimate)"),
        ("qaconform selftest --fault FAULT", "one fault (`qaconform serve --list-faults` names them)"),
    )),
    "serve": Command("qaconform.reference.cli", "start the embedded reference server (to explore or to develop)", (
        ("qaconform serve --port 8080 --profile-out ref.toml", "serve, and write a profile that points at it"),
        ('eval "$(qaconform serve --print-env)"', "set the passwords that profile names (it holds none)"),
        ("qaconform serve --list-faults", "the faults --fault (and `run --reference-fault`) can plant"),
    )),
    "report": Command("qaconform.report.cli", "rebuild a run's reports (HTML, JSON, JUnit) from its results file", (
        ("qaconform report reports/latest", "the newest run again"),
    )),
    "diff": Command("qaconform.report.diff", "compare two runs: regressions, recoveries, changed observations", (
        ("qaconform diff reports/RUN-A reports/latest", "what changed since run A"),
    )),
    "profile-schema": Command(
        "qaconform.commands.profile_schema", "print the JSON Schema of a target profile (for editors)", (
        ("qaconform profile-schema --out target-profile.schema.json", "then `#:schema target-profile.schema.json` "
                                                                      "atop your profile"),
    )),
}

EXIT_CODES = exitcodes.MEANINGS
PASSTHROUGH = ("run",)
"""Commands that take pytest arguments after ``--``."""


def _examples(items: Sequence[tuple[str, str]]) -> str:
    width = max((len(c) for c, _ in items), default=0)
    lines = []
    for command, what in items:
        lines += [f"  {command}", f"      {what}"] if width > 60 else [f"  {command:<{width}}   {what}"]
    return "\n".join(lines)


def _exit_codes() -> str:
    return "exit codes:\n" + "\n".join(f"  {code:<3}  {what}" for code, what in EXIT_CODES)


OVERVIEW = """\
Conformance tests and load tests for the Community Q&A Service interface v2.

Point it at a server with a target profile (a TOML file: copy target.example.toml); with no profile it starts
its own reference server, so every command works right after installing."""


class Parser(argparse.ArgumentParser):
    """argparse with a "did you mean" for a mistyped command, option or choice, and no abbreviations: argparse would
    take ``--profil`` for ``--profile`` (and a later option's prefix for an earlier one), so a typo would run with a
    meaning the user did not write. Every subparser is a Parser too (argparse makes them of the parent's class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self._given: list[str] = []

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self._given = list(sys.argv[1:] if args is None else args)  # for error(): what the user typed
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        found = re.search(r"invalid choice: '([^']*)' \(choose from (.+)\)", message)
        if found:
            choices = [c.strip().strip("'\"") for c in found.group(2).split(",")]
            message += _near(found.group(1), choices)
        elif message.startswith("the following arguments are required"):
            # `doctor --profil p.toml`: argparse names the missing --profile before the unknown --profil
            options = [o for o in self._option_string_actions if o.startswith("--")]
            typed = [w for w in (t.split("=", 1)[0] for t in self._given if t.startswith("--")) if w not in options]
            message += "".join(h for h in (_near(t, options) for t in typed) if h)
        # one line, without argparse's usage block above it (user14: the line that says what is wrong was the last
        # of a dozen); where the options are listed is said instead
        self.exit(exitcodes.USAGE, f"{self.prog}: error: {message} ({self.prog} --help lists the options)\n")

    def unknown(self, extras: Sequence[str]) -> NoReturn:
        """Unrecognized arguments, each with the closest option this (sub)command has."""
        options = [s for s in self._option_string_actions if s.startswith("--")]
        hints = [_near(t.split("=", 1)[0], options) for t in extras if t.startswith("-")]
        message = f"unrecognized arguments: {' '.join(extras)}" + "".join(h for h in hints if h)
        if not any(hints) and any(not t.startswith("-") for t in extras) and "--only" in self._option_string_actions:
            message += " (to choose areas or rules: --only ...; pytest's own arguments go after --)"
        self.error(message)


def _near(word: str, choices: Sequence[str]) -> str:
    near = difflib.get_close_matches(word, list(choices), n=2, cutoff=0.6)
    return f" (did you mean {' or '.join(near)}?)" if near else ""


class _Command(Protocol):
    """What a command module offers: its options and its entry point."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def main(self, args: argparse.Namespace) -> int: ...


class _ServeCommand(Protocol):
    """The reference server's module names them for `serve` (its ``main`` takes an argv list, for ``python -m``)."""

    def add_serve_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run_serve(self, args: argparse.Namespace) -> int: ...


def _entry_points(module: object) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[..., int]]:
    """A command module's ``add_arguments`` + ``main(args)`` (``add_serve_arguments`` + ``run_serve`` for serve)."""
    if hasattr(module, "add_serve_arguments"):
        serve = cast(_ServeCommand, module)
        return serve.add_serve_arguments, serve.run_serve
    command = cast(_Command, module)
    return command.add_arguments, command.main


def build_parser(command: str | None = None) -> tuple[Parser, dict[str, str], dict[str, Parser]]:
    """The whole command line; with ``command``, only that command's module is imported to add its options.

    Importing every command module costs half a second (pytest, the report, the load harness...), which every
    ``qaconform run`` paid before starting its suites: the other commands' parsers stay empty, as they are never
    used when the command is known.
    """
    width = max(len(n) for n in COMMANDS)
    commands = "\n".join(f"  {name:<{width}}  {c.summary}" for name, c in COMMANDS.items())
    parser = Parser(
        prog="qaconform", description=OVERVIEW, formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="qaconform COMMAND [options]   (qaconform COMMAND --help for its options)",
        epilog=f"commands:\n{commands}\n\nexamples:\n" + _examples([
            ("qaconform run", "check the embedded reference server: a first try"),
            ("qaconform run --profile my-site.toml", "check your server; the report is in reports/latest/"),
            ("qaconform load --profile my-site.toml -t 60", "a minute of load, with live totals"),
            ("qaconform run --help", "every option of one command"),
        ]) + "\n\n" + _exit_codes())
    parser.add_argument("--version", action="version", version=f"qaconform {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands", help=argparse.SUPPRESS,
                                prog="qaconform")
    unavailable: dict[str, str] = {}
    subparsers: dict[str, Parser] = {}
    for name, c in COMMANDS.items():
        epilog = ""
        if c.examples:
            epilog += "examples:\n" + _examples(c.examples) + "\n\n"
        if name in PASSTHROUGH:
            epilog += "Arguments after -- go to pytest unchanged (see `python -m pytest --help`).\n\n"
        p = sub.add_parser(name, help=c.summary, description=c.summary[0].upper() + c.summary[1:] + ".",
                           epilog=epilog + _exit_codes(), formatter_class=argparse.RawDescriptionHelpFormatter)
        subparsers[name] = p
        if command is not None and name != command:
            continue
        try:
            module = importlib.import_module(c.module)
        except ImportError as exc:
            unavailable[name] = f"{c.module}: {exc}"
            continue
        add, _run = _entry_points(module)
        add(p)
        help_groups.arrange(p, name)
    return parser, unavailable, subparsers


def _split_passthrough(argv: Sequence[str]) -> tuple[list[str], list[str] | None]:
    """``run --profile p -- -x -k name`` -> the kit's arguments, and pytest's (None when there is no ``--``)."""
    argv = list(argv)
    if "--" not in argv:
        return argv, None
    i = argv.index("--")
    return argv[:i], argv[i + 1:]


PATH_OPTIONS = ("profile", "out", "report_dir", "junitxml", "expect", "baseline", "allure", "spec", "suites", "json",
                "thresholds", "profile_out")
"""Options naming a file or folder: made absolute against the user's working folder before a command runs,
because the commands start pytest and Locust elsewhere (inside the installed package, where the suites are)."""


def _absolute_paths(args: argparse.Namespace) -> None:
    for name in PATH_OPTIONS:
        value = getattr(args, name, None)
        if isinstance(value, str) and value and value != "-":
            setattr(args, name, str(Path(value).expanduser().absolute()))


def stopped(command: str, exc: KitError) -> int:
    """Say why ``command`` stopped, once for every command: ``qaconform COMMAND: message`` on stderr (then the hint on
    its own line), no traceback; the error's exit code (qaconform.errors)."""
    print(f"qaconform {command}: {exc}", file=sys.stderr)
    if exc.hint:
        print(exc.hint, file=sys.stderr)
    return exc.exit_code


def _start_fork_server_early(own: list[str]) -> None:
    """``qaconform run``'s fork server (qaconform/pytest/forked_workers.py), started before the run's modules are
    imported (half a second, then the arguments, the target and the doctor): the first worker waits for that
    server's imports, so they start first. Not when the run asks for one worker, a copy of the spec or suites
    (the server prepares the ones the environment names), or help; the run stops a server it does not need."""
    from qaconform.commands.run_options import ENV_JOBS

    words = set(own)
    one = any(a in ("-j1", "--jobs=1") for a in own) or any(
        a in ("-j", "--jobs") and b.strip() == "1" for a, b in zip(own, own[1:], strict=False))
    copies = any(a.split("=", 1)[0] in ("--spec", "--suites") for a in own)
    if one or copies or words & {"-h", "--help"} or os.environ.get(ENV_JOBS, "").strip() == "1":
        return
    from qaconform import kit
    from qaconform.pytest import forked_workers

    forked_workers.start_early(kit.suite_env(os.environ))


def _not_finite(args: argparse.Namespace, parser: argparse.ArgumentParser) -> str | None:
    """The first number option given as nan or inf, said in one line; None when there is none. float() takes both,
    and a check such as ``value <= 0`` lets nan through: a rate, a duration or a timeout of nan or inf then ended in a
    traceback deep in the load or a run that never stops (user13). One check here covers every command's options."""
    for action in parser._actions:  # argparse's own list: the option strings a dest was given by
        value = getattr(args, action.dest, None)
        if isinstance(value, float) and not math.isfinite(value):
            return f"{'/'.join(action.option_strings) or action.dest} {value}: give a finite number (like 10)"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    own, passthrough = _split_passthrough(sys.argv[1:] if argv is None else argv)
    named = next((a for a in own if not a.startswith("-")), None)
    if named == "run" and passthrough is None:
        _start_fork_server_early(own)
    parser, unavailable, subparsers = build_parser(named if named in COMMANDS else None)
    args, extras = parser.parse_known_args(own)
    if not args.command and extras:  # `qaconform --bogus`: one line, not the whole help
        parser.error(f"unrecognized arguments: {' '.join(extras)} before any command")
    if not args.command:
        parser.print_help()
        return exitcodes.USAGE
    if extras:
        subparsers[args.command].unknown(extras)
    if passthrough is not None:
        if args.command not in PASSTHROUGH:
            subparsers[args.command].error("takes no arguments after --; pytest arguments are for `qaconform run`")
        args.pytest_args = passthrough
    _absolute_paths(args)
    not_finite = _not_finite(args, subparsers[args.command])
    if not_finite:
        print(f"qaconform {args.command}: {not_finite}", file=sys.stderr)
        return exitcodes.USAGE
    try:
        if args.command in unavailable:
            raise KitError(f"not available in this installation ({unavailable[args.command]})")
        _add, run = _entry_points(importlib.import_module(COMMANDS[args.command].module))
        return int(run(args) or 0)
    except KitError as exc:
        return stopped(args.command, exc)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return exitcodes.INTERRUPTED
    except BrokenPipeError:  # output piped into `head` and the like: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return exitcodes.OK


if __name__ == "__main__":
    sys.exit(main())
