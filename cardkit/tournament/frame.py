"""The event's field as one pandas DataFrame of deck cards, and every metagame table derived from it.

`deck_cards` is the one source: one row per legal deck, section and card with its count.
The published page, the HTML report, `tournament db`'s summary tables and
`publish --csv-dir` all take their statistics from `metagame_of`, which groups that frame
with pandas (`group_field`), so the numbers can't drift apart. pandas is imported here and
only when a command needs the frame, so commands that never show statistics don't pay for it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardkit.catalogue.store import load_game
from cardkit.tournament.check import EventCheck, Submission, Verdict
from cardkit.tournament.metagame import card_kind, mix

if TYPE_CHECKING:
    import pandas as pd

DECK_COLUMNS: tuple[str, ...] = ("deck", "player", "name", "file", "game", "mix", "main", "side")
CARD_COLUMNS: tuple[str, ...] = ("deck", "player", "game", "section", "card", "name", "kind", "count", "line")
CARD_TABLE_COLUMNS: tuple[str, ...] = ("game", "card", "name", "kind", "decks", "percent", "copies", "average", "fewest",
                                       "most")
TABLES: tuple[str, ...] = ("mixes", "cards", "sizes", "decks", "deck_cards")
"""The metagame tables, in the order a reader wants them; `publish --csv-dir` writes each as NAME.csv."""
COLUMNS: dict[str, tuple[str, ...]] = {"mixes": ("game", "mix", "decks", "percent"), "cards": CARD_TABLE_COLUMNS,
                                       "sizes": ("game", "main", "decks"), "decks": DECK_COLUMNS,
                                       "deck_cards": CARD_COLUMNS}
"""Each table's columns, in the order of its row tuples."""

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Metagame:
    """The field (the legal decks): every metagame table as rows of plain Python values, each in its `COLUMNS` order.

    `deck_cards`: one row per deck, section and card (deck, player, game, section, card, name, kind, count, line);
    `decks`: one row per deck; `mixes`: decks per colour or element mix; `cards`: each card's decks, copies,
    fewest and most; `sizes`: decks per main-deck size; the last three grouped by pandas from the DataFrame of
    `deck_cards` (`group_field`). `unlisted` names the submissions that are not in the field. Plain rows, read
    without pandas; each table is also there as a DataFrame, by its name (`meta.cards`) or `frame(name)`.
    """

    tables: dict[str, list[Row]]
    unlisted: list[tuple[str, str]]

    def rows(self, name: str) -> list[Row]:
        """Table `name` as tuples of plain Python values in its `COLUMNS` order, a missing line as None."""
        return self.tables[name]

    def records(self, name: str) -> list[dict[str, Any]]:
        """Table `name` as one dict per row, of plain Python values."""
        columns = COLUMNS[name]
        return [dict(zip(columns, row)) for row in self.tables[name]]

    def count(self, name: str) -> int:
        """The rows of table `name`."""
        return len(self.tables[name])

    def frame(self, name: str) -> pd.DataFrame:
        """Table `name` as a pandas DataFrame (`deck_cards` and `decks` with their text columns categorical)."""
        if name == "deck_cards":
            return _card_frame(self.tables[name])
        if name == "decks":
            return _deck_frame(self.tables[name])
        return _frame(self.tables[name], COLUMNS[name], ())

    deck_cards = property(lambda self: self.frame("deck_cards"), doc="`deck_cards` as a DataFrame.")
    decks = property(lambda self: self.frame("decks"), doc="`decks` as a DataFrame.")
    mixes = property(lambda self: self.frame("mixes"), doc="`mixes` as a DataFrame.")
    cards = property(lambda self: self.frame("cards"), doc="`cards` as a DataFrame.")
    sizes = property(lambda self: self.frame("sizes"), doc="`sizes` as a DataFrame.")


def _values(column: pd.Series) -> list[Any]:
    if column.dtype == "Int64":  # a card line may be unknown: None, not pandas' NA
        return list(column.to_numpy(dtype=object, na_value=None))
    return list(column.tolist())


def _label(s: Submission) -> str:
    return s.player or (os.path.basename(s.path) if s.path else "(no name)")


def deck_cards(result: EventCheck) -> tuple[list[Row], list[Row], list[tuple[str, str]]]:
    """(deck cards, decks, unlisted) of `result`: the legal decks' rows numbered in player order, and the
    other submissions' (name, verdict). A deck's mix is "" where its game has none."""
    legal: list[Submission] = []
    unlisted: list[tuple[str, str]] = []
    for s in result.submissions:
        verdict = s.verdict
        if verdict is Verdict.LEGAL:
            legal.append(s)
        else:
            unlisted.append((_label(s), verdict.value))
    legal.sort(key=lambda s: ((s.player or "").casefold(), s.path))
    unlisted.sort(key=lambda x: (x[0].casefold(), x[1]))
    deck_rows: list[Row] = []
    card_rows: list[Row] = []
    # Each card's name and kind, looked up once: thousands of decks play the same few hundred cards.
    facts: dict[tuple[str, str], tuple[str, str]] = {}
    for i, s in enumerate(legal):
        game = s.report.game or ""
        catalogue = load_game(game).cards
        player = s.player or ""
        deck_mix = mix(game, [c.card for c in s.cards if c.section == "main"])
        deck_rows.append((i, player, s.name or "", s.path, game, deck_mix or "", s.report.counts["main"],
                          s.report.counts["side"]))
        for c in s.cards:
            known = facts.get((game, c.card))
            if known is None:
                card = catalogue[c.card]
                known = facts[(game, c.card)] = (card["name"], card_kind(card))
            card_rows.append((i, player, game, c.section, c.card, known[0], known[1], c.copies, c.line))
    return card_rows, deck_rows, unlisted


