"""Simulated hands for the fleet game: how often each ship type has a card it can play.

Both players draw from one shared deck, as the rules say. The player whose
seat is `first` (the human by default; `seat="second"` lets the Berserker
move first) and the other alternate turns. Each turn, for the player on move:

1. Orders: draw 3 (when the deck runs out, the discard pile is shuffled into
   it); keep 5 by `keep_best`: repeatedly keep the card that adds the most
   not-yet-covered (ship type, move/attack/defense) needs of the player's own
   fleet, ties going to the card more ship types can use, then the higher
   number, then catalogue order. Cards no own ship can use go first.
2. The hand is measured here: the report's probabilities are of holding,
   after the Orders phase, a card a ship type may use.
3. Maneuver: "A ship can only make one move per turn", so up to one Move
   card per own ship that can use it is played: the most cards that can each
   go to a different ship, preferring the ones fewest own ship types can use
   (ties to the higher number), keeping flexible cards for later.
4. Fire: usable Attack cards are played, in the same order, up to the fleet's
   attacks per turn (sum of count x attacks per turn); each is answered by
   one Defense card of the other player that applies to it (ones made for
   that attack first, e.g. Robot Security against Marines).

No board is simulated: ships are never lost, every attack is in range.

`simulate` plays blocks of games at once as numpy arrays; `simulate_reference`
plays one game at a time with lists, calling the same policy functions.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardkit.errors import BadArgument
from cardkit.games.berserker.model import SIDES, CardId, FleetCard, FleetRules, Ship, Side, load_rules
from cardkit.games.berserker.usage import can_use

if TYPE_CHECKING:
    from cardkit.plotting import PlotTarget

ACCEPTS: frozenset[str] = frozenset()
DRAW = 3
HAND_LIMIT = 5
NEEDS: tuple[str, ...] = ("move", "attack", "defense")
_PROGRESS_EVERY = 500
_TABLE_KINDS = 16  # up to this many card kinds, arrays over every set of kinds (2^16 at most) replace sorting


@dataclass(frozen=True)
class _SidePlan:
    """Per-side lookup tables over card-kind indices, built once per run."""

    side: Side
    ships: tuple[Ship, ...]
    masks: tuple[int, ...]        # bit 3*j+need: own ship j may use the kind for that need
    play_key: tuple[tuple[int, int, int], ...]
    keep_key: tuple[tuple[int, int], ...]
    capacity: int                 # attacks per Fire phase for the whole fleet
    movers: tuple[int, ...]       # per own ship type: how many ships of it may each make one move
    answers: tuple[tuple[int, ...], ...]  # attack kind -> defense kinds of this side that answer it


def _plan(side: Side, rules: FleetRules, kinds: list[FleetCard]) -> _SidePlan:
    ships = tuple(rules.ships_of(side))
    masks = []
    for card in kinds:
        mask = 0
        for j, ship in enumerate(ships):
            if card.type in NEEDS and can_use(card, ship, rules).allowed:
                mask |= 1 << (3 * j + NEEDS.index(card.type))
        masks.append(mask)
    play_key = tuple((m.bit_count(), -(c.value or 0), i) for i, (c, m) in enumerate(zip(kinds, masks)))
    keep_key = tuple((m.bit_count(), c.value or 0) for c, m in zip(kinds, masks))
    answers = []
    for attack in kinds:
        fitting = [i for i, (c, m) in enumerate(zip(kinds, masks))
                   if c.type == "defense" and m and attack.type == "attack"
                   and _answers(c, attack)]
        # A card made for this attack first: it is useless against anything else.
        fitting.sort(key=lambda i: (_against(kinds[i]) is None, i))
        answers.append(tuple(fitting))
    return _SidePlan(side, ships, tuple(masks), play_key, keep_key,
                     sum(s.count * s.attacks_per_turn for s in ships),
                     tuple(s.count for s in ships), tuple(answers))


def _against(card: FleetCard) -> tuple[CardId, ...] | None:
    """The attack cards `card` may only be played against; None when it is not limited so."""
    return card.restriction.against if card.restriction is not None else None


def _answers(defense: FleetCard, attack: FleetCard) -> bool:
    """Whether `defense`'s restriction lets it answer `attack` (its type and owner are checked elsewhere)."""
    against = _against(defense)
    return against is None or attack.id in against


def keep_best(hand: list[int], plan: _SidePlan, limit: int = HAND_LIMIT) -> tuple[list[int], list[int]]:
    """Split `hand` (card-kind indices) into the cards kept and those discarded, by the policy above."""
    if len(hand) <= limit:
        return hand, []
    rest = sorted(hand)
    kept: list[int] = []
    covered = 0
    while len(kept) < limit:
        best = max(range(len(rest)), key=lambda x: ((plan.masks[rest[x]] & ~covered).bit_count(),
                                                    plan.keep_key[rest[x]], -rest[x]))
        k = rest.pop(best)
        kept.append(k)
        covered |= plan.masks[k]
    return kept, rest


