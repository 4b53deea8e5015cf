"""The load harness: everything `qaconform load` and `qaconform capacity` need that runs *outside* Locust.

Nothing in this package imports locust or gevent: the CLI imports it for ``--help`` and the kit's own tests
import it in a pytest process, where gevent's monkey-patching would break everything else. Locust itself runs
only in its own processes (``python -m locust -f loadtests/<profile>.py``); the code those processes share is
in ``loadtests/qaload/``.

May import: the core, ``qaconform.target``, ``qaconform.report`` (terminal tables and progress) and
``qaconform.reference``. Never: ``pytest``, ``commands``, locust or gevent.
"""
