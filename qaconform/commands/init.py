"""``qaconform init``: a first profile for a target, from its base URL and four accounts.

A new user knows the server's address and the accounts a site administrator gave them, not the ids the kit needs.
``init`` asks the interface what it can show with reads only (``qaconform.target.discover``: each account's user
id, a question every account can read and its space, a space hidden from novice, the tracker's path segment) and
writes a commented profile: what it found, marked as found; the rest as commented ``TODO`` lines that say what
each unlocks. Passwords never enter the file: it names the environment variables that hold them.

It refuses to overwrite a file, and stops before writing when the target cannot be used at all (nothing answers,
the base URL serves no interface, an account is refused), with one message per problem and what to do.
"""

from __future__ import annotations

import argparse
import json
import os
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from qaconform import exitcodes, kit
from qaconform.contract import API_PREFIX
from qaconform.contract import path as op_path
from qaconform.errors import Unreachable, UsageError
from qaconform.target import discover
from qaconform.target.client import ApiClient, TargetError, TargetUnreachable
from qaconform.target.profile import ROLES

HOLDS: dict[str, str] = {
    "admin": "every permission, including Edit users and groups",
    "moderator": "Anonymous, Standard and Moderation Roles, USE API; not Edit users and groups",
    "member": "Standard Roles, USE API, Publish answer, Mark as favorite, private comments to the original poster and "
              "to moderators, Convert own posts to community wiki, Lock comments on own posts",
    "novice": "Anonymous Roles, Comment, Answer questions, USE API, View User's Profile; nothing more",
}
"""What each role's account must hold (docs/profile.md, "The roles"), written above each account."""


def default_password_env(role: str) -> str:
    """The variable a role's password is read from unless ``--password-env`` names another: the name the report's
    curl lines use for an account without ``password_env``."""
    return f"QACONFORM_{role.upper()}_PASSWORD"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("profile", metavar="FILE", help="the profile to write (never overwritten)")
    parser.add_argument("--base-url", metavar="URL", help=f"everything before {API_PREFIX} (https://qa.example.com)")
    for role in ROLES:
        parser.add_argument(f"--{role}", metavar="USERNAME", help=f"the {role} account: {HOLDS[role]}")
    parser.add_argument("--password-env", metavar="ROLE=VAR", action="append", default=[],
                        help="read ROLE's password from the environment variable VAR (default "
                             "QACONFORM_<ROLE>_PASSWORD); the profile names VAR, never the password")
    parser.add_argument("--timeout", metavar="S", type=float, default=10.0, help="seconds per request (default 10)")
    parser.add_argument("--no-verify-tls", action="store_true",
                        help="accept a self-signed certificate (a staging site's); written as verify_tls = false")
    parser.add_argument("--example", action="store_true",
                        help="write the commented example profile (every key) instead; asks the target nothing")


@dataclass(frozen=True)
class Request:
    """What ``init`` was asked: the profile's path, the target, and per role (username, password variable)."""

    out: Path
    base_url: str
    accounts: dict[str, tuple[str, str]]
    timeout_s: float
    verify_tls: bool
    notes: tuple[str, ...] = ()


def base_url_of(raw: str) -> tuple[str, tuple[str, ...]]:
    """The base URL to write (everything before /services/v2), and a note when the given one had to be cut."""
    url = raw.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"--base-url {raw!r} is not an http(s) URL; give everything before {API_PREFIX}, such "
                         f"as https://qa.example.com")
    at = parts.path.find(API_PREFIX)
    if at < 0:
        return url, ()
    fixed = urlunsplit((parts.scheme, parts.netloc, parts.path[:at], "", "")).rstrip("/")
    return fixed, (f"base_url is everything before {API_PREFIX}: writing {fixed}",)


def parse_request(args: argparse.Namespace, env: Mapping[str, str]) -> Request:
    """The command line checked whole: every missing or wrong piece in one message."""
    out = Path(args.profile)
    if out.exists():
        raise UsageError(f"{args.profile} exists; init never overwrites a profile: choose another file name, or "
                         f"check the one you have with `qaconform doctor --profile {args.profile}`")
    problems: list[str] = []
    base_url, notes = "", tuple[str, ...]()
    if not args.base_url:
        problems.append(f"--base-url URL is missing (everything before {API_PREFIX})")
    else:
        try:
            base_url, notes = base_url_of(args.base_url)
        except UsageError as exc:
            problems.append(str(exc))
    names = {role: getattr(args, role) for role in ROLES}
    missing = [f"--{role} USERNAME" for role, name in names.items() if not name]
    if missing:
        problems.append(f"{', '.join(missing)} missing (one account per role: `qaconform init --help` says what "
                        f"each must hold)")
    variables = {role: default_password_env(role) for role in ROLES}
    for item in args.password_env:
        role, sep, var = item.partition("=")
        if not sep or role not in ROLES or not var.strip():
            problems.append(f"--password-env {item!r}: give ROLE=VAR with ROLE one of {', '.join(ROLES)}")
        else:
            variables[role] = var.strip()
    if problems:
        raise UsageError("; ".join(problems))
    unset = [var for var in variables.values() if not env.get(var)]
    if unset:
        raise UsageError("the passwords are read from the environment, and " + ", ".join(unset) +
                         (" is" if len(unset) == 1 else " are") + " not set: " +
                         "; ".join(f"export {v}=..." for v in unset) + ", then run init again (the profile will "
                         "name these variables, never a password)")
    return Request(out, base_url, {r: (names[r], variables[r]) for r in ROLES}, args.timeout, not args.no_verify_tls,
                   notes)


