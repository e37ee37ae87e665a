"""How many examples a property test draws: its full count, scaled by the Hypothesis profile in use.

The README's test command loads the `cardkit` profile (tests/conftest.py), which draws a quarter of each
test's full count so the suite stays quick; `--hypothesis-profile=thorough` draws every test's full count.
Both are derandomized: a given profile draws the same examples on every run and machine.
"""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # the thorough profile's max_examples: the share at which a test draws its full count


def examples(full: int) -> int:
    """The number of examples to draw for a property test whose full count is `full` (never fewer than 5)."""
    return max(5, round(full * settings.default.max_examples / FULL))
