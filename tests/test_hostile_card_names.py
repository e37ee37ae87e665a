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
