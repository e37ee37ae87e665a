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


def test_both_profiles_are_derandomized_and_the_default_one_draws_a_quarter_of_each_full_count() -> None:
    from sampling import FULL, examples

    assert settings.get_profile("thorough").max_examples == FULL
    assert settings.get_profile("cardkit").max_examples == FULL // 4
    for name in ("cardkit", "thorough"):
        assert settings.get_profile(name).derandomize is True and settings.get_profile(name).database is None
    share = settings.default.max_examples / FULL
    assert examples(200) == round(200 * share) and examples(1) == 5
