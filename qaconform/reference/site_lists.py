"""Read handlers of the site's other lists: experts (5, 6), spaces (9), topics (14), a node's followers (16),
groups (17) and issue types (19).

Every handler takes the service, the request and the caller the route table has already let in (app.py).
"""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from . import (
    auth,
    blind6_reads,
    blind7_paths,
    blind8_paths,
    blind_perms,
    blind_round11,
    blind_round12,
    blind_round14,
    blind_round15,
    blind_round31,
    blind_round32,
    blind_round33,
    blind_round38,
    blind_round41,
    blind_round43,
    blind_round45,
    faults,
    variants,
)
from .auth import Caller
from .errors import ApiError, bad_request, not_found
from .fragments import JSON_TYPE
from .http_io import json_response, parse_bool, path_id, projects
from .listing import Paging, envelope, parse_paging
from .pages import encoded_page
from .service import Service

EXPERT_SORTS = {
    "reputation": "reputation DESC, id DESC",
    "default": "reputation DESC, id DESC",
    "username": "username ASC, id DESC",
    "realname": "realname IS NULL, realname ASC, id DESC",
    "recent": "creation_date DESC, id DESC",
    "oldest": "creation_date ASC, id DESC",
}
OTHER_DIRECTION_EXPERT_SORTS = {
    "reputation": "reputation ASC, id DESC",
    "username": "lower(username) DESC, id DESC",
    "realname": "realname IS NULL, lower(realname) DESC, id DESC",
}
"""The expert sorts under the variant experts-sorts-other-direction (the description names the sorts only)."""
ACTIVE_EXPERT_REPUTATION = 100
NAMED_SORTS = {
    "name": "name ASC, id DESC",
    "newest": "creation_date DESC, id DESC",
    "oldest": "creation_date ASC, id DESC",
}
"""Sorts of the space and group lists."""
TOPIC_SORTS = {
    "popularity": "used_count DESC, id DESC",
    "name": "name ASC, id DESC",
    "newest": "creation_date DESC, id DESC",
    "oldest": "creation_date ASC, id DESC",
}


# --- 5 and 6 Experts ----------------------------------------------------------------------------------------
async def list_active_experts(svc: Service, request: Request, caller: Caller) -> Response:
    where = "reputation >= ? AND active = 1 AND suspended = 0 AND deactivated = 0"
    string_field = "reputation" if faults.is_on("active-experts-reputation-string") else None
    later = (request.query_params.get("page") or "1") not in ("0", "1")
    dropped = later and faults.is_on("active-experts-sort-dropped-after-page-1")  # blindr: next-page query
    by_realname = request.query_params.get("sort") == "username" and faults.is_on(
        "blinde-active-experts-username-by-realname")  # blinde: the sort name mapped to the wrong column
    order = EXPERT_SORTS["default"] if dropped else EXPERT_SORTS["realname"] if by_realname else None
    order = blind_round31.active_experts_order(request.query_params, order)  # round31 (issue 44)
    order = blind_round41.active_experts_order(request.query_params.keys(), request.query_params.get("sort"), order,
                                               EXPERT_SORTS["username"])  # round41 (issue 44)
    page = _experts(svc, request, where, [ACTIVE_EXPERT_REPUTATION], string_field, order=order)
    if faults.is_on("blind6-active-experts-formatted-day-first"):  # blind6 (issue 44)
        return blind6_reads.rewritten(page, blind6_reads.day_first)
    return page


async def list_earned_experts(svc: Service, request: Request, caller: Caller) -> Response:
    string_field = "moderator" if faults.is_on("earned-experts-moderator-string") else None
    q = request.query_params
    blind_perms.earned_experts_refused(caller, q)  # blindp (issue 44)
    echo = "reputation" if q.get("sort") and "pageSize" not in q and faults.is_on(
        "sort-echo-wrong-on-one-expert-list") else None
    reversed_oldest = q.get("sort") == "oldest" and faults.is_on("earned-experts-oldest-reversed")
    order = EXPERT_SORTS["recent"] if reversed_oldest else blind_round32.earned_order(q)  # round32 (issue 44)
    order = blind_round33.earned_order(q, order, EXPERT_SORTS["reputation"])  # round33 (issue 44)
    order = blind_round43.earned_order(q, order, EXPERT_SORTS["oldest"])  # round43 (issue 44): later pages
    order = blind_round45.earned_order(q, order, EXPERT_SORTS["username"])  # round45 (issue 44): when sized
    page = _experts(svc, request, "earned_expert = 1", [], string_field, echo, order)
    if "pageSize" in q and faults.is_on("blind6-earned-experts-pagecount-default-size"):  # blind6 (issue 44)
        return blind6_reads.rewritten(page, blind6_reads.pagecount_with(svc.page_size))
    return blind_round14.earned_experts(page)  # round14 (issue 44)


