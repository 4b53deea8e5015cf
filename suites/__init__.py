"""The conformance suites, a package so that an installed kit runs them with ``pytest --pyargs qaconform.suites``.

Only this folder is a package: the test folders below are plain directories (pytest's default import mode),
and what tests share lives in the ``qaconform`` package.
"""
