"""The best squad of a deal: the legal squad spending most crystals (ties: more cards, then more elite cards,
then the most gold, i.e. the fewest elements' budget cut, then the most gold on elite cards).

Exact. The gold budget depends on the squad's elements, so each element
subset the deal allows is one run (a squad found in a run may use fewer
elements; its true budget is no smaller, as gold never grows with the
number of elements, which `SquadRules` checks); a run is a two-resource
knapsack solved as a reachability set packed in one Python integer, with bit index
`(T * count_width + n) * gold_width + E` for T crystals, n cards and E
gold spent on elite cards. The highest set bit is then the best (T, n).
Budgets are clamped to what the cards can spend; a run where every choice
fits is answered without a search, and one whose sets would pass
`MAX_STATE_BITS` (only deals far larger than 15 cards) is refused.
Flyers and terrains under a cap form one group whose choices are their
allowed subsets; copies of a unique card count once. A final search over
the stored reachability sets picks the most elite cards among the best
(and, among those, the most gold on elite cards).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations

from cardkit.errors import BadArgument
from cardkit.games.squad_games.squads.budget import SquadRules, budget_for
from cardkit.games.squad_games.squads.cards import NEUTRAL, SquadCard

MAX_CAPPED = 20
"""Most capped flyers and terrains in one deal: their allowed subsets are listed one by one."""

MAX_STATE_BITS = 1 << 28
"""Most bits the stored reachability sets of one run may hold together (32 MiB); a 15-card deal needs under a million."""

Key = tuple[int, int, int]
"""(crystals spent, cards, elite cards): larger is better, compared in that order."""


@dataclass(frozen=True)
class BestSquad:
    """The chosen positions of the deal and their score; `gold`/`silver` is the budget of their elements."""

    positions: tuple[int, ...]
    spent: int
    cards: int
    elites: int
    gold: int
    silver: int
    elements: tuple[str, ...]
    probe_spent: int | None = None
    found: bool = True

    @property
    def key(self) -> Key:
        """(-1, -1, -1) when no squad is legal, not even the empty one (a budget below zero)."""
        return (self.spent, self.cards, self.elites) if self.found else (-1, -1, -1)


@dataclass(frozen=True)
class _Alt:
    """One choice within a group: T crystals, n cards, E gold on elite cards, from these deal positions."""

    t: int
    n: int
    e: int
    elites: int
    positions: tuple[int, ...]
    elite_parts: tuple[tuple[int, int], ...] = ()


def _card_elements(card: SquadCard, rules: SquadRules) -> frozenset[str]:
    if card.elements:
        return card.elements
    return frozenset({NEUTRAL}) if rules.neutral_is_element else frozenset()


def _alt(cards: Sequence[SquadCard], positions: tuple[int, ...]) -> _Alt:
    chosen = [cards[p] for p in positions]
    return _Alt(t=sum(c.cost for c in chosen), n=len(chosen), e=sum(c.cost for c in chosen if c.elite),
                elites=sum(1 for c in chosen if c.elite), positions=positions,
                elite_parts=tuple((p, cards[p].cost) for p in positions if cards[p].elite))


_EMPTY = _Alt(0, 0, 0, 0, ())


@dataclass(frozen=True, slots=True)
class _Group:
    """One choice of the knapsack: its alternatives (the first is taking nothing) and bounds over them."""

    alts: tuple[_Alt, ...]
    order: tuple[int, ...]
    max_e: int
    max_n: int
    max_elites: int
    elite_costs: tuple[int, ...]


def _group(alts: Sequence[_Alt]) -> _Group:
    order = tuple(sorted(range(len(alts)), key=lambda j: (-alts[j].elites, -alts[j].n, alts[j].positions)))
    costs = tuple({p: c for a in alts for p, c in a.elite_parts}.values())
    return _Group(tuple(alts), order, max(a.e for a in alts), max(a.n for a in alts),
                  max(a.elites for a in alts), costs)


def single_group(card: SquadCard, p: int) -> _Group:
    """The take-it-or-not choice of the card at deal position `p`."""
    if card.elite:
        alt = _Alt(card.cost, 1, card.cost, 1, (p,), ((p, card.cost),))
        return _Group((_EMPTY, alt), (1, 0), card.cost, 1, 1, (card.cost,))
    return _Group((_EMPTY, _Alt(card.cost, 1, 0, 0, (p,))), (1, 0), 0, 1, 0, ())


def _groups(cards: Sequence[SquadCard], allowed: list[int], rules: SquadRules, single: list[_Group]) -> list[_Group]:
    """Choice groups: each free card alone (take it or not); capped flyers and terrains together."""
    seen_unique: set[str] = set()
    groups: list[_Group] = []
    capped: list[int] = []
    for p in allowed:
        c = cards[p]
        if rules.unique_once and c.unique:
            if rules.unique_key(c) in seen_unique:
                continue
            seen_unique.add(rules.unique_key(c))
        if (c.flyer and rules.flyer_crystal_cap is not None) or (c.terrain and rules.max_terrains is not None):
            capped.append(p)
        else:
            groups.append(single[p])
    if len(capped) > MAX_CAPPED:
        raise BadArgument(f"{len(capped)} flyers and terrains under a cap in one deal; at most {MAX_CAPPED} can be searched")
    if capped:
        groups.append(_group([_EMPTY] + _capped_subsets(cards, capped, rules)))
    return groups


def _capped_subsets(cards: Sequence[SquadCard], capped: list[int], rules: SquadRules) -> list[_Alt]:
    """Every non-empty subset of the `capped` positions within the flyer cap and the terrain limit.

    Grown one card at a time, so a subset over a limit is never extended: a cap of 15 crystals
    keeps the listing small even with many flyers dealt.
    """
    cap, most_terrains = rules.flyer_crystal_cap, rules.max_terrains
    out: list[_Alt] = []

    def grow(start: int, combo: tuple[int, ...], flyer_cost: int, terrains: int) -> None:
        for i in range(start, len(capped)):
            c = cards[capped[i]]
            cost, count = flyer_cost + (c.cost if c.flyer else 0), terrains + c.terrain
            if (cap is not None and cost > cap) or (most_terrains is not None and count > most_terrains):
                continue
            out.append(_alt(cards, combo + (capped[i],)))
            grow(i + 1, combo + (capped[i],), cost, count)

    grow(0, (), 0, 0)
    return out


_MASKS: dict[tuple[int, int, int, int, int], int] = {}


def _mask(tw: int, nw: int, ew: int, cap: int, gold: int) -> int:
    """Bits of the states with T <= cap and E <= gold (any n)."""
    key = (tw, nw, ew, cap, gold)
    m = _MASKS.get(key)
    if m is None:
        row = (1 << (gold + 1)) - 1
        block = 0
        for n in range(nw):
            block |= row << (n * ew)
        m = 0
        for t in range(cap + 1):
            m |= block << (t * nw * ew)
        if len(_MASKS) > 4096:
            _MASKS.clear()
        _MASKS[key] = m
    return m


def _solve_run(groups: list[_Group], gold: int, silver: int,
               probe: int = 0) -> tuple[Key, tuple[int, ...], int] | None:
    """Best (key, positions, spent with `probe` less gold) of one run; None when even the empty squad breaks the budget.

    States within the smaller budget are exactly the final states inside its mask, so the probe is free.
    """
    if gold < 0 or gold + silver < 0:
        return None
    total_t = sum(max(a.t for a in g.alts) for g in groups)
    total_e = sum(g.max_e for g in groups)
    if total_e <= gold - probe and total_t <= gold + silver - probe:
        return _everything_fits(groups, probe)
    # Budgets above what the groups can spend change nothing: clamp them, and the state set shrinks.
    cap = min(gold + silver, total_t)
    full_gold = gold
    gold = min(gold, total_e)
    # E can pass `gold` by one alternative's elite cost before the mask trims it; unless gold already
    # covers every elite card, that headroom keeps it out of the card-count field above.
    ew = gold + 1 if gold == total_e else gold + max((g.max_e for g in groups), default=0) + 1
    nw = sum(g.max_n for g in groups) + 1
    if (cap + 1) * nw * ew * len(groups) > MAX_STATE_BITS:
        raise BadArgument(f"a deal of {nw - 1} cards with {full_gold} gold and {silver} silver is too large to search "
                          "exactly; a deal is 15 cards")
    unit_n, unit_t = ew, nw * ew
    mask = _mask(cap + 1, nw, ew, cap, gold)
    shifts = [[a.t * unit_t + a.n * unit_n + a.e for a in g.alts] for g in groups]
    reach = [1]
    r = 1
    for sh in shifts:
        acc = r
        for s in sh[1:]:
            acc |= r << s
        r = acc & mask
        reach.append(r)
    probe_t = -1
    if probe and full_gold - probe >= 0 and full_gold + silver - probe >= 0:
        probe_t = (r & _mask(cap + 1, nw, ew, min(cap, full_gold + silver - probe), min(gold, full_gold - probe))).bit_length() - 1
        probe_t = probe_t // unit_t if probe_t >= 0 else -1
    top = r.bit_length() - 1
    t, rest = divmod(top, unit_t)
    n = rest // unit_n
    base = t * unit_t + n * unit_n
    e_bits = (r >> base) & ((1 << ew) - 1)
    # Most elite cards among all states with the best (t, n): a bounded search back through the groups.
    # sums[i]: running totals of the cheapest elite cards of the first i groups; how many fit in x gold bounds
    # the elite cards still to come (a relaxation that ignores which group each card is in).
    most_after = [0] * (len(groups) + 1)
    sums: list[list[int]] = [[]]
    costs: list[int] = []
    for i, g in enumerate(groups):
        most_after[i + 1] = most_after[i] + g.max_elites
        if g.elite_costs:
            costs = sorted(costs + list(g.elite_costs))
            sums.append(list(accumulate(costs)))
        else:
            sums.append(sums[-1])
    best_elites = -1
    best_choice: tuple[int, ...] = ()
    chosen: list[tuple[int, ...]] = []

    def search(i: int, state: int, st: int, sn: int, se: int, elites: int) -> None:
        nonlocal best_elites, best_choice
        if elites + min(most_after[i], sn, bisect_right(sums[i], se)) <= best_elites:
            return
        if i == 0:
            if state == 0:
                best_elites = elites
                best_choice = tuple(sorted(p for c in chosen for p in c))
            return
        prev = reach[i - 1]
        g = groups[i - 1]
        sh = shifts[i - 1]
        for j in g.order:
            a = g.alts[j]
            if a.t > st or a.n > sn or a.e > se:
                continue
            ps = state - sh[j]
            if (prev >> ps) & 1:
                chosen.append(a.positions)
                search(i - 1, ps, st - a.t, sn - a.n, se - a.e, elites + a.elites)
                chosen.pop()

    for e in range(ew - 1, -1, -1):
        if (e_bits >> e) & 1:
            search(len(groups), base + e, t, n, e, 0)
    return (t, n, best_elites), best_choice, probe_t


def _everything_fits(groups: list[_Group], probe: int) -> tuple[Key, tuple[int, ...], int]:
    """The answer without a search, for a run in which every choice of every group fits the budget (with `probe` less gold too).

    Then the key, a sum over independent groups compared in order, is largest when each group
    takes its own largest (crystals, cards, elite cards); gold on elite cards breaks the last tie, as in the search.
    """
    picks = [max(g.alts, key=lambda a: (a.t, a.n, a.elites, a.e)) for g in groups]
    key = (sum(a.t for a in picks), sum(a.n for a in picks), sum(a.elites for a in picks))
    return key, tuple(sorted(p for a in picks for p in a.positions)), (key[0] if probe else -1)


def best_squad(cards: Sequence[SquadCard], rules: SquadRules, seat: str = "first", redeals: int = 0,
               gold: int | None = None, silver: int | None = None, probe: int = 0,
               groups: Sequence[_Group] | None = None) -> BestSquad:
    """The exact best squad from the dealt `cards` (positions index `cards`).

    With `probe` > 0, `probe_spent` is also the best spend had the gold been `probe` lower.
    `groups` may give `single_group(card, position)` for every card, precomputed by a caller that solves many deals.
    """
    keys = [_card_elements(c, rules) for c in cards]
    universe = sorted(set().union(*keys)) if keys else []
    budgets = {k: budget_for(rules, k, seat, redeals, gold, silver) for k in range(len(universe) + 2)}
    runs: list[frozenset[str]] = []
    for k in range(len(universe), -1, -1):
        # A subset whose one-larger superset has the same gold is never better than that superset.
        if k < len(universe) and budgets[k].gold == budgets[k + 1].gold:
            continue
        runs.extend(frozenset(c) for c in combinations(universe, k))
    single = list(groups) if groups is not None else [single_group(c, p) for p, c in enumerate(cards)]
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    best_probe = -1
    for run in runs:
        b = budgets[len(run)]
        allowed = [p for p, k in enumerate(keys) if k <= run]
        total = sum(cards[p].cost for p in allowed)
        bound = min(b.gold + b.silver, total)
        if best is not None and bound < best[0][0] and (not probe or min(b.gold - probe + b.silver, total) < best_probe):
            continue
        found = _solve_run(_groups(cards, allowed, rules, single), b.gold, b.silver, probe)
        if found is None:
            continue
        if best is None or found[0] >= best[0][:3]:
            # Equal keys from several runs: the squad with the most gold (its own elements' budget), then
            # the most gold on elite cards, so that the choice is one a table over all squads can make too.
            chosen = [cards[p] for p in found[1]]
            rank = found[0] + (budgets[len(rules.elements_of(chosen))].gold, sum(c.cost for c in chosen if c.elite))
            if best is None or rank > best[0]:
                best = (rank, found[1])
        best_probe = max(best_probe, found[2])
    positions = best[1] if best else ()
    chosen = [cards[p] for p in positions]
    elements = rules.elements_of(chosen)
    b = budgets[len(elements)] if len(elements) in budgets else budget_for(rules, len(elements), seat, redeals, gold, silver)
    return BestSquad(positions=positions, spent=sum(c.cost for c in chosen), cards=len(chosen),
                     elites=sum(1 for c in chosen if c.elite), gold=b.gold, silver=b.silver, elements=tuple(elements),
                     probe_spent=best_probe if probe else None, found=best is not None)


def is_legal(chosen: Sequence[SquadCard], rules: SquadRules, seat: str = "first", redeals: int = 0,
             gold: int | None = None, silver: int | None = None) -> bool:
    """The squad rules straight from their statement (used by the brute force)."""
    b = budget_for(rules, len(rules.elements_of(chosen)), seat, redeals, gold, silver)
    elite = sum(c.cost for c in chosen if c.elite)
    total = sum(c.cost for c in chosen)
    if elite > b.gold or total > b.gold + b.silver:
        return False
    if rules.unique_once:
        ids = [rules.unique_key(c) for c in chosen if c.unique]
        if len(ids) != len(set(ids)):
            return False
    if rules.flyer_crystal_cap is not None and sum(c.cost for c in chosen if c.flyer) > rules.flyer_crystal_cap:
        return False
    if rules.max_terrains is not None and sum(1 for c in chosen if c.terrain) > rules.max_terrains:
        return False
    return True


def brute_force_key(cards: Sequence[SquadCard], rules: SquadRules, seat: str = "first", redeals: int = 0,
                    gold: int | None = None, silver: int | None = None) -> Key:
    """The best key by trying every subset: the reference for tests and the benchmark's baseline."""
    best: Key = (-1, -1, -1)
    n = len(cards)
    for mask in range(1 << n):
        chosen = [cards[p] for p in range(n) if mask >> p & 1]
        key = (sum(c.cost for c in chosen), len(chosen), sum(1 for c in chosen if c.elite))
        if key > best and is_legal(chosen, rules, seat, redeals, gold, silver):
            best = key
    return best
