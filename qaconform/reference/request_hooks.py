"""The planted faults' hooks around every call: one list (:data:`HOOKS`), which ``dispatch.endpoint`` runs stage by
stage while a fault is on. A blind round that bites around the handler adds one :class:`Hook` here (its module's
functions, each adapted to the stage's one signature) and never edits dispatch.py.

Why one list: dispatch.py imported six such modules and called each by name at each stage, so every round edited
the endpoint, and the order of its calls was decided anew each time. Each hook leaves the call as it is unless one of
its own faults is on (``faults.is_on``), so with one fault on (every run of the self-test) their order cannot matter;
with faults of two rounds on for one call, they run in the order of the list.

Stages, in the order of a call:

- ``ahead_of_auth``: before the caller is known (a request read as the broken server reads it);
- ``before``: once the caller is let in: a response that replaces the handler's (the first hook that gives one wins);
- ``admitted``: the request as the handler is to read it (runs even when ``before`` gave a response: a planted
  refusal is raised here);
- ``after``: the handler's response as the broken server serves it;
- ``refusal``: a refusal (``ApiError``) answered off the interface (a redirect ...); the first hook that answers wins;
- ``refusal_body``: a refusal's JSON body as the broken server writes it.

``response_faults`` (the list rewrites and the response cache of the shared fault registry) stays wired in
dispatch.py by name: it is no blind round's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    actors_paths,
    alone13_paths,
    blind8_paths,
    blind_perms,
    blind_round9,
    blind_round10,
    blind_round12,
    blind_round16,
    blind_round17,
    blind_round18,
    blind_round19,
    blind_round20,
    blind_round21,
    blind_round22,
    blind_round23,
    blind_round24,
    blind_round25,
    blind_round26,
    blind_round27,
    blind_round28,
    blind_round29,
    blind_round30,
    blind_round31,
    blind_round32,
    blind_round34,
    blind_round35,
    blind_round36,
    blind_round37,
    blind_round38,
    blind_round39,
    blind_round40,
    blind_round42,
    blind_round43,
    blind_round44,
    blind_round46,
    blind_round47,
    blind_round48,
    blind_round49,
    blind_round50,
    blind_round51,
    blind_round52,
    blind_round53,
    blind_round54,
    blind_round55,
    blind_round56,
    blind_round57,
    blind_round58,
    combos2_paths,
    cross17_paths,
    fix2jobs_paths,
    fix22_paths,
    fix23_paths,
    fix26_paths,
    fix27_paths,
    fix28_paths,
    fix29_paths,
    fix30_paths,
    fix31_paths,
    fix33_paths,
    forms9_paths,
    histories2_faults,
    histories3_faults,
    history_faults,
    lists9_paths,
    paths13_doors,
    paths14_paths,
    paths15_paths,
    paths16_paths,
    paths17_paths,
    paths19_paths,
    readers_paths,
    reads16_paths,
    recip_paths,
    refusals2_paths,
    refusals3_paths,
    wiki20_paths,
)
from .auth import Caller
from .errors import ApiError
from .service import Service

Handler = Callable[[Service, Request, Caller], Awaitable[Response]]


@dataclass(frozen=True)
class Hook:
    """One round's functions, by stage (None: the round does nothing at that stage)."""

    name: str
    """The round, as its faults' prefix reads (blind8, blindh ...)."""
    ahead_of_auth: Callable[[Service, str, Request], None] | None = None
    before: Callable[[Service, str, Request, Caller, Handler], Awaitable[Response | None]] | None = None
    admitted: Callable[[Service, str, Request, Caller], Request] | None = None
    after: Callable[[Service, str, Request, Caller, Response], Response] | None = None
    refusal: Callable[[Service, str, Request, Caller | None, ApiError], Response | None] | None = None
    refusal_body: Callable[[Request, ApiError, dict[str, Any]], dict[str, Any]] | None = None


async def _refusals2_before(svc: Service, op: str, request: Request, caller: Caller,
                            _h: Handler) -> Response | None:
    return refusals2_paths.path_edge(op, request)


async def _blind8_before(svc: Service, op: str, request: Request, caller: Caller, _h: Handler) -> Response | None:
    return await blind8_paths.before(svc, op, request, caller)


