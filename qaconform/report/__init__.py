"""Reports of a run: a results file (from the pytest plugin) + spec/rules.yaml -> junit.xml, report.json, report.html.

The pieces are separate modules so that each output can be rebuilt, tested and read on its own:
``model`` decides each rule's status (the one place where failed, error, observed, skipped and not covered are
told apart), ``redact`` makes sure no credential reaches a file, ``junit``/``html_page`` render, ``loadstats`` and
``charts`` turn Locust CSVs into figures, ``writer`` puts the three files in a run folder, ``diff`` compares two
runs, ``expect`` reads the expected-failures file, ``cli`` is ``qaconform report``.
"""

from qaconform.report.model import RuleInfo, build_report
from qaconform.report.writer import new_run_dir, write_reports

__all__ = ["RuleInfo", "build_report", "new_run_dir", "write_reports"]
