"""Placement of a squad on its half of the 6x5 field, checked against the placement rules.

Squares are `<column><row>` of the player's own half: column a-e from the
player's left, row 1 at the front (touching the opponent's half) to row 3 at
the back. The first player places on the centre 3x3 (b-d, rows 1-3); the
second player also on a1 and e1. With more than nine cards on squares the
other side squares open too, a2/a3/e2/e3 before the first player's a1/e1:
to both seats by the format's `squad.side_squares` reading (`both-seats`), or
only to the second player (`second-seat`), whom the paragraph opens with.
The format's `squad.reserve_zone` names the kinds that stand in the reserve
(auxiliary) zone from the set-up: flyers and terrains in the tabletop CCG
("Вспомогательная зона – это зона, в которой располагаются летающие существа и
местности"), terrains only in Berserk Online, whose flyers "befinden sich bis
zum Aufdecken mit den übrigen Karten auf dem Spielfeld" and so stand on squares
and count toward the nine cards. A symbiote lies on the card at its host square.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from cardkit.games.board import Square
from cardkit.games.squad_games.battle.board import COLUMNS, HALF_ROWS
from cardkit.games.squad_games.squads.budget import SquadRules
from cardkit.games.squad_games.squads.cards import SquadCard, squad_cards
from cardkit.games.squad_games.squads.check import rule_problems
from cardkit.games.squad_games.squads.read import CardRef
from cardkit.jsonio import input_name, read_text_input
from cardkit.problems import Problem, error, has_errors
from cardkit.schemacheck import parse_checked_json
from cardkit.visible import quoted, visible

ROWS = tuple(range(1, HALF_ROWS + 1))
CENTRE: frozenset[Square] = frozenset(f"{c}{r}" for c in "bcd" for r in ROWS)
FRONT_SIDES: frozenset[Square] = frozenset({"a1", "e1"})
BACK_SIDES: frozenset[Square] = frozenset({"a2", "a3", "e2", "e3"})
CENTRE_SIZE = len(CENTRE)


def square_name(value: Any) -> Square:
    """`"B2"` or `{"row": 2, "column": 2}` -> `"b2"` (the schema has checked the range)."""
    if isinstance(value, dict):
        return f"{COLUMNS[value['column'] - 1]}{value['row']}"
    return str(value).lower()


def allowed_squares(seat: str, on_squares: int, taken: set[Square] | frozenset[Square] = frozenset(),
                    side_squares: str = "both-seats") -> frozenset[Square]:
    """Squares a player may use with `on_squares` cards on squares; `taken` decides when a1/e1 open to the first player;
    `side_squares` is the format's reading of who the extra side squares open to (`both-seats` or `second-seat`)."""
    allowed = set(CENTRE)
    if seat == "second":
        allowed |= FRONT_SIDES
    if on_squares > CENTRE_SIZE and (seat == "second" or side_squares == "both-seats"):
        allowed |= BACK_SIDES
        if BACK_SIDES <= taken:
            allowed |= FRONT_SIDES
    return frozenset(allowed)


@dataclass(frozen=True)
class Placed:
    """One card of the placement file: where it stands (square, host square or reserve)."""

    text: str
    card: SquadCard | None
    square: Square | None = None
    host: Square | None = None
    reserve: bool = False
    pointer: str | None = None


@dataclass
class PlacementReport:
    """The answer of `cardkit squad place`."""

    path: str
    format: str
    seat: str
    placed: list[Placed]
    problems: list[Problem] = field(default_factory=list)
    side_squares: str = "both-seats"

    @property
    def legal(self) -> bool:
        return not has_errors(self.problems)

    @property
    def squares(self) -> dict[Square, Placed]:
        out: dict[Square, Placed] = {}
        for p in self.placed:
            if p.square and p.square not in out:
                out[p.square] = p
        return out

    def to_dict(self) -> dict[str, Any]:
        def ident(p: Placed) -> str:
            return p.card.id if p.card else p.text

        return {
            "path": self.path,
            "legal": self.legal,
            "format": self.format,
            "seat": self.seat,
            "squares": {sq: ident(p) for sq, p in sorted(self.squares.items(), key=lambda kv: (kv[0][1], kv[0][0]))},
            "symbiotes": [{"card": ident(p), "host": p.host} for p in self.placed if p.host],
            "reserve": [ident(p) for p in self.placed if p.reserve],
            "problems": [p.to_dict() for p in self.problems],
        }


