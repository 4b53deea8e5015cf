"""The pytest markers of the suites, in one place: the plugin registers them, ``qaconform run --only`` takes the
area names, and the report groups by them."""

from __future__ import annotations

AREAS = ("comments", "permissions", "gdpr", "actions", "paging", "contract", "destructive", "observation",
         "properties", "writes")
"""Area markers: what a test is about (and, for destructive/writes/observation, how it may run)."""

MARKERS = {
    "rule(*ids)": "the rule ids of spec/rules.yaml this test checks",
    "comments": "comment visibility and privacy",
    "permissions": "who may call what",
    "gdpr": "data-protection jobs and user content",
    "actions": "node state changes (unfavorite, cancelwiki, lock, sendToMod)",
    "paging": "the paged list envelope",
    "contract": "per-operation status, headers, schema",
    "destructive": "operations that cannot be undone; run only when the profile allows",
    "observation": "records spec-silent behaviour, never fails the build",
    "properties": "generated tests (schemathesis, hypothesis)",
    "writes": "the test creates content on the target",
    "accepted_writes(n)": "an observation test's most accepted writes against a conforming target (its planned part "
                          "of the observations' share of the write budget; none: every write of it is refused)",
    "refused_writes": "every write of the test is one the description says a conforming target refuses: once the "
                      "suites' share of the write budget is spent they are sent as probes (qaconform.target.writes "
                      "REFUSALS), not held back",
    "cell(family, **values)": "the cell of a crossing the test judges (a found node's relation, a write's drawn form, "
                              "a list row's parameters): recorded in the results, so qaconform.report.run_cells "
                              "counts the cells the run reached, never a static list",
    "slow": "takes more than a few seconds",
}
"""Every marker the suites use, with its help text (``pytest --markers``)."""
