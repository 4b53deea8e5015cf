"""How the comment-privacy suite posts and reads comments back (test_comment_privacy.py holds its tests).

Every read goes through the lists the interface has (an answer's comment list, page by page, as one account sees
it), so what an account may see is judged from what it is shown; the bodies and ids found there, and the refusal
bodies' strings, are read the same way by every test.
"""

from __future__ import annotations

import functools
import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from qaconform.contract import envelope
from qaconform.pytest.outcomes import expect, fail
from qaconform.pytest.refusals import off_the_interface, why_not_refused
from qaconform.pytest.support import (
    LOSING_BODY,
    body_holds,
    find_item,
    find_listed,
    list_all,
    new_id,
    post_comment,
)
from qaconform.target import fanout
from qaconform.target.client import ApiClient, ApiResponse
from qaconform.target.profile import VisibilityOptions
from qaconform.target.settle import settle as settle_loop

INHERITED_MESSAGE = "Visibility on comment can't be defined since it's inherited"
NOT_ENTITLED = ("admin", "novice", "anonymous")
"""Accounts that are neither the author (member) nor the recipient (moderator) of the private comments here."""


def unique_text(text: str) -> str:
    """A unique text for a comment body, so that it can be found (or not) in any listing."""
    return f"{text} {uuid.uuid4().hex[:10]}"


def observe_post(client: ApiClient, node_id: int, tag: str, created: Any, text: str, visibility: str | None = None,
                 recipients: list[Any] | None = None) -> tuple[ApiResponse, int | None]:
    """POST a comment for an observation: never fails on what comes back (a 201 without an id is a fact too)."""
    body: dict[str, Any] = {"body": f"{text} [{tag}]"}
    if visibility is not None:
        body["visibility"] = visibility
    if recipients is not None:
        body["recipients"] = [{"id": r} for r in recipients]
    resp = client.post(f"node/{node_id}/comment.json", json=body, operation="postComment")
    cid: int | None = None
    if resp.status == 201:
        try:
            cid = new_id(resp)
        except AssertionError:
            cid = None
        if cid is not None:
            created.add("comment", cid, client.role)
    return resp, cid


def comments_as(client: ApiClient, answer_id: int, showing: Iterable[int] = (), holding: str | None = None
                ) -> list[dict[str, Any]]:
    """The answer's comment list (operation 18) as this caller sees it; fails unless it is a 200 list.

    A read-back of what was just posted names it: ``showing`` (ids) or ``holding`` (a text in a body); the list is
    then read again within the settle window until all of it shows (a list may lag writes)."""
    wanted = [str(i) for i in showing]
    until = None
    if wanted or holding is not None:
        def until(items: list[dict[str, Any]]) -> bool:
            ids = {str(i.get("id")) for i in items}
            return all(w in ids for w in wanted) and (holding is None or bool(bodies_containing(items, holding)))
    return list_all(client, f"answer/{answer_id}/comment.json", until=until)


def visible_comments(client: ApiClient, answer_id: int, showing: Iterable[int] = ()
                     ) -> tuple[list[dict[str, Any]], ApiResponse | None]:
    """Like comments_as, but a caller refused the list (401/403) sees nothing: returns ([], the refusal)."""
    probe = client.get(f"answer/{answer_id}/comment.json", params={"page": 1, "pageSize": 1},
                       operation="listAnswerComments")
    if probe.status in (401, 403):
        return [], probe
    return comments_as(client, answer_id, showing), None


def listed_item(client: ApiClient, path: str, node: int, params: dict[str, Any] | None = None
                ) -> tuple[dict[str, Any] | None, ApiResponse | None]:
    """(the item as listed for this caller, None) or (None, the refusal) when the caller is refused the list."""
    probe = client.get(path, params={**(params or {}), "page": 1, "pageSize": 1})
    if probe.status in (401, 403):
        return None, probe
    return find_listed(client, path, node, params=params), None


