"""Squares on a rectangular board and straight lines between them, for every game played on one.

Squares are named as on a chessboard: a file letter and a rank number (`c4`), files from `a`
left to right, ranks from 1 on the first player's side. The battle's field is a 5x6 `Grid`, the
fleet game's board an 8x8 one; what a game adds (whose half a square is, which way is forward)
stays in its own `board` module.
"""

from __future__ import annotations

Square = str

ORTHOGONAL: tuple[tuple[int, int], ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
AROUND: tuple[tuple[int, int], ...] = tuple((df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0))
CLOCKWISE: tuple[tuple[int, int], ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""The eight directions from straight ahead round to the right, the order the fleet game lists moves in."""


# Not a value class: it is built once per board and holds tables worked out from its two fields.
class Grid:
    """A board of `files` (letters) by `ranks` (1..ranks); every square's name and place worked out once,
    since listing a state's legal actions asks for them tens of thousands of times."""

    __slots__ = ("files", "ranks", "squares", "_names", "_places")

    def __init__(self, files: str, ranks: int) -> None:
        self.files, self.ranks = files, ranks
        self.squares: tuple[Square, ...] = tuple(f"{name}{r}" for r in range(1, ranks + 1) for name in files)
        self._names: dict[tuple[int, int], Square] = {(f, r): f"{name}{r}" for f, name in enumerate(files)
                                                      for r in range(1, ranks + 1)}
        self._places: dict[Square, tuple[int, int]] = {square: place for place, square in self._names.items()}

    def is_square(self, text: str) -> bool:
        """Whether `text` is a square of this board, written as it names them (`c4`)."""
        return text in self._places

    def index(self, square: Square) -> tuple[int, int]:
        """(file index from 0, rank) of a square of this board, written as it names them; KeyError for another text."""
        return self._places[square]

    def coords(self, square: Square) -> tuple[int, int] | None:
        """(file index, rank) of a square in any spelling (`C4`, `c04`), or None when it is not one on the board."""
        known = self._places.get(square)
        if known is not None:
            return known
        if len(square) < 2 or not square[1:].isdigit():
            return None
        f, r = self.files.find(square[0].lower()), int(square[1:])
        return (f, r) if f >= 0 and 1 <= r <= self.ranks else None

    def square_at(self, f: int, r: int) -> Square | None:
        return self._names.get((f, r))

    def neighbours(self, square: Square, diagonal: bool = True) -> list[Square]:
        """The squares next to `square`: eight with diagonals, four without."""
        f, r = self._places[square]
        found = (self._names.get((f + df, r + dr)) for df, dr in (AROUND if diagonal else ORTHOGONAL))
        return [s for s in found if s is not None]

    def is_beside(self, a: Square, b: Square, diagonal: bool = True) -> bool:
        (fa, ra), (fb, rb) = self._places[a], self._places[b]
        df, dr = abs(fa - fb), abs(ra - rb)
        return max(df, dr) == 1 if diagonal else df + dr == 1

    def line_between(self, start: Square, end: Square) -> tuple[int, tuple[Square, ...]] | None:
        """(distance, squares strictly between) when `end` is on a straight line (a file, a rank or a diagonal)
        from `start`; else None."""
        a, b = self.coords(start), self.coords(end)
        if a is None or b is None or a == b:
            return None
        df, dr = b[0] - a[0], b[1] - a[1]
        if df and dr and abs(df) != abs(dr):
            return None
        n = max(abs(df), abs(dr))
        step = (df // n, dr // n)
        return n, tuple(self.square_at(a[0] + step[0] * i, a[1] + step[1] * i) or "" for i in range(1, n))

    def ray(self, start: Square, direction: tuple[int, int], n: int) -> Square | None:
        """The square `n` steps from `start` in `direction`, or None off the board."""
        a = self.coords(start)
        return None if a is None else self.square_at(a[0] + direction[0] * n, a[1] + direction[1] * n)

