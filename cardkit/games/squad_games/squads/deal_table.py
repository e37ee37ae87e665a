"""Every deal's best squad at once: a table over the counts of each optimiser class a deal can hold.

A deal is, to the optimiser, how many cards of each class it holds (`deal_sim.optimiser_class`:
equal classes are interchangeable), and so is a squad: a vector `x` of counts. Whether `x` is a
legal squad (budget of its own elements, unique cards once, flyer cap, terrain limit) depends
on `x` alone, never on the deal it came from; the best squad of a deal `a` is the best legal
`x <= a`. So one array scores every `x` of the lattice `0 <= x <= min(copies, deal size)` (an
integer ordering squads as `optimise.best_squad` does: crystals, cards, elite cards, then the
most gold, then the most gold on elite cards; -1 for no legal squad) and a running maximum along
each axis turns it into the best score below every point. A block of deals is then one lookup
per deal. The lattice stops at the most copies of a class a legal squad can hold (one of a
unique card, as many as the largest budget pays for), as a deal's further copies change nothing.

Exact, and checked deal for deal against `best_squad` in the tests. Its cost is the lattice's
size, the product of (copies + 1) over the classes, so decks whose lattice passes `MAX_CELLS`
are left to the per-deal optimiser.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cardkit.games.squad_games.squads.budget import SquadRules, budget_for
from cardkit.games.squad_games.squads.cards import NEUTRAL, SquadCard

MAX_CELLS = 4_000_000
"""Largest lattice built (a few arrays of this many integers, tens of MiB, well under a second)."""
SLICE_CELLS = 1 << 17
"""Most lattice points filled at once: the keys of this many are held, not the whole lattice's."""


