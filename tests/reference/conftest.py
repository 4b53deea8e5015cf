"""Fixtures of the reference server's own tests: a fresh server per module (see ref_helpers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from ref_helpers import Ref, start_ref


@pytest.fixture(scope="module")
def ref() -> Iterator[Ref]:
    yield from start_ref()
