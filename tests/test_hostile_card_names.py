"""A card line must be what it looks like: `NAME (ID)` counts the id's card only when the name is that card's,
and no invisible character makes a line show other text than cardkit reads."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardkit.catalogue.lookup import card_index
from cardkit.catalogue.store import load_game
from cardkit.decks import parse_deck
from cardkit.textfold import fold

TCG = load_game("berserk-tcg").cards
IDS = sorted(TCG)[:60]
NAMES = sorted({card["name"] for card in TCG.values()})[:60]
HIDDEN = ["\x85", "\u2028", "\u2029", "\x0b", "\x0c", "\u202e", "\u2066", "\u200f", "\u200b", "\u00ad"]

names = st.one_of(st.sampled_from(NAMES), st.text(min_size=1, max_size=16),
                  st.builds(lambda n, h, i: n[:i] + h + n[i:], st.sampled_from(NAMES), st.sampled_from(HIDDEN),
                            st.integers(0, 12)))


@given(name=names, cid=st.sampled_from(IDS), count=st.integers(1, 3))
def test_name_with_id_counts_the_id_only_when_the_name_is_that_cards(name: str, cid: str, count: int) -> None:
    deck = parse_deck(f"game: berserk-tcg\n{count} {name} ({cid})\n")
    counted = {**deck.main, **deck.side}
    if counted:
        assert counted == {cid: count}
        assert name.isprintable() and fold(name) in (fold(TCG[cid]["name"]), fold(TCG[cid].get("latin") or ""))
    else:
        (problem,) = [p for p in deck.problems if p.line == 2]
        assert problem.code in ("PARSE_ERROR", "UNKNOWN_CARD", "AMBIGUOUS_CARD")


@given(name=st.sampled_from(NAMES), hidden=st.sampled_from(HIDDEN[:7]), at=st.integers(0, 30))
def test_a_separator_or_bidi_control_anywhere_in_a_card_line_counts_nothing(name: str, hidden: str, at: int) -> None:
    cid = card_index("berserk-tcg").find(name).ids[0]
    line = f"2 {name} ({cid})"
    at = min(at, len(line))
    deck = parse_deck(f"game: berserk-tcg\n{line[:at]}{hidden}{line[at:]}\n1 {cid}\n")
    from_line_2 = [p for p in deck.problems if p.line == 2]
    assert deck.main == {cid: 1} and from_line_2 and from_line_2[0].is_error


@given(lines=st.lists(st.sampled_from(["1 Guts", "2 Gutz", "1 BK1-012", "3 Foobar (BK1-013)", "x"]), max_size=40))
def test_alike_problems_are_folded_into_one_that_counts_them(lines: list[str]) -> None:
    from cardkit.decks import validate_deck
    from cardkit.problems import FOLDED_LINES

    deck = parse_deck("game: berserk-tcg\n" + "\n".join(lines) + "\n")
    problems = validate_deck(deck)
    for text in set(lines) - {"1 BK1-012"}:
        at = [n for n, line in enumerate(lines, start=2) if line == text]
        mine = [p for p in problems if p.line == at[0]]
        assert mine, text
        assert all(p.line not in at[1:] for p in problems)
        if len(at) > 1:
            assert mine[0].count == len(at) and list(mine[0].lines or ()) == at[:FOLDED_LINES]
        else:
            assert mine[0].count is None and "count" not in mine[0].to_dict()
