"""What a simulated-openings run counted, and how it prints, serialises and plots."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cardkit.games.berserk_tcg.opening.cards import LEAST_USEFUL, CardId, DiscardPolicy
from cardkit.simulation import wilson_interval

if TYPE_CHECKING:
    from cardkit.plotting import PlotTarget

DIGITS = 6
SLOWEST = 10


@dataclass
class Tally:
    """Counts over games: games with an openable card per turn, openable cards per turn, cards in
    hand at each opening phase, games where each card type had been openable by each turn, and deck-outs."""

    ids: tuple[CardId, ...]
    any_open: np.ndarray   # (turns,)
    openable: np.ndarray   # (turns,)
    hand: np.ndarray       # (turns,) summed hand sizes at the opening phase, before opening (0 once decked out)
    ever: np.ndarray       # (turns, card types)
    games: int = 0
    decked: int = 0

    @classmethod
    def empty(cls, turns: int, ids: Sequence[CardId]) -> Tally:
        return cls(ids=tuple(ids), any_open=np.zeros(turns, dtype=np.int64), openable=np.zeros(turns, dtype=np.int64),
                   hand=np.zeros(turns, dtype=np.int64), ever=np.zeros((turns, len(ids)), dtype=np.int64))

    def add(self, other: Tally) -> None:
        """Add the counts of `other`, a tally of other games of the same deck and schedule."""
        self.any_open += other.any_open
        self.openable += other.openable
        self.hand += other.hand
        self.ever += other.ever
        self.games += other.games
        self.decked += other.decked

    def add_record(self, record: Any, column: Mapping[CardId, int]) -> None:
        """Add one reference game (`opening.GameRecord`)."""
        seen = np.zeros(len(self.ids), dtype=bool)
        for turn, cards in enumerate(record.openable):
            self.any_open[turn] += bool(cards)
            self.openable[turn] += len(cards)
            self.hand[turn] += record.hand[turn]
            for c in cards:
                seen[column[c]] = True
            self.ever[turn] += seen
        self.games += 1
        self.decked += record.decked_on is not None


@dataclass
class TcgSimulation:
    """A finished run: the tally plus what is needed to report it."""

    deck: str
    seed: int
    seat: str
    schedule: tuple[int, ...]
    tally: Tally
    exact: tuple[float | None, ...]
    names: dict[CardId, str]
    warnings: tuple[str, ...] = ()
    taken: tuple[int, ...] = ()        # cities taken before each turn's opening phase
    takes: tuple[int, ...] = ()        # turns on which the player took a city
    default_cities: bool = True        # the schedule is the default min(turn - 1, 5)
    policy: DiscardPolicy = LEAST_USEFUL

    def assumptions(self) -> list[str]:
        """What the run assumed about the parts of the game it does not play, in words."""
        cities = "min(turn - 1, 5), the default" if self.default_cities else "as given by --cities"
        takes = (f"on turn{'s' if len(self.takes) > 1 else ''} {', '.join(map(str, self.takes))}, drawing 2 each"
                 if self.takes else "none, so no city draws (the default; --takes to change)")
        return [f"revealed cities: {cities}; cities taken: {takes}",
                f"hand-limit discard: {self.policy.name} ({self.policy.description})"]

    def to_dict(self) -> dict[str, Any]:
        t, n = self.tally, self.tally.games
        turns = []
        for i, cities in enumerate(self.schedule):
            lo, hi = wilson_interval(int(t.any_open[i]), n)
            row: dict[str, Any] = {"turn": i + 1, "cities": cities, "p_any_open": round(float(t.any_open[i]) / n, DIGITS),
                                   "ci95": [round(lo, DIGITS), round(hi, DIGITS)]}
            exact = self.exact[i]
            if exact is not None:
                row["p_any_open_exact"] = round(exact, DIGITS)
            row["mean_openable"] = round(float(t.openable[i]) / n, DIGITS)
            row["mean_hand"] = round(float(t.hand[i]) / n, DIGITS)
            row["taken"] = self.taken[i] if self.taken else 0
            turns.append(row)
        cards = [{"id": cid, "name": self.names[cid],
                  "p_openable_by_turn": [round(int(t.ever[i, k]) / n, DIGITS) for i in range(len(self.schedule))]}
                 for k, cid in sorted(enumerate(t.ids), key=lambda kc: kc[1])]
        return {"game": "berserk-tcg", "path": self.deck, "games": n, "seed": self.seed, "seat": self.seat,
                "cities_default": self.default_cities, "takes": list(self.takes), "discard_policy": self.policy.name,
                "turns": turns,
                "cards": cards, "p_decked": round(float(t.decked) / n, DIGITS)}

    def slowest(self, count: int = SLOWEST) -> list[dict[str, Any]]:
        """Cards least often openable by the last turn, slowest first."""
        cards = self.to_dict()["cards"]
        return sorted(cards, key=lambda c: (c["p_openable_by_turn"][-1], c["id"]))[:count]

    def render_text(self) -> str:
        from cardkit.visible import visible

        d = self.to_dict()
        # The path is a file name anyone may have chosen: written out, never obeyed by the terminal.
        lines = [f"{visible(d['path'])}: {d['games']:,} games, {d['seat']} player, seed {d['seed']}", *self.assumptions(),
                 "turn  cities  taken  p_any_open  95% interval      exact     mean openable  mean hand"]
        for r in d["turns"]:
            exact = f"{r['p_any_open_exact']:.4f}" if "p_any_open_exact" in r else "-"
            lines.append(f"{r['turn']:4}  {r['cities']:6}  {r['taken']:5}  {r['p_any_open']:10.4f}  "
                         f"[{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}]  {exact:>8}  {r['mean_openable']:13.2f}"
                         f"  {r['mean_hand']:9.2f}")
        lines.append(f"decked out: {d['p_decked']:.4f}")
        lines.append("")
        header = "  ".join(f"T{i + 1:<4}" for i in range(len(d["turns"])))
        lines.append(f"openable by turn  {header}  card")
        for c in sorted(d["cards"], key=lambda c: (c["p_openable_by_turn"][-1], c["id"])):
            values = "  ".join(f"{p:.3f}" for p in c["p_openable_by_turn"])
            lines.append(f"{'':17} {values}  {c['id']} {c['name']}")
        return "\n".join(lines)

    def plot(self, path: PlotTarget) -> None:
        from cardkit.plotting import figure, plot_format, save

        plot_format(path)
        d = self.to_dict()
        fig, (curve, bars) = figure(1, 2)
        turns = [r["turn"] for r in d["turns"]]
        curve.fill_between(turns, [r["ci95"][0] for r in d["turns"]], [r["ci95"][1] for r in d["turns"]],
                           alpha=0.25, color="tab:blue", label="95% interval")
        curve.plot(turns, [r["p_any_open"] for r in d["turns"]], "o-", color="tab:blue", label="simulated")
        exact = [(r["turn"], r["p_any_open_exact"]) for r in d["turns"] if "p_any_open_exact" in r]
        if exact:
            curve.plot(*zip(*exact), "x", color="black", markersize=9, label="exact")
        curve.set(xlabel="turn (revealed cities)", ylabel="P(some card openable)", ylim=(0, 1.02),
                  title=f"{Path(d['path']).name}: {d['games']:,} games, {d['seat']} player")
        curve.set_xticks(turns, [f"{r['turn']}\n({r['cities']})" for r in d["turns"]])
        curve.grid(alpha=0.3)
        curve.legend(loc="lower right")
        slow = self.slowest()
        labels = [f"{c['id']} {c['name'] if len(c['name']) <= 24 else c['name'][:23] + '…'}" for c in slow]
        drawn = bars.barh(range(len(slow)), [c["p_openable_by_turn"][-1] for c in slow], color="tab:orange")
        bars.bar_label(drawn, fmt="%.3f", padding=3, fontsize=8)  # a card never openable has no bar to see
        bars.set_yticks(range(len(slow)), labels)
        bars.invert_yaxis()
        bars.set(xlim=(0, 1.1), xlabel=f"P(openable by turn {len(turns)})", title="slowest cards")
        bars.set_xticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        bars.grid(axis="x", alpha=0.3)
        save(fig, path)
