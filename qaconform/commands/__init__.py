"""The ``qaconform`` command: its table of subcommands (``cli``) and one module per subcommand that lives here
(``run``, ``selftest``, ``profile_schema``, ``cleanup``), with ``run_paths`` (CI's fixed paths of a run).

``qaconform load``, ``capacity``, ``report``, ``diff`` and ``serve`` keep their modules in their own rooms
(``load/``, ``report/``, ``reference/``); ``cli`` reaches them by name.

May import: every room below it (core, target, pytest, report, load, reference). Nothing imports this room but
the console script.
"""
