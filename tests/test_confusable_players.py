"""A player's name that only looks like a registered one is flagged, naming both; real names are not."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cardkit.tournament import check_event
from cardkit.tournament.confusables import LookalikeIndex, skeleton
from cardkit.tournament.registrations import player_key, read_registrations

EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
ALICE = EVENT / "decks" / "alice.deck"
# Latin letter -> a Cyrillic letter drawn the same.
DISGUISE = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "A": "А", "B": "В", "E": "Е", "H": "Н",
            "K": "К", "M": "М", "O": "О", "P": "Р", "C": "С", "T": "Т"}


def test_a_submission_under_a_lookalike_name_is_flagged_naming_both(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "fake.deck").write_text(ALICE.read_text(encoding="utf-8").replace("Alice Archer", "Аlicе Archer"),
                                     encoding="utf-8")
    regs = tmp_path / "regs.csv"
    regs.write_text("player\nAlice Archer\n", encoding="utf-8")
    sub = next(s for s in check_event([decks], registrations=regs).submissions if s.player == "Аlicе Archer")
    codes = {p.code: p for p in sub.problems}
    assert "UNREGISTERED_PLAYER" in codes
    flag = codes["CONFUSABLE_PLAYER"]
    assert flag.severity.value == "warning"
    assert "'Аlicе Archer'" in flag.message and "'Alice Archer'" in flag.message and "U+0410" in flag.message


def test_two_registered_rows_that_only_look_alike_are_flagged(tmp_path: Path) -> None:
    regs = tmp_path / "regs.csv"
    regs.write_text("player\nAlice Archer\nБорис\nАlicе Archer\nBoris\n", encoding="utf-8")
    (problem,) = read_registrations(regs).problems
    assert (problem.code, problem.line) == ("CONFUSABLE_PLAYER", 4) and "line 2" in problem.message


@given(name=st.text(alphabet="abcdeghkmoprstxyABCEHKMOPT ", min_size=3, max_size=16), data=st.data())
def test_a_disguised_name_is_confused_with_the_original_and_never_with_itself(name: str, data: st.DataObject) -> None:
    positions = [i for i, ch in enumerate(name) if ch in DISGUISE]
    chosen = data.draw(st.sets(st.sampled_from(positions), min_size=1)) if positions else set()
    disguised = "".join(DISGUISE[ch] if i in chosen else ch for i, ch in enumerate(name))
    index = LookalikeIndex([name])
    assert skeleton(disguised) == skeleton(name)
    assert index.confused_with(name) is None
    if player_key(disguised) != player_key(name):
        assert index.confused_with(disguised) == name


@given(name=st.sampled_from(["Борис Коваль", "Дмитрий", "Ёжик", "Clara Dietrich", "Фёдор", "Ἀλέξανδρος"]))
def test_names_written_wholly_in_their_own_script_are_not_flagged_against_latin_ones(name: str) -> None:
    assert LookalikeIndex(["Boris Koval", "Dmitri", "Clara Dietrich", "Fedor", "Alexandros"]).confused_with(name) is None