def metagame(result: EventCheck) -> Metagame:
    """Every metagame table of `result`, from the one table of its legal decks' cards."""
    cards, decks, unlisted = deck_cards(result)
    return metagame_of(cards, decks, unlisted)


def _frame(rows: list[Row], columns: tuple[str, ...], categorical: tuple[str, ...]) -> pd.DataFrame:
    """`rows` as a DataFrame, built column by column from one `zip` (a big event has 150,000 deck cards, and a dict
    per row costs several times as much), the `categorical` text columns as categories: grouped by their codes."""
    import pandas as pd

    data = list(zip(*rows)) if rows else [() for _ in columns]
    return pd.DataFrame({c: pd.Categorical(values) if c in categorical else list(values)
                         for c, values in zip(columns, data)}, columns=list(columns))


def _card_frame(cards: list[Row]) -> pd.DataFrame:
    """The deck-card rows (`CARD_COLUMNS`) as the DataFrame the field's statistics are grouped from."""
    frame = _frame(cards, CARD_COLUMNS, ("game", "section", "card", "name", "kind"))
    frame["line"] = frame["line"].astype("Int64")
    return frame


def _deck_frame(decks: list[Row]) -> pd.DataFrame:
    """The decks' rows (`DECK_COLUMNS`) as the DataFrame the mixes and sizes are grouped from."""
    return _frame(decks, DECK_COLUMNS, ("game", "mix"))


def group_field(cards: list[Row], decks: list[Row]) -> dict[str, list[Row]]:
    """The grouped tables (`mixes`, `cards`, `sizes`) as rows, grouped by pandas from one DataFrame of deck-card
    rows (`CARD_COLUMNS`) and one of their decks' rows (`DECK_COLUMNS`)."""
    frame = _card_frame(cards)
    field = _deck_frame(decks)
    per_game = field.groupby("game", observed=True)["deck"].count().rename("field")

    mixes = field.groupby(["game", "mix"], as_index=False, observed=True).agg(decks=("deck", "count"))
    mixes = mixes.join(per_game, on="game")
    mixes["percent"] = (100 * mixes["decks"] / mixes["field"]).round(1)
    mixes = mixes.drop(columns="field").sort_values(["game", "decks", "mix"], ascending=[True, False, True])

    # A card in both sections of a deck is one deck playing it, with its copies added up. A card's name and kind
    # follow from its game and id, so they are taken once per card rather than grouped on.
    per_deck = frame.groupby(["game", "card", "deck"], observed=True)["count"].sum()
    played = per_deck.groupby(level=["game", "card"], observed=True).agg(["size", "sum", "min", "max"])
    played.columns = ["decks", "copies", "fewest", "most"]
    played = played.reset_index()
    named = frame.drop_duplicates(["game", "card"])[["game", "card", "name", "kind"]]
    played = played.merge(named, on=["game", "card"], how="left").join(per_game, on="game")
    played["percent"] = (100 * played["decks"] / played["field"]).round(1)
    played["average"] = (played["copies"] / played["decks"]).round(2)
    # Ties are in the order of game and card, as the grouping gives them: a stable sort keeps it.
    played = played.sort_values(["decks", "copies", "name", "card"], ascending=[False, False, True, True], kind="stable")

    sizes = field.groupby(["game", "main"], as_index=False, observed=True).agg(decks=("deck", "count"))
    sizes = sizes.sort_values(["game", "main"])
    return {name: _rows(table, COLUMNS[name]) for name, table in (("mixes", mixes), ("cards", played), ("sizes", sizes))}


def _rows(frame: pd.DataFrame, columns: tuple[str, ...]) -> list[Row]:
    # Column by column: `tolist` gives Python values in one step, where a row at a time boxes each cell.
    return list(zip(*(_values(frame[c]) for c in columns)))


def metagame_of(cards: list[Row], decks: list[Row], unlisted: list[tuple[str, str]] | None = None,
                grouped: dict[str, list[Row]] | None = None) -> Metagame:
    """The metagame of the deck-card rows `cards` (`CARD_COLUMNS`) and their decks' rows `decks` (`DECK_COLUMNS`):
    those two tables as given and the tables pandas groups from them (`group_field`; `grouped` if already done)."""
    grouped = group_field(cards, decks) if grouped is None else grouped
    return Metagame({"mixes": grouped["mixes"], "cards": grouped["cards"], "sizes": grouped["sizes"], "decks": decks,
                     "deck_cards": cards}, list(unlisted or []))