HOOKS: list[Hook] = [
    Hook("blind9", ahead_of_auth=lambda svc, op, request: blind_round9.ahead_of_auth(op, request),
         admitted=blind_round9.admitted,
         after=lambda svc, op, request, caller, response: blind_round9.after(svc, op, request, response)),
    Hook("blind10", ahead_of_auth=blind_round10.ahead_of_auth, before=blind_round10.before,
         after=blind_round10.after),
    Hook("blindh", after=lambda svc, op, request, caller, response: history_faults.after(svc.db, op, request, caller,
                                                                                         response)),
    Hook("histories2", after=lambda svc, op, request, caller, response: histories2_faults.after(
        svc.db, op, request, caller, response)),
    Hook("histories3", after=lambda svc, op, request, caller, response: histories3_faults.after(
        svc.db, op, request, response)),  # histories3 (issue 44): depth 3 under an answer
    Hook("blind8", before=_blind8_before, after=blind8_paths.after,
         refusal=lambda svc, op, request, caller, exc: blind8_paths.refusal(request, exc)),
    Hook("blindp", refusal_body=blind_perms.refusal_body),
    Hook("combos2", refusal=combos2_paths.refusal),
    Hook("refusals2", before=_refusals2_before,
         refusal=lambda svc, op, request, caller, exc: refusals2_paths.refusal(svc, op, request, exc)),
    Hook("round12", after=lambda svc, op, request, caller, response: blind_round12.after(op, request, caller,
                                                                                         response),
         refusal_body=blind_round12.refusal_body),
    Hook("refusals3", refusal=refusals3_paths.refusal),  # refusals3 (issue 44): refusals under a reply
    Hook("round16", before=blind_round16.before, after=blind_round16.after),  # round16 (issue 44)

    Hook("round17", before=blind_round17.before, admitted=blind_round17.admitted,
         after=blind_round17.after),  # round17 (issue 44): blind round 17
    Hook("readers", after=readers_paths.after),  # readers (issue 44): a bare-array list's shape for one reader

    Hook("actors", after=actors_paths.after),  # actors (issue 44): one account's effect, posted text content

    Hook("blind18", before=blind_round18.before, after=blind_round18.after),  # round18 (issue 44): blind round 18
    Hook("round19", before=blind_round19.before, admitted=blind_round19.admitted, after=blind_round19.after,
         refusal=blind_round19.refusal),  # round19 (issue 44): blind round 19

    Hook("round20", before=blind_round20.before,
         after=lambda svc, op, request, caller, response: blind_round20.after(svc, op, request, caller,
                                                                              response)),  # round20 (issue 44)
    Hook("round21", before=blind_round21.before, after=blind_round21.after),  # round21 (issue 44): blind round 21

    Hook("fix2jobs", before=fix2jobs_paths.before),  # fix2jobs (issue 44): a job rule for one kind and date form

    Hook("round22", before=blind_round22.before, after=blind_round22.after),  # round22 (issue 44): blind round 22
    Hook("fix22", before=fix22_paths.before),  # fix22 (issue 44): job rows with optional fields, ids as text
    Hook("round23", before=blind_round23.before, admitted=blind_round23.admitted,
         after=blind_round23.after),  # round23 (issue 44): blind round 23
    Hook("fix23", admitted=fix23_paths.admitted, after=fix23_paths.after),  # fix23 (issue 44)

    Hook("round24", before=blind_round24.before, after=blind_round24.after),  # round24 (issue 44): blind round 24

    Hook("round25", ahead_of_auth=blind_round25.ahead_of_auth, before=blind_round25.before,
         after=blind_round25.after),  # round25 (issue 44): blind round 25

    Hook("round26", admitted=blind_round26.admitted, after=blind_round26.after),  # round26 (issue 44): blind round 26
    Hook("fix26", before=fix26_paths.before, admitted=fix26_paths.admitted,
         after=fix26_paths.after),  # fix26 (issue 44): round 26's kinds on neighbouring paths
    Hook("round27", before=blind_round27.before, after=blind_round27.after),  # round27 (issue 44): blind round 27
    Hook("fix27", after=fix27_paths.after),  # fix27 (issue 44): a reply under a locked private comment
    Hook("round28", before=blind_round28.before, after=blind_round28.after,
         refusal=blind_round28.refusal),  # round28 (issue 44): blind round 28
    Hook("fix28", after=fix28_paths.after),  # fix28 (issue 44): marked under the question list's parameters
    Hook("recip", after=recip_paths.after),  # recip (issue 44): the first read after a reply is posted
    Hook("forms9", before=forms9_paths.before,
         admitted=forms9_paths.admitted),  # forms9 (issue 44 item 3): a form on one parent kind
    Hook("round29", before=blind_round29.before, after=blind_round29.after),  # round29 (issue 44): blind round 29
    Hook("fix29", after=fix29_paths.after),  # fix29 (issue 44): one kind of user's content list
    Hook("round31", before=blind_round31.before, after=blind_round31.after),  # round31 (issue 44): blind round 31
    Hook("lists9", after=lists9_paths.after),  # lists9 (issue 44): an item field under one parameter set of a list
    Hook("round30", before=blind_round30.before, after=blind_round30.after,
         refusal_body=blind_round30.refusal_body),  # round30 (issue 44): blind round 30
    Hook("fix30", after=fix30_paths.after),  # fix30 (issue 44): a send to moderation after an unwikify
    Hook("fix31", before=fix31_paths.before),  # fix31 (issue 44): a follower list's node id past 32 bits
    Hook("round32", before=blind_round32.before, admitted=blind_round32.admitted,
         after=blind_round32.after),  # round32 (issue 44): blind round 32
    Hook("fix33", after=fix33_paths.after),  # fix33 (issue 44): a send to moderation of a followed node
    Hook("round34", before=blind_round34.before, after=blind_round34.after),  # round34 (issue 44): blind round 34
    Hook("round35", before=blind_round35.before, admitted=blind_round35.admitted,
         after=blind_round35.after),  # round35 (issue 44): blind round 35
    Hook("round36", before=blind_round36.before, admitted=blind_round36.admitted, after=blind_round36.after,
         refusal=blind_round36.refusal),  # round36 (issue 44): blind round 36
    Hook("paths13", refusal=paths13_doors.refusal),  # paths13 (issue 44): anonymous on found nodes
    Hook("round37", before=blind_round37.before, after=blind_round37.after),  # round37 (issue 44): blind round 37
    Hook("alone13", admitted=alone13_paths.admitted,
         after=alone13_paths.after),  # alone13 (issue 44 item 1): a parameter alone for one reader
    Hook("round40", before=blind_round40.before, admitted=blind_round40.admitted,
         after=blind_round40.after),  # round40 (issue 44): blind round 40
    Hook("paths14", after=paths14_paths.after,
         refusal=paths14_paths.refusal),  # paths14 (issue 44 items 1, 2): a parameter alone; the last caller
    Hook("paths15", after=paths15_paths.after),  # paths15 (issue 44): marked for one reader, a lock's record
    Hook("round39", before=blind_round39.before, after=blind_round39.after),  # round39 (issue 44): blind round 39
    Hook("round38", before=blind_round38.before, after=blind_round38.after,
         refusal=blind_round38.refusal),  # round38 (issue 44): blind round 38
    Hook("round42", before=blind_round42.before, admitted=blind_round42.admitted,
         after=blind_round42.after),  # round42 (issue 44): blind round 42
    Hook("round43", before=blind_round43.before, after=blind_round43.after,
         refusal=blind_round43.refusal),  # round43 (issue 44): blind round 43
    Hook("round44", before=blind_round44.before, admitted=blind_round44.admitted,
         after=blind_round44.after),  # round44 (issue 44): blind round 44
    Hook("round46", before=blind_round46.before, admitted=blind_round46.admitted,
         after=blind_round46.after),  # round46 (issue 44): blind round 46
    Hook("round47", before=blind_round47.before, admitted=blind_round47.admitted,
         after=blind_round47.after),  # round47 (issue 44): blind round 47
    Hook("round49", before=blind_round49.before, admitted=blind_round49.admitted,
         after=blind_round49.after),  # round49 (issue 44): blind round 49
    Hook("round48", before=blind_round48.before, admitted=blind_round48.admitted,
         after=blind_round48.after),  # round48 (issue 44): blind round 48
    Hook("paths16", after=paths16_paths.after),  # paths16 (issue 44): admin's unwikify, a question comment's record
    Hook("reads16", after=reads16_paths.after),  # reads16 (issue 44 item 1): a filtered read's page
    Hook("round50", before=blind_round50.before, admitted=blind_round50.admitted, after=blind_round50.after,
         refusal_body=blind_round50.refusal_body),  # round50 (issue 44): blind round 50
    Hook("paths17", before=paths17_paths.before,
         after=paths17_paths.after),  # paths17 (issue 44): a Content-Type with a parameter, an action's options
    Hook("cross17", refusal=cross17_paths.refusal),  # cross17 (issue 44 item 7): a refusal on an older answer
    Hook("round52", before=blind_round52.before, admitted=blind_round52.admitted,
         after=blind_round52.after),  # round52 (issue 44): blind round 52
    Hook("round51", before=blind_round51.before, admitted=blind_round51.admitted,
         after=blind_round51.after),  # round51 (issue 44): blind round 51
    Hook("round53", before=blind_round53.before, admitted=blind_round53.admitted, after=blind_round53.after,
         refusal_body=blind_round53.refusal_body),  # round53 (issue 44): blind round 53
    Hook("round54", before=blind_round54.before, admitted=blind_round54.admitted,
         after=blind_round54.after),  # round54 (issue 44): blind round 54
    Hook("round55", before=blind_round55.before, admitted=blind_round55.admitted, after=blind_round55.after,
         refusal_body=blind_round55.refusal_body),  # round55 (issue 44): blind round 55
    Hook("paths19", after=paths19_paths.after),  # paths19 (issue 44 items 2, 5): a node cache keyed without the reader
    Hook("wiki20", after=wiki20_paths.after),  # wiki20 (issue 44): accepted actions on wiki nodes
    Hook("round57", before=blind_round57.before, admitted=blind_round57.admitted,
         after=blind_round57.after),  # round57 (issue 44): blind round 57
    Hook("round56", before=blind_round56.before, admitted=blind_round56.admitted, after=blind_round56.after,
         refusal_body=blind_round56.refusal_body),  # round56 (issue 44): blind round 56
    Hook("round58", before=blind_round58.before, admitted=blind_round58.admitted, after=blind_round58.after,
         refusal=blind_round58.refusal),  # round58 (issue 44): blind round 58
]
"""Every blind round's hooks, in the order they run at each stage (the ``after`` chain in the order dispatch.py
called it by name). A new round: one entry."""