def _deck_counts(deck: Any) -> dict[CardId, int]:
    if isinstance(deck, Mapping):
        return dict(deck)
    game = getattr(deck, "game", "berserker")
    if game != "berserker":
        raise BadArgument(f"the fleet game simulator needs a berserker deck, not {game}")
    return dict(deck.main)


@dataclass(frozen=True)
class HandSimulation:
    """Counts from simulated games, turned into probabilities on demand."""

    deck: dict[CardId, int]
    games: int
    turns: int
    seed: int
    order: tuple[Side, Side]
    plans: tuple[_SidePlan, ...]
    kinds: tuple[FleetCard, ...]
    # (side index, turn) -> Counter of "which kinds are in hand" bitmasks after the Orders phase
    held: dict[tuple[int, int], Counter[int]]
    hand_cards: dict[tuple[int, int], int]
    reshuffled: dict[int, int]     # round -> games in which the discard pile was reshuffled by then

    def _p(self, side_i: int, turn: int, test: Any) -> float:
        counter = self.held[(side_i, turn)]
        return sum(n for kinds, n in counter.items() if test(kinds)) / self.games

    def _cover(self, plan: _SidePlan, kinds_mask: int) -> int:
        cover = 0
        for k, m in enumerate(plan.masks):
            if kinds_mask >> k & 1:
                cover |= m
        return cover

    def exact_first_turn(self, plan: _SidePlan, bit: int) -> float:
        """P(a need bit is covered) in a player's first hand: 3 cards of the full deck, hypergeometric."""
        n = sum(self.deck.values())
        good = sum(c for cid, c in self.deck.items() if plan.masks[self._index[cid]] >> bit & 1)
        draw = min(DRAW, n)
        return 1 - math.comb(n - good, draw) / math.comb(n, draw)

    @property
    def _index(self) -> dict[CardId, int]:
        return {c.id: i for i, c in enumerate(self.kinds)}

    def side_report(self, side_i: int) -> dict[str, Any]:
        plan = self.plans[side_i]
        defense = [i for i, c in enumerate(self.kinds) if c.type == "defense" and plan.masks[i]]
        turns = []
        for t in range(1, self.turns + 1):
            counter = self.held[(side_i, t)]
            covers: Counter[int] = Counter()
            for kinds_mask, n in counter.items():
                covers[self._cover(plan, kinds_mask)] += n
            ships = []
            for j, ship in enumerate(plan.ships):
                row: dict[str, Any] = {"ship": ship.id}
                for need_i, need in enumerate(NEEDS):
                    bit = 1 << (3 * j + need_i)
                    row[f"p_{need}"] = round(sum(n for c, n in covers.items() if c & bit) / self.games, 6)
                if t == 1:
                    row["exact"] = {f"p_{need}": round(self.exact_first_turn(plan, 3 * j + i), 6)
                                    for i, need in enumerate(NEEDS)}
                ships.append(row)
            turns.append({
                "turn": t,
                "mean_hand": round(self.hand_cards[(side_i, t)] / self.games, 6),
                "ships": ships,
                "defense_cards": [{"card": self.kinds[k].id,
                                   "p_holding": round(self._p(side_i, t, lambda m, k=k: m >> k & 1), 6)}
                                  for k in defense],
            })
        return {"side": plan.side, "moves": "first" if self.order[0] == plan.side else "second",
                "ships": [s.id for s in plan.ships], "turns": turns}

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "berserker",
            "deck": {"cards": sum(self.deck.values()), "kinds": len(self.deck)},
            "games": self.games, "turns": self.turns, "seed": self.seed,
            "first": self.order[0], "draw": DRAW, "hand_limit": HAND_LIMIT,
            "measured": "after the Orders phase (draw, then discard down to the hand limit)",
            "sides": [self.side_report(SIDES.index(s)) for s in self.order],
            "p_reshuffled_by_round": [round(self.reshuffled.get(r, 0) / self.games, 6)
                                      for r in range(1, self.turns + 1)],
        }

    def render_text(self) -> str:
        """Aligned tables, one per side: per turn and ship type, P(usable Move/Attack/Defense)."""
        data = self.to_dict()
        names = {s.id: s.name for p in self.plans for s in p.ships}
        out = [f"Berserker fleet game: {self.games:,} games x {self.turns} turn{'s' if self.turns != 1 else ''}, seed {self.seed}; "
               f"shared deck of {data['deck']['cards']} cards; the {self.order[0]} moves first",
               f"P(holding a card the ship type can use) after drawing {DRAW} and keeping {HAND_LIMIT}; "
               "'exact' is the hypergeometric value of a first hand", ""]
        for side in data["sides"]:
            head = ["turn", "ship", "move", "exact", "attack", "exact", "defense", "exact"]
            rows = []
            for turn in side["turns"]:
                for row in turn["ships"]:
                    ex = row.get("exact", {})
                    cells = [str(turn["turn"]), names[row["ship"]]]
                    for need in NEEDS:
                        cells += [f"{row[f'p_{need}']:.4f}", f"{ex[f'p_{need}']:.4f}" if ex else ""]
                    rows.append(cells)
            widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
            out.append(f"{side['side']} (moves {side['moves']})")
            for r in [head] + rows:
                out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                                     for i, (c, w) in enumerate(zip(r, widths))).rstrip())
            for i, first in enumerate(side["turns"][0]["defense_cards"]):
                ps = [t["defense_cards"][i]["p_holding"] for t in side["turns"]]
                out.append(f"  P(holding {self._name(first['card'])}) per turn: " + " ".join(f"{p:.4f}" for p in ps))
            out.append("")
        out.append("P(discard pile reshuffled) by round: "
                   + " ".join(f"{p:.3f}" for p in data["p_reshuffled_by_round"]))
        return "\n".join(out) + "\n"

    def _name(self, cid: CardId) -> str:
        return next(c.name for c in self.kinds if c.id == cid)

    def plot(self, path: PlotTarget) -> None:
        """Per side, P(usable Move/Attack/Defense) per turn and ship type, as PNG or SVG."""
        from cardkit.plotting import figure, plot_format, save

        plot_format(path)
        data = self.to_dict()
        fig, axes = figure(1, len(data["sides"]), height=5.2)
        styles = {"move": "-", "attack": "--", "defense": ":"}
        names = {s.id: s.name for p in self.plans for s in p.ships}
        for ax, side in zip(axes, data["sides"]):
            xs = [t["turn"] for t in side["turns"]]
            for j, sid in enumerate(side["ships"]):
                for need in NEEDS:
                    ys = [t["ships"][j][f"p_{need}"] for t in side["turns"]]
                    ax.plot(xs, ys, styles[need], color=f"C{j}", marker="o", markersize=3,
                            label=f"{names[sid]}: {need}")
            ax.set_title(f"{side['side']} (moves {side['moves']})")
            ax.set_xlabel("turn")
            ax.set_xticks(xs)
            ax.set_ylim(0, 1.02)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3)
        axes[0].set_ylabel("P(holding a usable card)")
        fig.suptitle(f"Berserker fleet game hands: {self.games:,} games, seed {self.seed}")
        save(fig, path)