def _experts(svc: Service, request: Request, where: str, params: list[Any], string_field: str | None,
             echo: str | None = None, order: str | None = None) -> Response:
    """An expert list; ``string_field`` is the field a planted shape bug gives as a string, ``echo`` the sort a
    planted echo bug reports instead of the one in effect, ``order`` the order a planted sort bug lists in instead
    of the sort's (faults.py)."""
    q = request.query_params
    paging = parse_paging(q, svc.page_size)
    sort = q.get("sort") or ("username" if variants.is_on("default-sorts-newest") else "reputation")
    if sort not in EXPERT_SORTS or (sort == "realname" and faults.is_on("experts-sort-realname-refused")):
        raise bad_request(f"'sort' must be one of {', '.join(EXPERT_SORTS)}, not {sort[:40]!r}")
    if faults.is_on("experts-sort-echo-only"):
        order = EXPERT_SORTS["default"]
    elif sort in OTHER_DIRECTION_EXPERT_SORTS and variants.is_on("experts-sorts-other-direction"):
        order = order or OTHER_DIRECTION_EXPERT_SORTS[sort]
    total = svc.db.count(f"SELECT COUNT(*) FROM users WHERE {where}", tuple(params))
    ids = svc.db.ids(
        f"SELECT id FROM users WHERE {where} ORDER BY {order or EXPERT_SORTS[sort]} LIMIT ? OFFSET ?",
        [*params, paging.size, blind_round45.experts_offset(q, where == "earned_expert = 1", paging)],  # round45
    )
    shown = "reputation" if sort == "default" else sort
    if faults.is_on("experts-sort-echo-default") or (paging.page > 1 and faults.is_on("experts-sort-echo-page-1")):
        shown = "reputation"
    shown = echo or shown
    if not (string_field or projects(q)):
        return encoded_page(svc.render.users_encoded(ids), total, paging, shown, q)
    users = svc.render.users_json(svc.render.rows_by_ids(ids, "users"))
    if string_field:
        for u in users:
            u[string_field] = str(u[string_field]).lower()
    return json_response(envelope(users, total, paging, shown, q))


# --- 9 Spaces -----------------------------------------------------------------------------------------------
URL_CACHE_S = 1.0
"""How long the planted fault spaces-cache-by-url keeps a space list by URL (faults.py)."""
_by_url: dict[str, tuple[float, dict[str, Any]]] = {}


