"""Is a squad legal? The crystal ledger and every problem with it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardkit.games.squad_games.squads.budget import Budget, SquadRules, budget_for
from cardkit.games.squad_games.squads.cards import SquadCard, squad_cards
from cardkit.games.squad_games.squads.read import CardRef, SquadFile
from cardkit.problems import Problem, error, has_errors


@dataclass(frozen=True)
class Payment:
    """What one squad card cost and which crystals paid it."""

    card: SquadCard
    gold: int
    silver: int
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.card.id, "name": self.card.name, "cost": self.card.cost, "elite": self.card.elite,
                "elements": sorted(self.card.elements), "gold": self.gold, "silver": self.silver}


@dataclass(frozen=True)
class Ledger:
    """A squad's budget, each card's payment, and what is left (negative when over budget)."""

    budget: Budget
    elements: tuple[str, ...]
    payments: tuple[Payment, ...]

    @property
    def spent_gold(self) -> int:
        return sum(p.gold for p in self.payments)

    @property
    def spent_silver(self) -> int:
        return sum(p.silver for p in self.payments)

    @property
    def left_gold(self) -> int:
        return self.budget.gold - self.spent_gold

    @property
    def left_silver(self) -> int:
        return self.budget.silver - self.spent_silver


def pay(cards: Sequence[SquadCard], budget: Budget, elements: Sequence[str], lines: Sequence[int | None] = ()) -> Ledger:
    """Elite cards take gold only; ordinary cards take silver while it lasts, then gold 1:1."""
    silver = budget.silver
    payments: list[Payment] = []
    for i, card in enumerate(cards):
        line = lines[i] if i < len(lines) else None
        if card.elite:
            payments.append(Payment(card, card.cost, 0, line))
            continue
        s = min(card.cost, max(silver, 0))
        silver -= s
        payments.append(Payment(card, card.cost - s, s, line))
    return Ledger(budget, tuple(elements), tuple(payments))


def ledger_for(cards: Sequence[SquadCard], rules: SquadRules, seat: str = "first", redeals: int = 0,
               gold: int | None = None, silver: int | None = None, lines: Sequence[int | None] = ()) -> Ledger:
    """The budget of these cards' elements, and how the cards pay from it."""
    elements = rules.elements_of(cards)
    budget = budget_for(rules, len(elements), seat, redeals, gold, silver)
    return pay(cards, budget, elements, lines)


def budget_problems(ledger: Ledger) -> list[Problem]:
    """OVER_BUDGET when elite cards need more gold than there is, or all cards more crystals."""
    out: list[Problem] = []
    b = ledger.budget
    elite = sum(p.card.cost for p in ledger.payments if p.card.elite)
    total = sum(p.card.cost for p in ledger.payments)
    if b.gold < 0:
        out.append(error("OVER_BUDGET", f"the budget has {b.gold} gold: re-deals cost more gold than there is, "
                         "so no squad can be recruited", limit=0, actual=b.gold))
    elif elite > b.gold:
        out.append(error("OVER_BUDGET", f"elite cards cost {elite} gold; the budget has {b.gold} gold "
                         "(elite cards are never paid with silver)", limit=b.gold, actual=elite))
    if total > b.gold + b.silver:
        out.append(error("OVER_BUDGET", f"the squad costs {total} crystals; the budget has {b.gold} gold + "
                         f"{b.silver} silver = {b.gold + b.silver}", limit=b.gold + b.silver, actual=total))
    return out


