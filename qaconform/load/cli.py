"""`qaconform load`: run a Locust load profile against a target (or the embedded reference server).

Imports neither locust nor gevent (the top-level CLI imports this module for --help); Locust runs in child
processes started by :mod:`qaconform.load.runner`.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

from qaconform import exitcodes
from qaconform.errors import Unreachable, UsageError
from qaconform.load.shapes import SHAPES
from qaconform.load.thresholds import Limits, apply_override, load_limits
from qaconform.load.write_budget import Limits as WriteLimits
from qaconform.target.profile import Profile
from qaconform.target.resolved import ResolvedTarget, env_override, resolve_target

DEFAULT_DURATION_S = 20.0
SHAPE_KNOBS = ("ramp_s", "steps", "base_users", "spike_at_s", "spike_s")


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    def parse(raw: str) -> float:
        try:
            v = kind(raw)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{raw!r} is not a {kind.__name__}") from None
        if v <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, not {raw}")
        return v
    return parse


def _at_least_zero_ms(raw: str) -> float:
    """A think time: 0 or more milliseconds (a negative one ran, and was read as none)."""
    try:
        v = float(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a number of milliseconds") from None
    if not v >= 0:  # nan too; inf is refused with every other option's (qaconform.commands.cli)
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {raw}")
    return v


def _at_least_zero(raw: str) -> int:
    try:
        v = int(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {raw}")
    return v


class DeprecatedName(argparse.Action):
    """An option's old name, still taken: says its new one on stderr, once per use (qa17: `--out` of load and
    capacity is `--report-dir`, the name `qaconform run` gives the same folder)."""

    def __init__(self, option_strings: list[str], dest: str, new: str, **kwargs: object) -> None:
        self.new = new
        super().__init__(option_strings, dest, **kwargs)  # type: ignore[arg-type]

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        import sys

        print(f"{parser.prog}: {option_string} is deprecated: it is now {self.new} (the same folder); the old "
              "name will go in a later release", file=sys.stderr)
        setattr(namespace, self.dest, values)


def write_limits(args: argparse.Namespace, profile: Profile) -> WriteLimits:
    """The run's write budget: the command line over the profile's [load] (its defaults when it has none)."""
    if args.no_write_budget:
        return WriteLimits(None, None)
    return WriteLimits(profile.load.max_writes if args.max_writes is None else args.max_writes,
                       profile.load.max_write_rps if args.max_write_rps is None else args.max_write_rps)


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    """Options `qaconform load` and `qaconform capacity` share."""
    parser.add_argument("--profile", help="target profile (TOML); without it the embedded reference server is "
                        "started on 127.0.0.1 with a fresh database")
    parser.add_argument("--thresholds", help="pass/fail limits (TOML; default loadtests/thresholds.toml)")
    parser.add_argument("--threshold", action="append", default=[], metavar="OP.METRIC=VALUE",
                        help="override one limit, e.g. listQuestions.p95_ms=200 or total.min_rps=50 (repeatable)")
    parser.add_argument("--report-dir", dest="out", metavar="DIR", help="write this run's files into exactly DIR "
                        "(default reports/<run-id>/load, capacity: reports/<run-id>/capacity), as `qaconform run "
                        "--report-dir`")
    parser.add_argument_group("deprecated names").add_argument(  # not shown: said when used
        "--out", dest="out", action=DeprecatedName, new="--report-dir", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=0, help="local Locust worker processes under a master "
                        "(0: one process does everything)")
    parser.add_argument("--wait-ms", type=_at_least_zero_ms, default=0.0,
                        help="closed model: think time between a user's tasks (default 0)")
    parser.add_argument("--max-writes", type=_at_least_zero, metavar="N",
                        help="writes (POST, PUT) a run (a capacity step) sends in all, every worker together; "
                        "then it only reads (default: the profile's [load] max_writes, else 300; 0: no writes)")
    parser.add_argument("--max-write-rps", type=_positive(float), metavar="R",
                        help="writes per second, every worker together (default: [load] max_write_rps, else 5)")
    parser.add_argument("--no-write-budget", action="store_true",
                        help="lift both write limits (a target of your own, never a shared server)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from qaconform.load.runner import scenarios

    parser.add_argument("--scenario", "-s", choices=scenarios(), default="mixed", help="load profile (loadtests/"
                        "<scenario>.py; default mixed)")
    parser.add_argument("--users", "-u", type=_positive(int), default=None,
                        help="peak concurrent users (default 10; with --rate: enough for the rate)")
    parser.add_argument("--spawn-rate", "-r", type=_positive(float), help="users started per second")
    parser.add_argument("--duration", "-t", type=_positive(float), default=DEFAULT_DURATION_S,
                        help=f"seconds the run lasts; it stops by itself (default {DEFAULT_DURATION_S:g})")
    parser.add_argument("--shape", choices=SHAPES, help="load shape over --duration up to --users")
    parser.add_argument("--steps", type=_positive(int), help="step shape: number of steps (default 4)")
    parser.add_argument("--ramp", type=_positive(float), help="ramp/soak shape: seconds to reach --users")
    parser.add_argument("--shape-option", action="append", default=[], metavar="KEY=VALUE",
                        help="other shape knobs: base_users, spike_at_s, spike_s (spike), repeatable")
    parser.add_argument("--rate", type=_positive(float), help="open model: requests per second to start, whatever "
                        "the latency (users are derived); the run reports when the generator could not keep up")
    add_target_arguments(parser)
    parser.add_argument("--target-file", metavar="TARGET_JSON", help="a target already resolved (the target.json of "
                        "a `qaconform run` folder: profile, base URL, the doctor's findings): load it as it is, "
                        "instead of --profile; `qaconform run --load` passes its own")
    parser.add_argument("--remote-workers", type=int, default=0, help="also wait for this many workers from other "
                        "machines (they run `qaconform load --master-host THIS_HOST`)")
    parser.add_argument("--master-bind-host", default="127.0.0.1", help="address the master listens on "
                        "(default 127.0.0.1; 0.0.0.0 for workers on other machines)")
    parser.add_argument("--master-port", type=int, help="master port (default: a free port; 5557 is Locust's)")
    parser.add_argument("--master-host", help="worker mode: start --workers workers that join the master on this "
                        "host (another machine running `qaconform load --remote-workers N`)")
    parser.add_argument("--web", action="store_true", help="show Locust's web UI during the run (127.0.0.1)")
    parser.add_argument("--web-host", default="127.0.0.1", help="address of the web UI (default 127.0.0.1)")
    parser.add_argument("--web-port", type=int, help="port of the web UI (default: a free port)")
    parser.add_argument("--no-lost-check", action="store_true", help="skip the nothing-lost check after writes")
    parser.add_argument("--no-cleanup", action="store_true", help="keep the answers and comments the load created "
                        "(by default they are removed at the end with the profile's [cleanup] delete action; "
                        "`qaconform cleanup OUT_DIR` removes them later)")


def load_thresholds(path: str | None, overrides: list[str]) -> Limits:
    from qaconform.load.runner import loadtests_dir

    limits = load_limits(path or loadtests_dir() / "thresholds.toml")
    for spec in overrides:
        limits = apply_override(limits, spec)
    return limits


@contextlib.contextmanager
def target(profile_arg: str | None, command: str, target_file: str | None = None,
           option: str = "--profile") -> Iterator[tuple[ResolvedTarget, Profile]]:
    """The run's one resolved target (qaconform.target.resolved.resolve_target) and the profile it resolves to: the
    given profile, or one written by an embedded reference server, with the environment's base URL override applied
    before the preflight (which then examines the URL the load will go to); no doctor. The caller writes it into its
    output folder once the preflight passed; every Locust process reads it there.

    ``target_file`` (``--target-file``): a target resolved already (by `qaconform run`), taken as it is; an
    environment override that disagrees with it is refused (exit 2), as the plugin refuses it. ``option``: the
    option that named ``profile_arg``, for the message when the file is missing (capacity's --baseline-target)."""
    with contextlib.ExitStack() as stack:
        path = profile_arg
        if not path and not target_file:
            from qaconform.reference import ReferenceServer

            path = str(stack.enter_context(ReferenceServer()).profile_path)
        resolved = resolve_target(profile=path or None, target_file=target_file, option="--target-file"
                                  if target_file else option, override=env_override(),
                                  say=lambda line: print(f"qaconform {command}: {line}", flush=True))
        yield resolved, resolved.profile()


def write_target(resolved: ResolvedTarget, out: Path) -> Path:
    """``out/target.json``: what every Locust process of this command reads."""
    out.mkdir(parents=True, exist_ok=True)
    return resolved.write(out)


def preflight(profile: Profile) -> None:
    """Return when the target answers HTTP at all; otherwise Unreachable says what to check (nothing else is sent).

    Through the kit's ApiClient, so the whole call (status line, headers, body) ends within the profile's
    timeout_s and reads at most max_response_bytes, and a TLS failure says to set verify_tls = false. Any
    answer counts, even an error: judging it is the run's job.
    """
    from qaconform.target.client import ApiClient, TargetError, TargetUnreachable

    client = ApiClient(profile, "anonymous", None, None)
    try:
        client.get("question.json", params={"pageSize": 1})
    except TargetUnreachable as exc:
        raise Unreachable(f"the target {profile.base_url} did not answer: {exc}") from None
    except TargetError:
        return
    finally:
        client.close()


def default_out(run_id: str) -> Path:
    return Path("reports").absolute() / run_id / "load"


def main(args: argparse.Namespace) -> int:
    from qaconform.load.runner import RunConfig, new_run_id, run_load, run_workers_only

    run_id = new_run_id()
    out = Path(args.out) if args.out else default_out(run_id)
    limits = load_thresholds(args.thresholds, args.threshold)
    if args.workers < 0 or args.remote_workers < 0:
        raise UsageError("--workers and --remote-workers must be 0 or more")
    shape_options: dict[str, float] = {k: v for k, v in (("steps", args.steps), ("ramp_s", args.ramp)) if v is not None}
    for spec in args.shape_option:
        key, _, raw = spec.partition("=")
        if key not in SHAPE_KNOBS:
            raise UsageError(f"--shape-option {spec!r}: write KEY=NUMBER with KEY one of {', '.join(SHAPE_KNOBS)}")
        try:
            shape_options[key] = int(raw) if key in ("steps", "base_users") else float(raw)
        except ValueError:
            raise UsageError(f"--shape-option {spec!r}: {raw!r} is not a number") from None
    cfg = RunConfig(scenario=args.scenario, users=args.users or 10, spawn_rate=args.spawn_rate,
                    duration_s=args.duration, shape=args.shape, shape_options=shape_options, rate=args.rate,
                    workers=args.workers, remote_workers=args.remote_workers,
                    master_bind_host=args.master_bind_host, master_port=args.master_port, web=args.web,
                    web_host=args.web_host, web_port=args.web_port, wait_ms=args.wait_ms,
                    check_lost=not args.no_lost_check)
    if args.rate and not args.users:
        cfg.users = 0  # derived from the rate
    if args.master_host and not (args.profile or args.target_file):
        raise UsageError("--master-host needs --profile (the same one the master uses)")
    if args.profile and args.target_file:
        raise UsageError("give --profile or --target-file (which names its profile), not both")
    with target(args.profile, "load", args.target_file) as (resolved, profile):
        if args.master_host:  # the master sends the URL; this machine's target gives the rest
            cfg.write_limits = write_limits(args, profile)
            return run_workers_only(cfg, write_target(resolved, out), out, args.master_host,
                                    args.master_port or 5557, args.duration + 120)
        preflight(profile)
        cfg.write_limits = write_limits(args, profile)
        from qaconform.load.footprint import clean_up, said_on_interrupt

        with said_on_interrupt(profile, out, "load"):
            summary = run_load(cfg, profile, write_target(resolved, out), out, limits, run_id=run_id)

        clean_up(profile, out, keep=args.no_cleanup, command="load")  # while the target (an embedded one too) is up
    return exitcodes.OK if summary.verdict == "pass" else exitcodes.RULE_FAILED
