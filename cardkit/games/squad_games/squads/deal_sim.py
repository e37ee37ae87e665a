"""Simulated deals: how good a squad does a deck deal, and when is a re-deal worth its gold?

Each of N deals takes `deal_size` cards from the shuffled deck and recruits
the best squad (`optimise.best_squad`). A re-deal costs `redeal_gold` and
deals afresh from the whole deck, so its expected worth is one number for
the deck: the mean crystals spent by the best squads of the same N deals
with one re-deal's gold taken off. A deal "would have been better re-dealt,
on average" when its own best squad spends fewer crystals than that mean.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardkit.errors import BadArgument
from cardkit.games.squad_games.squads.budget import SquadRules
from cardkit.games.squad_games.squads.cards import SquadCard
from cardkit.games.squad_games.squads.deal_table import DealTable, deal_table
from cardkit.games.squad_games.squads.optimise import best_squad, single_group

if TYPE_CHECKING:
    from cardkit.decks.model import Deck
    from cardkit.plotting import PlotTarget
    from cardkit.simulation import SimulationOptions

Progress = Callable[[int], None]
CHUNK = 2500
"""Deals per block, each on its own random stream, the unit shared among worker processes."""


@dataclass(frozen=True)
class DealOutcome:
    """What one deal's best squad did (one memo entry, shared by equal deals)."""

    spent: int
    cards: int
    left: int
    gold_left: int
    elements: int
    redeal_spent: int
    dealt_elements: int = 0


def _outcome(cards: Sequence[SquadCard], rules: SquadRules, seat: str, gold: int | None, silver: int | None,
             groups: Sequence[Any] | None = None) -> DealOutcome:
    best = best_squad(cards, rules, seat, 0, gold, silver, probe=rules.redeal_gold, groups=groups)
    elite = sum(cards[p].cost for p in best.positions if cards[p].elite)
    # Elite cards take gold; ordinary cards take silver first, so gold also pays what silver cannot.
    gold_left = best.gold - elite - max(0, best.spent - elite - best.silver)
    return DealOutcome(spent=best.spent, cards=best.cards, left=best.gold + best.silver - best.spent,
                       gold_left=gold_left, elements=len(best.elements), redeal_spent=best.probe_spent or 0)


def optimiser_class(card: SquadCard, rules: SquadRules) -> tuple[Any, ...]:
    """What the optimiser and the statistics see of a card: equal classes are interchangeable in a deal."""
    return (card.cost, card.elite, card.elements,
            rules.unique_key(card) if card.unique and rules.unique_once else None,
            card.flyer and rules.flyer_crystal_cap is not None,
            card.terrain and rules.max_terrains is not None)