@dataclass(frozen=True)
class _Setup:
    """A deck and options checked and turned into what both simulators play."""

    counts: dict[CardId, int]
    kinds: tuple[FleetCard, ...]
    plans: tuple[_SidePlan, ...]
    order: tuple[Side, Side]
    turn_order: tuple[int, ...]
    types: tuple[str, ...]
    base: tuple[int, ...]  # the deck, one card kind per copy, in catalogue order


def _setup(deck: Any, options: Any, rules: FleetRules | None) -> _Setup:
    rules = rules or load_rules()
    counts = _deck_counts(deck)
    unknown = [cid for cid in counts if cid not in rules.cards]
    if unknown:
        raise BadArgument(f"not fleet game cards: {', '.join(sorted(unknown))}")
    if sum(counts.values()) < 1:
        raise BadArgument("the deck has no cards")
    kinds = [rules.cards[cid] for cid in rules.cards]  # catalogue order, whatever the deck's order
    index = {c.id: i for i, c in enumerate(kinds)}
    plans = tuple(_plan(side, rules, kinds) for side in SIDES)
    order: tuple[Side, Side] = ("human", "berserker") if options.seat == "first" else ("berserker", "human")
    base = tuple(index[cid] for cid in sorted(counts, key=index.__getitem__) for _ in range(counts[cid]))
    return _Setup(counts, tuple(kinds), plans, order, tuple(SIDES.index(s) for s in order),
                  tuple(c.type for c in kinds), base)


@dataclass
class _Counts:
    """What a block of games counted; blocks add up."""

    held: dict[tuple[int, int], Counter[int]]
    hand_cards: Counter[tuple[int, int]]
    reshuffled: Counter[int]
    # (side index, turn) -> (sets of kinds, hands holding each) per block, merged into `held` once by `merged`:
    # adding Counters block by block walks every distinct set in Python
    sets: dict[tuple[int, int], list[tuple[Any, Any]]] = field(default_factory=dict)

    @classmethod
    def empty(cls, turns: int) -> _Counts:
        return cls({(s, t): Counter() for s in range(2) for t in range(1, turns + 1)}, Counter(), Counter())

    def add(self, other: _Counts) -> None:
        for key, counter in other.held.items():
            if counter:
                self.held[key].update(counter)
        for key, parts in other.sets.items():
            self.sets.setdefault(key, []).extend(parts)
        self.hand_cards.update(other.hand_cards)
        self.reshuffled.update(other.reshuffled)

    def merged(self, width: int) -> dict[tuple[int, int], Counter[int]]:
        """`held` with every block's sets of kinds added in."""
        import numpy as np

        for key, parts in self.sets.items():
            sets = np.concatenate([p[0] for p in parts])
            hands = np.concatenate([p[1] for p in parts])
            if len(parts) == 1:
                pass
            elif width <= _TABLE_KINDS:
                totals = np.bincount(sets, weights=hands, minlength=1 << width).astype(np.int64)
                sets = np.flatnonzero(totals > 0)
                hands = totals[sets]
            else:
                sets, where = np.unique(sets, return_inverse=True)
                hands = np.bincount(where.reshape(-1), weights=hands).astype(np.int64)
            self.held[key].update(dict(zip(sets.tolist(), hands.tolist())))
        self.sets = {}
        return self.held


