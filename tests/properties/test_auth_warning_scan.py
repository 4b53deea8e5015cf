"""schemathesis's scan for unused OpenAPI auth schemes (qaconform/pytest/properties/schema.py): skipped when the
configuration names no scheme (it could find nothing, and cost every worker ~0.25 s before its first test), run as
schemathesis does when one is named."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from schemathesis.pytest import plugin as st_plugin

from qaconform.pytest.properties import schema as kit_schema


def _schema(schemes: dict[str, Any]) -> Any:
    return SimpleNamespace(config=SimpleNamespace(auth=SimpleNamespace(all_openapi_schemes=schemes)))


def test_the_scan_runs_only_when_an_auth_scheme_is_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[Any] = []
    monkeypatch.setattr(st_plugin, "emit_openapi_auth_warnings", scanned.append)
    kit_schema._skip_idle_auth_warning_scan()
    kit_schema._skip_idle_auth_warning_scan()  # idempotent: wrapped once
    none, named = _schema({}), _schema({"ApiKeyAuth": object()})
    st_plugin.emit_openapi_auth_warnings(none)
    st_plugin.emit_openapi_auth_warnings(named)
    st_plugin.emit_openapi_auth_warnings(SimpleNamespace())  # a schema we cannot read: scanned as before
    assert len(scanned) == 2 and scanned[0] is named


def test_the_kits_collection_schema_names_no_auth_scheme_so_its_scan_is_skipped() -> None:
    """The premise, on the real schema and schemathesis's own attribute: the kit configures no OpenAPI auth."""
    loaded = kit_schema.collection_schema(kit_schema.Budget(seed=1, max_examples=1, time_budget_s=1.0))
    assert loaded.config.auth.all_openapi_schemes == {}
    assert getattr(st_plugin.emit_openapi_auth_warnings, "qc_skips_idle_scan", False)