# --- forms20 (issue 44 item 3): an option of an accepted write dropped in one input form
from . import forms20_paths  # noqa: E402

HOOKS.append(Hook("forms20", before=forms20_paths.before, admitted=forms20_paths.admitted))


def ahead_of_auth(svc: Service, op: str, request: Request) -> None:
    for hook in HOOKS:
        if hook.ahead_of_auth is not None:
            hook.ahead_of_auth(svc, op, request)


async def before(svc: Service, op: str, request: Request, caller: Caller, handler: Handler) -> Response | None:
    for hook in HOOKS:
        if hook.before is not None and (response := await hook.before(svc, op, request, caller, handler)) is not None:
            return response
    return None


def admitted(svc: Service, op: str, request: Request, caller: Caller) -> Request:
    for hook in HOOKS:
        if hook.admitted is not None:
            request = hook.admitted(svc, op, request, caller)
    return request


def after(svc: Service, op: str, request: Request, caller: Caller, response: Response) -> Response:
    """``request``: as the client sent it (not as ``admitted`` rewrote it)."""
    for hook in HOOKS:
        if hook.after is not None:
            response = hook.after(svc, op, request, caller, response)
    return response


def refusal(svc: Service, op: str, request: Request, caller: Caller | None, exc: ApiError) -> Response | None:
    for hook in HOOKS:
        if hook.refusal is not None and (response := hook.refusal(svc, op, request, caller, exc)) is not None:
            return response
    return None