def _finish(setup: _Setup, options: Any, counts: _Counts) -> HandSimulation:
    by_round = {}
    running = 0
    for r in range(1, options.turns + 1):
        running += counts.reshuffled[r]
        by_round[r] = running
    return HandSimulation(setup.counts, options.games, options.turns, options.seed, setup.order, setup.plans,
                          setup.kinds, counts.merged(len(setup.kinds)), dict(counts.hand_cards), by_round)


BLOCK = 10_000
"""Games per block, each block on its own random stream (`cardkit.simulation.run_blocks`)."""


def simulate(deck: Any, options: Any, progress: Any = None, rules: FleetRules | None = None) -> HandSimulation:
    """Play `options.games` games of `options.turns` rounds each and count what each hand holds.

    Vectorised: every game of a block advances together, hands as (games, card kinds) count
    arrays; the policy's choices are the same functions the reference (`simulate_reference`)
    calls one game at a time, and tests check the two agree game for game on the same shuffles.
    """
    from functools import partial

    from cardkit.simulation import run_blocks

    setup = _setup(deck, options, rules)
    total = _Counts.empty(options.turns)
    # Built once per run, before any worker is forked, and shared by every block (the Move cards' memo too).
    tables = tuple(_Tables.of(plan, setup.plans[1 - s], setup) for s, plan in enumerate(setup.plans))
    play = partial(_play_block, setup, tables, options.turns)
    for counted in run_blocks(play, options.games, BLOCK, options.seed, getattr(options, "jobs", None), progress):
        total.add(counted)
    return _finish(setup, options, total)


def block_orders(seed: int, games: int, size: int) -> Any:
    """The first shuffles `simulate` plays, block by block: one (games, size) array of deck positions per block."""
    import numpy as np

    from cardkit.games.berserk_tcg.opening.play import shuffles

    sizes = [min(BLOCK, games - start) for start in range(0, games, BLOCK)]
    for n, stream in zip(sizes, np.random.SeedSequence(seed).spawn(len(sizes))):
        yield shuffles(np.random.Generator(np.random.PCG64(stream)), n, size)


def _play_block(setup: _Setup, tables: tuple[_Tables, ...], turns: int, block: tuple[int, Any]) -> _Counts:
    """One block of games on its own random stream: the deck's first shuffle as in `block_orders`, then
    every reshuffle of a discard pile drawn from the same stream.

    Arrays are laid out a row per card kind (or deck position) and a column per game, so that every
    step walks long contiguous rows: with a row per game, each of them would walk 14-cell rows.
    """
    import numpy as np

    from cardkit.games.berserk_tcg.opening.play import shuffles

    n, stream = block
    rng = np.random.Generator(np.random.PCG64(stream))
    size, width = len(setup.base), len(setup.kinds)
    base = np.asarray(setup.base, dtype=np.int8)  # small types: these arrays are walked a few hundred times
    # the discard piles are read only to refill a library, which a run of fewer draws than the deck never does
    piles = 2 * turns * DRAW > size
    order = shuffles(rng, n, size)
    library = np.take(base, (order if piles else order[:, :2 * turns * DRAW]).T)  # (positions, games): kinds
    top = np.zeros(n, dtype=np.int64)
    length = np.full(n, size, dtype=np.int64)
    discard = np.zeros((width, n), dtype=np.int16)
    hands = [np.zeros((width, n), dtype=np.int8) for _ in range(2)]
    library_cells = library.reshape(-1)  # a view: reshuffles write into `library`, draws read here
    first_reshuffle = np.zeros(n, dtype=np.int64)
    counts = _Counts.empty(turns)

    games = np.arange(n)
    dealt = [0]  # cards every game has drawn, while none has come to the end of its library

    def draw(hand: np.ndarray, turn: int) -> None:
        hand_cells = hand.reshape(-1)
        if dealt[0] + DRAW <= size:  # every library still holds the next DRAW cards of the first shuffle
            cells = library[dealt[0]:dealt[0] + DRAW].astype(np.intp)
            cells *= n
            cells += games
            for card in cells:  # one card per game at a time: a game's cards may be of one kind
                hand_cells[card] += 1
            dealt[0] += DRAW
            top[:] = dealt[0]
            return
        for _ in range(DRAW):
            empty = np.flatnonzero(top >= length)
            if empty.size:
                refill = empty[discard[:, empty].sum(axis=0) > 0]
                if refill.size:
                    _reshuffle(rng, refill, discard, library, top, length)
                    first_reshuffle[refill] = np.where(first_reshuffle[refill] == 0, turn, first_reshuffle[refill])
            g = np.flatnonzero(top < length)
            hand_cells[np.take(library_cells, top[g] * n + g).astype(np.intp) * n + g] += 1
            top[g] += 1

    for turn in range(1, turns + 1):
        for s in setup.turn_order:
            t, hand, other = tables[s], hands[s], hands[1 - s]
            draw(hand, turn)
            counts.hand_cards[(s, turn)] += _keep_best_all(hand, t, discard if piles else None)
            if width <= _TABLE_KINDS:  # counted with one bincount rather than sorted
                held = np.bincount(_set_ids(hand), minlength=1 << width)
                seen = np.flatnonzero(held > 0)  # faster on booleans than on counts
                counts.sets[(s, turn)] = [(seen, held[seen])]
            else:
                counts.sets[(s, turn)] = [np.unique(_set_ids(hand), return_counts=True)]
            t.play_moves(hand, discard if piles else None)
            t.fire(hand, other, discard if piles else None)
    rounds, how_many = np.unique(first_reshuffle[first_reshuffle > 0], return_counts=True)
    counts.reshuffled.update(dict(zip(rounds.tolist(), how_many.tolist())))
    return counts


