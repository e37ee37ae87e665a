"""Simulated hands of the fleet game, checked against exact hypergeometric values for the first hand."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.errors import BadArgument
from cardkit.games.berserker.model import load_rules
from cardkit.games.berserker.simulate import _plan, keep_best, moves_played, simulate
from cardkit.simulation import SimulationOptions, simulate_deck

# The card list as printed: card -> count.
STANDARD = {
    "marines": 8, "point-blank": 2, "short": 2, "medium": 2, "long": 2, "very-long": 2, "extreme": 4,
    "tactical-speed": 7, "cruising-speed": 6, "fast": 5, "very-fast": 4,
    "evasion": 4, "superstructure": 4, "robot-security": 4,
}
# Cards each ship type may use, per need, worked out from the unit tables by hand.
USABLE = {
    "berserker": {"move": ["tactical-speed", "cruising-speed"],
                  "attack": ["point-blank", "short", "medium", "long", "very-long"],
                  "defense": ["superstructure", "robot-security"]},
    "c-plus-gun-ship": {"move": ["tactical-speed", "cruising-speed"],
                        "attack": ["point-blank", "short", "medium", "long", "very-long", "extreme"],
                        "defense": ["evasion"]},
    "cruiser": {"move": ["tactical-speed", "cruising-speed", "fast"],
                "attack": ["point-blank", "short", "medium", "long"], "defense": ["evasion"]},
    "ramship": {"move": ["tactical-speed", "cruising-speed", "fast", "very-fast"],
                "attack": ["marines", "point-blank", "short"], "defense": ["evasion"]},
}


def exact_first_hand(cards: list[str], deck: dict[str, int] = STANDARD, draw: int = 3) -> float:
    """P(at least one of `cards` among `draw` cards of the shuffled deck)."""
    n = sum(deck.values())
    good = sum(deck[c] for c in cards)
    return 1 - math.comb(n - good, draw) / math.comb(n, draw)


@dataclass
class FakeDeck:
    main: dict[str, int]
    game: str = "berserker"
    side: dict[str, int] = field(default_factory=dict)


def run(games: int = 2000, turns: int = 4, seed: int = 7, seat: str = "first", deck=None, progress=None):
    return simulate(deck if deck is not None else dict(STANDARD),
                    SimulationOptions(games=games, turns=turns, seed=seed, seat=seat), progress)


@pytest.mark.parametrize("seat", ["first", "second"])
def test_first_hands_match_the_hypergeometric_values_for_both_players(seat: str) -> None:
    games = 6000
    data = run(games=games, turns=1, seed=11, seat=seat).to_dict()
    for side in data["sides"]:
        for row in side["turns"][0]["ships"]:
            for need, cards in USABLE[row["ship"]].items():
                exact = exact_first_hand(cards)
                assert row["exact"][f"p_{need}"] == pytest.approx(exact, abs=1e-6)
                se = math.sqrt(exact * (1 - exact) / games)
                assert abs(row[f"p_{need}"] - exact) < 4.5 * se, (side["side"], row["ship"], need)


def test_the_same_seed_gives_byte_identical_text_and_json() -> None:
    a, b = run(seed=3), run(seed=3)
    assert a.render_text() == b.render_text()
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    assert json.dumps(run(seed=4).to_dict()) != json.dumps(a.to_dict())


def test_seat_second_lets_the_berserker_move_first() -> None:
    data = run(games=50, seat="second").to_dict()
    assert data["first"] == "berserker"
    assert [s["side"] for s in data["sides"]] == ["berserker", "human"]


def test_hands_never_exceed_the_limit_and_only_the_lone_berserker_piles_up_move_cards() -> None:
    # "A ship can only make one move per turn": sixteen human ships play every Move card they hold,
    # the one Berserker plays one a turn and keeps the rest.
    data = run(games=3000, turns=5).to_dict()
    human, berserker = data["sides"]
    for side in (human, berserker):
        means = [t["mean_hand"] for t in side["turns"]]
        assert means[0] == 3 and all(m <= 5 for m in means)
    cruiser = [t["ships"][1]["p_move"] for t in human["turns"]]
    assert abs(cruiser[-1] - cruiser[0]) < 0.05
    lone = [t["ships"][0]["p_move"] for t in berserker["turns"]]
    assert lone[-1] > lone[0] + 0.1


@pytest.mark.parametrize("seat", ["first", "second"])
def test_with_only_move_cards_each_ship_moves_once_so_hand_sizes_are_exact(seat: str) -> None:
    # Every ship may use Tactical Speed. The human fleet (16 ships) plays all 3 cards it draws each
    # turn; the Berserker (one ship, one move a turn) keeps 3 + 2(t - 1) cards, cut to 5.
    data = run(games=200, turns=5, seat=seat, deck={"tactical-speed": 30}).to_dict()
    sides = {side["side"]: [t["mean_hand"] for t in side["turns"]] for side in data["sides"]}
    assert sides["human"] == [3, 3, 3, 3, 3]
    assert sides["berserker"] == [min(5, 3 + 2 * (t - 1)) for t in range(1, 6)]


def test_move_cards_go_one_to_a_ship_that_can_use_each_and_the_most_are_played() -> None:
    rules = load_rules()
    kinds = list(rules.cards.values())
    index = {c.id: i for i, c in enumerate(kinds)}
    types = [c.type for c in kinds]
    human = _plan("human", rules, kinds)
    ship = {s.id: j for j, s in enumerate(human.ships)}
    # a fleet of one Cruiser and one Ramship: Very Fast only the Ramship may use, Fast either
    pair = replace(human, movers=tuple(int(s.id in ("cruiser", "ramship")) for s in human.ships))
    played = [kinds[k].id for k in moves_played([index[c] for c in ("fast", "very-fast", "fast")], pair, types)]
    assert sorted(played) == ["fast", "very-fast"]
    assert len(moves_played([index["very-fast"]] * 2, pair, types)) == 1
    # Speeds nest, so the slowest free ship always fits; a card limited to other ships (as a catalogue
    # restriction may be) needs the matching: Tactical Speed takes the C-Plus Gun Ship first, then moves
    # to the Cruiser so that a card only a C-Plus Gun Ship may use still gets a ship.
    only_gun_ship = 1 << (3 * ship["c-plus-gun-ship"])
    masks = tuple(only_gun_ship if k == index["fast"] else m for k, m in enumerate(human.masks))
    keys = tuple((9, 0, k) if k == index["fast"] else key for k, key in enumerate(human.play_key))
    narrow = replace(human, masks=masks, play_key=keys,
                     movers=tuple(int(s.id in ("c-plus-gun-ship", "cruiser")) for s in human.ships))
    played = moves_played([index["fast"], index["tactical-speed"]], narrow, types)
    assert sorted(kinds[k].id for k in played) == ["fast", "tactical-speed"]
    berserker = _plan("berserker", rules, kinds)
    one = moves_played([index[c] for c in ("tactical-speed", "cruising-speed", "tactical-speed")], berserker, types)
    assert [kinds[k].id for k in one] == ["cruising-speed"]


def test_a_small_deck_is_reshuffled_from_the_discard_pile() -> None:
    deck = {"tactical-speed": 4, "point-blank": 4}
    data = run(games=200, turns=3, deck=deck).to_dict()
    assert data["p_reshuffled_by_round"][0] == 0
    assert data["p_reshuffled_by_round"][-1] == 1.0
    # With only movers and short guns, every ship type always holds one or the other later on.
    assert data["sides"][0]["turns"][-1]["mean_hand"] > 0


def test_keep_best_discards_cards_no_own_ship_can_use_first() -> None:
    rules = load_rules()
    kinds = list(rules.cards.values())
    idx = {c.id: i for i, c in enumerate(kinds)}
    plan = _plan("berserker", rules, kinds)
    hand = [idx[c] for c in ("evasion", "marines", "extreme", "fast", "very-fast",
                             "tactical-speed", "short", "superstructure")]
    kept, dropped = keep_best(hand, plan)
    assert len(kept) == 5 and len(dropped) == 3
    assert {kinds[k].id for k in kept} >= {"tactical-speed", "short", "superstructure"}
    assert {kinds[k].id for k in dropped} <= {"evasion", "marines", "extreme", "fast", "very-fast"}


def test_keep_best_keeps_a_mover_for_each_ship_type_before_a_second_gun() -> None:
    rules = load_rules()
    kinds = list(rules.cards.values())
    idx = {c.id: i for i, c in enumerate(kinds)}
    plan = _plan("human", rules, kinds)
    hand = [idx[c] for c in ("point-blank", "short", "medium", "long", "very-long", "extreme", "tactical-speed")]
    kept, dropped = keep_best(hand, plan)
    assert idx["tactical-speed"] in kept and len(kept) == 5 and len(dropped) == 2


def test_progress_is_told_about_every_game() -> None:
    seen: list[int] = []
    run(games=1234, turns=1, progress=seen.append)
    assert sum(seen) == 1234


def test_a_deck_object_from_another_game_is_refused() -> None:
    with pytest.raises(BadArgument):
        run(deck=FakeDeck(main={"BK1-001": 3}, game="berserk-tcg"))


def test_cards_of_another_game_are_refused() -> None:
    with pytest.raises(BadArgument, match="not fleet game cards"):
        run(deck={"BK1-001": 3})


def test_the_shared_dispatch_runs_the_fleet_simulator_for_a_berserker_deck() -> None:
    result = simulate_deck(FakeDeck(main=dict(STANDARD)), SimulationOptions(games=100, turns=2, seed=1))
    assert result.to_dict()["games"] == 100


def test_render_text_is_an_aligned_table_per_side() -> None:
    text = run(games=300, turns=2).render_text()
    assert "human (moves first)" in text and "berserker (moves second)" in text
    assert "P(holding Robot Security) per turn:" in text
    header = next(line for line in text.splitlines() if line.startswith("turn") and "Ramship" not in line)
    assert header.split() == ["turn", "ship", "move", "exact", "attack", "exact", "defense", "exact"]


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot_writes_an_image(tmp_path: Path, suffix: str, magic: bytes) -> None:
    target = tmp_path / f"hands{suffix}"
    run(games=100, turns=2).plot(target)
    assert target.read_bytes().startswith(magic)


def test_plot_refuses_other_formats(tmp_path: Path) -> None:
    with pytest.raises(BadArgument):
        run(games=10, turns=1).plot(tmp_path / "hands.gif")


def test_simulate_cli_runs_the_bundled_standard_deck_reproducibly(runner) -> None:
    from cardkit.cli.main import app

    deck = str(Path(__file__).resolve().parent.parent / "decks" / "berserker" / "standard.deck")
    args = ["simulate", deck, "--games", "300", "--turns", "2", "--seed", "9", "--json"]
    first, again = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == again.stdout
    data = json.loads(first.stdout)
    assert data["deck"]["cards"] == 56 and [s["side"] for s in data["sides"]] == ["human", "berserker"]


def _fits(cards: list[int], masks: tuple[int, ...], movers: tuple[int, ...]) -> bool:
    """Whether each card can go to its own ship, tried every way (brute force)."""
    for choice in product(range(len(movers)), repeat=len(cards)):
        if all(masks[k] >> (3 * j) & 1 for k, j in zip(cards, choice)) and all(
                choice.count(j) <= n for j, n in enumerate(movers)):
            return True
    return False


@settings(max_examples=examples(200), deadline=None)
@given(hand=st.lists(st.sampled_from(["tactical-speed", "cruising-speed", "fast", "very-fast"]), max_size=5),
       movers=st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 2)),
       usable=st.lists(st.integers(0, 7), min_size=4, max_size=4))
def test_the_move_cards_played_are_the_ones_a_brute_force_search_keeps(hand: list[str], movers: tuple[int, int, int],
                                                                     usable: list[int]) -> None:
    # Any restriction of Move cards to ship types (three bits each), any number of ships per type: walking the
    # cards in play order, a card is played exactly when it and the cards already kept can all go to different ships.
    rules = load_rules()
    kinds = list(rules.cards.values())
    index = {c.id: i for i, c in enumerate(kinds)}
    movable = ["tactical-speed", "cruising-speed", "fast", "very-fast"]
    human = _plan("human", rules, kinds)
    masks = list(human.masks)
    for card, bits in zip(movable, usable):
        masks[index[card]] = sum(1 << (3 * j) for j in range(3) if bits >> j & 1)
    plan = replace(human, masks=tuple(masks), movers=movers)
    cards = sorted((index[c] for c in hand if masks[index[c]]), key=plan.play_key.__getitem__)
    kept: list[int] = []
    for k in cards:
        if _fits(kept + [k], plan.masks, movers):
            kept.append(k)
    assert sorted(moves_played([index[c] for c in hand], plan, [c.type for c in kinds])) == sorted(kept)


# The vectorised simulator against the one-game-at-a-time reference.

SMALL = {"marines": 2, "tactical-speed": 3, "fast": 2, "long": 2, "evasion": 2, "robot-security": 2}  # 13 cards


@pytest.mark.parametrize("deck, turns", [(STANDARD, 1), (STANDARD, 5), (STANDARD, 9), (SMALL, 2)],
                         ids=["standard-1", "standard-5", "standard-9-last-round-before-a-reshuffle", "small-2"])
@pytest.mark.parametrize("seat", ["first", "second"])
def test_the_vectorised_and_reference_simulators_agree_game_for_game_on_the_same_shuffles(
        deck: dict[str, int], turns: int, seat: str) -> None:
    from cardkit.games.berserker.simulate import simulate_reference

    options = SimulationOptions(games=400, turns=turns, seed=13, seat=seat)
    fast, slow = simulate(dict(deck), options), simulate_reference(dict(deck), options)
    assert fast.held == slow.held and fast.hand_cards == slow.hand_cards
    assert fast.to_dict() == slow.to_dict()


@pytest.mark.parametrize("deck, turns", [(STANDARD, 3), (STANDARD, 14), (SMALL, 6)],
                         ids=["standard-3", "standard-14-reshuffled", "small-6-reshuffled"])
def test_the_paths_for_catalogues_of_many_card_kinds_give_the_same_result_as_the_tables(
        deck: dict[str, int], turns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.games.berserker.simulate as fleet_simulate

    options = SimulationOptions(games=700, turns=turns, seed=5, jobs=1)
    tables = simulate(dict(deck), options)
    monkeypatch.setattr(fleet_simulate, "_TABLE_KINDS", 0)  # as if every set of kinds were too many to tabulate
    sorted_sets = simulate(dict(deck), options)
    assert sorted_sets.held == tables.held and sorted_sets.hand_cards == tables.hand_cards
    assert json.dumps(sorted_sets.to_dict()) == json.dumps(tables.to_dict())


@pytest.mark.parametrize("deck", [{"evasion": 4}, {"superstructure": 3, "tactical-speed": 2}],
                         ids=["only-human-cards", "no-human-defense"])
def test_a_deck_one_side_has_no_use_for_agrees_with_the_reference(deck: dict[str, int]) -> None:
    from cardkit.games.berserker.simulate import simulate_reference

    options = SimulationOptions(games=60, turns=2, seed=9)
    fast, slow = simulate(dict(deck), options), simulate_reference(dict(deck), options)
    assert fast.held == slow.held and fast.hand_cards == slow.hand_cards


@pytest.mark.slow
@pytest.mark.parametrize("deck, turns", [(STANDARD, 14), (SMALL, 8)], ids=["standard-14", "small-8"])
def test_with_reshuffled_discard_piles_the_two_simulators_agree_within_their_intervals(deck: dict[str, int],
                                                                                        turns: int) -> None:
    from cardkit.games.berserker.simulate import simulate_reference

    fast = simulate(dict(deck), SimulationOptions(games=6_000, turns=turns, seed=1)).to_dict()
    slow = simulate_reference(dict(deck), SimulationOptions(games=1_500, turns=turns, seed=2)).to_dict()
    n, m = fast["games"], slow["games"]
    worst = 0.0
    pairs = [(a, b) for a, b in zip(fast["p_reshuffled_by_round"], slow["p_reshuffled_by_round"])]
    for side_f, side_s in zip(fast["sides"], slow["sides"]):
        for turn_f, turn_s in zip(side_f["turns"], side_s["turns"]):
            for ship_f, ship_s in zip(turn_f["ships"], turn_s["ships"]):
                pairs += [(ship_f[f"p_{need}"], ship_s[f"p_{need}"]) for need in ("move", "attack", "defense")]
    assert fast["p_reshuffled_by_round"][-1] > 0 and slow["p_reshuffled_by_round"][-1] > 0  # piles were reshuffled
    for a, b in pairs:
        p = (a * n + b * m) / (n + m)
        sigma = math.sqrt(max(p * (1 - p), 1e-4) * (1 / n + 1 / m))
        worst = max(worst, abs(a - b) / sigma)
    assert worst < 4.5, worst  # a bound a few hundred comparisons of agreeing simulators stay under


def test_the_same_seed_gives_the_same_fleet_result_whatever_the_number_of_worker_processes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.games.berserker.simulate as fleet_simulate

    monkeypatch.setattr(fleet_simulate, "BLOCK", 100)
    seen: list[int] = []
    results = [simulate(dict(STANDARD), SimulationOptions(games=450, turns=12, seed=3, jobs=jobs),
                        seen.append if jobs == 2 else None).to_dict() for jobs in (1, 2, 3)]
    assert results[0] == results[1] == results[2]
    assert sum(seen) == 450 and len(seen) == 5
    assert simulate(dict(STANDARD), SimulationOptions(games=450, turns=12, seed=4, jobs=2)).to_dict() != results[0]
