"""One player's side of a TCG game, and whether a card can be opened from it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from cardkit.games.berserk_tcg import COLOURS
from cardkit.games.berserk_tcg.opening.cards import CardId, TcgCard
from cardkit.games.berserk_tcg.opening.payment import find_payment, is_valid_payment
from cardkit.games.readings import reading
from cardkit.problems import Problem, error
from cardkit.visible import quoted

HAND_LIMIT = 7
CITY_DRAW = 2
PHASES: tuple[str, ...] = ("draw", "opening", "end")

LEVEL_TOO_HIGH = "LEVEL_TOO_HIGH"
UNIQUE_IN_PLAY = "UNIQUE_IN_PLAY"
COST_UNPAYABLE = "COST_UNPAYABLE"
NOT_IN_HAND = "NOT_IN_HAND"
NOT_A_DECK_CARD = "NOT_A_DECK_CARD"
NOT_OPENING_PHASE = "NOT_OPENING_PHASE"


@dataclass(frozen=True)
class PlayerState:
    """A player's library (top first), hand, trash and cards in play, plus what both sides share.

    `cities` is the number of revealed cities; `taken` the cities this player
    has taken; `opponent_unique` the names of Unique cards the opponent has in
    play; `opened` whether the opening phase's card has been opened this turn.
    The phase after the opening phase, `end`, stands for the main and ending
    phases together. States are values: every change returns a new state.
    """

    cards: Mapping[CardId, TcgCard] = field(compare=False, repr=False)  # the catalogue: not compared, not shown
    library: tuple[CardId, ...] = ()
    hand: tuple[CardId, ...] = ()
    trash: tuple[CardId, ...] = ()
    in_play: tuple[CardId, ...] = ()
    cities: int = 0
    opponent_unique: frozenset[str] = frozenset()
    turn: int = 0
    phase: str = "opening"
    taken: int = 0
    opened: bool = False
    decked: bool = False

    @property
    def unique_in_play(self) -> frozenset[str]:
        """Names of Unique cards in play on either side."""
        own = {self.cards[c].name for c in self.in_play if self.cards[c].unique}
        return self.opponent_unique | own

    def hand_cards(self) -> list[TcgCard]:
        return [self.cards[c] for c in self.hand]

    def begin_turn(self, cities: int, draw: bool = True) -> PlayerState:
        """Unlock (nothing to track here) and move to the next turn's draw phase, or its opening phase when `draw` is skipped."""
        return replace(self, turn=self.turn + 1, cities=cities, phase="draw" if draw else "opening", opened=False)

    def take_city(self) -> PlayerState:
        """The player's attack took a city: "Each time a player takes a city, he has to draw 2 cards
        from his Library and put them into his Hand."

        The battle itself is not played; this is its outcome. The attack reveals the
        city it takes, so at least `taken` cities are revealed afterwards. A library
        with fewer than 2 cards gives what it has: only an empty library at the
        drawing phase loses the game ("when he can't draw a card from his deck
        during his drawing phase").
        """
        drawn = self.library[:CITY_DRAW]
        return replace(self, library=self.library[len(drawn):], hand=self.hand + drawn, taken=self.taken + 1,
                       cities=max(self.cities, self.taken + 1))


@dataclass(frozen=True)
class OpenCheck:
    """Whether a card can be opened: every reason it cannot, or the preferred payment."""

    card: CardId
    reasons: tuple[Problem, ...]
    payment: tuple[CardId, ...] | None

    @property
    def ok(self) -> bool:
        return not self.reasons

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.reasons)


