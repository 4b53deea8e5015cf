"""The doctor's check of ``[visibility]``: do the wire values the profile names match those the site shows?

The description shows two visibility values ("Value seen: recipients, op. The complete list of values: not
shown."); the values of the moderator and group options are site configuration, so only the profile can give them.
A profile that guesses them wrong (``to_own_groups = "groups"`` on a site whose value is ``"group"``) once ended a
run with 6 must-rules failed, each a 400 "'groups' names no visibility option of this site", even for admin: the
kit blamed the server for a value the profile gave. The comments of the fixture question already show the site's
values, so the doctor reads them (reads only, a handful) and stops before any test when a configured value is never
shown while another private value, one the profile does not name, is.

Which values are private is read, not guessed: a value on a comment admin reads but anonymous does not is private;
a value anonymous reads too (full visibility, whatever its wire value) is not. When the reads show nothing
conclusive (no answer of member's on the fixture question, anonymous not allowed to read, no private value the
profile does not name) nothing is said and the suites judge as before: a server that refuses a value the profile
names correctly still fails its rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from os.path import commonprefix

from qaconform.contract import path
from qaconform.target.client import ApiClient
from qaconform.target.diagnosis import Diagnosis, Severity
from qaconform.target.discover import as_id, read_pages
from qaconform.target.profile import Profile

CONFIGURED = ("to_moderators", "to_own_groups")
"""The options whose wire values the description does not show: the profile's word alone, so its possible error."""

MAX_ANSWERS = 1
"""Answers of member's on the fixture question whose comments are read (the oldest: the one an earlier run's
comments have not crowded out): one list read and, per answer, one read per reader and one anonymous."""

READERS = ("admin", "moderator", "member")


def check(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    """A STOP finding per configured option whose value the site never shows while it shows a private value the
    profile does not name; nothing when the reads are not conclusive."""
    names = {k: getattr(profile.visibility, k) for k in CONFIGURED if getattr(profile.visibility, k) is not None}
    member = profile.accounts["member"].id or d.user_ids.get("member")
    if not names or member is None:
        return
    shown, private = _values_shown(profile, clients, member)
    known = profile.visibility.private_values() | {profile.visibility.full}
    unnamed = sorted(private - known)
    wrong = {k: v for k, v in names.items() if v not in shown}
    if not unnamed or not wrong:
        return
    for key, value in wrong.items():
        meant = _meant(value, unnamed, single=len(wrong) == 1)
        if meant is None:
            continue  # no value the site shows reads as this option's: not conclusive, the suites judge
        d.add(Severity.STOP, f"visibility.{key}",
              f"[visibility] {key} = {value!r}, but the site's comments never show that value; they show "
              f"{', '.join(repr(v) for v in sorted(shown))} ({', '.join(repr(v) for v in unnamed)} private and named "
              f"by no [visibility] key): every test that sends {key} would fail for the profile's value",
              f"set [visibility] {key} = {meant!r} in {profile.path} (the value the site shows for that option)")


def _values_shown(profile: Profile, clients: Mapping[str, ApiClient], member: int) -> tuple[set[str], set[str]]:
    """(every visibility value the accounts read on the comments of member's oldest answer to the fixture question,
    those of them on comments anonymous does not read); two empty sets when a read is refused.

    Read as the authors a private comment may have (admin, moderator, member: an option's comments are shown to
    their author whoever else may read them), and as anonymous, who reads only what has full visibility."""
    answers = read_pages(clients["admin"], path("listUserAnswers", userId=member), max_pages=2)
    question = profile.fixtures.question_id
    mine = sorted((a.get("creationDate") if isinstance(a.get("creationDate"), int) else 0, i)
                  for a in answers.items if as_id(a.get("parentId")) == question and (i := as_id(a.get("id"))))
    shown: set[str] = set()
    public: set[str] = set()
    anon = ApiClient(profile, "anonymous", None, None, clients["admin"].recorder)
    try:
        for _, answer in mine[:MAX_ANSWERS]:
            api_path = path("listAnswerComments", answerId=answer)
            seen_by_all = read_pages(anon, api_path, max_pages=1)
            lists = [read_pages(clients[r], api_path, max_pages=1) for r in READERS]
            if any(listing.status != 200 for listing in (seen_by_all, *lists)):
                return set(), set()
            readable = set(seen_by_all.ids())
            for comment in (c for listing in lists for c in listing.items):
                value = comment.get("visibility")
                if isinstance(value, str) and value:
                    shown.add(value)
                    if as_id(comment.get("id")) in readable:
                        public.add(value)
    finally:
        anon.close()
    return shown, shown - public


def _meant(given: str, unnamed: list[str], single: bool) -> str | None:
    """The one unnamed value the given one plainly meant: the one sharing the longest start with it ("groups" ->
    "group", "moderators" -> "mod"), or, when this is the only wrong key, the only unnamed value; None otherwise
    (another option's value, a value of an option the description does not list: not the profile's error)."""
    if single and len(unnamed) == 1:
        return unnamed[0]
    scored = sorted(((len(commonprefix([given.lower(), v.lower()])), v) for v in unnamed), reverse=True)
    best = scored[0][0]
    return scored[0][1] if best > 0 and [s for s, _ in scored].count(best) == 1 else None
