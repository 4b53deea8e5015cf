"""The target: what the kit knows of a server and how it talks to it.

The profile (``profile``: one pydantic model for the TOML file and its JSON Schema), the HTTP client that records
every exchange redacted (``client``; a log of every request when asked: ``exchange_log``), the politeness limiter
every request goes through and the pace a target's hold-backs teach (``politeness``), what a 429 or a 503 with
Retry-After means to a request (``holdback``) and the id
of what a 201 created (``created_id``), and removing what a run created with the site's delete action
(``cleanup``). Everything that sends a request to a target goes through this room.

May import: the core (``qaconform.contract``, ``invariants``, ``status``, ``exitcodes``, ``kit``, ``blame``).
Never: pytest, Locust or gevent, and no other room of qaconform: the Locust processes import this room too.
"""