def rule_problems(cards: Sequence[tuple[SquadCard, CardRef | None]], rules: SquadRules) -> list[Problem]:
    """UNIQUE_TWICE, FLYERS_OVER_LIMIT and TOO_MANY_TERRAINS."""
    out: list[Problem] = []
    if rules.unique_once:
        # Under `copies_by: name` a reprint and its original are one card: "a reprint is the same card, for the
        # copy limit, for uniqueness and when a deck names it".
        seen: dict[str, list[tuple[SquadCard, CardRef | None]]] = {}
        for c, r in cards:
            if c.unique:
                seen.setdefault(rules.unique_key(c), []).append((c, r))
        for same in seen.values():
            n = len(same)
            if n > 1:
                ids = list(dict.fromkeys(c.id for c, _ in same))
                ref = same[0][1]
                what = (same[0][0].label if len(ids) == 1
                        else f"{same[0][0].name} ({', '.join(f'{i} ×{sum(1 for c, _ in same if c.id == i)}' for i in ids)})")
                out.append(error("UNIQUE_TWICE", f"{what} is unique and is in the squad {n} times",
                                 card=", ".join(ids), line=ref.line if ref else None,
                                 pointer=ref.pointer if ref else None, limit=1, actual=n))
    flyers = [c for c, _ in cards if c.flyer]
    if rules.flyer_crystal_cap is not None and sum(c.cost for c in flyers) > rules.flyer_crystal_cap:
        cost = sum(c.cost for c in flyers)
        out.append(error("FLYERS_OVER_LIMIT", f"flyers cost {cost} crystals together; at most {rules.flyer_crystal_cap}",
                         limit=rules.flyer_crystal_cap, actual=cost))
    terrains = [c for c, _ in cards if c.terrain]
    if rules.max_terrains is not None and len(terrains) > rules.max_terrains:
        out.append(error("TOO_MANY_TERRAINS", f"{len(terrains)} terrains ({', '.join(c.label for c in terrains)}); "
                         f"at most {rules.max_terrains}", limit=rules.max_terrains, actual=len(terrains)))
    return out


@dataclass
class SquadReport:
    """The answer of `cardkit squad check`."""

    path: str
    format: str
    seat: str
    redeals: int
    ledger: Ledger
    problems: list[Problem] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not has_errors(self.problems)

    def to_dict(self) -> dict[str, Any]:
        led = self.ledger
        return {
            "path": self.path,
            "legal": self.legal,
            "budget": led.budget.to_dict(),
            "spent": {"gold": led.spent_gold, "silver": led.spent_silver},
            "elements": list(led.elements),
            "problems": [p.to_dict() for p in self.problems],
            "left": {"gold": led.left_gold, "silver": led.left_silver},
            "derivation": led.budget.derivation(),
            "cards": [p.to_dict() for p in led.payments],
            "format": self.format, "seat": self.seat, "redeals": self.redeals,
        }


def _deal_matches(squad: SquadFile, rules: SquadRules) -> list[CardRef | None]:
    """Per squad line, the dealt card it is recruited from (None: unresolved, or not dealt that often).

    Printings of one card are one card (`match_printings`): a line naming Мантикора is the dealt 10021.
    """
    from cardkit.games.squad_games.squads.printings import by_name_only, match_printings

    if squad.dealt is None:
        return list(squad.squad)
    table = squad_cards(rules.game)
    pool = [(r, r.card) for r in squad.dealt if r.card is not None]
    lines = [(i, r.text, r.card) for i, r in enumerate(squad.squad) if r.card is not None]
    matched = match_printings([(table[cid], by_name_only(text, cid)) for _, text, cid in lines],
                              [(table[cid], by_name_only(r.text, cid)) for r, cid in pool], rules)
    out: list[CardRef | None] = [None] * len(squad.squad)
    for (i, _, _), j in zip(lines, matched):
        out[i] = pool[j][0] if j is not None else None
    return out


def bind_to_deal(squad: SquadFile, rules: SquadRules) -> SquadFile:
    """`squad` with each squad line's card the printing it was dealt as (its stats are the dealt card's)."""
    if squad.dealt is None:
        return squad
    dealt = _deal_matches(squad, rules)
    return replace(squad, squad=[replace(r, card=d.card) if d is not None and d.card else r
                                 for r, d in zip(squad.squad, dealt)])