@dataclass
class SquadSimulation:
    """Counts over all deals; `to_dict` and `render_text` are deterministic for a seed."""

    deck: str
    format: str
    game: str
    deals: int
    seed: int
    seat: str
    deck_size: int
    gold: int | None
    silver: int | None
    left: Counter[int] = field(default_factory=Counter)
    sizes: Counter[int] = field(default_factory=Counter)
    elements_dealt: Counter[int] = field(default_factory=Counter)
    all_gold_spent: int = 0
    spent_total: int = 0
    redeal_spent_total: int = 0
    spent: Counter[int] = field(default_factory=Counter)  # deals by the crystals their best squad spends

    @property
    def mean_spent(self) -> float:
        return self.spent_total / self.deals

    @property
    def mean_redeal_spent(self) -> float:
        return self.redeal_spent_total / self.deals

    @property
    def redeal_better(self) -> int:
        """Deals whose best squad spends less than a re-deal's squad does on average."""
        mean = self.mean_redeal_spent
        return sum(n for s, n in self.spent.items() if s < mean)

    def mean_of(self, counts: Counter[int]) -> float:
        return sum(k * v for k, v in counts.items()) / self.deals

    def to_dict(self) -> dict[str, Any]:
        def hist(c: Counter[int]) -> dict[str, int]:
            return {str(k): c[k] for k in sorted(c)}

        return {
            "game": self.game, "format": self.format, "games": self.deals, "seed": self.seed,
            "seat": self.seat, "deck_size": self.deck_size, "gold": self.gold, "silver": self.silver,
            "crystals_left": hist(self.left),
            "mean_crystals_left": round(self.mean_of(self.left), 4),
            "mean_squad_size": round(self.mean_of(self.sizes), 4),
            "squad_sizes": hist(self.sizes),
            "all_gold_spent": round(self.all_gold_spent / self.deals, 4),
            "elements_dealt": hist(self.elements_dealt),
            "mean_crystals_spent": round(self.mean_spent, 4),
            "redeal": {
                "mean_crystals_spent": round(self.mean_redeal_spent, 4),
                "better_on_average": round(self.redeal_better / self.deals, 4),
                "definition": "share of deals whose best squad spends fewer crystals than the mean best squad "
                              "of a fresh deal paying one re-deal's gold",
            },
        }

    def render_text(self) -> str:
        from cardkit.visible import visible

        d = self.to_dict()
        # The deck's path is a file name anyone may have chosen: written out, never obeyed by the terminal.
        lines = [
            f"{visible(self.deck)}: {self.deals:,} deals of the {self.deck_size}-card deck ({self.format}, seat {self.seat}, seed {self.seed})",
            f"  mean crystals spent     {d['mean_crystals_spent']:.2f}",
            f"  mean crystals left      {d['mean_crystals_left']:.2f}",
            f"  mean squad size         {d['mean_squad_size']:.2f}",
            f"  all gold spent          {100 * d['all_gold_spent']:.1f}% of deals",
            f"  re-deal: its best squad spends {d['redeal']['mean_crystals_spent']:.2f} on average; "
            f"better than {100 * d['redeal']['better_on_average']:.1f}% of deals",
            "  crystals left      deals",
        ]
        lines += [f"  {k:>13}   {v:>8,} {v / self.deals:7.2%}" for k, v in sorted(self.left.items())]
        lines.append("  elements dealt     deals")
        lines += [f"  {k:>14}  {v:>8,} {v / self.deals:7.2%}" for k, v in sorted(self.elements_dealt.items())]
        return "\n".join(lines) + "\n"

    def plot(self, path: PlotTarget) -> None:
        """Bars of crystals left, squad sizes and elements dealt, as PNG or SVG (by suffix)."""
        from cardkit.plotting import figure, save

        fig, axes = figure(1, 3, width=12, height=3.8)
        for ax, counts, title in ((axes[0], self.left, "crystals left unspent"),
                                  (axes[1], self.sizes, "cards in the best squad"),
                                  (axes[2], self.elements_dealt, "elements among the 15 dealt")):
            keys = sorted(counts)
            ax.bar(keys, [100 * counts[k] / self.deals for k in keys], color="#4a6fa5")
            ax.set_title(title)
            ax.set_ylabel("% of deals")
            ax.set_xticks(keys)
        fig.suptitle(f"{self.deck} ({self.format}): {self.deals:,} deals, seed {self.seed}, seat {self.seat}; "
                     f"mean spent {self.mean_spent:.2f}, after a re-deal {self.mean_redeal_spent:.2f}")
        save(fig, path)


def deal_positions(deck_size: int, deal_size: int, deals: int, seed: int) -> Iterator[Any]:
    """The dealt positions of `deals` shuffles of a `deck_size`-card deck, as (block, deal_size) integer arrays.

    Deals come in blocks of `CHUNK`, block i drawn from its own stream `SeedSequence(seed).spawn(...)[i]`
    (`cardkit.simulation.run_blocks`), so they are the same whichever process deals a block.
    """
    import numpy as np

    sizes = [min(CHUNK, deals - start) for start in range(0, deals, CHUNK)]
    for n, stream in zip(sizes, np.random.SeedSequence(seed).spawn(len(sizes))):
        yield _dealt(deck_size, deal_size, n, stream)


def _dealt(deck_size: int, deal_size: int, deals: int, stream: Any) -> Any:
    import numpy as np

    row = np.arange(deck_size, dtype=np.int32)
    return np.random.default_rng(stream).permuted(np.tile(row, (deals, 1)), axis=1)[:, :deal_size]


