"""A squad's crystal ledger as rows and as aligned text: how the budget was derived, what each card paid, what is left.

`squad check` and `squad best` print `ledger_text` under their verdict; a program can lay out `ledger_rows` its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from cardkit.games.squad_games.squads.check import Ledger
from cardkit.visible import visible

RowKind = Literal["step", "budget", "card", "spent", "left"]

LABEL_WIDTH = 42
"""The width of the label column of `ledger_text`; a longer card label is cut and ends in `~`."""


@dataclass(frozen=True)
class LedgerRow:
    """One line of the ledger: a step of the budget's derivation (the first is the base, the rest are changes to it),
    the budget, one card's payment, the total spent, or what is left (negative when over budget).

    `cost` and `elite` belong to a card's row (and `cost` to the total spent); an elite card pays with gold only.
    """

    kind: RowKind
    label: str
    gold: int
    silver: int
    cost: int | None = None
    elite: bool = False


def ledger_rows(ledger: Ledger) -> list[LedgerRow]:
    """The ledger's lines in reading order: the budget's steps and sum, each card's payment, the total spent, what is left."""
    budget = ledger.budget
    rows = [LedgerRow("step", step["step"], step["gold"], step["silver"]) for step in budget.derivation()]
    rows.append(LedgerRow("budget", "budget", budget.gold, budget.silver))
    rows += [LedgerRow("card", pay.card.label, pay.gold, pay.silver, pay.card.cost, pay.card.elite) for pay in ledger.payments]
    rows.append(LedgerRow("spent", "spent", ledger.spent_gold, ledger.spent_silver, sum(p.card.cost for p in ledger.payments)))
    rows.append(LedgerRow("left", "left", ledger.left_gold, ledger.left_silver))
    return rows


def ledger_text(ledger: Ledger) -> str:
    """The ledger as aligned text: a budget block, a cards block and the elements, each line indented (no trailing newline).

    Card labels come from files and the catalogue, so they are shown `visible`: a control character can't redraw the table.
    """
    w = LABEL_WIDTH
    lines = [f"  {'budget':{w}} {'gold':>5} {'silver':>6}"]
    first_step = True
    for row in ledger_rows(ledger):
        if row.kind == "step":
            sign = "" if first_step else "+"
            first_step = False
            lines.append(f"    {row.label:{w - 2}} {row.gold:>{sign}5} {row.silver:>{sign}6}")
        elif row.kind == "budget":
            lines.append(f"    {'= budget':{w - 2}} {row.gold:>5} {row.silver:>6}")
            lines.append(f"  {'cards':{w - 8}} {'cost':>4}   {'gold':>5} {'silver':>6}")
        elif row.kind == "card":
            label = visible(row.label)
            label = label if len(label) <= w - 10 else label[: w - 11] + "~"
            lines.append(f"    {label:{w - 10}} {row.cost:>4} {'E' if row.elite else ' ':1} {row.gold:>5} {row.silver:>6}")
        elif row.kind == "spent":
            lines.append(f"    {'= spent':{w - 10}} {row.cost:>4}   {row.gold:>5} {row.silver:>6}")
        else:
            lines.append(f"    {row.label:{w - 2}} {row.gold:>5} {row.silver:>6}")
    lines.append(f"  elements: {visible(', '.join(ledger.elements)) or 'none (neutral only)'}   (E = elite card, paid with gold only)")
    return "\n".join(lines)