def check_access(base_url: str, clients: Mapping[str, ApiClient], variables: Mapping[str, str] | None = None) -> None:
    """Stop before writing when nothing answers, the base URL serves no interface or an account is refused; a
    refusal names the variable the password was read from (role -> variable), the one thing the user can fix."""
    statuses: dict[str, int] = {}
    for role, client in clients.items():
        try:
            statuses[role] = client.get(op_path("listActiveExperts"), params={"pageSize": 1}).status
        except TargetUnreachable as exc:
            raise Unreachable(f"{base_url} is unreachable ({exc}); is the server running, and is --base-url "
                              "right?") from None
        except TargetError:
            statuses[role] = 0  # an answer the kit cannot read: not a refusal
    if all(s == 404 for s in statuses.values()):
        raise UsageError(f"{base_url}{API_PREFIX} does not serve the interface (404 on GET "
                         f"{API_PREFIX}{op_path('listActiveExperts')}); --base-url is everything before "
                         f"{API_PREFIX} (https://host, or https://host/prefix when the site lives under a path)")
    refused = [r for r, s in statuses.items() if s == 401]
    if refused:
        raise UsageError("; ".join(f"the {r} account {clients[r].username!r} is refused by the target (401 on GET "
                                   f"{API_PREFIX}{op_path('listActiveExperts')}, which every account may read): "
                                   f"check its username and the password in "
                                   f"{(variables or {}).get(r) or 'the variable init reads it from'}"
                                   for r in refused))


def toml(value: object) -> str:
    """A TOML value: strings, integers and lists of them are written as JSON writes them."""
    return json.dumps(value)


def _line(assignment: str, comment: str, width: int = 26) -> str:
    return f"{assignment:<{width}}# {comment}"


def _todo(assignment: str, comment: str) -> str:
    """A key the user fills in: ``# TODO: what it unlocks`` (wrapped), then the key commented out with an example
    value: uncommenting that line and writing the value is the whole edit."""
    wrapped = textwrap.wrap(f"TODO: {comment}", width=114, break_on_hyphens=False)
    return "\n".join([*(f"# {w}" if i == 0 else f"#   {w}" for i, w in enumerate(wrapped)), f"# {assignment}"])


def _comment(text: str) -> list[str]:
    return [f"# {w}" for w in textwrap.wrap(text, width=116, break_on_hyphens=False)]


