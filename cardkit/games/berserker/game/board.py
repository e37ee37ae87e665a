"""The fleet board: an 8x8 `cardkit.games.board.Grid` (squares, straight and diagonal lines, for moves and fire
alike), where each side sets up and which way is forward."""

from __future__ import annotations

from dataclasses import dataclass

from cardkit.games.berserker.model import Side
from cardkit.games.board import Grid, Square


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
GRID = Grid(BOARD.files, BOARD.ranks)


def forward(side: Side, board: Board = BOARD) -> tuple[int, int]:
    """A side's forward direction: away from its home rank."""
    return (0, 1) if dict(board.home_rank)[side] == 1 else (0, -1)