async def list_spaces(svc: Service, request: Request, caller: Caller) -> Response:
    q = request.query_params
    if faults.is_on("spaces-cache-by-url"):
        kept = _by_url.get(str(request.url))
        if kept is not None and time.monotonic() - kept[0] < URL_CACHE_S:
            return json_response(kept[1])  # whoever asked first: the URL is the key, not the caller
    paging = parse_paging(q, svc.page_size)
    sort = q.get("sort") if q.get("sort") in NAMED_SORTS else "name"
    if q.get("sort") and sort != q.get("sort") and faults.is_on("space-invalid-sort-400"):
        raise bad_request(f"'sort' must be one of {', '.join(NAMED_SORTS)}")
    where = _shown_spaces(svc, caller, projected=bool(q.get("includeOnly")))
    where = blind_perms.spaces_where(caller, paging, where)  # blindp (issue 44)
    where = blind_round33.spaces_where(q, where)  # round33 (issue 44)
    where = blind_round43.spaces_where(caller, q, where)  # round43 (issue 44): sorted oldest first
    if ("wrap" in q or "v1" in q) and where != "0" and faults.is_on("spaces-hidden-shown-with-wrap"):
        where = "1"  # blindr: the legacy serializer lists every space
    counted = "1" if where != "0" and faults.is_on("blindc-spaces-totalcount-counts-hidden") else where  # blindc
    total = svc.db.count(f"SELECT COUNT(*) FROM spaces WHERE {counted}", ())
    rows_asked = max(paging.size, 2) if faults.is_on("spaces-pagesize-one-serves-two") else paging.size  # blindr
    rows = svc.db.all(
        f"SELECT * FROM spaces WHERE {where} ORDER BY"
        f" {blind7_paths.space_order(q.get('sort'), NAMED_SORTS[str(sort)])} LIMIT ? OFFSET ?",  # blind7
        [rows_asked, paging.offset],
    )
    spaces = envelope([svc.render.space_json(r) for r in rows], total, paging, str(sort), q)
    if faults.is_on("blind6-child-space-date-seconds"):  # blind6 (issue 44)
        blind6_reads.child_spaces_in_seconds(spaces["list"])
    blind_round14.spaces_page(svc.db, spaces)  # round14 (issue 44)
    blind_round45.spaces_items(q, spaces)  # round45 (issue 44): a child space under a sort
    if faults.is_on("spaces-cache-by-url"):
        _by_url[str(request.url)] = (time.monotonic(), spaces)
    if faults.is_on("spaces-not-json"):
        return Response(json.dumps(spaces) + "\n<!-- served from cache -->\n", media_type=JSON_TYPE)
    return json_response(spaces)


def _shown_spaces(svc: Service, caller: Caller, projected: bool) -> str:
    """The WHERE of the spaces the caller may see: none without the question list, else all but the hidden."""
    if not caller.can(auth.VIEW_QUESTIONS_LIST):
        return "0"
    hidden = svc.visibility.spaces_hidden_from(caller)
    if faults.is_on("spaces-show-hidden") or (projected and faults.is_on("projected-spaces-show-hidden")):
        hidden = frozenset()
    return f"id NOT IN ({','.join(str(s) for s in sorted(hidden))})" if hidden else "1"


# --- 14 Topics ----------------------------------------------------------------------------------------------
async def list_topics(svc: Service, request: Request, caller: Caller) -> Response:
    q = request.query_params
    paging = parse_paging(q, svc.page_size, default_page=0 if q.get("q") and faults.is_on(
        "blind6-topics-search-default-page-zero") else 1)  # blind6 (issue 44): the search branch counts from 0
    default = "name" if variants.is_on("default-sorts-newest") else "popularity"
    sort = str(q.get("sort")) if q.get("sort") in TOPIC_SORTS else default
    if q.get("sort") and sort != q.get("sort") and (faults.is_on("topic-invalid-sort-by-name") or (
            any(k in q for k in ("include", "exclude", "includeOnly"))
            and faults.is_on("topic-invalid-sort-by-name-when-projected"))):
        sort = "name"
    where, params = "1", []
    if q.get("q"):
        where = "instr(lower(name), lower(?)) > 0"
        params = [q["q"]]
    total = svc.db.count(f"SELECT COUNT(*) FROM topics WHERE {where}", tuple(params))
    limit = paging.size
    if paging.page > 1 and 0 < total - paging.offset <= paging.size and faults.is_on("topics-last-page-short"):
        limit = total - paging.offset - 1  # blindr: the last page's off-by-one
    offset = paging.offset
    if params and faults.is_on("blindc-topics-search-offset-default-size"):
        offset = max(paging.page - 1, 0) * svc.page_size  # blindc (issue 44): the search branch's offset
    offset = blind_round11.topic_offset(q, offset)  # round11 (issue 44)
    order = blind8_paths.topic_order(q, paging.page, TOPIC_SORTS, TOPIC_SORTS[sort])  # blind8 (issue 44)
    order = blind_round38.topic_order(q, TOPIC_SORTS, order)  # round38 (issue 44): v1's own fallback
    ids = svc.db.ids(
        f"SELECT id FROM topics WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?",
        [*params, limit, offset],
    )
    if params and faults.is_on("topics-totalcount-ignores-q"):
        total = svc.db.count("SELECT COUNT(*) FROM topics", ())  # blindr: counted without the search
    if projects(q):
        shown: Any = q
        if params and faults.is_on("blinde-topics-includeonly-ignored-with-q"):
            shown = {k: v for k, v in q.items() if k != "includeOnly"}  # blinde: the search path's serializer
        resp = json_response(
            envelope(svc.render.topics_json(svc.render.rows_by_ids(ids, "topics")), total, paging, sort, shown)
        )
    else:
        resp = encoded_page(svc.render.topics_encoded(ids), total, paging, sort, q)
    if faults.is_on("topics-text-plain"):
        resp.headers["content-type"] = "text/plain;charset=UTF-8"
    resp = blind7_paths.topics_page(resp, bool(params))  # blind7 (issue 44)
    resp = blind_round33.topics_page(resp, q, svc.page_size)  # round33 (issue 44)
    if "wrap" in q and faults.is_on("blinde-topics-wrap-callback"):  # blinde: wrap read as a JSONP callback
        return Response(b"callback(" + bytes(resp.body) + b");", media_type=JSON_TYPE)
    return resp


