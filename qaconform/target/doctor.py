"""The doctor: is this profile right for this target? Checked with reads only, before any test.

A setup mistake must not read as the server's failure: a ``base_url`` ending in ``/services/v2`` once gave 119
failed rules, a wrong password "the kit broke", an unknown novice id 43 failed rules, fixtures used up by an earlier
run a server accused of changing data on refused calls. So before any test (``qaconform doctor``, the start of
``qaconform run``, the plugin's session start) the doctor asks the target what the profile claims and sorts every
problem it finds at once:

- **stop** (exit 2; 3 when nothing answers): the profile cannot be used (a base URL that does not serve the
  interface, an account the target refuses, a fixture question that does not exist or that an account cannot read,
  a locked_question_id that is no question, a [visibility] value the site's comments never show while they show
  a private value no key names: :mod:`qaconform.target.visibility_values`);
  the run sends nothing more and writes nothing;
- **fixture**: an optional fixture is not in the state the profile says (a wiki node no longer wiki, a hidden space
  novice lists, a tracker segment that does not answer, a one-shot node an earlier run consumed): only the tests
  that need it skip, with the reason and how to renew it;
- **note**: what the doctor found or could not confirm (ids it discovered, a pool's remaining nodes).

The result (:class:`Diagnosis`) is typed data, written and read strictly in one form (``DoctorRecord``): the run's
resolver (qaconform.target.resolved.resolve_target) carries it in target.json to the suites' pytest and every worker,
so the target is examined once per run.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from qaconform.contract import API_PREFIX, path
from qaconform.target import discover, fanout, fixture_state, ledger, visibility_values
from qaconform.target.client import ApiClient, Recorder, TargetError, TargetUnreachable
from qaconform.target.diagnosis import (  # noqa: F401 - the doctor's names, as before the split
    STOP_EXIT,
    UNREACHABLE_EXIT,
    Diagnosis,
    Finding,
    OneShot,
    Severity,
)
from qaconform.target.discover import Listing, as_id, read_pages
from qaconform.target.fixture_state import FixtureState
from qaconform.target.profile import ROLES, Profile


def consumed_reason(name: str, how: str) -> str:
    """The skip reason of a one-shot fixture whose every node an earlier run consumed (by its record)."""
    return (f"not checked: fixture {name} consumed ({how}); renew it: give a node in its state under [fixtures] "
            f"{name} (a list is a pool: each run takes the first still in its state)")


def not_in_state(name: str, detail: str) -> str:
    return (f"not checked: fixture {name} is not in the state the profile says ({detail}: consumed by an earlier "
            f"run?)")


# ----------------------------------------------------------------------------------------------------------
# the examination

def examine(profile: Profile, recorder: Recorder | None = None) -> Diagnosis:
    """Check ``profile`` against its target with reads only. Never raises for what the target answers.

    The first request goes alone (it alone says whether the target is there); after it the reads that do not
    depend on each other go together (:mod:`qaconform.target.fanout`, within the profile's ``max_concurrency``),
    and the findings are added in the order of the checks, whichever answer came first."""
    d = Diagnosis(record=str(ledger.ledger_path(profile.path)), base_url=profile.base_url.rstrip("/"))
    if not _base_url_shape(profile, d):
        return d
    rec = recorder if recorder is not None else Recorder(secrets=set(profile.passwords()))
    clients = discover.clients_for(profile, rec)
    anon = ApiClient(profile, "anonymous", None, None, rec)
    try:
        anon.get(path("listQuestions"), params={"pageSize": 1})
    except TargetUnreachable as exc:  # only the first request decides: the target is there or it is not
        d.add(Severity.UNREACHABLE, "base_url", f"target {profile.base_url} is unreachable ({exc})",
              f"is the server running? check base_url in {profile.path}")
        return d
    except TargetError:
        pass  # it answered
    at_once = fanout.width(profile)
    try:
        if _interface(profile, clients, anon, d, at_once) and _accounts(profile, clients, d, at_once):
            _fixtures(profile, clients, d, at_once)
    finally:
        for c in (*clients.values(), anon):
            c.close()
    return d


def _base_url_shape(profile: Profile, d: Diagnosis) -> bool:
    """base_url is everything before /services/v2: a URL that already holds it doubles it on every request."""
    parts = urlsplit(profile.base_url)
    at = parts.path.find(API_PREFIX)
    if at < 0:
        return True
    fixed = urlunsplit((parts.scheme, parts.netloc, parts.path[:at], "", "")).rstrip("/")
    d.add(Severity.STOP, "base_url", f"base_url {profile.base_url!r} already holds {API_PREFIX}, which the kit "
          f"puts before every operation's path ({fixed}{API_PREFIX}{API_PREFIX}/question.json)",
          f'set base_url = "{fixed}" (everything before {API_PREFIX}) in {profile.path}')
    return False


def _shown(api_path: str) -> str:
    """An operation's path as the user finds it in the server's logs: ``/services/v2/...``."""
    return API_PREFIX + api_path if api_path.startswith("/") else api_path


def _status(client: ApiClient, api_path: str, **params: Any) -> int:
    """The status, or 0 when there is none to read (an answer the kit cannot use, or no answer from this one
    operation, which the suites judge): never a 404 nor a 401."""
    try:
        return client.get(api_path, params=params or None).status
    except (TargetError, TargetUnreachable):
        return 0


def _interface(profile: Profile, clients: Mapping[str, ApiClient], anon: ApiClient, d: Diagnosis,
               at_once: int = 1) -> bool:
    """Does base_url serve the interface? A 404 on every operation tried says it does not."""
    asked = {f"{path('listQuestions')} anonymously": partial(_status, anon, path("listQuestions"), pageSize=1)}
    for op in ("listQuestions", "listSpaces", "listActiveExperts"):
        asked[f"{path(op)} as admin"] = partial(_status, clients["admin"], path(op), pageSize=1)
    statuses = fanout.gather(list(asked.values()), at_once)
    probes = {f"GET {_shown(k)}": v for k, v in zip(asked, statuses, strict=True)}
    if any(s != 404 for s in probes.values()):
        d.add(Severity.OK, "base_url", f"{profile.api_root} answers the interface")
        return True
    d.add(Severity.STOP, "base_url", f"{profile.api_root} does not serve the interface: 404 on every operation "
          f"tried ({', '.join(probes)})", _base_url_fix(profile, anon))
    return False


def _base_url_fix(profile: Profile, anon: ApiClient) -> str:
    """The likely fix: the site root when it answers the question list, else what base_url must hold."""
    parts = urlsplit(profile.base_url)
    if parts.path.strip("/"):
        root = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
        if _status(anon, f"{root}{API_PREFIX}/{path('listQuestions').lstrip('/')}", pageSize=1) not in (0, 404):
            return f'the interface answers at {root}: set base_url = "{root}" in {profile.path}'
    return (f"base_url must be everything before {API_PREFIX} (https://host, or https://host/prefix when the site "
            f"lives under a path); check it in {profile.path}")


def _accounts(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis, at_once: int = 1) -> bool:
    """Each account authenticates: the expert list, which every role may read, answers anything but 401."""
    refused = []
    statuses = fanout.gather([partial(_status, clients[r], path("listActiveExperts"), pageSize=1) for r in ROLES],
                             at_once)
    for role, status in zip(ROLES, statuses, strict=True):
        acc = profile.accounts[role]
        if status == 401 and _taken_elsewhere(profile, clients[role]):
            d.add(Severity.NOTE, f"accounts.{role}", f"[accounts.{role}] username {acc.username!r} is refused on GET "
                  f"{_shown(path('listActiveExperts'))} but taken on the question list, where a wrong password is "
                  f"refused: the password is right and the suites judge the refusal (AUTH-BASIC)")
        elif status == 401:
            refused.append(role)
            d.add(Severity.STOP, f"accounts.{role}", f"[accounts.{role}] username {acc.username!r} is refused by the "
                  f"target (401 on GET {_shown(path('listActiveExperts'))}, which every account may read)",
                  f"check the password of {acc.username!r} (or the variable its password_env names) and the "
                  f"username in {profile.path}{_password_hint(acc.password)}")
    if not refused:
        d.add(Severity.OK, "accounts", f"{', '.join(ROLES)} authenticate")
    return not refused


def _taken_elsewhere(profile: Profile, client: ApiClient) -> bool:
    """Whether an account refused on the expert list is the target's fault, not a wrong profile: its credentials
    are taken on the question list while a wrong password for the same username is refused there. Stopping then
    would give no verdict for a target that mishandles one kind of password on one operation (a server splitting
    the credentials at the last colon on the expert lists did: exit 4 under pytest, no verdict)."""
    wrong = ApiClient(profile, "wrong_password", client.username, "qc-wrong-" + uuid.uuid4().hex[:8],
                      client.recorder)
    try:
        right = _status(client, path("listQuestions"), pageSize=1)
        refused = _status(wrong, path("listQuestions"), pageSize=1)
    finally:
        wrong.close()
    return right == 200 and refused == 401


def _password_hint(password: str) -> str:
    """What to check in a refused password that holds a colon or non-ASCII characters."""
    odd = [what for what, has in (("a colon", ":" in password),
                                  ("non-ASCII characters", any(ord(c) > 127 for c in password))) if has]
    if not odd:
        return ""
    return (f"; the password holds {' and '.join(odd)}, which the kit sends as Basic credentials do (the username "
            f"ends at the first colon; UTF-8): if it is right, the target mishandles it (AUTH-BASIC)")


_Check = Callable[..., bool | None]
"""A fixture check: ``(profile, clients, diagnosis)``, False when the rest is not worth asking."""


def _fixtures(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis, at_once: int = 1) -> None:
    """Each check on its own: one operation that does not answer (a hanging endpoint) leaves that check undone,
    for the suites to judge, and the others still run.

    The checks of one step (:data:`_STEPS`) read at the same time, each into a Diagnosis of its own, merged into
    ``d`` in the order of the checks; a step starts once the one before it is merged (the one-shot fixtures read
    the user ids; nothing after a wrong fixture question is asked)."""
    for step in _STEPS:
        parts = [_scratch(d) for _ in step]
        verdicts = fanout.gather([partial(_check, key, check, profile, clients, part, at_once)
                                  for (key, check), part in zip(step, parts, strict=True)], at_once)
        for part, verdict in zip(parts, verdicts, strict=True):
            _merge(d, part)
            if verdict is False:
                return  # the fixture question is wrong: the rest is not worth asking


def _check(key: str, check: _Check, profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis,
           at_once: int) -> bool | None:
    try:
        return check(profile, clients, d, at_once) if check is _question else check(profile, clients, d)
    except TargetUnreachable as exc:
        d.add(Severity.NOTE, key, f"not checked: an operation did not answer ({exc}); the suites judge it")
        return None


def _scratch(d: Diagnosis) -> Diagnosis:
    """A Diagnosis for one check: what the checks before it found (user ids), nothing of its own yet."""
    return Diagnosis(user_ids=dict(d.user_ids), record=d.record, base_url=d.base_url)


def _merge(d: Diagnosis, part: Diagnosis) -> None:
    """One check's findings and fixtures, after those of the checks before it."""
    d.findings.extend(part.findings)
    d.user_ids.update(part.user_ids)
    d.unusable.update(part.unusable)
    d.one_shots.update(part.one_shots)


def _user_ids(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    """Known (profile) or discovered; a profile id the lists contradict is a profile error."""
    shown = discover.account_ids({r: clients[r] for r in ROLES}, keep_known=False)
    for role in ROLES:
        given = profile.accounts[role].id
        if given is not None and role in shown and shown[role] != given:  # the profile's id is used all the same
            d.add(Severity.NOTE, f"accounts.{role}", f"[accounts.{role}] id = {given}, but the target lists "
                  f"{profile.accounts[role].username!r} as user {shown[role]}",
                  f"if the profile is wrong, set id = {shown[role]} under [accounts.{role}] (or leave id out: the kit "
                  "finds it); if the list is, the suites show it")
        found = given if given is not None else shown.get(role)
        if found is not None:
            d.user_ids[role] = found
    missing = [r for r in ROLES if r not in d.user_ids]
    known = [f"{r} {d.user_ids[r]}" + ("" if profile.accounts[r].id is not None else " (discovered)")
             for r in ROLES if r in d.user_ids]
    if known:
        discovered = any(profile.accounts[r].id is None for r in d.user_ids)
        d.add(Severity.NOTE if discovered else Severity.OK, "accounts", f"user ids: {', '.join(known)}")
    for role in missing:
        d.add(Severity.NOTE, f"accounts.{role}", f"the user id of {role} is in no list the doctor read (expert lists, "
              "question authors); the suites take it from the first comment the run posts as that account",
              f"or add id = <number> under [accounts.{role}]")


def _question(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis, at_once: int = 1) -> bool:
    """question_id: a question every account reads, in space_id. Judged only where the lists work: a target whose
    question list shows nothing (or no list) leaves the fixture unconfirmed, for the suites to judge the lists."""
    q, space = profile.fixtures.question_id, profile.fixtures.space_id
    listings = fanout.gather([partial(read_pages, clients[r], path("listQuestions"), {"spaceId": space}, stop_at=q)
                              for r in ROLES], at_once)
    seen = dict(zip(ROLES, listings, strict=True))
    if seen["admin"].find(q) is None:
        severity, message, fix = _question_missing(profile, clients, seen["admin"])
        d.add(severity, "fixtures.question_id", message, fix)
        return severity is not Severity.STOP
    blind = [r for r in ROLES if seen[r].find(q) is None and seen[r].complete and seen[r].items]
    if blind:
        d.add(Severity.STOP, "fixtures.question_id", f"question {q} is not in the question list of space {space} as "
              f"{', '.join(blind)} see it: the fixture question must be readable by every account",
              _suggest_question(clients, f"give {', '.join(blind)} View the question page in space {space}, or "
                                         "choose another question"))
        return False
    unsure = [r for r in ROLES if seen[r].find(q) is None]
    if unsure:
        d.add(Severity.NOTE, "fixtures.question_id", f"question {q} was not found in the question list of space "
              f"{space} as {', '.join(unsure)} see it: that they can read it is not confirmed")
        return True
    d.add(Severity.OK, "fixtures.question_id", f"question {q} is in space {space} and read by every account")
    return True


def _question_missing(profile: Profile, clients: Mapping[str, ApiClient],
                      in_space: Listing) -> tuple[Severity, str, str]:
    """Admin does not find the fixture question in its space: another space, no such question, or unconfirmed."""
    q, space = profile.fixtures.question_id, profile.fixtures.space_id
    anywhere = read_pages(clients["admin"], path("listQuestions"), stop_at=q)
    item = anywhere.find(q)
    if item is not None and as_id(item.get("primaryContainerId")) not in (None, space):
        real = as_id(item.get("primaryContainerId"))
        return (Severity.STOP, f"question {q} lives in space {real}, not in space_id {space}",
                f"set space_id = {real} under [fixtures] in {profile.path}")
    if item is None and (in_space.items or anywhere.items):  # the list works and shows other questions
        followers = _status(clients["admin"], path("listNodeFollowers", nodeId=q))
        # A list read to its end is evidence only where the node's own answer does not contradict it (200) or come
        # from a target that cannot answer it (5xx, a redirect to another host, or no usable answer): a target that
        # rotates garbage answers may hand over a short list of something else, and that is the suites' to judge, not
        # the profile's. (The doctor's reads go together, so which of them meets which garbage varies run by run.)
        unsure = followers == 0 or followers == 200 or 300 <= followers < 400 or followers >= 500
        not_found = 400 <= followers < 500 and followers not in (401, 403)
        if not_found or (in_space.complete or anywhere.complete) and not unsure:
            how = f"in no question list admin reads; GET {_shown(path('listNodeFollowers', nodeId=q))}: {followers}"
            return (Severity.STOP, f"question_id {q}: no such question on the target ({how})",
                    _suggest_question(clients, f"set question_id under [fixtures] in {profile.path} to a published "
                                               "question every account can read"))
    return (Severity.NOTE, f"question {q} was not found in the question lists admin reads (the first pages, or "
            f"the lists show no question): that it exists in space {space} is not confirmed",
            f"check question_id and space_id under [fixtures] in {profile.path}")


def _suggest_question(clients: Mapping[str, ApiClient], fix: str) -> str:
    spot = discover.readable_question({r: clients[r] for r in ROLES})
    if spot is None:
        return fix
    if not spot.own:  # someone else's content is never proposed as the place where runs write (issue 46)
        return f"{fix}, one your test accounts wrote"
    return (f"{fix} (every account reads question {spot.question_id}, in space {spot.space_id}, which "
            f"{spot.author} wrote)")


# ----------------------------------------------------------------------------------------------------------
# one-shot fixtures: the record of earlier runs, and what the interface shows of wiki nodes

def _one_shots(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    """Each one-shot node's state, from the target on every run (bounded reads: fixture_state), the record beside
    the profile as a hint where no read shows it; a node neither shows is unknown, and a run may still take it."""
    entries = ledger.latest(ledger.read(profile.path, profile.base_url))
    pools = {name: profile.pools.get(name) or tuple(v for v in (getattr(profile.fixtures, name),) if v is not None)
             for name in ledger.CONSUMABLE}
    wikis = {n for name, pool in pools.items() if name != "favorite_node_id" for n in pool}
    shown = fixture_state.wiki_shown(clients["admin"], d.user_ids, wikis) if wikis else {}
    for name, pool in pools.items():
        if not pool:
            if name in ledger.WIKI_KIND_FIXTURES:  # wiki21: say why the seeds of its kind take the question
                # qa21: without wiki_node_id too (a CI profile), those seeds check no unwikify at all
                instead = ("the unwikify acts on wiki_node_id instead (that path is not taken)"
                           if pools["wiki_node_id"] else
                           "no unwikify of another's wiki node is checked (wiki_node_id is not in the profile either)")
                d.add(Severity.NOTE, f"fixtures.{name}", f"{name} is not in the profile: on the seeds that draw "
                      f"{WIKI_KIND_DRAWN[name]} {instead}",
                      f"name {WIKI_KIND_WHAT[name]} under [fixtures] {name} (docs/profile.md)")
            continue
        states = fixture_state.decide(name, pool, shown if name != "favorite_node_id" else {}, entries)
        chosen = fixture_state.choose(states)
        gone = tuple(n for n in pool if states[n] is FixtureState.NOT_IN_STATE)
        unknown = tuple(n for n in pool if states[n] is FixtureState.UNKNOWN)
        left = [n for n in pool if n not in gone]
        after = left[left.index(chosen) + 1:] if chosen in left else []
        d.one_shots[name] = OneShot(name, pool, chosen, gone, len(after), unknown)
        _report_one_shot(d, name, pool, chosen, gone, entries, shown)


WIKI_KIND_DRAWN = {"wiki_answer_id": "'an answer'", "accepted_wiki_question_id": "'an accepted question'"}
WIKI_KIND_WHAT = {"wiki_answer_id": "a community-wiki answer someone other than member wrote",
                  "accepted_wiki_question_id": "a community-wiki question holding an accepted answer, written by "
                                               "none of the accounts"}


def _report_one_shot(d: Diagnosis, name: str, pool: tuple[int, ...], chosen: int | None, gone: tuple[int, ...],
                     entries: Mapping[tuple[str, int], ledger.Consumed], shown: Mapping[int, bool]) -> None:
    key = f"fixtures.{name}"
    by_record = [n for n in gone if n not in shown]
    not_wiki = [n for n in gone if n in shown]
    parts = [f"{_nodes(not_wiki)} no longer wiki"] if not_wiki else []
    if by_record:
        runs = ", ".join(dict.fromkeys(entries[(name, n)].run for n in by_record))
        parts.append(f"{_nodes(by_record)} consumed by run {runs} (recorded in {d.record})")
    why = "; ".join(parts)
    renew = f"renew: list nodes in their state under [fixtures] {name}, as many as you have: a list is a pool" + (
        f"; once a node is restored, delete its entry from {d.record}" if by_record else "")
    if chosen is None:
        d.unusable[name] = consumed_reason(name, why) if not not_wiki else not_in_state(name, why)
        d.add(Severity.FIXTURE, key, f"{name}: nothing left in its state ({why}); its tests skip", renew)
        return
    shot = d.one_shots[name]
    more = shot.left_after
    if shot.state is FixtureState.UNKNOWN:
        text = f"{name}: the state of node {chosen} is unknown ({_unshown(name)}); this run tries it, and if it " \
               "proves consumed " + ("the run moves on to the pool's next node (pool26); past the last, " if more
                                     else "") + "its tests read \"not checked: fixture not in its state\", never failed"
    else:
        text = f"{name}: this run uses node {chosen}, in its state"
    text += f" ({why})" if gone else ""
    if len(pool) > 1:
        text += f"; {more} more in the pool after it"
    last = len(pool) > 1 and more == 0
    fix = f"the pool's last node: {renew}" if last else ""
    if shot.state is FixtureState.UNKNOWN:
        fix = (f"when you renew {name}, say so in {d.record} (an entry with \"state\": \"fresh\": docs/profile.md); "
               "its tests are then failures, not skips, if the node proves not in its state") + (
            f"; {fix}" if fix else "")
    severity = Severity.NOTE if gone or last or shot.state is FixtureState.UNKNOWN else Severity.OK
    d.add(severity, key, text, fix)


def _unshown(name: str) -> str:
    if name == "favorite_node_id":
        return "no read of the interface shows a favorite, and no record says"
    return "in none of the lists the doctor read, at both ends, and no record says"


def _nodes(nodes: list[int]) -> str:
    return ("node " if len(nodes) == 1 else "nodes ") + ", ".join(map(str, nodes))


# ----------------------------------------------------------------------------------------------------------
# the other optional fixtures

def _hidden_space(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    """hidden_space_id: novice may not list it. A space list that shows it to novice while novice is shown none of
    its questions is the space list's failure (PERM-SPACES-PER-SPACE, for the suites to judge), not the profile's:
    only a space whose questions novice reads as well is not hidden."""
    hidden = profile.fixtures.hidden_space_id
    if hidden is None:
        return
    if hidden not in read_pages(clients["novice"], path("listSpaces")).ids():
        if _no_such_space(hidden, clients["admin"]):  # qa19: a typo (30 for 3) was "ok: hidden from novice"
            d.unusable["hidden_space_id"] = not_in_state("hidden_space_id", f"admin lists no space {hidden}")
            found = discover.hidden_space(clients["admin"], clients["novice"])
            d.add(Severity.FIXTURE, "fixtures.hidden_space_id", f"space {hidden} is in no space list admin reads, "
                  "nor does admin read a question in it: no such space on the target (a hidden space exists and is "
                  "hidden from novice only); the tests of hidden spaces skip",
                  f"set hidden_space_id = {found}" if found else "give novice no View the questions list in a "
                  "space and name it as hidden_space_id")
            return
        d.add(Severity.OK, "fixtures.hidden_space_id", f"space {hidden} is hidden from novice")
        return
    questions = {r: read_pages(clients[r], path("listQuestions"), {"spaceId": hidden}, max_pages=1)
                 for r in ("admin", "novice")}
    if questions["admin"].items and not questions["novice"].items:
        d.add(Severity.NOTE, "fixtures.hidden_space_id", f"novice lists space {hidden} but is shown none of its "
              "questions: the space is hidden from novice, and the suites judge the space list")
        return
    d.unusable["hidden_space_id"] = not_in_state("hidden_space_id", f"novice lists space {hidden} and its questions")
    found = discover.hidden_space(clients["admin"], clients["novice"])
    d.add(Severity.FIXTURE, "fixtures.hidden_space_id", f"space {hidden} is listed for novice, and so are its "
          "questions: it is not hidden from novice; the tests of hidden spaces skip",
          f"set hidden_space_id = {found}" if found else "give novice no View the questions list in a space and "
          "name it as hidden_space_id")


def _no_such_space(space: int, admin: ApiClient) -> bool:
    """Whether admin's whole space list names other spaces but not ``space``, and admin reads no question in it: a
    space that is not there (an empty or cut list, or questions shown in it, is no proof: the suites judge those)."""
    spaces = read_pages(admin, path("listSpaces"))
    if not spaces.complete or not spaces.ids() or space in spaces.ids():
        return False
    return not read_pages(admin, path("listQuestions"), {"spaceId": space}, max_pages=1).items


def _locked_question(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    """locked_question_id, when given: a question on the target. A wrong id puts moderator's shared answer (an
    accepted write) under another node or has it refused: a profile error, found before any test, as a wrong
    question_id is. That it is locked no read shows (the profile's word). Judged only where the lists work: a node
    no list shows is a stop only when its own read says there is none (4xx), or admin's question list, read to its
    end, does not hold a node that exists; else noted, for the suites."""
    locked = profile.fixtures.locked_question_id
    if locked is None:
        return
    key, listed = "fixtures.locked_question_id", read_pages(clients["admin"], path("listQuestions"), stop_at=locked)
    if listed.find(locked) is not None:
        d.add(Severity.OK, key, f"question {locked} exists (that it is locked no read shows: the profile's word)")
        return
    where = _shown(path("listNodeFollowers", nodeId=locked))
    status = _status(clients["admin"], path("listNodeFollowers", nodeId=locked)) if listed.items else 0
    fix = (f"set locked_question_id under [fixtures] in {profile.path} to a published question every account can "
           "view and that is locked on the site, or leave it out (its test then skips)")
    if 400 <= status < 500 and status not in (401, 403):
        d.add(Severity.STOP, key, f"locked_question_id {locked}: no such question on the target (in no question "
              f"list admin reads; GET {where}: {status})", fix)
    elif status == 200 and listed.complete:
        d.add(Severity.STOP, key, f"locked_question_id {locked} is not a question: node {locked} exists (GET "
              f"{where}: 200), but admin's question list, read to its end, does not hold it", fix)
    else:
        d.add(Severity.NOTE, key, f"question {locked} was not found in the question lists admin reads (the first "
              "pages, or the lists show no question): that it is a question is not confirmed",
              f"check locked_question_id under [fixtures] in {profile.path}")


def _tracker(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    """issue_tracker: the issue-type list answers under it. A 404 there while another segment answers is a profile
    mistake (its tests skip); a 404 with no segment answering may be the server's failure: noted, the suites judge."""
    segment = profile.fixtures.issue_tracker
    if segment is None:
        return
    where = _shown(path("listIssueTypes", tracker=segment))
    if discover.tracker_answers(clients["admin"], segment):
        d.add(Severity.OK, "fixtures.issue_tracker", f"GET {where} answers")
        return
    status = _status(clients["admin"], path("listIssueTypes", tracker=segment))
    found = discover.issue_tracker(clients["admin"]) if status == 404 else None
    if found is not None and found != segment:
        d.unusable["issue_tracker"] = not_in_state("issue_tracker", f"GET {where} answers 404; the issue types "
                                                   f"answer under {found!r}")
        d.add(Severity.FIXTURE, "fixtures.issue_tracker", f"the issue-type list does not answer under {segment!r} "
              f"(404) but under {found!r}; its tests skip", f'set issue_tracker = "{found}" in {profile.path}')
        return
    d.add(Severity.NOTE, "fixtures.issue_tracker", f"GET {where} answers {status}, not a list of issue types: the "
          "suites judge it", "if the issue-tracker integration is not set up there, leave issue_tracker out of "
          "the profile (its tests then skip)")


def _gdpr_user(profile: Profile, clients: Mapping[str, ApiClient], d: Diagnosis) -> None:
    s = profile.safety
    if not s.gdpr_user:
        return
    if s.gdpr_user_id is not None:
        status = _status(clients["admin"], path("listUserContent", userId=s.gdpr_user_id))
        if status == 422:
            d.unusable["gdpr_user"] = not_in_state("gdpr_user", f"user {s.gdpr_user_id} is an Invalid User Id")
            d.add(Severity.FIXTURE, "safety.gdpr_user_id", f"gdpr_user_id {s.gdpr_user_id}: the target has no such "
                  "user (422 Invalid User Id); the successful data-protection jobs are not sent",
                  "set gdpr_user_id to the id of gdpr_user")
            return
        d.add(Severity.OK, "safety.gdpr_user", f"user {s.gdpr_user_id} ({s.gdpr_user}) exists")
        return
    probe = ApiClient(profile, "gdpr_user", s.gdpr_user, None, clients["admin"].recorder)
    found = discover.account_ids({"admin": clients["admin"], "gdpr_user": probe}, keep_known=False)
    probe.close()
    if "gdpr_user" in found:
        d.add(Severity.OK, "safety.gdpr_user", f"{s.gdpr_user} exists (user {found['gdpr_user']})")
    else:
        d.add(Severity.NOTE, "safety.gdpr_user", f"{s.gdpr_user} is in no list the doctor read: that it exists is "
              "not confirmed", "add gdpr_user_id under [safety] (the doctor then checks it)")


_STEPS: tuple[tuple[tuple[str, _Check], ...], ...] = (
    (("accounts", _user_ids), ("fixtures.question_id", _question)),
    (("fixtures", _one_shots), ("fixtures.hidden_space_id", _hidden_space), ("fixtures.issue_tracker", _tracker),
     ("safety.gdpr_user", _gdpr_user), ("fixtures.locked_question_id", _locked_question),
     ("visibility", visibility_values.check)),
)
"""The fixture checks, in the order of their findings, by step: the checks of a step read at the same time."""


# ----------------------------------------------------------------------------------------------------------
# the text

_MARK = {Severity.OK: "ok", Severity.NOTE: "note", Severity.FIXTURE: "SKIP", Severity.STOP: "ERROR",
         Severity.UNREACHABLE: "ERROR"}


def render(d: Diagnosis, profile: Profile) -> str:
    """The doctor's report for a terminal: one line per check, problems with their fix, then the verdict."""
    lines = [f"qaconform doctor: profile {profile.path}, target {profile.base_url}"]
    for f in d.findings:
        lines.append(f"  {_MARK[f.severity]:<5} {f.message}")
        if f.fix and f.severity is not Severity.OK:
            lines.append(f"        fix: {f.fix}")
    problems = d.of(Severity.STOP, Severity.UNREACHABLE)
    skips = d.of(Severity.FIXTURE)
    if problems:
        lines.append(f"verdict: the profile cannot be used ({_n(len(problems), 'problem')}); nothing but reads was "
                     f"sent (exit {d.exit_code})")
    else:
        lines.append("verdict: the profile is usable" + (
            f"; {_n(len(skips), 'fixture')} not in the state the profile says: the tests that need "
            f"{'it' if len(skips) == 1 else 'them'} skip" if skips else ""))
    return "\n".join(lines)


def _n(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
