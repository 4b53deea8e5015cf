"""``qaconform cleanup RUN_DIR``: remove what an earlier run created, and the cleanup step at the end of a run.

Both read the run's list of what it created (report.json's ``created``; during a run, results.json's tests) and
delete the answers and comments with the site's delete action named in the profile's ``[cleanup]``
(:mod:`qaconform.target.cleanup`). ``qaconform cleanup`` writes what it did to ``RUN_DIR/cleanup.json``; a run puts
it in report.json's ``cleanup``. Running it twice is harmless: what is gone is "already gone".

Exit codes: 0 every answer and comment of the run is gone; 1 some could not be removed (cleanup.json says why);
2 a run folder or profile that cannot be used (nothing sent); 3 the target did not answer.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from qaconform import exitcodes
from qaconform.contract import API_PREFIX
from qaconform.errors import UsageError

_NODE_IN_PATH = re.compile(r"/(?:node|answer|question)/(\d+)/")
_CURL_URL = re.compile(r"'(https?://[^' ]+)'")
"""The quoted URL of a curl line the kit printed (``curl -sS ... 'http://host/services/v2/answer/361/...'``)."""
"""A node id in an operation's path (/node/{nodeId}/..., /answer/{answerId}/..., /question/{questionId}/...)."""

CLEANUP_NAME = "cleanup.json"
"""What ``qaconform cleanup`` writes into the run folder."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", metavar="RUN_DIR",
                        help="the folder of a `qaconform run` (holds report.json), e.g. reports/latest, or of a "
                             "`qaconform load` or `qaconform capacity` (holds what its load created)")
    parser.add_argument("--profile", metavar="P", default=None,
                        help="the target profile of that run, with a [cleanup] section naming the site's delete "
                             "action (default: the profile the run used, when report.json names one)")


def main(args: argparse.Namespace) -> int:
    from qaconform.report.terminal import changed_lines
    from qaconform.target.cleanup import summary_line

    folder = Path(args.run_dir)
    if folder.is_dir() and not (folder / "report.json").is_file():
        from qaconform.load.footprint import clean_up, is_load_folder

        if is_load_folder(folder):  # a `qaconform load` or `capacity` folder: its created-*.jsonl (issue 45)
            profile = _load_profile(args.profile, folder)
            if profile.cleanup is None:
                _profile(args.profile or profile.path, {})  # the same message as for a run folder
            return _exit_code(clean_up(profile, folder, command="load"))
    report, report_path = _read_report(folder)  # a run folder or profile that cannot be used: UsageError
    profile = _profile(args.profile, report)
    record = _remove(profile, report.get("created") or [])
    out = report_path.parent / CLEANUP_NAME
    try:
        out.write_text(json.dumps(_redacted(record, profile), indent=1), encoding="utf-8")
        where = f"; what happened to each item: {out}"
    except OSError as exc:
        where = f"; could not write {out} ({exc.strerror or exc})"
    print(summary_line(record) + where)
    for line in changed_lines(report):  # clean26: what the run changed on nodes it did not create stays changed
        print(line)
    return _exit_code(record)


def _read_report(run_dir: Path) -> tuple[dict[str, Any], Path]:
    path = run_dir / "report.json" if run_dir.is_dir() else run_dir
    if not run_dir.exists():
        raise UsageError(f"{run_dir}: no such folder; give the folder of a `qaconform run` (it holds report.json), "
                      "e.g. reports/latest")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{run_dir}: holds no report.json; give the folder of a `qaconform run`, or rebuild its "
                      "report with `qaconform report` first") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path}: not readable as JSON ({exc}); give the folder of a `qaconform run`") from None
    if not isinstance(data, dict) or not isinstance(data.get("created"), list):
        raise UsageError(f"{path}: not a qaconform report (no 'created' list); give the folder of a `qaconform run`")
    return data, path


def _load_profile(given: str | None, folder: Path) -> Any:
    """The profile of a load or capacity folder: --profile, else the one its target.json names (resolved there)."""
    from qaconform.target.profile import load_profile
    from qaconform.target.resolved import TARGET_NAME, ResolvedTarget

    if given:
        return load_profile(given)
    resolved = folder / TARGET_NAME
    if not resolved.is_file():
        raise UsageError(f"{folder}: holds no {TARGET_NAME} naming its profile; pass --profile P")
    try:
        return ResolvedTarget.read(resolved).profile()
    except (OSError, ValueError, KeyError) as exc:
        raise UsageError(f"{resolved}: cannot be read ({exc}); pass --profile P") from None


def _profile(given: str | None, report: Mapping[str, Any]) -> Any:
    from qaconform.target.profile import load_profile

    reproduce = report.get("reproduce") if isinstance(report.get("reproduce"), Mapping) else {}
    path = given or (reproduce or {}).get("profile")
    if not path:
        raise UsageError("the run does not name its profile (it ran against the embedded reference server, which is "
                      "gone); pass --profile P")
    profile = load_profile(path)
    if profile.cleanup is None:
        raise UsageError(f"profile {path} has no [cleanup] section naming the site's delete action, so nothing can be "
                      'removed; add one (docs/profile.md#cleanup), e.g. [cleanup] method = "PUT", '
                      f'path = "{API_PREFIX}/node/{{id}}/delete.json", account = "admin"')
    target = report.get("target") if isinstance(report.get("target"), Mapping) else {}
    ran_at = str((target or {}).get("base_url") or "").rstrip("/")
    if ran_at and ran_at != profile.base_url.rstrip("/"):
        raise UsageError(f"the run was against {ran_at} but profile {path} points at {profile.base_url}; pass the "
                      "profile of that run (the ids it created mean other nodes elsewhere)")
    return profile


def _remove(profile: Any, created: Iterable[Any]) -> dict[str, Any]:
    from qaconform.target.cleanup import remove_created

    return remove_created(profile, created).as_dict()


def _redacted(record: dict[str, Any], profile: Any) -> dict[str, Any]:
    """The record without the profile's passwords (a target's error body may echo what it was sent)."""
    from qaconform.report.redact import redact, secret_variants

    secrets = secret_variants(profile.passwords(), [a.username for a in profile.accounts.values()])
    return dict(redact(record, tuple(secrets)))


def _exit_code(record: Mapping[str, Any]) -> int:
    nodes = [i for i in record.get("items") or [] if i.get("kind") in ("answer", "comment")]
    left = [i for i in nodes if i.get("status") == "left behind"]
    if not left:
        return exitcodes.OK
    if all(str(i.get("why") or "").startswith(("no answer", "not tried")) for i in left):
        return exitcodes.UNREACHABLE
    return exitcodes.RULE_FAILED


def after_run(profile: Any, results_path: Path, run_dir: Path, *, keep: bool,
              why_not: str | None = None, expected: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The cleanup step of ``qaconform run`` (after the suites, while the target is still up): the record for
    report.json's ``cleanup``, and its one line on the terminal. ``keep``: --no-cleanup; ``why_not``: a reason the
    run gives for not cleaning up (interrupted, target gone); ``expected``: the rules --expect names."""
    from qaconform.target.cleanup import KEPT, remove_created, skipped, summary_line

    created = _created_in(results_path)
    later = f"`qaconform cleanup {run_dir} --profile {profile.path}`"
    if profile.cleanup is None and (keep or why_not):  # `qaconform cleanup` would exit 2 without a delete action
        why = "kept (--no-cleanup)" if keep else str(why_not)
        record = skipped(created, f"{why}; {no_delete_action(results_path)}").as_dict()
    elif keep:
        record = skipped(created, f"kept (--no-cleanup); remove them later with {later}").as_dict()
    elif why_not:
        record = skipped(created, f"{why_not}; remove them later with {later}").as_dict()
    elif profile.cleanup is None:
        record = skipped(created, no_delete_action(results_path)).as_dict()
    else:
        named = named_by_failures(results_path, created, expected)
        try:
            outcome = remove_created(profile, [c for c in created if _key(c) not in named])
            outcome.items += skipped([c for c in created if _key(c) in named], f"{KEPT}; {later}").items
            record = outcome.as_dict()
        except Exception as exc:  # noqa: BLE001 - the run's verdict stands; the cleanup says what broke
            record = skipped(created, f"the cleanup broke ({type(exc).__name__}: {exc}); try {later}").as_dict()
    print(summary_line(record), flush=True)
    return record