# --- 16 Followers -------------------------------------------------------------------------------------------
async def list_followers(svc: Service, request: Request, caller: Caller) -> Response:
    blind_round45.followers_refused(request.query_params, caller)  # round45 (issue 44): details, anonymous
    node = svc.visible_node(caller, path_id(request))
    q = request.query_params
    paging = parse_paging(q, svc.page_size, default_page=0, zero_based=variants.is_on("followers-zero-based"),
                          shown_from_zero=variants.is_on("followers-page-shown-from-0"))
    if q.get("sort") and variants.is_on("unknown-sort-400") and q.get("sort") not in ("", "newest"):
        raise bad_request(f"'sort' must be newest on the follower list, not {q['sort'][:40]!r}")
    details = parse_bool(q, "details", faults.is_on("followers-details-by-default") or (
        bool(q.get("sort")) and faults.is_on("followers-details-when-sorted")))
    if "details" in q and faults.is_on("followers-details-false-read-as-true"):
        details = True  # blindr: present means true
    only_active = parse_bool(q, "active", not faults.is_on("followers-inactive-by-default"))
    if details and q.get("active") is None and faults.is_on("blinde-followers-details-default-all"):
        only_active = False  # blinde: the relation query reads a missing active as all
    if not details and faults.is_on("followers-active-ignored"):
        only_active = True
    where = "f.node_id = ?" + (" AND f.active = 1" if only_active else "")
    where = blind_round11.follower_where(q, details, where)  # round11 (issue 44)
    where = blind_round38.follower_where(q, details, where)  # round38 (issue 44): false read as inactive
    counted = where + (" AND f.active = 1" if faults.is_on("followers-count-ignores-active-false") else "")
    total = svc.db.count(f"SELECT COUNT(*) FROM follows f WHERE {counted}", (node["id"],))
    if q.get("active") is None and faults.is_on("followers-default-items-include-inactive"):
        where = "f.node_id = ?"  # the count above is of active relations; the items are not
    if paging.offset > 0 and faults.is_on("followers-inactive-on-later-pages"):
        where = "f.node_id = ?"  # from the second page on, inactive relations too (the count is of active ones)
    rels = svc.db.all(
        f"SELECT f.* FROM follows f WHERE {where} ORDER BY f.follow_date DESC, f.user_id DESC LIMIT ? OFFSET ?",
        [node["id"], paging.size + int(details and faults.is_on("blind6-follower-relations-page-overfull")),
         paging.offset],  # blind6 (issue 44): the look-ahead row not trimmed
    )
    string_reputation = faults.is_on("followers-reputation-string")
    if not (details or projects(q) or string_reputation):
        return blind_round14.followers_page(svc.db, node["id"], only_active, encoded_page(  # round14 (issue 44)
            svc.render.users_encoded([r["user_id"] for r in rels]), total, paging, "", q))
    users = svc.render.users_by_id(r["user_id"] for r in rels)
    user_items = svc.render.users_json([users[r["user_id"]] for r in rels])
    if not details and projects(q) and faults.is_on("blindc-followers-projected-group-id-int"):  # blindc (issue 44)
        for u in user_items:
            u["groups"] = [{**g, "id": int(g["id"])} for g in u.get("groups", [])]
    if string_reputation:
        for u in user_items:
            u["reputation"] = str(u["reputation"])
    items = _follow_relations(node, rels, user_items) if details else user_items
    return blind_round14.followers_page(svc.db, node["id"], only_active, json_response(  # round14 (issue 44)
        envelope(items, total, paging, "", blind_round12.relations_query(q, details))))  # round12