def refusal_body(request: Request, exc: ApiError, body: dict[str, Any]) -> dict[str, Any]:
    for hook in HOOKS:
        if hook.refusal_body is not None:
            body = hook.refusal_body(request, exc, body)
    return body

# --- trades20 (issue 44 items 2, 7): member's refusals on an administrator's node
from . import trades20_paths  # noqa: E402

HOOKS.append(Hook("trades20", refusal=trades20_paths.refusal))

# --- blind round 59 (issue 44): drawn must-rules (seed 20261218) + seven outside kinds, measured blind
from . import blind_round59  # noqa: E402

HOOKS.append(Hook("round59", before=blind_round59.before, admitted=blind_round59.admitted, after=blind_round59.after))
# --- order20 (issue 44 item 6): a projected list read with the caller of the plain read before it
from . import order20_paths  # noqa: E402

HOOKS.append(Hook("order20", before=order20_paths.before, after=order20_paths.after))

# --- blind round 60 (issue 44): drawn must-rules (seed 20261219) + eight outside kinds, measured blind
from . import blind_round60  # noqa: E402

HOOKS.append(Hook("round60", before=blind_round60.before, admitted=blind_round60.admitted, after=blind_round60.after,
                  refusal=blind_round60.refusal))
# --- blind round 61 (issue 44): drawn must-rules (seed 20261219) + eight outside kinds, measured blind
from . import blind_round61  # noqa: E402

