"""qaconform/pytest/request_fixture.py (issue 44, speed6): the ``request`` pseudo-fixture's argument names are known
without ``inspect.signature``, and every other function's are still pytest's own."""

from __future__ import annotations

from typing import Any

import pytest
from _pytest import fixtures
from _pytest.compat import getfuncargnames

from qaconform.pytest import request_fixture


def test_this_pytest_has_the_lambda_it_answers_for() -> None:
    """The pinned pytest makes ``RequestFixtureDef`` with a ``lambda: request``: were it gone, the speed-up would
    silently be lost (install() returns False), and this says so."""
    assert request_fixture._LAMBDA is not None


def test_the_lambdas_names_are_what_pytest_finds_for_it(request: pytest.FixtureRequest) -> None:
    made = fixtures.RequestFixtureDef(request)
    assert request_fixture._argnames(made.func, name="request") == getfuncargnames(made.func, name="request") == ()


def test_every_other_function_gets_pytests_own_answer() -> None:
    def fixture_like(a: int, b: int, request: Any, c: int = 1) -> None:
        return None

    assert request_fixture._argnames(fixture_like, name="x") == getfuncargnames(fixture_like, name="x") == (
        "a", "b", "request")
    assert request_fixture._argnames(lambda q: q, name="x") == ("q",)


def test_install_and_uninstall_swap_only_the_name_fixtures_uses() -> None:
    installed = fixtures.getfuncargnames is request_fixture._argnames  # the kit's plugin installs it at configure
    try:
        assert request_fixture.install()
        assert fixtures.getfuncargnames is request_fixture._argnames
        request_fixture.uninstall()
        assert fixtures.getfuncargnames is request_fixture._ORIGINAL
    finally:
        if installed:
            request_fixture.install()


def test_a_fixture_taking_request_still_gets_it(request: pytest.FixtureRequest, node_name: str) -> None:
    assert node_name == request.node.name


@pytest.fixture
def node_name(request: pytest.FixtureRequest) -> str:
    return str(request.node.name)
