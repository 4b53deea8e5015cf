"""The id of what a 201 created, read the one way the suites, the client's recorder and the load users share.

Why one place: the description gives a new answer's id as a string in the body, a new comment's as an integer, and
the Location header as "the URL of the new item" without its form (the reference server's variants send an absolute
URL, a relative one, or another path ending in ``<id>.html``). Three readers with three regexes disagreed on those
forms; a load run and a suite run must count the same objects as created.

Plain Python on purpose: the Locust processes import it (no pytest, no requests).
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

_LAST_NUMBER = re.compile(r"/(\d+)(?:\.\w+)?/?$")
"""The last path segment of a Location when it is a number, with or without an extension (``/123``, ``/123.json``,
``/123.html``, ``/123/``)."""


def id_in_body(body: Any, key: str = "id") -> int | None:
    """``body[key]`` as an int when it is an integer or a string of digits (answers carry their id as a string)."""
    return as_id(body.get(key)) if isinstance(body, dict) else None


def as_id(value: Any) -> int | None:
    """An id as the interface writes it (an integer, or a string of digits: a posted answer's id), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdecimal():
        return int(value)
    return None


def id_in_location(location: str | None) -> int | None:
    """The number that ends the path of a Location header (query and fragment ignored), or None."""
    if not location:
        return None
    m = _LAST_NUMBER.search(urlsplit(location).path)
    return int(m.group(1)) if m else None


def created_id(body: Any, location: str | None) -> int | None:
    """The id of a created node: the body's ``id``, else the number that ends the Location's path; None if neither."""
    found = id_in_body(body)
    return found if found is not None else id_in_location(location)