def render(req: Request, found: discover.Discovery, written_at: datetime) -> str:
    """The profile's text: what was found, marked as found, and commented TODOs for the rest."""
    host = urlsplit(req.base_url).netloc
    name = req.out.name
    lines = [
        f"# qaconform target profile for {req.base_url}, written by `qaconform init` on "
        f"{written_at:%Y-%m-%d %H:%M} UTC.",
        "# Every key, and what each role must hold: docs/profile.md (installed with the kit as qaconform/docs/).",
        "# Passwords are read from the environment variables named below; this file holds none.",
        "# Lines marked TODO are what the interface could not show: fill in those you can (each says what it",
        f"# unlocks; without it those rules read \"not checked\"), then: qaconform doctor --profile {name}",
        "",
        f"name = {toml(host)}",
        f"base_url = {toml(req.base_url)}",
        _line(f"timeout_s = {req.timeout_s:g}", "seconds per request, body included"),
        _line(f"verify_tls = {'true' if req.verify_tls else 'false'}",
              "false only for a staging site with a self-signed certificate"),
        _todo('service_version = "2.16.0"', "the version the site runs; rules of later features (private "
              "comments: 2.16.0) are then \"disabled by configuration\", not failed"),
        _todo("default_page_size = 15", "the site's configured default pageSize, recorded beside what the lists "
              "answer (PAGING-DEFAULT-PAGESIZE)"),
        _todo("max_page_size = 100", "the site's pageSize cap, if it has one (the description gives none): walks "
              "of long lists then ask for pages the site serves whole"),
    ]
    for role in ROLES:
        username, variable = req.accounts[role]
        uid = found.user_ids.get(role)
        lines += ["", f"[accounts.{role}]", *_comment(f"must hold: {HOLDS[role]}"), f"username = {toml(username)}",
                  f"password_env = {toml(variable)}"]
        lines.append(_line(f"id = {uid}", "discovered: a list shows this account") if uid is not None else
                     _todo("id = 0", "no list the kit read shows this account; the run finds the id from what "
                           "it creates, or write it here"))
    lines += ["", "# Things the interface cannot create. The kit writes under these (and one answer under a question",
              "# your member account wrote, found with reads: docs/ci.md, what a run writes).", "[fixtures]"]
    if found.question is not None and found.question.own:
        lines += [_line(f"question_id = {found.question.question_id}",
                        f"discovered: a question {found.question.author} (one of your accounts) wrote, every account "
                        "is shown; each run writes its answers and comments under it"),
                  _line(f"space_id = {found.question.space_id}", "discovered: its space")]
    elif found.question is not None:
        who = found.question.author or "someone"
        lines += [_todo(f"question_id = {found.question.question_id}",
                        f"REQUIRED. PROPOSED ONLY: every account is shown this question, but {who} wrote it, not one "
                        "of your test accounts; each run writes about 80 answers and comments under the question it "
                        "names, so name one your test accounts wrote (ask a moderator to create it)"),
                  _todo(f"space_id = {found.question.space_id}", "REQUIRED: its space")]
    else:
        lines += [_todo("question_id = 0", "REQUIRED: a published question every account can view, answer and "
                        "comment on (no question was shown to all four accounts)"),
                  _todo("space_id = 0", "REQUIRED: its space")]
    lines.append(_line(f"hidden_space_id = {found.hidden_space_id}", "discovered: admin lists it, novice does not")
                 if found.hidden_space_id is not None else
                 _todo("hidden_space_id = 0", "a space novice may not list: unlocks the tests of what novice must "
                       "not see"))
    lines.append(_line(f"issue_tracker = {toml(found.issue_tracker)}",
                       f"discovered: GET {API_PREFIX}/{found.issue_tracker}/issuetype.json answers a list")
                 if found.issue_tracker is not None else
                 _todo('issue_tracker = "tracker"', "the tracker's path segment, once the issue-tracker integration "
                       f"is set up (none of {', '.join(discover.TRACKER_CANDIDATES)} answered): unlocks "
                       "listIssueTypes"))
    lines += [
        "# One-shot fixtures: a run consumes each node (unwikifies it, or removes the favorite). A list is a pool:",
        "# each run takes the first node still in its state, so CI checks these rules as many times as it holds.",
        _todo("member_wiki_node_id = [0]", f"community-wiki nodes authored by {req.accounts['member'][0]}: "
              "unlocks cancelwiki of one's own post"),
        _todo("wiki_node_id = [0]", "community-wiki nodes authored by someone else: unlocks cancelwiki by a "
              "moderator and its refusals"),
        _todo("favorite_node_id = [0]", f"nodes {req.accounts['member'][0]} has marked favorite: unlocks "
              "unfavorite"),
        _todo("wiki_answer_id = [0]", "community-wiki ANSWERS authored by someone else, under a question none of "
              "the four accounts wrote: unlocks an answer's unwikify on half the seeds (else wiki_node_id's)"),
        _todo("accepted_wiki_question_id = [0]", "community-wiki questions holding an accepted answer, written by "
              "none of the four accounts: unlocks an accepted question's unwikify on the seeds that draw it"),
        _todo("gdpr_csv_file_id = 0", "an uploaded CSV for bulk data-protection jobs: unlocks the bulk-job "
              "checks"),
        _todo("accepted_answer_user_id = 0", "a user one of whose answers is accepted (read only), when none of the "
              "four accounts has one: unlocks MARKED-ACCEPTED-QUESTION"),
        _todo("locked_question_id = 0", "a question locked on the site that every account can view (no read shows a "
              "lock): unlocks an answer to a locked question (moderator's shared answer goes under it)"),
        "",
        "# Wire values of the comment visibility options. The description shows recipients and op.",
        "[visibility]",
        'recipients = "recipients"',
        'to_original_poster = "op"',
        _todo('to_moderators = "mod"', "the wire value of 'to moderators': unlocks its private-comment tests; only "
              "the site's own value (a wrong one is sent as given, the site refuses it, and those rules fail)"),
        _todo('to_own_groups = "group"', "the wire value of 'to own groups': unlocks its private-comment tests; only "
              "the site's own value, as above"),
        _todo('full = "full"', "what a GET returns for a comment with full visibility, if the site writes one"),
        _todo('readers = ["admin"]', "the roles that read every private comment on this site ([] for none); unset, "
              "admin's and moderator's views of private comments are judged only in content lists, by what an "
              "answer's comment list shows each, and the tests that need it skip"),
        "",
        "[safety]",
        _line("destructive = false", "true allows successful data-protection jobs, which cannot be undone"),
        _todo('gdpr_user = "gdpr-target"', "with destructive = true, the only user such a job may name"),
        "# max_concurrency = 4       # politeness on a shared server: requests in flight at once, all workers",
        "# max_rps = 20              # ... and requests within any one second",
        "",
        "# [lacks]: a caller that lacks a read permission on this site (\"anonymous\" or a role); only then are the",
        "# refusals of the read operations tested.",
        "# [lacks]",
        '# view_questions_list = "anonymous"',
        "",
        "# TODO: the site's delete action (outside the 19 operations): unlocks removing the answers and comments",
        "#   each run creates, at its end; without it every run leaves them on the site (about 80 a run), and CI's",
        "#   hundredth build finds what 99 left (docs/profile.md#cleanup)",
        "# [cleanup]",
        '# method = "PUT"',
        f'# path = "{API_PREFIX}/node/{{id}}/delete.json"',
        '# account = "admin"          # or "moderator", or "author": the account that created the node',
        "",
    ]
    return "\n".join(lines)


