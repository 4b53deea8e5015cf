"""Discovery (qaconform.target.discover): what a target shows of itself, from a base URL and four accounts alone.

What ``qaconform init`` and the doctor build on. Against the reference server with nothing but its accounts (no
ids, no fixtures), every find must be right, and reads only must have been sent.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from qaconform.reference import ReferenceServer
from qaconform.target import discover
from qaconform.target.client import Recorder
from qaconform.target.profile import load_profile


@pytest.fixture(scope="module")
def found() -> Iterator[tuple[discover.Discovery, Recorder, dict[str, discover.ApiClient]]]:
    with ReferenceServer() as srv:
        written = load_profile(srv.profile_path)
        probe = discover.probe_profile(srv.url, {r: (a.username, a.password) for r, a in written.accounts.items()})
        assert all(a.id is None for a in probe.accounts.values())
        rec = Recorder(keep=10_000)
        clients = discover.clients_for(probe, rec)
        yield discover.discover(clients), rec, clients
        for c in clients.values():
            c.close()


def test_account_ids_come_from_any_list_that_shows_the_account(found: tuple) -> None:
    discovery, _, clients = found
    experts = discover.read_pages(clients["admin"], "/user/retrieveAllExperts.json")
    assert experts.complete and "novice" not in {u.get("username") for u in experts.items}, (
        "precondition: the novice is no expert, so only another list (the question authors) can show it")
    assert discovery.user_ids == {"admin": 1, "moderator": 2, "member": 3, "novice": 4}


def test_the_question_found_is_listed_for_every_account_in_its_space(found: tuple) -> None:
    discovery, _, clients = found
    spot = discovery.question
    assert spot is not None
    for role, client in clients.items():
        listing = discover.read_pages(client, "/question.json", {"spaceId": spot.space_id})
        item = listing.find(spot.question_id)
        assert item is not None and item.get("primaryContainerId") == spot.space_id, role


def test_the_hidden_space_and_the_tracker_segment(found: tuple) -> None:
    discovery, rec, _ = found
    assert discovery.hidden_space_id == 3
    assert discovery.issue_tracker == "tracker"
    assert {e.method for e in rec.exchanges} == {"GET"}, "discovery sends reads only"


def test_a_listing_follows_the_envelope_not_the_page_size_asked() -> None:
    body = {"page": 1, "pageSize": 20, "pageCount": 3, "totalCount": 55, "list": [{}] * 20}
    assert not discover._last_page(body, 1, 20, 20)
    assert discover._last_page({**body, "page": 3}, 3, 55, 15)
    assert discover._last_page({"list": []}, 1, 0, 0)
    assert discover.as_id("12") == 12 and discover.as_id(True) is None and discover.as_id("x") is None
