"""`qaconform profile-schema`: the JSON Schema of a target profile, for editors that check TOML as you type.

It is generated from :class:`qaconform.target.profile.ProfileFile`, the pydantic model that validates every profile, so
an editor and the kit never disagree about a key. The copy in docs/target-profile.schema.json is this output
(tests/test_profile_schema.py fails when the two differ: regenerate it with the command in that test's message).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from qaconform import exitcodes
from qaconform.errors import UsageError
from qaconform.target.profile import SCHEMA_ID, json_schema


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", metavar="FILE", default=None,
                        help="write the schema to FILE (replacing only an earlier qaconform profile schema) "
                             "instead of printing it")


def schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"


def _is_our_schema(path: Path) -> bool:
    try:
        return bool(json.loads(path.read_text(encoding="utf-8")).get("$id") == SCHEMA_ID)
    except (OSError, ValueError, AttributeError):
        return False


def main(args: argparse.Namespace) -> int:
    text = schema_text()
    if not args.out:
        sys.stdout.write(text)
        return exitcodes.OK
    out = Path(args.out)
    if out.exists() and not _is_our_schema(out):
        raise UsageError(f"{out} exists and is not a qaconform profile schema; not replacing it (choose another "
                         "--out or remove the file)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {out} ({exc.strerror or exc}); choose a writable path") from None
    print(f"wrote {out}")
    return exitcodes.OK