@dataclass(frozen=True)
class DealTable:
    """The best score below every lattice point, and how a deal's outcome is read from it."""

    kinds: Any  # per deck position: its class
    caps: Any  # per class: the most copies a legal squad can hold (the lattice's last index)
    strides: Any  # per class: its stride in the flattened lattice
    position_elements: Any  # per deck position: its card elements as bits (neutral is none)
    element_count: Any  # per set of element bits: how many elements it holds
    packed: Any  # per deck position: 1 at its class's field of a deal's packed counts; None if they do not fit
    fields: tuple[tuple[int, int, int], ...]  # per class with a cap: (field's bit offset, cap, stride)
    field_mask: int
    best: Any  # flattened lattice: best squad score at or below each point (-1: none legal)
    probe: Any  # flattened lattice: best crystals with one re-deal's gold less (-1: none legal)
    shifts: tuple[int, int, int, int]  # bit offsets of (gold rank, elite cards, cards, crystals) in a score
    gold_floor: int  # the lowest gold over the element counts: gold rank 0
    silver: int
    empty_gold: int  # the budget's gold with no element: what a deal with no legal squad reports

    def outcomes(self, dealt: Any) -> dict[str, Any]:
        """Per deal (rows of deck positions): spent, cards, left, gold_left, redeal_spent, dealt_elements."""
        import numpy as np

        rows, width = len(dealt), len(self.caps)
        # A few dealt positions at a time, as rows (numpy sums and ORs along rows of the block's length,
        # not of a deal's 15): each gathered array stays under GATHER_BYTES.
        step = max(1, GATHER_BYTES // (8 * max(1, rows)))
        groups = [dealt[:, j:j + step].T for j in range(0, dealt.shape[1], step)]
        dealt_bits = np.bitwise_or.reduce(np.take(self.position_elements, groups[0]), axis=0)
        for group in groups[1:]:
            dealt_bits |= np.bitwise_or.reduce(np.take(self.position_elements, group), axis=0)
        if self.packed is not None:
            # Each class counts in its own bit field of one integer per deal: a gather and a sum.
            packed = np.take(self.packed, groups[0]).sum(axis=0)  # np.take: much faster than fancy indexing
            for group in groups[1:]:
                packed += np.take(self.packed, group).sum(axis=0)
            flat = np.zeros(rows, dtype=np.int64)
            for shift, cap, stride in self.fields:
                count = (packed >> shift) & self.field_mask
                np.minimum(count, cap, out=count)
                count *= stride
                flat += count
        else:
            cells = np.take(self.kinds, dealt)
            cells += (np.arange(rows, dtype=np.int32) * width)[:, None]
            counts = np.bincount(cells.ravel(), minlength=rows * width).reshape(rows, width)
            flat = np.minimum(counts, self.caps) @ self.strides
        score = self.best[flat].astype(np.int64)
        none = score < 0
        score[none] = 0
        g, lo, n, t = self.shifts
        elite_gold = score & ((1 << g) - 1)
        gold = np.where(none, self.empty_gold, ((score >> g) & ((1 << (lo - g)) - 1)) + self.gold_floor)
        cards = (score >> n) & ((1 << (t - n)) - 1)
        spent = score >> t
        gold_left = gold - elite_gold - np.maximum(0, spent - elite_gold - self.silver)
        elements = self.element_count[dealt_bits]
        return {"spent": spent, "cards": cards, "left": gold + self.silver - spent, "gold_left": gold_left,
                "redeal_spent": self.probe[flat], "dealt_elements": elements}


def _lattice(dims: Sequence[int], weights: Sequence[int], dtype: Any) -> Any:
    """sum_i weights[i] * x_i at every point x of the lattice, flattened in C order."""
    import numpy as np

    # built from the last axis outwards, so that numpy's inner loop runs over the part built so far
    # rather than over one short axis (short inner loops cost numpy more than the sums themselves)
    out = np.zeros(1, dtype=dtype)
    for d, w in zip(reversed(dims), reversed(weights)):
        out = ((w * np.arange(d)).astype(dtype)[:, None] + out[None, :]).ravel()
    return out


def _union(dims: Sequence[int], bits: Sequence[int], dtype: Any = None) -> Any:
    """The OR of bits[i] over the axes with x_i > 0, at every point, flattened in C order."""
    import numpy as np

    out = np.zeros(1, dtype=dtype or (np.int8 if max(bits, default=0) < 128 else np.int32))
    for d, b in zip(reversed(dims), reversed(bits)):
        out = (np.where(np.arange(d) > 0, b, 0).astype(out.dtype)[:, None] | out[None, :]).ravel()
    return out


def _sweep(flat: Any, dims: Sequence[int], axes: range) -> None:
    """The running maximum along each of `axes`, in place, a slice at a time."""
    import numpy as np

    before, total = 1, flat.size
    for axis, d in enumerate(dims):
        after = total // (before * d)
        if axis in axes:
            grid = flat.reshape(before, d, after)
            for j in range(1, d):
                np.maximum(grid[:, j], grid[:, j - 1], out=grid[:, j])
        before *= d


GATHER_BYTES = 100_000
"""Largest array a block's outcomes gather at once: under 128 KiB, above which the C allocator maps
fresh pages for every array, and faulting them in cost more than the gather itself."""

LONG_RUN = 1024
"""Cells after an axis (its slices' contiguous runs) below which numpy sweeps it slowly."""


def _running_max(flat: Any, dims: Sequence[int], spare: Any = None) -> tuple[Any, list[int]]:
    """Each point's maximum over every point at or below it, and the order of the result's axes in memory.

    An axis is swept a slice at a time, and numpy walks slices of short contiguous runs (the last
    axes') slowly: the axes before those are swept first, then the lattice is transposed so that
    the last ones come first, with long runs. Queries read the result through its axis order.
    The transposed copy is written into `spare` (an array no longer needed, at least as large) if given:
    memory the process has touched already, where a fresh array's every page must be faulted in.
    """
    import numpy as np

    after, split = flat.size, len(dims)
    for axis, d in enumerate(dims):
        after //= d
        if after < LONG_RUN:
            split = axis
            break
    if split in (0, len(dims)):  # no long-run axis to sweep first, or no short-run axis
        _sweep(flat, dims, range(len(dims)))
        return flat, list(range(len(dims)))
    _sweep(flat, dims, range(split))
    order = list(range(split, len(dims))) + list(range(split))
    if spare is not None and spare.nbytes >= flat.nbytes:
        moved = spare.ravel().view(np.uint8)[:flat.nbytes].view(flat.dtype)
    else:
        moved = np.empty(flat.size, dtype=flat.dtype)
    np.copyto(moved.reshape([dims[a] for a in order]), flat.reshape(dims).transpose(order))
    _sweep(moved, [dims[a] for a in order], range(len(dims) - split))
    return moved, order


def _element_bits(elements: Sequence[frozenset[str]]) -> list[int]:
    names = sorted(set().union(*elements)) if elements else []
    return [sum(1 << names.index(e) for e in es) for es in elements]


@lru_cache(maxsize=4)
def deal_table(classes: tuple[SquadCard, ...], deck_kinds: tuple[int, ...], rules: SquadRules, seat: str,
               gold: int | None, silver: int | None) -> DealTable | None:
    """The table for a deck given as class representatives and each card's class; None if too large."""
    import numpy as np

    squad_elements = [c.elements or (frozenset({NEUTRAL}) if rules.neutral_is_element else frozenset()) for c in classes]
    universe = len(set().union(*squad_elements)) if squad_elements else 0
    names = sorted(set().union(*(c.elements for c in classes)))
    if len(names) > 16:  # more than any game has; the count per set of elements would be a large table
        return None
    budgets = [budget_for(rules, k, seat, 0, gold, silver) for k in range(universe + 1)]
    golds = np.array([b.gold for b in budgets], dtype=np.int64)
    if len({b.silver for b in budgets}) != 1:  # budget_for adds no silver per element; the table relies on that
        return None
    silver_each, probe = budgets[0].silver, rules.redeal_gold
    most = int(golds.max()) + silver_each
    if most < 0:
        most = 0
    shared = {rules.unique_key(c) for c in classes if c.unique}
    shared = {k for k in shared if sum(1 for c in classes if c.unique and rules.unique_key(c) == k) > 1}
    caps = [0] * len(classes)
    for k in deck_kinds:
        caps[k] += 1
    for i, c in enumerate(classes):
        cap = min(caps[i], rules.deal_size)
        if c.cost > 0:
            cap = min(cap, most // c.cost)
            if c.flyer and rules.flyer_crystal_cap is not None:
                cap = min(cap, max(0, rules.flyer_crystal_cap) // c.cost)
        if c.unique and rules.unique_once:
            cap = min(cap, 1)
        if c.terrain and rules.max_terrains is not None:
            cap = min(cap, max(0, rules.max_terrains))
        caps[i] = cap
    dims = [c + 1 for c in caps]
    cells = 1
    for d in dims:
        cells *= d
    if cells > MAX_CELLS:
        return None

    # One integer per squad, compared as (crystals, cards, elite cards, gold rank, gold on elite cards).
    top = sum(caps)  # the most cards of any lattice point, beyond a deal's for the points no deal reaches
    g = max(1, sum(c.cost * cap for c, cap in zip(classes, caps) if c.elite)).bit_length()
    gold_floor = int(golds.min())
    lo = g + max(1, int(golds.max()) - gold_floor).bit_length()
    n = lo + top.bit_length()
    t = n + top.bit_length()
    bits = t + max(1, sum(c.cost * cap for c, cap in zip(classes, caps))).bit_length()
    if bits > 62:
        return None
    dtype = np.int32 if bits <= 30 else np.int64
    # Legality, the gold rank and the re-deal's spend depend on (elements, crystals, gold on elite cards)
    # alone: small tables over those, read with one lookup per lattice point (fewer big arrays to fill).
    spent_top = (int(max(1, sum(c.cost * cap for c, cap in zip(classes, caps)))) + 1)
    elite_top = 1 << g
    # The key is (crystals * elite_top + elite gold) << universe | elements: the elements' union, in the
    # low bits, is ORed straight into the key from a small array (no second key-sized array to convert
    # and scale). Held as numpy's index type, which np.take would otherwise convert it to for each read.
    key_weights = [(c.cost * elite_top + (c.cost if c.elite else 0)) << universe for c in classes]
    element_bits = _element_bits(squad_elements)
    linear_weights = [(c.cost << t) + (1 << n) + (int(c.elite) << lo) + (c.cost if c.elite else 0) for c in classes]
    gold_of = np.array([golds[bin(m).count("1")] for m in range(1 << universe)], dtype=np.int64)[:, None, None]
    spent_at = np.arange(spent_top)[None, :, None]
    elite_at = np.arange(elite_top)[None, None, :]

    def by_key(values: Any, of: Any) -> Any:
        """(elements, crystals, elite gold) values as one flat table read at `key`."""
        return np.ascontiguousarray(values.reshape(1 << universe, -1).T, dtype=of).ravel()

    fits = (elite_at <= gold_of) & (spent_at <= gold_of + silver_each)
    never = -(1 << (bits + 1))  # added to a score, leaves it below zero
    rank = by_key(np.where(fits, (gold_of - gold_floor) << g, never), dtype)
    # a re-deal's crystals, -1 for none legal, need only a small integer: less memory to sweep
    small = np.int8 if spent_top <= 127 else np.int16 if spent_top <= 32767 else dtype
    probe_fits = (elite_at <= gold_of - probe) & (spent_at <= gold_of - probe + silver_each)
    probe_rank = by_key(np.where(probe_fits, spent_at, -1), small)
    # The lattice is filled one slice over its first axes at a time: keys and sums are built once for
    # a slice's points and shifted per slice, so no lattice-sized key is ever held (fresh memory, which
    # the system must fault in, was half of what building the table cost).
    head = 0
    while math.prod(dims[head:]) > SLICE_CELLS:
        head += 1
    width = math.prod(dims[head:])
    key_tail = _lattice(dims[head:], key_weights[head:], np.intp)
    key_tail |= _union(dims[head:], element_bits[head:])
    linear_tail = _lattice(dims[head:], linear_weights[head:], dtype)
    key_head = _lattice(dims[:head], key_weights[:head], np.intp).tolist()
    union_head = _union(dims[:head], element_bits[:head], np.intp).tolist()
    linear_head = _lattice(dims[:head], linear_weights[:head], dtype).tolist()
    best: Any = np.empty(cells, dtype=dtype)
    # no re-deal cost: the simulator counts a re-deal's squad as spending nothing
    probe_best = np.empty(cells, dtype=small) if probe else np.zeros(cells, dtype=small)
    key = np.empty(width, dtype=np.intp)
    for h in range(len(key_head)):
        at = slice(h * width, (h + 1) * width)
        np.add(key_tail, key_head[h], out=key)  # the crystal parts add up above the elements' bits
        key |= union_head[h]
        # mode="clip" writes straight into `out` ("raise" buffers it); every key is inside the table
        np.take(rank, key, out=best[at], mode="clip")
        best[at] += linear_tail
        best[at] += linear_head[h]
        np.maximum(best[at], -1, out=best[at])
        if probe:
            np.take(probe_rank, key, out=probe_best[at], mode="clip")
    breaks: Any = None
    for unique in sorted(shared):
        over = _lattice(dims, [int(c.unique and rules.unique_key(c) == unique) for c in classes], np.int8) > 1
        breaks = over if breaks is None else breaks | over
    if rules.flyer_crystal_cap is not None and any(c.flyer for c in classes):
        over = _lattice(dims, [c.cost if c.flyer else 0 for c in classes], dtype) > rules.flyer_crystal_cap
        breaks = over if breaks is None else breaks | over
    if rules.max_terrains is not None and any(c.terrain for c in classes):
        over = _lattice(dims, [int(c.terrain) for c in classes], np.int8) > rules.max_terrains
        breaks = over if breaks is None else breaks | over
    if breaks is not None:  # the points breaking a rule other than the budget
        best[breaks] = -1
        probe_best[breaks] = -1
    filled = best
    best, order = _running_max(filled, dims)
    # the same dims, so the same axis order; its copy goes where `best` was filled, if that was copied too
    probe_best, _ = _running_max(probe_best, dims, spare=filled if best is not filled else None)
    strides = [0] * len(dims)
    step = 1
    for axis in reversed(order):
        strides[axis] = step
        step *= dims[axis]
    class_elements = _element_bits([c.elements for c in classes])
    field = rules.deal_size.bit_length()  # a field holds any count up to a deal's size
    packs = field * len(classes) <= 63
    return DealTable(kinds=np.asarray(deck_kinds, dtype=np.int32), caps=np.asarray(caps, dtype=np.int32),
                     strides=np.asarray(strides, dtype=np.int64),
                     position_elements=np.asarray([class_elements[k] for k in deck_kinds], dtype=np.int32),
                     element_count=np.asarray([m.bit_count() for m in range(1 << len(names))], dtype=np.int64),
                     packed=np.asarray([1 << (field * k) for k in deck_kinds], dtype=np.int64) if packs else None,
                     fields=tuple((field * i, cap, strides[i]) for i, cap in enumerate(caps) if cap),
                     field_mask=(1 << field) - 1,
                     best=best, probe=probe_best, shifts=(g, lo, n, t), gold_floor=gold_floor, silver=silver_each,
                     empty_gold=int(golds[0]))