HOOKS.append(Hook("round61", before=blind_round61.before, admitted=blind_round61.admitted, after=blind_round61.after))
# --- blind round 62 (issue 44): drawn must-rules (seed 20261219) + eight outside kinds, measured blind
from . import blind_round62  # noqa: E402

HOOKS.append(Hook("round62", before=blind_round62.before, admitted=blind_round62.admitted, after=blind_round62.after))
# --- blind round 63 (issue 44): drawn must-rules (seed 20261201) + eight outside kinds, measured blind
from . import blind_round63  # noqa: E402

HOOKS.append(Hook("round63", before=blind_round63.before, admitted=blind_round63.admitted, after=blind_round63.after))
# --- blind round 64 (issue 44): drawn must-rules (seed 20261201) + eight outside kinds, measured blind
from . import blind_round64  # noqa: E402

HOOKS.append(Hook("round64", before=blind_round64.before, after=blind_round64.after))
# --- blind round 65 (issue 44): drawn must-rules (seed 20261201) + eight outside kinds, measured blind
from . import blind_round65  # noqa: E402

HOOKS.append(Hook("round65", before=blind_round65.before, admitted=blind_round65.admitted, after=blind_round65.after,
                  refusal_body=blind_round65.refusal_body))
# --- blind round 66 (issue 44): fifteen outside kinds on the session's merged suites, measured blind
from . import blind_round66  # noqa: E402

HOOKS.append(Hook("round66", before=blind_round66.before, admitted=blind_round66.admitted, after=blind_round66.after))

# --- blind round 67 (issue 44): drawn must-rules (seed 20261202) + eight outside kinds, measured blind
from . import blind_round67  # noqa: E402

HOOKS.append(Hook("round67", before=blind_round67.before, admitted=blind_round67.admitted, after=blind_round67.after))
# --- blind round 68 (issue 44): drawn must-rules (seed 20261202) + eight outside kinds, measured blind
from . import blind_round68  # noqa: E402

HOOKS.append(Hook("round68", before=blind_round68.before, admitted=blind_round68.admitted, after=blind_round68.after,
                  refusal=blind_round68.refusal))
# --- blind round 69 (issue 44): drawn must-rules (seed 20261202) + eight outside kinds, measured blind
from . import blind_round69  # noqa: E402

HOOKS.append(Hook("round69", before=blind_round69.before, admitted=blind_round69.admitted, after=blind_round69.after))
# --- accept23 (issue 44): the lock of a wiki node, a to-moderators comment in a child space
from . import accept23_paths  # noqa: E402

HOOKS.append(Hook("accept23", before=accept23_paths.before, after=accept23_paths.after))
# --- blind round 70 (issue 44): drawn must-rules (seed 20261203) + eight outside kinds, measured blind
from . import blind_round70  # noqa: E402