def _set_ids(hand: Any, kinds: Any = None) -> Any:
    """Per game (column) of a (kinds, games) count array, the set of `kinds` (default: all) it holds as one
    number: bit j for the j-th of them."""
    import numpy as np

    kinds = range(hand.shape[0]) if kinds is None else kinds
    if len(kinds) > 63:
        raise ValueError("the fleet game simulator counts sets of at most 63 card kinds")
    dtype = np.int16 if len(kinds) < 16 else np.int32 if len(kinds) < 32 else np.int64
    sets = np.zeros(hand.shape[1], dtype=dtype)
    for j, k in enumerate(kinds):
        sets += (hand[k] > 0) * dtype(1 << j)
    return sets


def _reshuffle(rng: Any, refill: Any, discard: Any, library: Any, top: Any, length: Any) -> None:
    """The discard pile of each game in `refill` shuffled into its (empty) library."""
    import numpy as np

    piles = discard[:, refill].T.astype(np.int64)
    sizes = piles.sum(axis=1)
    widest = int(sizes.max())
    # position j of a pile sorted by kind holds the kind whose running count first passes j
    running = piles.cumsum(axis=1)
    slots = np.arange(widest)
    sorted_kinds = (running[:, None, :] <= slots[None, :, None]).sum(axis=2)
    keys = rng.random((refill.size, widest))
    keys[slots[None, :] >= sizes[:, None]] = 2.0  # past the pile: sorted last, never drawn
    order = np.argsort(keys, axis=1, kind="stable")
    library[:widest, refill] = np.take_along_axis(sorted_kinds, order, axis=1).T
    top[refill] = 0
    length[refill] = sizes
    discard[:, refill] = 0


