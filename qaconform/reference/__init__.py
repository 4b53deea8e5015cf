"""The embedded reference server: an independent implementation of interface v2 (Starlette + SQLite).

It imports nothing from spec/, suites/, qaconform.contract or qaconform.target.client (architecture rule 2): it is
written from the interface description, the way a vendor would write it. May import: nothing of ``qaconform`` but this
room; every other room may import it (to start the server).

Usage: ``with ReferenceServer(size="small", faults=(), page_size=15, db=":memory:") as srv:`` gives ``srv.url``
and ``srv.profile_path``; ``qaconform serve`` / ``python -m qaconform.reference`` run it in the foreground.

Decisions where the description is silent (the suites record these as observations; they are not rules). Each
has other plausible answers in ``variants.py`` (``qaconform serve --list-variants``), which the suites must pass too:

- Auth: HTTP Basic. Bad credentials are 401 on every operation; no credentials is an anonymous caller holding the
  Anonymous Roles permissions. Denied: 401 anonymous, 403 logged in, body ``{"errors": {"message": ...}}``.
  Data protection (2, 8) is admin only; issue types (19) need any login; expert lists answer an HTML 401 page to a
  caller whose Accept header wants text/html and not application/json.
- Paging: page defaults to 1 (followers: 0, and page 0 is the first page everywhere); pageSize defaults to
  --page-size and is capped at 1000; pageSize < 1 or a non-integer page/pageSize is a 400; a page past the end is
  an empty list. Ties are broken by id descending, except the oldest-first comment list (id ascending).
- Sorts: question and comment lists take the 12 names of the description (usedCount orders like viewCount), an
  unknown name falls back to the default (questions "active", comments "oldest"); spaces and groups default to
  "name", topics to "popularity"; expert lists take reputation, username, realname, recent, oldest, default
  (= reputation) and answer 400 to anything else.
- A space root has parentId -1. A comment reply that repeats the inherited visibility but names other recipients
  is a 400 like a different visibility; repeating privacy fields still needs the private-comment permission.
- Node actions are idempotent where the state allows (lock, sendToMod again: 200 with a new action); unfavorite of
  a node that is not the caller's favorite is 404, cancelwiki of a node that is not wiki is 409.
- User content (8) returns the newest 1000 entries plus "joined". Bodies over 1 MB are 413; a Content-Type other
  than JSON or form with a body is 415; a body that does not parse, or a field of the wrong type, is 400.
"""

from .server import ReferenceServer, ReferenceServerError

__all__ = ["ReferenceServer", "ReferenceServerError"]