def _follow_relations(
    node: sqlite3.Row, rels: list[sqlite3.Row], user_items: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The items of ``details=true``: each follower with the node, whether it still follows, and since when."""
    return [
        {
            "user": u,
            "node": {"id": node["id"], "type": node["type"]},
            "active": bool(r["active"]),
            "followDate": r["follow_date"],
        }
        for r, u in zip(rels, user_items, strict=True)
    ]


# --- 17 Groups ----------------------------------------------------------------------------------------------
async def list_groups(svc: Service, request: Request, caller: Caller) -> Response:
    q = request.query_params
    paging = parse_paging(q, svc.page_size)
    sort = str(q.get("sort")) if q.get("sort") in NAMED_SORTS else "name"
    if (denied_page := blind_perms.groups_for_denied(caller, paging, q)) is not None:  # blindp (issue 44)
        return denied_page
    if q.get("sort") and sort != q.get("sort") and faults.is_on("group-invalid-sort-400"):
        raise bad_request(f"'sort' must be one of {', '.join(NAMED_SORTS)}")
    total = svc.db.count("SELECT COUNT(*) FROM groups", ())
    order = NAMED_SORTS[sort]
    if q.get("sort") and sort != q.get("sort") and "pageSize" in q and faults.is_on(
            "blinde-groups-invalid-sort-newest-when-sized"):
        order = NAMED_SORTS["newest"]  # blinde: the paged query's own default
    order = blind_round33.groups_order(q, sort, order, NAMED_SORTS["oldest"])  # round33 (issue 44)
    order = blind_round45.groups_order(q, sort, paging, order, NAMED_SORTS["oldest"])  # round45 (issue 44)
    rows = svc.db.all(f"SELECT * FROM groups ORDER BY {order} LIMIT ? OFFSET ?", [paging.size, paging.offset])
    groups = envelope([svc.render.group_json(r) for r in rows], total, paging, sort, q)
    blind7_paths.groups_page(groups, q, sort == q.get("sort"))  # blind7 (issue 44)
    if groups["list"] and faults.is_on("blindc-group-pagesize-echo-items"):
        groups["pageSize"] = len(groups["list"])  # blindc (issue 44): the size of the page served
    return json_response(groups)


# --- 19 Issue types -----------------------------------------------------------------------------------------
async def list_issue_types(svc: Service, request: Request, caller: Caller) -> Response:
    if request.path_params["tracker"] != svc.tracker:
        raise not_found(
            f"no issue tracker is set up under {request.path_params['tracker'][:40]!r};"
            f" this site uses {svc.tracker!r}"
        )
    if faults.is_on("issuetypes-unavailable-503"):
        raise ApiError(503, {"error": "the issue tracker did not answer; try again later"})
    types = [{"name": r["name"]} for r in svc.db.all("SELECT name FROM issue_types ORDER BY position")]
    if faults.is_on("blind6-issuetypes-repeated-name-null"):  # blind6 (issue 44)
        types = blind6_reads.repeated_names_null(types)
    if faults.is_on("issuetypes-title-not-name"):
        types = [{"title": t["name"]} for t in types]
    types = blind_round15.issue_types(caller, types)  # round15 (issue 44)
    if isinstance(types, dict):
        return json_response(types)
    paged = "page" in request.query_params or "pageSize" in request.query_params
    if faults.is_on("issuetypes-enveloped") or (paged and faults.is_on("blindc-issuetypes-enveloped-when-paged")):
        return json_response(envelope(types, len(types), Paging(1, max(len(types), 1)), "", {}))
    return json_response(types)