def deal_problems(squad: SquadFile, rules: SquadRules) -> list[Problem]:
    """DEAL_SIZE and CARD_NOT_DEALT (a squad card used more often than it was dealt)."""
    out: list[Problem] = []
    if squad.dealt is None:
        return out
    if len(squad.dealt) != rules.deal_size:
        out.append(error("DEAL_SIZE", f"{len(squad.dealt)} cards dealt; a deal is {rules.deal_size}",
                         limit=rules.deal_size, actual=len(squad.dealt)))
    table = squad_cards(rules.game)
    for ref, dealt in zip(squad.squad, _deal_matches(squad, rules)):
        if ref.card is None or dealt is not None:
            continue
        key = rules.card_key(table[ref.card])
        dealt_n = sum(1 for r in squad.dealt if r.card and rules.card_key(table[r.card]) == key)
        what = "was not dealt" if dealt_n == 0 else f"was dealt {dealt_n} time(s) only"
        out.append(error("CARD_NOT_DEALT", f"{ref.text} {what}", card=ref.card, line=ref.line, pointer=ref.pointer,
                         limit=dealt_n))
    return out


def check_squad(squad: SquadFile, rules: SquadRules, gold: int | None = None, silver: int | None = None) -> SquadReport:
    """Every problem with `squad` under `rules`; `gold`/`silver` replace the base (else the file's)."""
    squad = bind_to_deal(squad, rules)
    table = squad_cards(rules.game)
    cards = [(table[r.card], r) for r in squad.squad if r.card is not None]
    ledger = ledger_for([c for c, _ in cards], rules, squad.seat, squad.redeals,
                        squad.gold if gold is None else gold, squad.silver if silver is None else silver,
                        [r.line for _, r in cards])
    problems = list(squad.problems) + deal_problems(squad, rules) + budget_problems(ledger) + rule_problems(cards, rules)
    return SquadReport(squad.path, rules.format, squad.seat, squad.redeals, ledger, problems)


@dataclass
class BestReport:
    """The answer of `cardkit squad best`: the chosen squad's report and the dealt cards left out."""

    report: SquadReport
    chosen: tuple[int, ...]
    deal: list[SquadCard]
    spent: int
    elites: int

    def to_dict(self) -> dict[str, Any]:
        d = self.report.to_dict()
        d["squad"] = [self.deal[p].id for p in self.chosen]
        d["not_chosen"] = [c.id for i, c in enumerate(self.deal) if i not in self.chosen]
        d["crystals_spent"] = self.spent
        return d


def best_for_file(squad: SquadFile, rules: SquadRules, seat: str | None = None, redeals: int | None = None,
                  gold: int | None = None, silver: int | None = None) -> BestReport:
    """The best squad of the file's deal; arguments given replace the file's settings."""
    from cardkit.games.squad_games.squads.optimise import best_squad

    table = squad_cards(rules.game)
    known = [(r.line, table[r.card]) for r in squad.deal if r.card is not None]
    deal = [card for _, card in known]
    seat = seat or squad.seat
    redeals = squad.redeals if redeals is None else redeals
    gold = squad.gold if gold is None else gold
    silver = squad.silver if silver is None else silver
    best = best_squad(deal, rules, seat, redeals, gold, silver)
    chosen = [deal[p] for p in best.positions]
    ledger = ledger_for(chosen, rules, seat, redeals, gold, silver, [known[p][0] for p in best.positions])
    problems = list(squad.problems)
    if len(squad.deal) != rules.deal_size:
        problems.append(error("DEAL_SIZE", f"{len(squad.deal)} cards dealt; a deal is {rules.deal_size}",
                              limit=rules.deal_size, actual=len(squad.deal)))
    problems += budget_problems(ledger)
    report = SquadReport(squad.path, rules.format, seat, redeals, ledger, problems)
    return BestReport(report, best.positions, deal, best.spent, best.elites)
