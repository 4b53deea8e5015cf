"""The target: what the kit knows of a server and how it talks to it. Everything that sends a request goes through
this room.

- what the user wrote: ``profile`` (one pydantic model for the TOML file and its JSON Schema);
- talking to it: ``client`` (one session per account, every exchange recorded redacted), ``transport`` (its
  connections), ``recording`` (what is recorded per test), ``curl_line`` (a copy-paste curl of an exchange),
  ``exchange_log`` (one line per request, when asked), ``politeness`` (the limiter every request goes through and
  the pace a target's hold-backs teach), ``holdback`` (what a 429 or a 503 with Retry-After means), ``fanout``
  (independent requests of one process at once), ``settle`` (read again until a write shows);
- what it is: ``discover`` (what a target shows of itself with reads only), ``doctor`` (the profile against its
  target, every problem at once), ``diagnosis`` (the doctor's findings as data), ``resolved`` (the run's one
  resolved target, target.json), ``fixture_state`` (a one-shot node's state, read from the target), ``ledger`` (the
  record of consumed one-shot fixtures beside the profile);
- what a run leaves: ``created_id`` (the id of what a 201 created), ``writes`` (the write budget), ``cleanup``
  (removing what a run created with the site's delete action).

May import: the core (``qaconform.contract``, ``invariants``, ``status``, ``vocabulary``, ``exitcodes``, ``kit``,
``blame``). Never: pytest, Locust or gevent, and no other room of qaconform: the Locust processes import this room too.
"""
