"""The one judge of refusals (qaconform/pytest/refusals.py, issue 44 combos2): a stated status AND an answer that
came from the interface. A redirect the client followed to a login page ends as that page's 4xx; it must never pass
for the operation's own refusal, whatever its status."""

from __future__ import annotations

import pytest

from qaconform.pytest.refusals import ANY_4XX, off_the_interface, refused, shown, why_not_refused
from qaconform.target.client import ApiResponse, Exchange

OWN = "http://t:8080/services/v2/node/7/lock.json"
LOGIN = "http://t:8080/users/login.html?next=/services/v2/node/7/lock.json"


def _resp(status: int, url: str) -> ApiResponse:
    exchange = Exchange(role="anonymous", method="PUT", url=url, status=status, request_headers={},
                        request_body=None, response_headers={}, response_body="", elapsed_ms=1.0, curl="curl")
    return ApiResponse(status, {"content-type": "application/json"}, b"{}", url, exchange)


@pytest.mark.parametrize("status", [400, 401, 403, 404, 409, 422, 499])
def test_any_4xx_of_the_interface_is_a_refusal(status: int) -> None:
    assert refused(_resp(status, OWN))
    assert why_not_refused(_resp(status, OWN)) is None


@pytest.mark.parametrize("status", [200, 201, 302, 399, 500, 503])
def test_a_2xx_3xx_or_5xx_is_no_refusal_and_the_message_names_it(status: int) -> None:
    assert not refused(_resp(status, OWN))
    assert why_not_refused(_resp(status, OWN)) == f"got {status}"


def test_a_status_outside_the_stated_ones_is_no_refusal() -> None:
    assert not refused(_resp(404, OWN), (401, 403))
    assert refused(_resp(403, OWN), (401, 403))
    assert why_not_refused(_resp(404, OWN), (401, 403)) == "got 404"


@pytest.mark.parametrize("status", [401, 403, 404, 405, 200])
def test_an_answer_from_a_page_the_call_was_redirected_to_is_never_a_refusal(status: int) -> None:
    resp = _resp(status, LOGIN)
    assert off_the_interface(resp)
    assert not refused(resp)
    assert not refused(resp, (status,))
    why = why_not_refused(resp, (status,))
    assert why is not None and "redirect away from the interface" in why and "/users/login.html" in why


def test_the_prefix_must_be_a_path_segment_not_a_query_value() -> None:
    # the login page's next= parameter names the interface: only the path counts
    assert off_the_interface(_resp(401, LOGIN))
    assert off_the_interface(_resp(401, "http://t/services/v2x/node/7/lock.json"))
    assert not off_the_interface(_resp(401, "http://t/base/services/v2/node/7/lock.json"))


def test_statuses_are_shown_as_a_message_names_them() -> None:
    assert shown(ANY_4XX) == "a 4xx"
    assert shown((401, 403)) == "401 or 403"