@dataclass(frozen=True)
class _Dealer:
    """What every block of deals needs: the deck as optimiser classes, and the rules and budget."""

    kinds: tuple[SquadCard, ...]
    deck_kinds: tuple[int, ...]
    rules: SquadRules
    seat: str
    gold: int | None
    silver: int | None

    def play(self, block: tuple[int, Any]) -> SquadSimulation:
        """One block of deals on its own random stream, counted as a simulation of its own."""
        import numpy as np

        n, stream = block
        kinds, rules = self.kinds, self.rules
        dealt = _dealt(len(self.deck_kinds), rules.deal_size, n, stream)
        table = deal_table(kinds, self.deck_kinds, rules, self.seat, self.gold, self.silver)
        if table is not None:
            return self._from_table(table, dealt)
        element_of = [c.elements for c in kinds]
        singles = [[single_group(c, p) for p in range(rules.deal_size)] for c in kinds]
        memo: dict[tuple[int, ...], DealOutcome] = {}
        sim = SquadSimulation(deck="", format=rules.format, game=rules.game, deals=n, seed=0, seat=self.seat,
                              deck_size=len(self.deck_kinds), gold=self.gold, silver=self.silver)
        hands = np.asarray(self.deck_kinds, dtype=np.int32)[dealt]
        hands.sort(axis=1)
        for key in map(tuple, hands.tolist()):
            now = memo.get(key)
            if now is None:
                now = _outcome([kinds[k] for k in key], rules, self.seat, self.gold, self.silver,
                               [singles[k][p] for p, k in enumerate(key)])
                now = memo[key] = replace(now, dealt_elements=len(set().union(*(element_of[k] for k in set(key)))))
            sim.left[now.left] += 1
            sim.sizes[now.cards] += 1
            sim.all_gold_spent += now.gold_left <= 0
            sim.spent_total += now.spent
            sim.redeal_spent_total += now.redeal_spent
            sim.spent[now.spent] += 1
            sim.elements_dealt[now.dealt_elements] += 1
        return sim


    def _from_table(self, table: DealTable, dealt: Any) -> SquadSimulation:
        import numpy as np

        got = table.outcomes(dealt)
        sim = SquadSimulation(deck="", format=self.rules.format, game=self.rules.game, deals=len(dealt), seed=0,
                              seat=self.seat, deck_size=len(self.deck_kinds), gold=self.gold, silver=self.silver)
        for name, target in (("left", sim.left), ("cards", sim.sizes), ("dealt_elements", sim.elements_dealt),
                             ("spent", sim.spent)):
            values = got[name]
            low = int(values.min())
            counts = np.bincount(values - low)  # small whole numbers: a count per value, no sort
            seen = np.flatnonzero(counts)
            target.update(dict(zip((seen + low).tolist(), counts[seen].tolist())))
        sim.all_gold_spent = int((got["gold_left"] <= 0).sum())
        sim.spent_total = int(got["spent"].sum())
        sim.redeal_spent_total = int(got["redeal_spent"].sum())
        return sim


def simulate_deals(deck: Sequence[SquadCard], rules: SquadRules, deals: int, seed: int, seat: str = "first",
                   gold: int | None = None, silver: int | None = None, name: str = "deck",
                   progress: Progress | None = None, jobs: int | None = 1) -> SquadSimulation:
    """Deal `deals` times from `deck` (one entry per copy) and summarise the best squads.

    Blocks of deals are shared among `jobs` worker processes (None: every core); the result is the same.
    """
    from cardkit.simulation import run_blocks

    if len(deck) < rules.deal_size:
        raise BadArgument(f"the deck has {len(deck)} cards; a deal needs {rules.deal_size}")
    # Cards the optimiser cannot tell apart share a class, so equal deals up to such swaps share one solve.
    classes: list[SquadCard] = []
    index: dict[tuple[Any, ...], int] = {}
    deck_kinds: list[int] = []
    for c in deck:
        key = optimiser_class(c, rules)
        if key not in index:
            index[key] = len(classes)
            classes.append(c)
        deck_kinds.append(index[key])
    sim = SquadSimulation(deck=name, format=rules.format, game=rules.game, deals=deals, seed=seed, seat=seat,
                          deck_size=len(deck), gold=gold, silver=silver)
    dealer = _Dealer(tuple(classes), tuple(deck_kinds), rules, seat, gold, silver)
    # Built here, before any worker is forked, so that workers inherit it rather than each building it.
    deal_table(dealer.kinds, dealer.deck_kinds, rules, seat, gold, silver)
    for block in run_blocks(dealer.play, deals, CHUNK, seed, jobs, progress):
        sim.left.update(block.left)
        sim.sizes.update(block.sizes)
        sim.elements_dealt.update(block.elements_dealt)
        sim.all_gold_spent += block.all_gold_spent
        sim.spent_total += block.spent_total
        sim.redeal_spent_total += block.redeal_spent_total
        sim.spent.update(block.spent)
    return sim


def simulate_squad_deck(deck: Deck, options: SimulationOptions, progress: Progress | None = None) -> SquadSimulation:
    """`cardkit simulate` for a squad game: deal from the deck's main part under its (or the options') format."""
    from cardkit.games.squad_games.squads.budget import squad_rules
    from cardkit.games.squad_games.squads.cards import squad_cards

    rules = squad_rules(options.format or deck.format)
    if rules.game != deck.game:
        raise BadArgument(f"format {rules.format} is for {rules.game}, not {deck.game}")
    table = squad_cards(deck.game)
    cards = [table[cid] for cid, n in deck.main.items() for _ in range(n)]
    name = Path(deck.path).name if getattr(deck, "path", None) else "deck"
    return simulate_deals(cards, rules, options.games, options.seed, options.seat, options.gold, options.silver,
                          name, progress, options.jobs)
