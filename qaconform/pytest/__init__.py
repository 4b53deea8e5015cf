"""The pytest side: the qaconform plugin and what the suites (``suites/``) are written with.

``plugin`` (registered by the ``pytest11`` entry point: rule markers, observations, the created-ids registry, the
results file), ``parallel`` (xdist's groups and scheduler), ``outcomes`` (how a suite test ends: a RuleFailure or a
typed skip), ``support`` (the suites' write helpers and list readers), ``markers``, ``schemathesis_checks`` and
``properties/`` (what the generated tests share).

May import: the core, ``qaconform.target`` and ``qaconform.reference`` (the plugin starts the embedded server when
no profile is given). Never: ``report``, ``load``, ``commands`` (rooms above it), Locust or gevent, the suites.
"""