def no_delete_action(results_path: Path) -> str:
    """What a run without the site's delete action says of what it left: `qaconform cleanup` cannot remove it (it
    exits 2 without [cleanup]), so where it is listed and the run tag that finds it on the target (crossing11)."""
    try:
        tag = json.loads(results_path.read_text(encoding="utf-8")).get("run_tag")
    except (OSError, ValueError, AttributeError):
        tag = None
    found = f"; each body the run wrote holds its run tag {tag}" if tag else ""
    return ("the profile names no delete action ([cleanup], docs/profile.md#cleanup), so `qaconform cleanup` cannot "
            f"remove them: they stay on the target, listed in report.json created{found}")


def _key(entry: Any) -> tuple[str, str] | None:
    """A created answer or comment as (kind, id); None for anything else (a data-protection job is never removed)."""
    if isinstance(entry, Mapping) and entry.get("kind") in ("answer", "comment"):
        return str(entry["kind"]), str(entry.get("id"))
    return None


def named_by_failures(results_path: Path, created: list[Any],
                      expected: frozenset[str] = frozenset()) -> set[tuple[str, str]]:
    """The created answers and comments a failed test's requests name in their path (PUT /node/122/lock.json), with
    the created nodes above them (removing an answer takes its comments) and below them (a list's failure is its
    items): removing them would make the report's curl answer "no such node" instead of the failure (user11). A
    test that failed only rules --expect names keeps nothing: CI with known failures would leave more every build."""
    try:
        tests = json.loads(results_path.read_text(encoding="utf-8")).get("tests") or []
    except (OSError, ValueError, AttributeError):
        return set()
    ids = {m.group(1) for t in tests if isinstance(t, dict) and t.get("outcome") in ("failed", "error")
           and not (t.get("rules") and set(t["rules"]) <= expected)
           for url in _failing_urls(t) for m in _NODE_IN_PATH.finditer(urlsplit(url).path)}
    if not ids:
        return set()
    from qaconform.target.cleanup import items_of

    nodes = [i for i in items_of(created) if i.kind in ("answer", "comment")]
    parent = {str(i.id): str(i.parent) for i in nodes if i.parent is not None}
    keep = {str(i.id) for i in nodes if str(i.id) in ids}
    for nid in list(keep):  # above: the chain of created parents
        while parent.get(nid) is not None and parent[nid] not in keep:
            nid = parent[nid]
            keep.add(nid)
    grew = True
    while grew:  # below: every created node whose parent is kept
        below = {n for n, p in parent.items() if p in keep} - keep
        keep |= below
        grew = bool(below)
    return {(i.kind, str(i.id)) for i in nodes if str(i.id) in keep}