@dataclass(frozen=True)
class _Tables:
    """One side's policy as arrays over card kinds, for whole blocks of games at once; built once per run."""

    plan: _SidePlan
    types: tuple[str, ...]
    masks: Any          # (kinds,) need bits each kind covers for this side's ships
    popcount: Any       # popcount of every need mask
    keep_score: Any     # (need masks, kinds) `keep_best`'s score of each kind once those needs are covered
    by_rank: tuple[int, ...]  # kinds of the deck, best `keep_best` tie order (more ships, higher number, lower kind) first
    pick_kinds: tuple[int, ...]  # kinds of the deck some own ship may use: the only ones that can add needs
    first_picks: Any    # (sets of pick kinds,) `keep_best`'s picks adding needs (bit j: pick kind j); None: too many kinds
    slots_left: Any     # (sets of pick kinds,) HAND_LIMIT minus those picks
    move_columns: tuple[int, ...]  # Move kinds some own ship may use
    attack_order: Any   # attack kinds this side may use, in `play_key` order
    volleys: tuple[tuple[Any, tuple[int, ...]], ...]  # runs of `attack_order` (positions) the other side answers alike
    moves_memo: dict[int, Any]  # packed set of Move cards -> cards played; -1, -2: the whole table and its filled rows

    @classmethod
    def of(cls, plan: _SidePlan, defender: _SidePlan, setup: _Setup) -> _Tables:
        import numpy as np

        width = len(setup.kinds)
        masks = np.asarray(plan.masks, dtype=np.int16)  # 3 need bits per ship type: a few types fit
        bits = max(1, int(masks.max()).bit_length())
        popcount = np.zeros(1 << bits, dtype=np.int16)
        for i in range(bits):
            popcount += (np.arange(1 << bits) >> i & 1).astype(np.int16)
        ranked = sorted(range(width), key=lambda k: (plan.keep_key[k], -k))
        keep_rank = np.empty(width, dtype=np.int16)
        keep_rank[ranked] = np.arange(width)
        states = np.arange(1 << bits, dtype=np.int16)
        keep_score = (popcount[masks[None, :] & ~states[:, None]] * np.int16(width + 1)
                      + keep_rank[None, :]).astype(np.int16)
        in_deck = set(setup.base)
        move_columns = tuple(k for k in range(width) if setup.types[k] == "move" and plan.masks[k] and k in in_deck)
        attack_order = np.array(sorted((k for k in range(width) if setup.types[k] == "attack" and plan.masks[k]),
                                       key=plan.play_key.__getitem__), dtype=np.intp)
        # attacks in a row that the defender answers with the same cards: answered together, by their count
        runs: list[tuple[list[int], tuple[int, ...]]] = []
        for position, k in enumerate(attack_order.tolist()):
            if runs and runs[-1][1] == defender.answers[k]:
                runs[-1][0].append(position)
            else:
                runs.append(([position], defender.answers[k]))
        volleys = tuple((np.array(p, dtype=np.intp), fitting) for p, fitting in runs if fitting)
        pick_kinds = tuple(k for k in range(width) if plan.masks[k] and k in in_deck)
        first_picks = slots_left = None
        if len(pick_kinds) <= _TABLE_KINDS:  # a table over every set of them: 2^12 for the standard deck
            every = (np.arange(1 << len(pick_kinds))[None, :] >> np.arange(len(pick_kinds))[:, None]) & 1
            first_picks, slots_left = _picks_adding_needs(every.astype(bool), masks[list(pick_kinds)], popcount,
                                                          keep_score[:, list(pick_kinds)], width + 1)
        return cls(plan, setup.types, masks, popcount, keep_score, tuple(k for k in reversed(ranked) if k in in_deck),
                   pick_kinds, first_picks, slots_left, move_columns, attack_order, volleys, {})

    def play_moves(self, hand: Any, discard: Any) -> None:
        """The Maneuver phase for every game: `moves_played` once per distinct set of Move cards."""
        import numpy as np

        columns = list(self.move_columns)
        if not columns:
            return
        # rows in a view when they follow each other, as the catalogue lists Move cards: no copies
        rows = hand[columns[0]:columns[-1] + 1] if columns[-1] - columns[0] == len(columns) - 1 else hand[columns]
        # one number per set of Move cards: a hand holds at most HAND_LIMIT (< 8) of a kind, 3 bits each
        dtype = np.int16 if 3 * len(columns) < 15 else np.int64
        packed = rows[0].astype(dtype)
        for j in range(1, len(columns)):
            packed |= np.left_shift(rows[j], 3 * j, dtype=dtype)
        if len(columns) <= 5:  # few Move kinds: a table column per possible set, read with one np.take
            table = self.moves_memo.get(-1)
            if table is None:
                table = self.moves_memo[-1] = np.zeros((len(columns), 1 << (3 * len(columns))), dtype=hand.dtype)
                self.moves_memo[-2] = np.zeros(1 << (3 * len(columns)), dtype=bool)
            filled = self.moves_memo[-2]
            if not filled[packed].all():
                for key in np.unique(packed[~filled[packed]]).tolist():
                    table[:, key] = self._moves_of(key, columns, hand.dtype)
                    filled[key] = True
            played = np.take(table, packed, axis=1)
        else:
            keys, where = np.unique(packed, return_inverse=True)
            rows = np.zeros((len(columns), keys.size), dtype=hand.dtype)
            for i, key in enumerate(keys.tolist()):
                row = self.moves_memo.get(key)
                if row is None:
                    row = self.moves_memo[key] = self._moves_of(key, columns, hand.dtype)
                rows[:, i] = row
            played = np.take(rows, where.reshape(-1), axis=1)
        if rows.base is hand:
            rows -= played
        else:
            hand[columns] -= played
        if discard is not None:
            discard[columns] += played

    def _moves_of(self, key: int, columns: list[int], dtype: Any) -> Any:
        """The Move cards played from the set `key` packs (3 bits per Move kind of `columns`), as counts per column."""
        import numpy as np

        cards = [k for j, k in enumerate(columns) for _ in range((key >> (3 * j)) & 7)]
        played = Counter(moves_played(cards, self.plan, list(self.types)))
        return np.array([played[k] for k in columns], dtype=dtype)

    def fire(self, hand: Any, other: Any, discard: Any) -> None:
        """The Fire phase for every game: usable attacks in `play_key` order up to the fleet's attacks per
        turn leave `hand`, each taking from `other` the first of the other side's answers to it still held.

        Attacks in a row answered by the same defenses use up the first of those until none is left, then
        the next; so a run is answered at once by the count of its cards, the same cards going.
        """
        import numpy as np

        if self.attack_order.size == 0:
            return
        fired = hand[self.attack_order]
        if self.plan.capacity < HAND_LIMIT:  # a kept hand holds at most HAND_LIMIT cards: all fire otherwise
            room = np.full(fired.shape[1], self.plan.capacity, dtype=fired.dtype)
            for row in fired:
                np.minimum(row, room, out=row)
                room -= row
        hand[self.attack_order] -= fired
        if discard is not None:
            discard[self.attack_order] += fired
        for positions, fitting in self.volleys:
            shots = fired[positions[0]] if positions.size == 1 else fired[positions].sum(axis=0, dtype=fired.dtype)
            for i, d in enumerate(fitting):
                used = np.minimum(shots, other[d])
                other[d] -= used
                if discard is not None:
                    discard[d] += used
                if i + 1 < len(fitting):
                    shots = shots - used


