"""The 6x5 battlefield in absolute squares, and how each player's placement squares map onto it.

Columns `a`-`e`, rows `1`-`6` counted from the first player's side: rows 1-3
are the first player's half (3 its front row), rows 4-6 the second player's
(4 its front row). A placement file names squares of the player's own half,
column a at the player's left and row 1 at the front; the second player sits
across the table, so its left is the first player's right: its `a1` is `e4`.
"""

from __future__ import annotations

from typing import Iterator

Square = str
COLUMNS = "abcde"
ROWS = 6
SQUARES: tuple[Square, ...] = tuple(f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)
_SQUARE_SET = frozenset(SQUARES)
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))
AROUND = tuple((dc, dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0))


def is_square(text: str) -> bool:
    return text in _SQUARE_SET


def coords(square: Square) -> tuple[int, int]:
    """`c3` -> (2, 3): column index 0-4 and row 1-6."""
    return COLUMNS.index(square[0]), int(square[1:])


def square_at(column: int, row: int) -> Square | None:
    if 0 <= column < len(COLUMNS) and 1 <= row <= ROWS:
        return f"{COLUMNS[column]}{row}"
    return None


def _steps(square: Square, deltas: tuple[tuple[int, int], ...]) -> Iterator[Square]:
    c, r = coords(square)
    for dc, dr in deltas:
        s = square_at(c + dc, r + dr)
        if s is not None:
            yield s


def orthogonal_neighbours(square: Square) -> list[Square]:
    return list(_steps(square, ORTHOGONAL))


def neighbours(square: Square, diagonal: bool = True) -> list[Square]:
    """The squares next to `square`: eight with diagonals, four without."""
    return list(_steps(square, AROUND if diagonal else ORTHOGONAL))


def is_beside(a: Square, b: Square, diagonal: bool = True) -> bool:
    (ca, ra), (cb, rb) = coords(a), coords(b)
    dc, dr = abs(ca - cb), abs(ra - rb)
    return max(dc, dr) == 1 if diagonal else dc + dr == 1


def straight_between(a: Square, b: Square) -> list[Square] | None:
    """The squares strictly between `a` and `b` on one row or column; None when they share neither."""
    (ca, ra), (cb, rb) = coords(a), coords(b)
    if ca == cb and ra != rb:
        step = 1 if rb > ra else -1
        return [f"{COLUMNS[ca]}{r}" for r in range(ra + step, rb, step)]
    if ra == rb and ca != cb:
        step = 1 if cb > ca else -1
        return [f"{COLUMNS[c]}{ra}" for c in range(ca + step, cb, step)]
    return None


def half_of(square: Square) -> str:
    """Whose half of the field `square` lies in: `first` (rows 1-3) or `second` (rows 4-6)."""
    return "first" if coords(square)[1] <= 3 else "second"


def from_placement(square: str, seat: str) -> Square:
    """A placement file's square (`b1`: column b, the player's front row) as an absolute battle square."""
    column, row = COLUMNS.index(square[0].lower()), int(square[1:])
    if seat == "first":
        return f"{COLUMNS[column]}{4 - row}"
    return f"{COLUMNS[len(COLUMNS) - 1 - column]}{3 + row}"


def placement_row(square: Square, seat: str) -> int:
    """The row of `square` counted as its player's placement rows: 1 front, 3 back."""
    row = coords(square)[1]
    return 4 - row if seat == "first" else row - 3