def read_placement(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The placement file's JSON, schema-checked; UnreadableInput otherwise."""
    data: dict[str, Any] = parse_checked_json(input_name(path), read_text_input(path), "placement.schema.json", "placement file")
    return data


def check_placement(data: dict[str, Any], path: str = "<placement>") -> PlacementReport:
    """Every placement problem of a schema-valid placement document.

    BadArgument (or UnknownFormat) when the format has no squads: only squad games have this field.
    """
    from cardkit.catalogue.lookup import card_index
    from cardkit.games.squad_games.squads.budget import squad_rules

    rules = squad_rules(data["format"])
    index, table = card_index(rules.game), squad_cards(rules.game)
    seat = data.get("seat", "first")
    problems: list[Problem] = []

    def resolve(text: str, pointer: str) -> SquadCard | None:
        cid = index.find(text).resolved
        if cid is None:
            problems.append(error("UNKNOWN_CARD", f"no {rules.game} card {quoted(text)}", card=text, pointer=pointer))
            return None
        return table[cid]

    placed: list[Placed] = []
    for i, item in enumerate(data["cards"]):
        ptr = f"/cards/{i}"
        placed.append(Placed(item["card"], resolve(item["card"], ptr), square_name(item["square"]) if "square" in item else None,
                             square_name(item["host"]) if "host" in item else None, False, ptr))
    for i, text in enumerate(data.get("reserve", [])):
        placed.append(Placed(text, resolve(text, f"/reserve/{i}"), reserve=True, pointer=f"/reserve/{i}"))
    problems += _square_problems(placed, seat, rules) + _zone_problems(placed, rules)
    if "squad" in data:
        refs = [CardRef(t, c.id, pointer=f"/squad/{i}") for i, t in enumerate(data["squad"])
                if (c := resolve(t, f"/squad/{i}")) is not None]
        squad = [(table[r.card], r.text) for r in refs if r.card is not None]
        placed, found = _squad_problems(placed, squad, rules)
        problems += found
    else:
        refs = [CardRef(p.text, p.card.id, pointer=p.pointer) for p in placed if p.card is not None]
    # The squad's own rules that need no deal (`squad check`'s UNIQUE_TWICE, FLYERS_OVER_LIMIT, TOO_MANY_TERRAINS)
    # hold on the field too; the budget is left to `squad check`, as it needs the re-deals and the file's crystals.
    problems += rule_problems([(table[r.card], r) for r in refs if r.card is not None], rules)
    return PlacementReport(path, rules.format, seat, placed, problems, rules.side_squares)


def _square_problems(placed: list[Placed], seat: str, rules: SquadRules) -> list[Problem]:
    out: list[Problem] = []
    on_squares = [p for p in placed if p.square]
    taken: dict[Square, Placed] = {}
    for p in on_squares:
        assert p.square is not None
        if p.square in taken:
            out.append(error("SQUARE_TAKEN", f"{_label(p)} is put on {p.square}, where {_label(taken[p.square])} stands",
                             card=_id(p), pointer=p.pointer))
        else:
            taken[p.square] = p
    allowed = allowed_squares(seat, len(on_squares), set(taken), rules.side_squares)
    for p in on_squares:
        assert p.square is not None
        if p.square not in allowed:
            out.append(error("SQUARE_NOT_ALLOWED", f"{_label(p)} on {p.square}: {_why_not(p.square, seat, len(on_squares), rules.side_squares)}",
                             card=_id(p), pointer=p.pointer, actual=p.square, limit=sorted(allowed)))
    for p in placed:
        host = taken.get(p.host) if p.host else None
        if p.host and host is None:
            out.append(error("HOST_MISSING", f"symbiote {_label(p)} lies on {p.host}, but no card stands there",
                             card=_id(p), pointer=p.pointer, actual=p.host))
        elif host is not None and host.card is not None and rules.in_reserve(host.card):
            out.append(error("HOST_MISSING", f"symbiote {_label(p)} lies on {p.host}, which holds a reserve-zone card",
                             card=_id(p), pointer=p.pointer, actual=p.host))
    return out


def _why_not(square: Square, seat: str, n: int, side_squares: str) -> str:
    if n > CENTRE_SIZE and seat == "first" and side_squares == "second-seat":
        return "the side squares open only to the second player, whatever the squad's size (the format's side_squares)"
    if square in FRONT_SIDES and n > CENTRE_SIZE:
        return "the first player takes the side squares of the first row last, after a2, a3, e2 and e3"
    if square in FRONT_SIDES | BACK_SIDES:
        side = "a1/e1 and the centre 3x3" if seat == "second" else "the centre 3x3 (b-d)"
        return f"with {n} cards on squares (nine or fewer) the {seat} player uses only {side}"
    return "not a square of the player's half"


def _zone_problems(placed: list[Placed], rules: SquadRules) -> list[Problem]:
    out: list[Problem] = []
    for p in placed:
        c = p.card
        if c is None:
            continue
        reserve_card = rules.in_reserve(c)
        if p.square and c.flyer and reserve_card:
            out.append(error("FLYER_ON_FIELD", f"{c.label} flies: it goes to the reserve zone, not on {p.square}",
                             card=c.id, pointer=p.pointer))
        elif p.square and c.terrain and reserve_card:
            out.append(error("TERRAIN_ON_FIELD", f"{c.label} is a terrain: it goes to the reserve zone, not on {p.square}",
                             card=c.id, pointer=p.pointer))
        elif p.square and c.symbiote:
            out.append(error("SYMBIOTE_NEEDS_HOST", f"{c.label} is a symbiote: give its host square, not a square of its own",
                             card=c.id, pointer=p.pointer))
        elif p.host and not c.symbiote:
            out.append(error("NOT_A_SYMBIOTE", f"{c.label} is not a symbiote and cannot lie on another card",
                             card=c.id, pointer=p.pointer))
        elif p.reserve and not reserve_card:
            out.append(error("NOT_A_RESERVE_CARD", f"{c.label} {_why_on_square(c, rules)}: it goes on a square",
                             card=c.id, pointer=p.pointer))
    return out


def _why_on_square(card: SquadCard, rules: SquadRules) -> str:
    if card.flyer:
        return f"flies, and in {rules.format} flyers stand on the field with the other cards until revealed"
    if card.terrain:
        return f"is a terrain, and in {rules.format} terrains stand on the field"
    kinds = " and ".join(f"{k}s" for k in sorted(rules.reserve_zone)) or "no card"
    return f"is no reserve card (only {kinds} go there in {rules.format})"


def _squad_problems(placed: list[Placed], squad: list[tuple[SquadCard, str]],
                    rules: SquadRules) -> tuple[list[Placed], list[Problem]]:
    """NOT_IN_SQUAD and NOT_PLACED, matching printings of one card as one card (`match_printings`).

    Returns `placed` with each matched card as the squad's printing of it, and the problems.
    """
    from cardkit.games.squad_games.squads.printings import by_name_only, match_printings

    lines = [(i, p) for i, p in enumerate(placed) if p.card is not None]
    matched = match_printings([(p.card, by_name_only(p.text, p.card.id)) for _, p in lines if p.card is not None],
                              [(c, by_name_only(t, c.id)) for c, t in squad], rules)
    out: list[Problem] = []
    placed = list(placed)
    for (i, p), j in zip(lines, matched):
        assert p.card is not None
        if j is None:
            out.append(error("NOT_IN_SQUAD", f"{p.card.label} is placed but not in the squad (or placed more often)",
                             card=p.card.id, pointer=p.pointer))
        else:
            placed[i] = replace(p, card=squad[j][0])
    used = set(matched)
    left = Counter(c.id for j, (c, _) in enumerate(squad) if j not in used)
    by_id = {c.id: c for c, _ in squad}
    for cid, n in left.items():
        out.append(error("NOT_PLACED", f"{by_id[cid].label} is in the squad but not placed" + (f" ({n} copies)" if n > 1 else ""),
                         card=cid, actual=n))
    return placed, out


def _id(p: Placed) -> str:
    return p.card.id if p.card else p.text


def _label(p: Placed) -> str:
    return p.card.label if p.card else p.text


def render_half(report: PlacementReport) -> str:
    """The player's half as a grid, front row on top, with a legend."""
    squares = report.squares
    ids = sorted({_id(p) for p in report.placed}, key=lambda x: [_id(p) for p in report.placed].index(x))
    number = {cid: i + 1 for i, cid in enumerate(ids)}
    allowed = allowed_squares(report.seat, len([p for p in report.placed if p.square]), set(squares), report.side_squares)
    lines = ["      " + " ".join(f"  {c} " for c in COLUMNS) + "   (opponent's half above)"]
    for r in ROWS:
        cells = []
        for col in COLUMNS:
            sq = f"{col}{r}"
            cells.append(f"[{number[_id(squares[sq])]:>2}]" if sq in squares else ("  . " if sq in allowed else "  x "))
        lines.append((f"row {r} " + " ".join(cells)).rstrip())
    lines.append("  (. open square, x not allowed)")
    for cid in ids:
        p = next(q for q in report.placed if _id(q) == cid)
        where = [q.square or (f"on {q.host}" if q.host else "reserve") for q in report.placed if _id(q) == cid]
        # Card texts come from the file: a control character in one must not redraw the grid.
        lines.append(f"  {number[cid]:>2} {visible(_label(p))}: {visible(', '.join(str(w) for w in where))}")
    return "\n".join(lines)