def _picks_adding_needs(present: Any, masks: Any, popcount: Any, keep_score: Any,
                        modulus: int) -> tuple[Any, Any]:
    """`keep_best`'s first picks for each set of kinds (a column of bool (kinds, sets)): the ones adding needs.
    `masks` and the columns of `keep_score` are those of the same kinds; `modulus`, the catalogue's kinds + 1.

    A kind scores (new needs) x (kinds + 1) + its rank, so while any held kind adds needs the best of
    those is kept; once kept it adds none, so no kind is picked twice here. What is kept after that adds
    no needs either and goes by rank alone, copies included: `_keep_best_all` takes it by counting.
    Returns the picks (bit j: the j-th kind) and how many of the HAND_LIMIT slots they leave, per set.
    """
    import numpy as np

    width, sets = present.shape
    states = np.arange(keep_score.shape[0], dtype=np.int16)
    adds = np.take(popcount, masks[None, :] & ~states[:, None]) > 0
    # (kinds, covered needs): -1 for a kind adding none; kinds a row per kind, sets a column each, so that
    # the best of each set is a max down the columns (a reduction along short rows is far slower)
    score = np.ascontiguousarray(np.where(adds, keep_score, np.int16(-1)).T)
    # a kind's score is (new needs) x (kinds + 1) + its rank, all ranks differing: the best score names its kind
    rank_of = score[:, 0] % modulus
    kind_of = np.zeros(modulus, dtype=np.intp)
    kind_of[rank_of] = np.arange(width)
    # far below any score for a kind not held or already picked (scores are small): cheaper than masking
    gone = np.where(present, 0, -(1 << 14)).astype(np.int16)
    picks = np.zeros(sets, dtype=np.int16 if width < 16 else np.int32)
    covered = np.zeros(sets, dtype=np.int16)
    left = np.full(sets, HAND_LIMIT, dtype=np.int8)
    columns = np.arange(sets)
    for _ in range(HAND_LIMIT if width else 0):
        scores = np.take(score, covered, axis=1)
        scores += gone
        best = scores.max(axis=0)
        adding = best >= 0
        if not adding.any():
            break
        pick = np.take(kind_of, np.maximum(best, 0) % modulus)
        picks |= np.where(adding, np.ones(1, dtype=picks.dtype) << pick.astype(picks.dtype), 0).astype(picks.dtype)
        covered |= np.where(adding, np.take(masks, pick), 0).astype(np.int16)
        left -= adding.astype(np.int8)
        gone.reshape(-1)[pick * sets + columns] += np.where(adding, np.int16(-(1 << 14)), np.int16(0))
    return picks, left


def _keep_best_all(hand: Any, t: _Tables, discard: Any = None) -> int:
    """`keep_best` for every game (column of a (kinds, games) count array) at once, in place: the cards
    dropped leave `hand` (for `discard`, when given). Returns how many cards the hands keep in all.

    The picks adding needs depend only on the set of kinds held, read from `t.first_picks`; the slots
    they leave go to the rest of the hand by rank alone, highest first, copies included.
    """
    import numpy as np

    kinds = t.pick_kinds
    if t.first_picks is not None:
        sets = _set_ids(hand, kinds)
        picks = np.take(t.first_picks, sets)
        left = np.take(t.slots_left, sets)
    else:  # too many kinds for a table of every set: the sets these hands hold
        present, where = np.unique(hand[list(kinds)] > 0, axis=1, return_inverse=True)
        picks, left = _picks_adding_needs(present, t.masks[list(kinds)], t.popcount, t.keep_score[:, list(kinds)],
                                          len(t.types) + 1)
        where = where.reshape(-1)
        picks, left = np.take(picks, where), np.take(left, where)
    if discard is not None:
        discard += hand
    bit = {k: j for j, k in enumerate(kinds)}
    for k in t.by_rank:
        row = hand[k]  # a view: the hand is cut down here
        j = bit.get(k)
        if j is None:
            np.minimum(row, left, out=row)
            left -= row
            continue
        picked = picks >> j
        picked &= 1
        row -= picked
        np.minimum(row, left, out=row)
        left -= row
        row += picked
    if discard is not None:
        discard -= hand
    return HAND_LIMIT * hand.shape[1] - int(left.sum(dtype=np.int64))


