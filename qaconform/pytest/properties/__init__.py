"""What the generated tests of suites/properties share: run options and the schemathesis driver.

Kept in the package, not beside the tests, so that the tests import it by one name wherever they are collected
from (a checkout, or the installed ``qaconform/suites``), and so that the pytest plugin can load its options at
startup.

May import: as its room, ``qaconform.pytest``.
"""