def every_page(client: ApiClient, path: str, max_pages: int = 60, at_once: int = 1) -> list[dict[str, Any]]:
    """Every item at one item a page, up to the first empty page: not bounded by the totalCount page 1 reports (a
    server that leaks on later pages counts differently there).

    ``at_once`` > 1 (``fanout.width``; speed3, issue 44): the pages page 1's totalCount promises, and the empty one
    after them, are read a few at once, then any further page one after another as before; the pages are judged in
    order and stop at the same page, so a server that counts right gets the same requests, and one that counts more
    than it lists a few reads past the end, never a different verdict."""
    def read(page: int) -> ApiResponse:
        return client.get(path, params={"page": page, "pageSize": 1})

    out: list[dict[str, Any]] = []
    ahead: dict[int, ApiResponse | Exception] = {}
    for page in range(1, max_pages + 1):
        got = ahead.pop(page) if page in ahead else read(page)
        if isinstance(got, Exception):
            raise got
        resp = got
        if resp.status != 200 and page > 1:
            break  # a page past the end may be refused (OBS-PAGE-BEYOND-END)
        assert resp.status == 200, f"{client.role} lists {path}\n{resp.describe()}"
        body = resp.json()
        items = body.get("list") if isinstance(body, dict) else None
        if not items:
            break
        out.extend(i for i in items if isinstance(i, dict))
        total = body.get("totalCount") if isinstance(body, dict) else None
        if page == 1 and at_once > 1 and isinstance(total, int) and not isinstance(total, bool) and total > 1:
            pages = list(range(2, min(max_pages, total + 1) + 1))
            ahead = dict(zip(pages, fanout.settled([functools.partial(read, n) for n in pages], at_once),
                             strict=True))
    return out


def read_back(client: ApiClient, answer_id: int, comment_id: int, blame: tuple[str, ...] = ()) -> dict[str, Any]:
    """The comment as listed for this caller; fails with the listing when it is missing, charged to ``blame`` when
    given (the rule ids that say this caller sees the comment), else to the calling test's rules."""
    items = comments_as(client, answer_id, showing=[comment_id])
    item = find_item(items, comment_id)
    if item is None:
        fail(blame, f"comment {comment_id} is not in the comment list of answer {answer_id} as seen by {client.role}; "
                    f"listed ids: {[i.get('id') for i in items][:40]}")
    return item


LIST_OPTIONS = ("wrap", "v1")
"""Operation 18's stated options ("18. List comments of an answer ... Options wrap, v1."); their values and effect
are not shown, so each is sent as ``true``."""


def read_back_each_option(client: ApiClient, answer_id: int, comment_id: int) -> list[tuple[str, dict[str, Any]]]:
    """round82 (issue 44): (how it was read, the item) of the comment as listed for this caller, plainly
    (:func:`read_back`: fails when it is missing) and with each of :data:`LIST_OPTIONS` whose answer is the paged
    envelope listing it ("a later GET returns exactly that": every GET of the list, the stated options too; an option
    whose answer takes another form, or does not list the comment, is not judged: its effect is not shown)."""
    out = [("", read_back(client, answer_id, comment_id))]
    for option in LIST_OPTIONS:
        for page in range(1, 11):
            params = {option: "true", "page": page, "pageSize": 50}
            resp = client.get(f"answer/{answer_id}/comment.json", params=params, operation="listAnswerComments")
            body = resp.json() if resp.status == 200 else None
            items = body.get("list") if isinstance(body, dict) else None
            item = find_item([i for i in items if isinstance(i, dict)], comment_id) if isinstance(items, list) else None
            if item is not None:
                out.append((f" (read with {option}=true)", item))
            if item is not None or not items:
                break
    return out


def recipient_ids(item: dict[str, Any]) -> set[str]:
    """Recipient ids as strings: the description allows an id to be an integer or a string."""
    value = item.get("recipients")
    if not isinstance(value, list):
        return set()
    return {str(r.get("id")) for r in value if isinstance(r, dict)}


def is_full_visibility(value: Any, vis: VisibilityOptions) -> bool:
    """Full visibility on the wire: the profile's value when it names one, else missing/null/empty or a value
    that is none of the private options' (``VisibilityOptions.reads_as_full``)."""
    return vis.reads_as_full(value)