def simulate_reference(deck: Any, options: Any, rules: FleetRules | None = None,
                       orders: Any = None) -> HandSimulation:
    """The same simulation one game at a time with Python lists (slow; for checking).

    `orders` (one row of deck positions per game, drawn first to last) gives each game's first
    shuffle, by default the ones `simulate` draws; every reshuffle of a discard pile uses
    `random.Random(options.seed)`, so games with a reshuffle agree with `simulate` only in law.
    """
    setup = _setup(deck, options, rules)
    plans, types = setup.plans, list(setup.types)
    if orders is None:
        import numpy as np

        orders = np.concatenate(list(block_orders(options.seed, options.games, len(setup.base))))
    rng = random.Random(options.seed)
    counts = _Counts.empty(options.turns)
    held, hand_cards, reshuffled = counts.held, counts.hand_cards, counts.reshuffled
    for order in orders:
        library = [setup.base[i] for i in reversed(order.tolist())]  # pop() draws from the end
        discard: list[int] = []
        hands: list[list[int]] = [[], []]
        first_reshuffle = 0
        for turn in range(1, options.turns + 1):
            for s in setup.turn_order:
                plan, hand = plans[s], hands[s]
                for _ in range(DRAW):
                    if not library:
                        if not discard:
                            break
                        library, discard = discard, []
                        rng.shuffle(library)
                        first_reshuffle = first_reshuffle or turn
                    hand.append(library.pop())
                hand, dropped = keep_best(hand, plan)
                discard.extend(dropped)
                mask = 0
                for k in hand:
                    mask |= 1 << k
                held[(s, turn)][mask] += 1
                hand_cards[(s, turn)] += len(hand)
                hand = _play(hand, plan, plans[1 - s], hands, s, types, discard)
                hands[s] = hand
        if first_reshuffle:
            reshuffled[first_reshuffle] += 1
    return _finish(setup, options, counts)


def _play(hand: list[int], plan: _SidePlan, other: _SidePlan, hands: list[list[int]], s: int,
          types: list[str], discard: list[int]) -> list[int]:
    """Maneuver and Fire phases by the policy in the module docstring; returns the hand left."""
    for k in moves_played(hand, plan, types):
        hand.remove(k)
        discard.append(k)
    attacks = sorted((k for k in hand if types[k] == "attack" and plan.masks[k]), key=plan.play_key.__getitem__)
    opponent = hands[1 - s]
    for k in attacks[:plan.capacity]:
        hand.remove(k)
        discard.append(k)
        for d in other.answers[k]:
            if d in opponent:
                opponent.remove(d)
                discard.append(d)
                break
    return hand


def moves_played(hand: list[int], plan: _SidePlan, types: list[str]) -> list[int]:
    """The Move cards played this turn: at most one per own ship, each by a ship that can use it.

    "A ship can only make one move per turn." Cards are matched to ship types,
    each taking as many cards as it has ships (a bipartite matching by augmenting
    paths), trying them in `play_key` order, so the most cards are played and,
    among those, the ones fewest ship types can use.
    """
    cards = [k for k in hand if types[k] == "move" and plan.masks[k]]
    if not cards:
        return []
    cards.sort(key=plan.play_key.__getitem__)
    # Each card to the first ship type with a ship left. Until a card finds no ship this is what the
    # matching below gives; a card that finds none while ships are left may fit by moving another card.
    free = list(plan.movers)
    played: list[int] = []
    for k in cards:
        mask = plan.masks[k]
        for j, left in enumerate(free):
            if left and mask >> (3 * j) & 1:  # bit 3*j: ship type j may move with it
                free[j] -= 1
                played.append(k)
                break
        else:
            return played if not any(free) else _matched(cards, plan)
    return played


def _matched(cards: list[int], plan: _SidePlan) -> list[int]:
    """The cards of a maximum matching to ship types (augmenting paths), earlier cards preferred."""
    holding: list[list[int]] = [[] for _ in plan.movers]  # ship type -> positions in `cards` it moves with

    def place(c: int, seen: set[int]) -> bool:
        mask = plan.masks[cards[c]]
        usable = [j for j in range(len(plan.movers)) if mask >> (3 * j) & 1]
        for j in usable:  # a free ship first
            if len(holding[j]) < plan.movers[j]:
                holding[j].append(c)
                return True
        for j in usable:
            if j not in seen:
                seen.add(j)
                for i, other in enumerate(holding[j]):
                    if place(other, seen):
                        holding[j][i] = c
                        return True
        return False

    for c in range(len(cards)):
        place(c, set())
    return [cards[c] for c in sorted(c for held in holding for c in held)]
