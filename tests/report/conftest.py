"""Fixtures of the report tests: a results file with one rule per status, and the matching rule catalog."""

from __future__ import annotations

from typing import Any

import pytest
from report_builders import CATALOG, make_results

from qaconform.contract import Rule


@pytest.fixture
def results() -> dict[str, Any]:
    return make_results()


@pytest.fixture
def catalog() -> list[Rule]:
    return list(CATALOG)
