"""Matching squad cards to the cards they come from, printings of one card being one card.

"A reprint is the same card, for the copy limit, for uniqueness and when a deck names it":
under `copies_by: name` a squad line that names Мантикора is recruited from a dealt 10021
as readily as from a dealt 50027, though the name alone resolves to the latest printing.
An id (or `NAME (ID)`) names its own printing, and exact ids are matched first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial

from cardkit.games.squad_games.squads.budget import SquadRules
from cardkit.games.squad_games.squads.cards import SquadCard

Wanted = tuple[SquadCard, bool]
"""A card as written, and whether it was written by name alone (so any printing will do)."""


def by_name_only(text: str, card_id: str) -> bool:
    """Whether `text` names `card_id` by its name alone, not by the id or `NAME (ID)`."""
    written = text.strip().casefold()
    cid = re.escape(card_id.casefold())
    return re.fullmatch(rf"(?:.*\(\s*)?{cid}\s*\)?", written) is None


def _same_id(card_id: str, other: Wanted) -> bool:
    return other[0].id == card_id


def _same_key(rules: SquadRules, key: object, loose: bool, other: Wanted) -> bool:
    """Another printing of the card `key` names, when either side was written by name alone."""
    return (loose or other[1]) and rules.card_key(other[0]) == key


def match_printings(wanted: Sequence[Wanted], pool: Sequence[Wanted], rules: SquadRules) -> list[int | None]:
    """For each wanted card, the index in `pool` it is matched to (each pool card used once), or None.

    First the same id (cards written by id before those written by name, so a name never takes
    the printing an id needs); then, under `copies_by: name`, another printing of the same card
    when either side was written by name alone.
    """
    taken = [False] * len(pool)
    out: list[int | None] = [None] * len(wanted)

    def take(i: int, fits: Callable[[Wanted], bool]) -> None:
        for j, other in enumerate(pool):
            if not taken[j] and fits(other):
                taken[j], out[i] = True, j
                return

    order = sorted(range(len(wanted)), key=lambda i: wanted[i][1])
    for i in order:
        card = wanted[i][0]
        take(i, partial(_same_id, card.id))
    if rules.copies_by == "name":
        for i in order:
            if out[i] is None:
                card, loose = wanted[i]
                key = rules.card_key(card)
                take(i, partial(_same_key, rules, key, loose))
    return out
