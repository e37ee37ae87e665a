"""The rules audit: every test here cites the rule it checks with `@pytest.mark.rule("ID")`, an id of index.json."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(id, ...): the rule(s) of tests/rules/index.json this test checks")
