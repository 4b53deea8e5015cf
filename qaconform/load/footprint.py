"""What a load or capacity run leaves on the target, and removing it at the run's end (issue 45).

A load run's Locust processes record every node they created (``created-*.jsonl``, one folder per run, one per step
of a capacity search). With the profile's ``[cleanup]`` (the site's delete action) the run removes them once its
load has ended, the same way ``qaconform run`` removes what its suites created (:mod:`qaconform.target.cleanup`), and
writes what happened to each in ``cleanup.json`` beside them; ``qaconform cleanup FOLDER`` does it later. Without
``[cleanup]`` it says what stays and how to remove it.
"""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from qaconform.load.nothing_lost import read_created
from qaconform.target.cleanup import REMOVABLE, remove_created, skipped, summary_line
from qaconform.target.profile import Profile

CLEANUP_NAME = "cleanup.json"


def created_under(folder: Path) -> list[dict[str, Any]]:
    """Every node the load runs under ``folder`` created (a load folder, or a capacity folder and its steps), in the
    order each process wrote them; the moderation marks (not nodes of their own) left out."""
    seen: set[Path] = set()
    out: list[dict[str, Any]] = []
    for path in sorted(folder.rglob("created-*.jsonl")):
        if path.parent in seen:
            continue
        seen.add(path.parent)
        out += [r for r in read_created(path.parent) if r.get("kind") in REMOVABLE]
    return out


def is_load_folder(folder: Path) -> bool:
    """Whether ``folder`` is the output of ``qaconform load`` or ``qaconform capacity``."""
    return folder.is_dir() and any((folder / name).is_file() for name in ("summary.json", "capacity.json")) or (
        folder.is_dir() and next(folder.rglob("created-*.jsonl"), None) is not None)


@contextmanager
def said_on_interrupt(profile: Profile, folder: Path, command: str = "load") -> Iterator[None]:
    """A Ctrl-C during the load: no delete is sent (the user asked to stop), but what the run created is said, with
    the command that removes it, and recorded in ``cleanup.json``. It printed only "interrupted", leaving a user who
    stopped a write scenario with 77 answers and comments on the target and no word of them.

    SIGTERM (a cancelled CI job, ``kill``) is taken as a Ctrl-C meanwhile: it ended the command at once, without a
    word, and its Locust processes (in process groups of their own) went on loading the target to the end of their
    step, as no ``finally`` ran to stop them."""
    previous = _sigterm_as_interrupt()
    try:
        yield
    except KeyboardInterrupt:
        clean_up(profile, folder, interrupted=True, command=command)
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _sigterm_as_interrupt() -> Any:
    """Install a SIGTERM handler raising KeyboardInterrupt; the previous handler, or None where none can be set (not
    the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)


def clean_up(profile: Profile, folder: Path, *, keep: bool = False, command: str = "load",
             interrupted: bool = False, label: str = "") -> dict[str, Any]:
    """Remove what the load under ``folder`` created, print one line, write ``cleanup.json``; return the record.
    ``label`` names the target in the line (``cleanup (baseline): ...``: an A/B comparison cleans two, qa19)."""
    created = created_under(folder)
    later = f"`qaconform cleanup {folder} --profile {profile.path}`"
    if not created:
        record: dict[str, Any] = skipped([], "nothing created").as_dict()
    elif interrupted:
        record = skipped(created, f"the {command} run was interrupted; remove them later with {later}").as_dict()
    elif keep:
        record = skipped(created, f"kept (--no-cleanup); remove them later with {later}").as_dict()
    elif profile.cleanup is None:
        record = skipped(created, f"the profile names no delete action ([cleanup], docs/profile.md#cleanup): the "
                                  f"{command} run's answers and comments stay on the target; {_found_by(folder)}"
                         ).as_dict()
    else:
        record = remove_created(profile, created).as_dict()
    write_record(record, folder, profile)
    line = summary_line(record).replace("report.json cleanup.items", f"{folder / CLEANUP_NAME}")
    print(line.replace("cleanup:", f"cleanup ({label}):", 1) if label else line, flush=True)
    return record


def _found_by(folder: Path) -> str:
    """How to find what a load left: the run tag every body it wrote holds (``qaload-`` and the run id of each load
    run under ``folder``: a capacity search has one a step) and the files listing their ids. qa19: the line said only
    that they stay, so a site without a delete action had no word on how to find 100 answers and comments."""
    ids: set[str] = set()
    for path in folder.rglob("summary.json"):
        try:
            run_id = json.loads(path.read_text(encoding="utf-8")).get("run_id")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(run_id, str) and run_id:
            ids.add(f"qaload-{run_id}")
    tags = sorted(ids)
    said = (f"each body holds its run tag {tags[0]}" if len(tags) == 1 else
            f"each body holds its step's run tag ({tags[0]} ... {tags[-1]})" if tags else "")
    return f"{said}{'; ' if said else ''}their ids are in {folder}/created-*.jsonl"


def write_record(record: Mapping[str, Any], folder: Path, profile: Profile) -> None:
    from qaconform.report.redact import redact, secret_variants

    secrets = secret_variants(profile.passwords(), [a.username for a in profile.accounts.values()])
    (folder / CLEANUP_NAME).write_text(json.dumps(dict(redact(dict(record), tuple(secrets))), indent=1),
                                       encoding="utf-8")


def left_behind(record: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    return [i for i in record.get("items") or [] if isinstance(i, Mapping) and i.get("status") == "left behind"]