def _failing_urls(test: Mapping[str, Any]) -> list[str]:
    """The URLs a failed test's report replays: its last exchanges, the exchange its RuleFailure names and the URLs
    of its curls. The exchanges are only a test's last eight: the privacy model's failing read of answer 361 came
    earlier, and a --thorough run's cleanup removed 361, so the report's curl answered "answer 361 does not exist"."""
    urls = [str(ex.get("url") or "") for ex in test.get("exchanges") or [] if isinstance(ex, Mapping)]
    raw = test.get("failure")
    failure: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    if isinstance(failure.get("exchange"), Mapping):
        urls.append(str(failure["exchange"].get("url") or ""))
    for curl in (failure.get("curl"), test.get("reproduce")):
        urls += _CURL_URL.findall(curl) if isinstance(curl, str) else []
    return urls


def _created_in(results_path: Path) -> list[Any]:
    """What the run created: its results file's (every finished test's ``created``), then what only the run's log
    holds (a test a Ctrl-C stopped: :mod:`qaconform.target.created_log`)."""
    listed = _listed(results_path)
    return listed + _unfinished(listed, results_path)


def unfinished_created(results_path: Path) -> list[dict[str, Any]]:
    """What the run's log holds that no finished test of the results file lists (report.json lists them too, so a
    later ``qaconform cleanup RUN_DIR`` removes them)."""
    return _unfinished(_listed(results_path), results_path)


def changed_in(results_path: Path) -> list[dict[str, Any]]:
    """clean26: the nodes the run changed and did not create, with their accepted state changes (report.json
    ``changed``: no delete undoes them; :func:`qaconform.target.created_log.changed`)."""
    from qaconform.target.created_log import changed

    return changed(results_path.parent, _created_in(results_path))


def _unfinished(listed: list[Any], results_path: Path) -> list[dict[str, Any]]:
    from qaconform.target.created_log import unfinished

    return unfinished(listed, results_path.parent)


def _listed(results_path: Path) -> list[Any]:
    """Every finished test's ``created`` in the results file, or nothing when there is none."""
    try:
        results = json.loads(results_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    tests = results.get("tests") if isinstance(results, dict) else None
    return [c for t in tests or [] if isinstance(t, dict) for c in t.get("created") or []]