def can_open(card: TcgCard | CardId, state: PlayerState) -> OpenCheck:
    """Check timing, Level, Unique and cost for opening `card` from `state`'s hand; return all reasons it cannot.

    "The Opening phase allows you to put a card in game": one card, in that
    phase. "Some cards have the Quick ability, which allows them to be played
    anytime": a Quick card may also be opened in any other phase and after
    another card this turn, still within the Level and cost rules.
    """
    if isinstance(card, str):
        card = state.cards[card]
    reasons: list[Problem] = []
    if not card.quick and (state.phase != "opening" or state.opened):
        # opening the phase's card ends the opening phase, so "after another card" is a later phase too
        reasons.append(error(NOT_OPENING_PHASE, f"{card.id} is not Quick: it can be opened only as the opening "
                                                f"phase's one card, not in the {state.phase} phase", card=card.id,
                             actual=state.phase))
    rest = list(state.hand)
    if card.id in rest:
        rest.remove(card.id)
    else:
        reasons.append(error(NOT_IN_HAND, f"{card.id} is not in the hand", card=card.id))
    if card.is_city:
        reasons.append(error(NOT_A_DECK_CARD, f"{card.id} is a city: cities lie between the players and are never opened",
                             card=card.id))
    if card.level > state.cities:
        reasons.append(error(LEVEL_TOO_HIGH, f"Level {card.level} needs {card.level} revealed cities; "
                                             f"{state.cities} revealed", card=card.id, limit=state.cities, actual=card.level))
    in_play = state.unique_in_play
    own = card.unique and any(state.cards[c].name == card.name for c in state.in_play)
    if own or (card.unique and card.name in state.opponent_unique and not trashed_on_entry(card, state)):
        where = "on this player's side" if own else "on the opponent's side (reading unique_in_play)"
        reasons.append(error(UNIQUE_IN_PLAY, f"a Unique card named {quoted(card.name)} is already in play {where}",
                             card=card.id, actual=card.name))
    rest_cards = [state.cards[c] for c in rest]
    # once this card is in play, other copies of a Unique one are dead: pay with them first
    paid = find_payment(card.cost, rest_cards, in_play | {card.name} if card.unique and card.stays_in_play else in_play)
    if paid is None:
        reasons.append(error(COST_UNPAYABLE, f"the rest of the hand cannot pay {describe_cost(card)}",
                             card=card.id, limit=card.cost.total, actual=len(rest_cards)))
    payment = None if reasons or paid is None else tuple(rest[i] for i in paid)
    return OpenCheck(card=card.id, reasons=tuple(reasons), payment=payment)


def trashed_on_entry(card: TcgCard, state: PlayerState) -> bool:
    """Whether `card` opens only to be trashed: a Unique card whose name the opponent has in play, under the
    `unique_in_play: "trash"` reading ("if you do, it'll be trashed as soon as it comes in game")."""
    return (card.unique and card.stays_in_play and card.name in state.opponent_unique
            and reading("berserk-tcg", "unique_in_play") == "trash")


def without(cards: tuple[CardId, ...], removed: tuple[CardId, ...]) -> tuple[CardId, ...] | None:
    """`cards` less one of each of `removed`, or None when one is missing."""
    rest = list(cards)
    for c in removed:
        if c not in rest:
            return None
        rest.remove(c)
    return tuple(rest)


def opened(state: PlayerState, card_id: CardId, pay: tuple[CardId, ...]) -> PlayerState | None:
    """The state after opening `card_id` from the hand, trashing `pay` (sorted ids) for its cost; None when that is
    not legal. Here rather than with the one-player actions: the two-player game's `apply` opens cards through it
    without compiling the actions' parsing and listing, which only the opening engine needs."""
    if state.decked or card_id not in state.cards:
        return None
    check = can_open(card_id, state)  # the phase too: only a Quick card outside the opening phase's one card
    rest = without(state.hand, (card_id,))
    after = without(rest, pay) if rest is not None else None
    card = state.cards[card_id]
    if not check.ok or after is None or not is_valid_payment(card.cost, [state.cards[c] for c in pay]):
        return None
    # "Normal effect (you play the card, its effect occurs, then you trash it)"
    kept = card.stays_in_play and not trashed_on_entry(card, state)
    stays = (card_id,) if kept else ()
    gone = () if kept else (card_id,)
    in_opening = state.phase == "opening"
    return replace(state, hand=after, trash=state.trash + pay + gone, in_play=state.in_play + stays,
                   opened=state.opened or in_opening, phase="end" if in_opening else state.phase)


def describe_cost(card: TcgCard) -> str:
    """The cost as words, e.g. `1 black + 1 colourless`."""
    parts = [f"{n} {colour}" for colour, n in zip(COLOURS, card.cost.coloured) if n]
    if card.cost.colourless:
        parts.append(f"{card.cost.colourless} colourless")
    return " + ".join(parts) or "nothing"
