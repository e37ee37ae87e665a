"""The 6x5 battlefield (a `cardkit.games.board.Grid`) in absolute squares, and how each player's placement squares map onto it.

Columns `a`-`e`, rows `1`-`6` counted from the first player's side: rows 1-3
are the first player's half (3 its front row), rows 4-6 the second player's
(4 its front row). A placement file names squares of the player's own half,
column a at the player's left and row 1 at the front; the second player sits
across the table, so its left is the first player's right: its `a1` is `e4`.
"""

from __future__ import annotations

from cardkit.games.board import Grid, Square

COLUMNS = "abcde"
HALF_ROWS = 3
"""Each player's half: the rows its placement file names 1 (front) to 3 (back)."""
ROWS = 2 * HALF_ROWS
FIELD = Grid(COLUMNS, ROWS)
SQUARES: tuple[Square, ...] = FIELD.squares
is_square = FIELD.is_square
coords = FIELD.index
neighbours = FIELD.neighbours
is_beside = FIELD.is_beside


def orthogonal_neighbours(square: Square) -> list[Square]:
    return FIELD.neighbours(square, diagonal=False)


def straight_between(a: Square, b: Square) -> list[Square] | None:
    """The squares strictly between `a` and `b` on one row or column; None when they share neither."""
    (ca, ra), (cb, rb) = coords(a), coords(b)
    line = FIELD.line_between(a, b) if ca == cb or ra == rb else None
    return None if line is None else list(line[1])


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
