"""The fleet board and straight lines on it: squares, paths (orthogonal or diagonal), forward, for moves and fire alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from cardkit.games.berserker.model import Side

Square = str


@dataclass(frozen=True)
class Board:
    """An 8x8 chessboard; each side sets up on the `back_rows` ranks nearest its edge."""

    files: str = "abcdefgh"
    ranks: int = 8
    back_rows: int = 2
    home_rank: tuple[tuple[Side, int], ...] = (("human", 1), ("berserker", 8))

    # The human fleet starts at rank 1, the Berserker across the board.
    def allowed_ranks(self, side: Side) -> range:
        home = dict(self.home_rank)[side]
        if home == 1:
            return range(1, self.back_rows + 1)
        return range(home - self.back_rows + 1, home + 1)

    def on_board(self, file: str, rank: int) -> bool:
        return file in self.files and 1 <= rank <= self.ranks

    def squares(self, side: Side) -> list[Square]:
        return [f"{f}{r}" for r in self.allowed_ranks(side) for f in self.files]


BOARD = Board()
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def coords(square: Square, board: Board = BOARD) -> tuple[int, int] | None:
    """(file index, rank) of a square like `c4`, or None when it is not one on the board."""
    if board is BOARD:
        known = _COORDS.get(square)
        if known is not None:
            return known
    if len(square) < 2 or not square[1:].isdigit():
        return None
    f, r = board.files.find(square[0].lower()), int(square[1:])
    return (f, r) if f >= 0 and 1 <= r <= board.ranks else None


def square_at(f: int, r: int, board: Board = BOARD) -> Square | None:
    if board is BOARD:
        return _SQUARES.get((f, r))
    return f"{board.files[f]}{r}" if 0 <= f < len(board.files) and 1 <= r <= board.ranks else None


# The standard board's squares both ways, worked out once: listing a state's legal actions asks for them
# tens of thousands of times. Other spellings of a square (`C4`, `c04`) are still worked out by `coords`.
_SQUARES: dict[tuple[int, int], Square] = {(f, r): f"{name}{r}" for f, name in enumerate(BOARD.files)
                                           for r in range(1, BOARD.ranks + 1)}
_COORDS: dict[Square, tuple[int, int]] = {square: fr for fr, square in _SQUARES.items()}


def line_between(start: Square, end: Square, board: Board = BOARD) -> tuple[int, tuple[Square, ...]] | None:
    """(distance, squares strictly between) when `end` is on a straight line from `start`; else None."""
    a, b = coords(start, board), coords(end, board)
    if a is None or b is None or a == b:
        return None
    df, dr = b[0] - a[0], b[1] - a[1]
    if df and dr and abs(df) != abs(dr):
        return None
    n = max(abs(df), abs(dr))
    step = (df // n, dr // n)
    between = tuple(square_at(a[0] + step[0] * i, a[1] + step[1] * i, board) or "" for i in range(1, n))
    return n, between


def ray(start: Square, direction: tuple[int, int], n: int, board: Board = BOARD) -> Square | None:
    """The square `n` steps from `start` in `direction`, or None off the board."""
    a = coords(start, board)
    return None if a is None else square_at(a[0] + direction[0] * n, a[1] + direction[1] * n, board)


def forward(side: Side, board: Board = BOARD) -> tuple[int, int]:
    """A side's forward direction: away from its home rank."""
    return (0, 1) if dict(board.home_rank)[side] == 1 else (0, -1)



def squares_from(square: Square, n: int, board: Board = BOARD) -> Iterator[tuple[Square, tuple[Square, ...]]]:
    """Every square exactly `n` steps away in a straight line, with the squares passed on the way."""
    for d in DIRECTIONS:
        end = ray(square, d, n, board)
        if end is not None:
            yield end, tuple(ray(square, d, i, board) or "" for i in range(1, n))

