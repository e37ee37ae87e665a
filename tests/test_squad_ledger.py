"""The crystal ledger as rows and as text, as `squad check` and `squad best` print it."""

from __future__ import annotations

from pathlib import Path

from cardkit.games.squad_games.squads.budget import squad_rules
from cardkit.games.squad_games.squads.cards import squad_card
from cardkit.games.squad_games.squads.check import Ledger, Payment, SquadReport, check_squad, pay
from cardkit.games.squad_games.squads.ledger import LABEL_WIDTH, ledger_rows, ledger_text
from cardkit.games.squad_games.squads.read import read_squad_file

DATA = Path(__file__).parent / "data" / "squads"


def report_of(name: str) -> SquadReport:
    squad = read_squad_file(DATA / name)
    return check_squad(squad, squad_rules(squad.format or ""))


def test_the_rows_run_from_the_budgets_steps_through_each_card_to_what_is_left() -> None:
    ledger = report_of("online-legal.json").ledger
    rows = ledger_rows(ledger)
    kinds = [r.kind for r in rows]
    steps = ledger.budget.derivation()
    assert kinds == ["step"] * len(steps) + ["budget"] + ["card"] * len(ledger.payments) + ["spent", "left"]
    assert [(r.label, r.gold, r.silver) for r in rows[: len(steps)]] == [(s["step"], s["gold"], s["silver"]) for s in steps]
    cards = [r for r in rows if r.kind == "card"]
    assert [(r.label, r.cost, r.elite, r.gold, r.silver) for r in cards] == [
        (p.card.label, p.card.cost, p.card.elite, p.gold, p.silver) for p in ledger.payments]
    spent, left = rows[-2:]
    assert (spent.cost, spent.gold, spent.silver) == (sum(p.card.cost for p in ledger.payments), ledger.spent_gold, ledger.spent_silver)
    assert (left.gold, left.silver) == (ledger.left_gold, ledger.left_silver)


def test_the_text_shows_each_card_and_the_totals_in_aligned_columns() -> None:
    ledger = report_of("online-legal.json").ledger
    lines = ledger_text(ledger).splitlines()
    card_lines = lines[len(ledger.budget.derivation()) + 3: -3]
    assert len(card_lines) == len(ledger.payments)
    assert len({len(line) for line in card_lines}) == 1, "card lines line up"
    for line, payment in zip(card_lines, ledger.payments):
        assert line.split()[-2:] == [str(payment.gold), str(payment.silver)]
    assert lines[-1].startswith(f"  elements: {', '.join(ledger.elements)}")


def test_an_over_budget_ledger_shows_a_negative_amount_left() -> None:
    ledger = report_of("online-legal.json").ledger
    poorer = pay([p.card for p in ledger.payments], type(ledger.budget)(ledger.budget.gold - 3, ledger.budget.silver), ledger.elements)
    left = ledger_rows(poorer)[-1]
    assert left.gold + left.silver == ledger.left_gold + ledger.left_silver - 3 < 0
    assert ledger_text(poorer).splitlines()[-2].split()[-2:] == [str(left.gold), str(left.silver)]


def test_a_long_card_label_is_cut_to_the_column_and_a_control_character_in_it_is_shown_escaped() -> None:
    ledger = report_of("online-legal.json").ledger
    card = squad_card({"id": "odd", "name": "Bell\x07" + "x" * 60, "cost": 3})
    odd = Payment(card, 0, 3)
    text = ledger_text(Ledger(ledger.budget, ledger.elements, (odd,)))
    assert "\x07" not in text
    card_line = text.splitlines()[len(ledger.budget.derivation()) + 3]
    assert card_line[4:4 + LABEL_WIDTH - 10].endswith("~")