def summary(req: Request, found: discover.Discovery) -> list[str]:
    """What the terminal says: what was found, what was not, and the next command."""
    ids = ", ".join(f"{r} {found.user_ids[r]}" for r in ROLES if r in found.user_ids)
    lost = [r for r in ROLES if r not in found.user_ids]
    out = [*req.notes, f"wrote {req.out}", f"  account ids: {ids or 'none shown'}" +
           (f" (not shown: {', '.join(lost)}; the run finds them)" if lost else "")]
    q = found.question
    out.append(f"  question {q.question_id} in space {q.space_id}, written by {q.author}" if q and q.own else
               f"  question_id left as a TODO: the one question every account is shown ({q.question_id}) was written "
               f"by {q.author or 'someone'}, not by one of your accounts, and runs write under it (REQUIRED: name one "
               "your test accounts wrote)" if q else
               "  no question every account can read: set question_id and space_id (REQUIRED)")
    out.append(f"  hidden space: {found.hidden_space_id if found.hidden_space_id is not None else 'none found'}; "
               f"issue tracker: {found.issue_tracker or 'none answered'}")
    out += ["  the rest are TODO lines in the file, each saying what it unlocks",
            f"next: fill in what you can, then  qaconform doctor --profile {req.out}"]
    return out


def write_example(out: Path) -> int:
    if out.exists():
        raise UsageError(f"{out} exists; init never overwrites a profile: choose another file name")
    text = kit.example_profile().read_text(encoding="utf-8")
    schema = kit.docs_dir() / "target-profile.schema.json"
    out.write_text(text.replace("#:schema ./docs/target-profile.schema.json", f"#:schema {schema}", 1),
                   encoding="utf-8")
    print(f"wrote {out}: the commented example profile (every key); fill it in, then "
          f"qaconform doctor --profile {out}")
    return exitcodes.OK


def run_init(args: argparse.Namespace, env: Mapping[str, str], now: datetime | None = None) -> int:
    if args.example:
        return write_example(Path(args.profile))
    req = parse_request(args, env)
    probe = discover.probe_profile(req.base_url, {r: (u, env[v]) for r, (u, v) in req.accounts.items()},
                                   timeout_s=req.timeout_s, verify_tls=req.verify_tls, path_name=str(req.out))
    clients = discover.clients_for(probe)
    try:
        check_access(req.base_url, clients, {r: v for r, (_, v) in req.accounts.items()})
        try:
            found = discover.discover(clients)
        except TargetUnreachable as exc:
            raise Unreachable(f"{req.base_url} stopped answering ({exc}); run init again once it answers") from None
    finally:
        for c in clients.values():
            c.close()
    req.out.parent.mkdir(parents=True, exist_ok=True)
    with req.out.open("x", encoding="utf-8") as fh:  # "x": never replace a file that appeared meanwhile
        fh.write(render(req, found, now or datetime.now(UTC)))
    print("\n".join(summary(req, found)))
    return exitcodes.OK


def main(args: argparse.Namespace) -> int:
    """``init``; what stops it is a UsageError (fix the command or the accounts) or Unreachable (nothing answers)."""
    try:
        return run_init(args, os.environ)
    except OSError as exc:
        raise UsageError(f"cannot write {args.profile}: {exc.strerror or exc}") from None
