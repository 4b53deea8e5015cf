"""`qaconform doctor --profile FILE`: is this profile right for this server? Reads only, every problem at once.

The same examination runs at the start of ``qaconform run`` and at the plugin's session start under plain pytest
(``qaconform.target.doctor``); this command shows it whole, with the fix of each problem, and nothing else: no test
runs, nothing is written (neither on the target nor on disk), so it is safe to run again and again while writing a
profile. Exit 0: usable (a fixture not in its state only skips the tests that need it); 2: the profile cannot be
used; 3: nothing answers at base_url.
"""

from __future__ import annotations

import argparse
import json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", metavar="P", required=True, help="the target profile (TOML) to check")
    parser.add_argument("--json", action="store_true",
                        help="print the findings as JSON (format qaconform-doctor/1) instead of text")


def main(args: argparse.Namespace) -> int:
    from qaconform.target.client import Recorder
    from qaconform.target.doctor import examine, render
    from qaconform.target.profile import load_profile

    profile = load_profile(args.profile)  # ProfileError: exit 2, nothing sent
    recorder = Recorder(secrets=set(profile.passwords()))
    diagnosis = examine(profile, recorder)
    text = json.dumps(diagnosis.as_dict(), indent=1) if args.json else render(diagnosis, profile)
    print(recorder.redact(text))
    return diagnosis.exit_code
