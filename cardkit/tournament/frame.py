"""The event's field as one pandas DataFrame of deck cards, and every metagame table derived from it.

`deck_cards` is the one source: one row per legal deck, section and card with its count.
The published page, the HTML report, `tournament db`'s summary tables and
`publish --csv-dir` all take their statistics from `metagame_of` over it, so the
numbers can't drift apart. pandas is imported here and only when a command needs
the frame, so commands that never show statistics don't pay for it.
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


@dataclass
class Metagame:
    """The field (the legal decks) as DataFrames.

    `deck_cards`: one row per deck, section and card (deck, player, game, section, card, name, kind, count, line);
    `decks`: one row per deck; `mixes`: decks per colour or element mix; `cards`: each card's decks, copies,
    fewest and most; `sizes`: decks per main-deck size. `unlisted` names the submissions that are not in the field.
    """

    deck_cards: pd.DataFrame
    decks: pd.DataFrame
    mixes: pd.DataFrame
    cards: pd.DataFrame
    sizes: pd.DataFrame
    unlisted: list[tuple[str, str]]

    def tables(self) -> dict[str, pd.DataFrame]:
        """Every table by name (`TABLES`), as `publish --csv-dir` and `tournament db` write them."""
        return {"mixes": self.mixes, "cards": self.cards, "sizes": self.sizes, "decks": self.decks,
                "deck_cards": self.deck_cards}


def _label(s: Submission) -> str:
    return s.player or (os.path.basename(s.path) if s.path else "(no name)")


def deck_cards(result: EventCheck) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(deck cards, decks) of `result`'s legal decks, numbered in player order.

    Built as row tuples turned into columns by one `zip`: a big event has 150,000 deck cards, and a dict
    per row, or an append per cell, costs several times as much.
    """
    import pandas as pd

    legal = sorted((s for s in result.submissions if s.verdict is Verdict.LEGAL),
                   key=lambda s: ((s.player or "").casefold(), s.path))
    deck_rows: list[tuple[Any, ...]] = []
    card_rows: list[tuple[Any, ...]] = []
    for i, s in enumerate(legal):
        game = s.report.game or ""
        catalogue = load_game(game).cards
        player = s.player or ""
        deck_rows.append((i, player, s.name or "", s.path, game,
                          mix(game, (c.card for c in s.cards if c.section == "main")) or "",
                          s.report.counts["main"], s.report.counts["side"]))
        for c in s.cards:
            card = catalogue[c.card]
            card_rows.append((i, player, game, c.section, c.card, card["name"], card_kind(card), c.copies, c.line))
    cards = _columns(card_rows, CARD_COLUMNS)
    decks = _columns(deck_rows, DECK_COLUMNS)
    frame = pd.DataFrame(cards, columns=list(CARD_COLUMNS))
    frame["line"] = frame["line"].astype("Int64")
    return frame, pd.DataFrame(decks, columns=list(DECK_COLUMNS))


def _columns(rows: list[tuple[Any, ...]], names: tuple[str, ...]) -> dict[str, list[Any]]:
    columns = list(zip(*rows)) if rows else [() for _ in names]
    return {name: list(column) for name, column in zip(names, columns)}


def metagame(result: EventCheck) -> Metagame:
    """Every metagame table of `result`, from the one frame of its legal decks' cards."""
    frame, decks = deck_cards(result)
    unlisted = sorted(((_label(s), s.verdict.value) for s in result.submissions if s.verdict is not Verdict.LEGAL),
                      key=lambda x: (x[0].casefold(), x[1]))
    return metagame_of(frame, decks, unlisted)


def metagame_of(frame: pd.DataFrame, decks: pd.DataFrame, unlisted: list[tuple[str, str]] | None = None) -> Metagame:
    """The metagame tables of a deck-cards frame and its decks."""
    per_game = decks.groupby("game")["deck"].count().rename("field")

    mixes = decks.groupby(["game", "mix"], as_index=False).agg(decks=("deck", "count"))
    mixes = mixes.join(per_game, on="game")
    mixes["percent"] = (100 * mixes["decks"] / mixes["field"]).round(1)
    mixes = mixes.drop(columns="field").sort_values(["game", "decks", "mix"], ascending=[True, False, True])

    # A card in both sections of a deck is one deck playing it, with its copies added up.
    per_deck = frame.groupby(["deck", "game", "card", "name", "kind"], as_index=False)["count"].sum()
    cards = per_deck.groupby(["game", "card", "name", "kind"], as_index=False).agg(
        decks=("deck", "nunique"), copies=("count", "sum"), fewest=("count", "min"), most=("count", "max"))
    cards = cards.join(per_game, on="game")
    cards["percent"] = (100 * cards["decks"] / cards["field"]).round(1)
    cards["average"] = (cards["copies"] / cards["decks"]).round(2)
    cards = cards.drop(columns="field").sort_values(["decks", "copies", "name", "card"], ascending=[False, False, True, True])
    cards = cards[list(CARD_TABLE_COLUMNS)]

    sizes = decks.groupby(["game", "main"], as_index=False).agg(decks=("deck", "count")).sort_values(["game", "main"])
    return Metagame(frame.reset_index(drop=True), decks.reset_index(drop=True), mixes.reset_index(drop=True),
                    cards.reset_index(drop=True), sizes.reset_index(drop=True), list(unlisted or []))