def strings_in(value: Any) -> list[str]:
    """Every string of a JSON value, so that a message is found whatever the error body's shape."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


def body_strings(resp: ApiResponse) -> list[str]:
    try:
        return strings_in(resp.json())
    except AssertionError:
        return [resp.text]


def body_kind(resp: ApiResponse) -> str:
    """A short name for the shape of a body, for observations."""
    if not resp.content.strip():
        return "empty"
    try:
        body = resp.json()
    except AssertionError:
        return "not JSON"
    if isinstance(body, dict):
        if "errors" in body:
            return "errors object"
        if "error" in body:
            return "error object"
        if body.get("type") == "comment" or "id" in body:
            return "node"
        return "object with " + ",".join(sorted(body)[:8])
    return type(body).__name__


def bodies_containing(items: list[dict[str, Any]], marker: str) -> list[Any]:
    """Ids of the items whose body holds ``marker``, the body read as HTML (a server may return the text it stored
    in an equivalent HTML form: entities, a wrapping <p>)."""
    return [i.get("id") for i in items if body_holds(i.get("body"), marker)]


def referenced_ids(items: list[dict[str, Any]]) -> set[str]:
    """Every id named in commentIds or childrenIds of these items."""
    out: set[str] = set()
    for it in items:
        for key in ("commentIds", "childrenIds"):
            value = it.get(key)
            if isinstance(value, list):
                out.update(str(v) for v in value)
    return out


Listed = tuple[list[dict[str, Any]], "ApiResponse | None"]
"""What a caller is listed of one read (the items, or none and the refusal)."""


OWN_VIEW_WAIT_S = 5.0
"""How long (at least; the profile's settle window if longer) the recipient's read is repeated until it shows its
own view: longer than a render cache of a few seconds keyed without the reader."""
_NOT_SHOWN: set[str] = set()
"""The lists whose recipient's view named no private id within the wait once (a target that lists no private id to
the recipient either): read once from then on, so such a target waits once a list, not once a viewer."""


def own_view_then(recipient: ApiClient, viewer: ApiClient, what: str, read: Callable[[ApiClient], Listed],
                  private_ids: set[str]) -> Listed:
    """``read`` (of the list ``what``) as the recipient, again until its commentIds/childrenIds name one of the
    private ids (its own view; :data:`OWN_VIEW_WAIT_S`), then as the viewer at once (paths19, issue 44 item 5).

    A server that renders a node once for every reader (a cache of a few seconds keyed without the caller) shows the
    viewer the recipient's view only when the recipient's read filled it; a read of the same list by another account
    moments before fills it with a view that names no private id, which the recipient is then served too
    (round49-question-ids-cached-per-node was caught or missed by the timing of the reads before: the reference
    profile's settle window is 0). Reading the recipient until its own view shows makes the viewer's read the one
    right after a fill by the recipient. Nothing is asserted of the recipient's reads; a correct server shows its
    view at the first read, and the viewer is judged as before either way."""
    window = 0.0 if what in _NOT_SHOWN else max(recipient.profile.settle_s, OWN_VIEW_WAIT_S)
    _, how = settle_loop(window, lambda: read(recipient)[0], lambda items: bool(referenced_ids(items) & private_ids),
                         f"{what} as {recipient.role}, before {viewer.role}")
    if not how.settled:
        _NOT_SHOWN.add(what)
    return read(viewer)


def listed_as_items(path: str, node: int, params: dict[str, Any] | None) -> Callable[[ApiClient], Listed]:
    """A read of one node in a list, as :func:`own_view_then` takes it."""
    def read(client: ApiClient) -> Listed:
        item, refused = listed_item(client, path, node, params)
        return ([item] if item is not None else []), refused
    return read


def id_parents(recipient: ApiClient, thread_answer: int, question_id: int, member_id: int,
               space_id: Any, viewer: str = "") -> list[tuple[str, int, str, dict[str, Any] | None]]:
    """The lists whose items name the private comments' ids: member's answer list (the thread's answer), the
    question list, and the list of the question's author's questions (its author as the recipient is listed it).

    round67 (issue 44, a parameter whose effect is not the one stated): the two question lists are read under the
    sorts of :func:`sorts_for` too, ``viewer``'s share of the names the question lists' sorts array shows, so that
    every run reads them under every sort name (a server whose count sort serves the ids unfiltered passed)."""
    parents: list[tuple[str, int, str, dict[str, Any] | None]] = [
        ("answer", thread_answer, f"user/{member_id}/answer.json", None),
        ("question", question_id, "question.json", {"spaceId": space_id}),
    ]
    question, _ = listed_item(recipient, "question.json", question_id, {"spaceId": space_id})
    author = (question or {}).get("author")
    if isinstance(author, dict) and str(author.get("id", "")).isdecimal():
        parents.append(("question", question_id, f"user/{author['id']}/question.json", None))
    questions = parents[1:]
    for sort in sorts_for(viewer):
        parents += [(kind, node, path, {**(params or {}), "sort": sort}) for kind, node, path, params in questions]
    return parents


SORT_READERS = ("admin", "novice")
"""The viewers of :data:`NOT_ENTITLED` the question lists' sort names are dealt to: signed-in accounts, which every
site lets read the lists (a site may refuse anonymous them, and its share would go unread)."""


def sorts_for(viewer: str) -> tuple[str, ...]:
    """``viewer``'s share of the question lists' sort names (envelope().sorts_seen, dealt in turn to
    :data:`SORT_READERS`): together they read every name once per run, each half of them."""
    if viewer not in SORT_READERS:
        return ()
    return envelope().sorts_seen[SORT_READERS.index(viewer)::len(SORT_READERS)]


PlainComments = Callable[[str], Any]


def plain_comment(comments: PlainComments, client: ApiClient, thread_answer: int, run_tag: str,
                  created: Any) -> tuple[ApiResponse, str]:
    """``client``'s plain comment on the thread and the unique text of its body, posted by the first test of the
    run that needs it (issue 29: a run's writes are budgeted; the case of each test is who wrote a plain comment,
    not which test asked)."""
    posted = comments(client.role)
    assert posted.node == thread_answer, "the shared plain comments are under the shared answer"
    return posted.resp, f"{posted.text} [{run_tag}]"


def refused_under_every_parent(client: ApiClient, parents: list[tuple[str, int]], allowed: tuple[int, ...],
                                run_tag: str, created: Any, marker: str, visibility: str | None,
                                recipients: list[int] | None, why: str,
                                moved: Sequence[tuple[str, int]] = (), rules: tuple[str, str] | None = None
                                ) -> ApiResponse:
    """The same refused comment posted on every parent of ``parents`` (every kind of public node at every depth of
    the module's thread): rules 6 and 7 name no kind of parent, and a server that checks them on one path (a
    top-level comment) and not on its sibling (a reply, a comment on the question) is caught here. A conforming
    target refuses each: no accepted write. Fails with the first parent that was not refused with ``allowed``;
    returns the response on the answer (the first parent). ``moved``: the run's nodes moved through the state table
    (scenarios/conftest.py ``moved_parents``), where any 4xx will do (whether they take comments is not stated) and
    only an accepted comment breaks the rule. ``rules``: (the rule of the refusal, the rule a denial breaks) when the
    caller holds every permission the comment needs: a 401/403 on one parent is then a permission misjudged on that
    kind of parent (blind7, issue 44: the moderators option checked against moderation rights on a question)."""
    first: ApiResponse | None = None
    for label, node in parents:
        resp = post_comment(client, node, run_tag, created, text=marker, visibility=visibility,
                            recipients=recipients)
        wanted = f"{why}: {client.role}'s comment on {label} must be refused with {' or '.join(map(str, allowed))}"
        problem = why_not_refused(resp, allowed)
        if rules is not None:
            denied = resp.status in (401, 403) and not off_the_interface(resp)
            expect(not denied, rules[1], f"{wanted}; {client.role} holds the permissions this comment needs, yet "
                   f"it was denied ({resp.status}) on {label}", resp)
            expect(problem is None, rules[0], f"{wanted}; {problem}", resp)
        assert problem is None, f"{wanted}; {problem}\n{resp.describe()}"
        first = first or resp
    for label, node in moved:
        resp = post_comment(client, node, run_tag, created, text=marker, visibility=visibility,
                            recipients=recipients)
        instead = why_not_refused(resp)
        if rules is not None:
            expect(instead is None, rules[0], f"{why}: {client.role}'s comment on {label} must be refused "
                   f"(any 4xx: whether such a node takes comments is not stated), {instead}", resp)
        assert instead is None, (
            f"{why}: {client.role}'s comment on {label} must be refused (the rule names no state of the parent; "
            f"whether such a node takes comments is not stated, so any 4xx will do), {instead}\n"
            f"{resp.describe()}")
    assert first is not None, "no parent to comment on"
    return first


def location_names_the_new_comment(resp: ApiResponse, new: int, what: str) -> None:
    """"The Location response header holds the URL of the new comment": present, a URL, naming the new id (and not
    only the node it was posted on)."""
    location = resp.headers.get("location", "")
    expect(location, "COMMENT-201-LOCATION", f"{what}: a 201 must carry a Location header; none came", resp)
    expect(location.startswith(("http://", "https://", "/")), "COMMENT-201-LOCATION",
           f"{what}: Location {location!r} is not a URL (absolute, or an absolute path)", resp)
    expect(re.search(rf"(?<!\d){new}(?!\d)", location), "COMMENT-201-LOCATION",
           f"{what}: Location {location!r} must hold the URL of the new comment {new}", resp)


def parameter_won(client: ApiClient, answer_id: int, comment: int, text: str, resp: ApiResponse | None) -> None:
    """A comment under the answer whose body came both as a query parameter (``text``) and in a body (JSON or
    form-encoded) that says otherwise (support.LOSING_BODY), as ``client`` lists it: "When both are given, the
    parameter wins" (CONV-PARAM-WINS-COMMENT; blind8, issue 44: judged on a comment on a comment). Not listed: not
    judged here (whether it shows is the listing rules')."""
    listed = [i for i in comments_as(client, answer_id, showing=[comment]) if str(i.get("id")) == str(comment)]
    body = listed[0].get("body") if listed else None
    won = body_holds(body, text) and not body_holds(body, LOSING_BODY)
    expect(not listed or won, "CONV-PARAM-WINS-COMMENT",
           f"comment {comment}, its body both as a query parameter and in the request body: \"When both are given, the "
           f"parameter wins\"; listed, it reads {body!r}", resp)