HOOKS.append(Hook("round70", ahead_of_auth=blind_round70.ahead_of_auth, before=blind_round70.before,
                  admitted=blind_round70.admitted, after=blind_round70.after))
# --- blind round 71 (issue 44): drawn must-rules (seed 20261203) + eight outside kinds, measured blind
from . import blind_round71  # noqa: E402

HOOKS.append(Hook("round71", before=blind_round71.before, admitted=blind_round71.admitted, after=blind_round71.after))
# --- blind round 72 (issue 44): drawn must-rules (seed 20261203) + eight outside kinds, measured blind
from . import blind_round72  # noqa: E402

HOOKS.append(Hook("round72", before=blind_round72.before, admitted=blind_round72.admitted, after=blind_round72.after))
# --- blind round 73 (issue 44): drawn must-rules (seed 20261204) + eight outside kinds, measured blind
from . import blind_round73  # noqa: E402

HOOKS.append(Hook("round73", before=blind_round73.before, admitted=blind_round73.admitted, after=blind_round73.after,
                  refusal=blind_round73.refusal))
# --- blind round 74 (issue 44): drawn must-rules (seed 20261204) + eight outside kinds, measured blind
from . import blind_round74  # noqa: E402

HOOKS.append(Hook("round74", before=blind_round74.before, admitted=blind_round74.admitted, after=blind_round74.after))
# --- blind round 75 (issue 44): its faults around the handler
from . import blind_round75  # noqa: E402

HOOKS.append(Hook("round75", before=blind_round75.before, admitted=blind_round75.admitted, after=blind_round75.after))
# --- blind round 76 (issue 44): drawn must-rules (seed 20261205) + eight outside kinds, measured blind
from . import blind_round76  # noqa: E402

HOOKS.append(Hook("round76", before=blind_round76.before, admitted=blind_round76.admitted, after=blind_round76.after))
# --- blind round 77 (issue 44): its faults around the handler
from . import blind_round77  # noqa: E402

HOOKS.append(Hook("round77", before=blind_round77.before, admitted=blind_round77.admitted, after=blind_round77.after))
# --- blind round 78 (issue 44): drawn must-rules (seed 20261205) + eight outside kinds, measured blind
from . import blind_round78  # noqa: E402

HOOKS.append(Hook("round78", before=blind_round78.before, admitted=blind_round78.admitted, after=blind_round78.after))
# --- blind round 81 (issue 44): drawn must-rules (seed 20261206) + eight outside kinds, measured blind
from . import blind_round81  # noqa: E402

HOOKS.append(Hook("round81", before=blind_round81.before, admitted=blind_round81.admitted, after=blind_round81.after,
                  refusal=blind_round81.refusal))
# --- blind round 80 (issue 44): drawn must-rules (seed 20261206) + eight outside kinds, measured blind
from . import blind_round80  # noqa: E402

HOOKS.append(Hook("round80", before=blind_round80.before, admitted=blind_round80.admitted, after=blind_round80.after))
# --- closeb (issue 44): a send in a child space, an unwikify of an accepted wiki question, a send of an answered one
from . import closeb_paths  # noqa: E402

HOOKS.append(Hook("closeb", before=closeb_paths.before, after=closeb_paths.after))
# --- closea (issue 44): one more fault of each kind closea closed
from . import closea  # noqa: E402

HOOKS.append(Hook("closea", before=closea.before))
# --- blind round 79 (issue 44): drawn must-rules (seed 20261206) + eight outside kinds, measured blind
from . import blind_round79  # noqa: E402

HOOKS.append(Hook("round79", before=blind_round79.before, admitted=blind_round79.admitted, after=blind_round79.after))
# --- accept24 (issue 44 item 5): the lock after another account's send, the lock after an unwikify
from . import accept24_paths  # noqa: E402

HOOKS.append(Hook("accept24", after=accept24_paths.after))
# --- blind round 82 (issue 44): drawn must-rules (seed 20261207) + eight outside kinds, measured blind
from . import blind_round82  # noqa: E402

HOOKS.append(Hook("round82", before=blind_round82.before, admitted=blind_round82.admitted, after=blind_round82.after))
# --- blind round 84 (issue 44): drawn must-rules (seed 20261208) + eight outside kinds, measured blind
from . import blind_round84  # noqa: E402

