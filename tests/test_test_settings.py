"""The test suite's own settings: property tests are reproducible and never timed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=5)
@given(st.integers())
def _a_property_with_its_own_settings(value: int) -> None:
    pass


def test_property_tests_are_derandomized_keep_no_example_database_and_have_no_deadline() -> None:
    for active in (settings.default, _a_property_with_its_own_settings._hypothesis_internal_use_settings):  # type: ignore[attr-defined]
        assert active.derandomize is True
        assert active.database is None
        assert active.deadline is None
