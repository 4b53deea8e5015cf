"""Error bodies of the reference server and the exception that carries them to the response.

Two body shapes exist on real servers: ``{"errors": {"message": ...}}`` for permission failures (401 and 403) and
``{"error": ...}`` for everything else (400, 404, 409, 413, 415, 422).
"""

from __future__ import annotations

from typing import Any

from . import variants

PERMISSION_MESSAGE = "You don't have permission to do this action.\nPlease login as another user"


class ApiError(Exception):
    """Raised anywhere in a handler; turned into a JSON response with this status and body."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{status} {body}")
        self.status = status
        self.body = body
        self.headers = headers or {}
        self.credentials = False
        """A 401 for missing or bad credentials (not for a logged-in caller lacking a permission)."""


WWW_AUTHENTICATE = {"WWW-Authenticate": 'Basic realm="qaconform reference"'}


def unauthorized(credentials: bool = True) -> ApiError:
    exc = ApiError(401, {"errors": {"message": PERMISSION_MESSAGE}}, WWW_AUTHENTICATE)
    exc.credentials = credentials
    return exc


def forbidden() -> ApiError:
    return ApiError(403, {"errors": {"message": PERMISSION_MESSAGE}})


def denied(anonymous: bool, stated_403: bool = False) -> ApiError:
    """401 for a caller who did not log in (logging in might help), 403 for one who did.

    Under the variant denied-as-401 a logged-in caller gets 401 too (as the sample of a real server), except where
    the description states 403 (``stated_403``: the private-comment options).
    """
    if anonymous:
        return unauthorized()
    if variants.is_on("denied-as-401") and not stated_403:
        return unauthorized(credentials=False)
    return forbidden()


def bad_request(message: str) -> ApiError:
    return ApiError(400, {"error": message})


def not_found(message: str) -> ApiError:
    return ApiError(404, {"error": message})


def conflict(message: str) -> ApiError:
    return ApiError(409, {"error": message})