HOOKS.append(Hook("round84", before=blind_round84.before, admitted=blind_round84.admitted, after=blind_round84.after))
# --- blind round 83 (issue 44): drawn must-rules (seed 20261208) + eight outside kinds, measured blind
from . import blind_round83  # noqa: E402

HOOKS.append(Hook("round83", before=blind_round83.before, admitted=blind_round83.admitted, after=blind_round83.after,
                  refusal=blind_round83.refusal))
# --- blind round 85 (issue 44): drawn must-rules (seed 20261209) + eight outside kinds, measured blind
from . import blind_round85  # noqa: E402

HOOKS.append(Hook("round85", before=blind_round85.before, admitted=blind_round85.admitted, after=blind_round85.after))
# --- types (issue 44): a field of another JSON type on one operation each
from . import types_hooks  # noqa: E402

HOOKS.append(Hook("types", before=types_hooks.before, admitted=types_hooks.admitted))
# --- noeffect (issue 44): a refused write stored before its refusal (faults_noeffect.py)
from . import noeffect_hooks  # noqa: E402

HOOKS.append(Hook("noeffect", ahead_of_auth=noeffect_hooks.ahead_of_auth, before=noeffect_hooks.before))
# --- states (issue 44): a node action on a private comment
from . import states_hooks  # noqa: E402

HOOKS.append(Hook("states", before=states_hooks.before, after=states_hooks.after))
# --- blind round 87 (issue 44): drawn must-rules (seed 20261210) + eight outside kinds, measured blind
from . import blind_round87  # noqa: E402

HOOKS.append(Hook("round87", before=blind_round87.before, admitted=blind_round87.admitted, after=blind_round87.after))
# --- readback (issue 44): an accepted answer or comment kept out of the list it must appear in
from . import readback_paths  # noqa: E402

HOOKS.append(Hook("readback", before=readback_paths.before, after=readback_paths.after))
# --- blind round 86 (issue 44): drawn must-rules (seed 20261210) + eight outside kinds, measured blind
from . import blind_round86  # noqa: E402

HOOKS.append(Hook("round86", before=blind_round86.before, admitted=blind_round86.admitted, after=blind_round86.after))
# --- blind round 88 (issue 44): drawn must-rules (seed 20261210) + eight outside kinds, measured blind
from . import blind_round88  # noqa: E402

HOOKS.append(Hook("round88", before=blind_round88.before, admitted=blind_round88.admitted, after=blind_round88.after,
                  refusal_body=blind_round88.refusal_body))
# --- blind round 90 (issue 44): drawn must-rules (seed 20261211) + eight outside kinds, measured blind
from . import blind_round90  # noqa: E402

HOOKS.append(Hook("round90", before=blind_round90.before, admitted=blind_round90.admitted, after=blind_round90.after,
                  refusal=blind_round90.refusal))
# --- blind round 89 (issue 44): drawn must-rules (seed 20261211) + eight outside kinds, measured blind
from . import blind_round89  # noqa: E402

HOOKS.append(Hook("round89", before=blind_round89.before, admitted=blind_round89.admitted, after=blind_round89.after))
# --- refusedrun (refusals2, issue 44): a refused comment of the comment refusal matrix stored before its refusal
from . import refusedrun_hooks  # noqa: E402

HOOKS.append(Hook("refusedrun", before=refusedrun_hooks.before))
# --- close2 (issue 44): string recipient ids below a public reply, a job field split, a user list sort
from . import close2_paths  # noqa: E402

HOOKS.append(Hook("close2", before=close2_paths.before, admitted=close2_paths.admitted, after=close2_paths.after))
# --- options (issue 44): an allowed list read with a stated option against a rule that holds whatever the option
from . import options_hooks  # noqa: E402

HOOKS.append(Hook("options", admitted=options_hooks.admitted, after=options_hooks.after))
# --- budget24 (issue 44): the next write after a state change, on a relation the run did not make
from . import budget24_hooks  # noqa: E402

HOOKS.append(Hook("budget24", before=budget24_hooks.before, after=budget24_hooks.after))
# --- edges (issue 44): a value at an edge inside a field's stated type, one operation and one field each
from . import edges_hooks  # noqa: E402

HOOKS.append(Hook("edges", before=edges_hooks.before, admitted=edges_hooks.admitted))
# --- placements (issue 44): a moderated answer under another's question or in a child space; a reply's privacy param
from . import placements_hooks  # noqa: E402

HOOKS.append(Hook("placements", before=placements_hooks.before, admitted=placements_hooks.admitted,
                  after=placements_hooks.after))
# --- blind round 92 (issue 44): drawn must-rules (seed 20261212) + eight outside kinds, measured blind
from . import blind_round92  # noqa: E402

HOOKS.append(Hook("round92", before=blind_round92.before, admitted=blind_round92.admitted, after=blind_round92.after))
# --- blind round 91 (issue 44): drawn must-rules (seed 20261212) + eight outside kinds, measured blind
from . import blind_round91  # noqa: E402

HOOKS.append(Hook("round91", ahead_of_auth=blind_round91.ahead_of_auth, before=blind_round91.before,
                  admitted=blind_round91.admitted, after=blind_round91.after))
# --- blind round 93 (issue 44): drawn must-rules (seed 20261212) + eight outside kinds, measured blind
from . import blind_round93  # noqa: E402

HOOKS.append(Hook("round93", before=blind_round93.before, admitted=blind_round93.admitted, after=blind_round93.after))
# --- blind round 96 (issue 44): drawn must-rules (seed 20261213) + eight outside kinds, measured blind
from . import blind_round96  # noqa: E402

HOOKS.append(Hook("round96", before=blind_round96.before, admitted=blind_round96.admitted, after=blind_round96.after))
# --- place25 (issue 44): novice's answer to its own question published in one form; admin's wrapped send of an answer
from . import place25_hooks  # noqa: E402

HOOKS.append(Hook("place25", before=place25_hooks.before))
# --- unwiki25 (issue 44): a comment on a node whose wiki action was canceled before
from . import unwiki25_hooks  # noqa: E402

HOOKS.append(Hook("unwiki25", before=unwiki25_hooks.before, after=unwiki25_hooks.after))
# --- forms25 (issue 44): recipients as a parameter beside a form-encoded body, in a question's query, form-encoded
from . import forms25_hooks  # noqa: E402

HOOKS.append(Hook("forms25", before=forms25_hooks.before, admitted=forms25_hooks.admitted))
# --- blind round 95 (issue 44): drawn must-rules (seed 20261213) + eight outside kinds, measured blind
from . import blind_round95  # noqa: E402

HOOKS.append(Hook("round95", before=blind_round95.before, admitted=blind_round95.admitted, after=blind_round95.after))
# --- blind round 94 (issue 44): drawn must-rules (seed 20261213) + eight outside kinds, measured blind
from . import blind_round94  # noqa: E402

HOOKS.append(Hook("round94", before=blind_round94.before, admitted=blind_round94.admitted, after=blind_round94.after))
# --- locks25 (issue 44): a lock and a send of another's comment under the caller's own node
from . import locks25_hooks  # noqa: E402

HOOKS.append(Hook("locks25", before=locks25_hooks.before, after=locks25_hooks.after))
# --- after25 (issue 44): member's private comment right after its unwikify, one option and one rule each
from . import after25_hooks  # noqa: E402

HOOKS.append(Hook("after25", before=after25_hooks.before, after=after25_hooks.after))
# --- content25 (issue 44): a user's content list shows private-option comments outside the option's audience
from . import content25_hooks  # noqa: E402

HOOKS.append(Hook("content25", after=content25_hooks.after))
# --- shapes25 (issue 44): an answer's comment list whose item shape breaks for one state of the answer
from . import shapes25_hooks  # noqa: E402

HOOKS.append(Hook("shapes25", after=shapes25_hooks.after))
# --- the rounds from the twenty-sixth session on: their stages are data in hooks_late.py (this module reached the
# 600-line limit); appended here in hooks_late.STAGES's order, which is the order they were added in
from . import hooks_late  # noqa: E402

HOOKS.extend(Hook(name, **stages) for name, stages in hooks_late.STAGES)
