"""`cardkit simulate` through the CLI: output, JSON shape, determinism, plots and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app

DATA = Path(__file__).resolve().parent / "data" / "tcg"
WHITE_RED = str(DATA / "white-red.deck")
REPO_DECKS = Path(__file__).resolve().parent.parent / "decks"


def run(runner: CliRunner, *args: str):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["simulate", *args])


def test_text_output_shows_every_turn_the_exact_value_and_every_card(runner: CliRunner) -> None:
    result = run(runner, WHITE_RED, "--games", "2000")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("white-red.deck: 2,000 games, first player, seed 1")
    assert lines[1] == ("revealed cities: min(turn - 1, 5), the default; "
                        "cities taken: none, so no city draws (the default; --takes to change)")
    assert lines[2].startswith("hand-limit discard: least-useful (")
    assert lines[3].split() == ["turn", "cities", "taken", "p_any_open", "95%", "interval", "exact", "mean", "openable",
                                "mean", "hand"]
    turn_one = lines[4].split()
    assert turn_one[:3] == ["1", "0", "0"] and turn_one[6] == "0.9235" and turn_one[-1] == "7.00"
    assert [line.split()[1] for line in lines[4:10]] == ["0", "1", "2", "3", "4", "5"]
    assert "decked out: 0.0000" in result.stdout
    assert sum("BK1-" in line for line in lines) == 16


def test_json_has_exactly_the_documented_shape(runner: CliRunner) -> None:
    result = run(runner, WHITE_RED, "--games", "500", "--turns", "3", "--json", "--second", "--seed", "9")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert list(data) == ["game", "format", "path", "seat", "games", "seed", "cities_default", "takes", "discard_policy", "turns", "cards",
                          "p_decked"]
    assert (data["games"], data["seed"], data["seat"]) == (500, 9, "second")
    assert (data["cities_default"], data["takes"], data["discard_policy"]) == (True, [], "least-useful")
    assert list(data["turns"][0]) == ["turn", "cities", "p_any_open", "ci95", "p_any_open_exact", "mean_openable",
                                      "mean_hand", "taken"]
    assert list(data["turns"][1]) == ["turn", "cities", "p_any_open", "ci95", "mean_openable", "mean_hand", "taken"]
    assert [t["turn"] for t in data["turns"]] == [1, 2, 3]
    assert all(t["ci95"][0] <= t["p_any_open"] <= t["ci95"][1] for t in data["turns"])
    assert list(data["cards"][0]) == ["id", "name", "p_openable_by_turn"]
    assert all(len(c["p_openable_by_turn"]) == 3 for c in data["cards"])


def test_the_same_seed_gives_byte_identical_output(runner: CliRunner) -> None:
    a = run(runner, WHITE_RED, "--games", "3000", "--json", "--seed", "4")
    b = run(runner, WHITE_RED, "--games", "3000", "--json", "--seed", "4")
    c = run(runner, WHITE_RED, "--games", "3000", "--json", "--seed", "5")
    assert a.stdout_bytes == b.stdout_bytes and a.stdout_bytes != c.stdout_bytes


def test_takes_draw_two_cards_each_and_are_counted_per_turn(runner: CliRunner) -> None:
    # "Each time a player takes a city, he has to draw 2 cards from his Library and put them into his Hand."
    plain = json.loads(run(runner, WHITE_RED, "--games", "300", "--json").stdout)
    taking = json.loads(run(runner, WHITE_RED, "--games", "300", "--json", "--takes", "2,4").stdout)
    assert taking["takes"] == [2, 4] and [t["taken"] for t in taking["turns"]] == [0, 0, 1, 1, 2, 2]
    assert all(a["mean_hand"] < b["mean_hand"] for a, b in zip(plain["turns"][2:], taking["turns"][2:]))


@pytest.mark.parametrize("args,message", [
    (["--cities", "5"], "at most 0 cities can be revealed on the first player's turn 1"),
    (["--cities", "0,3"], "at most 2 cities can be revealed on the first player's turn 2"),
    (["--second", "--cities", "2"], "at most 1 cities can be revealed on the second player's turn 1"),
    (["--takes", "1", "--cities", "0,0,1"], "1 cities taken by the end of turn 1, but only 0 revealed on turn 2"),
    (["--takes", "2,2"], "--takes names a turn twice"),
    (["--takes", "0"], "--takes must name the player's own turns 1 to 6"),
    (["--takes", "2,x"], "--takes must be a comma list"),
], ids=["five-cities-on-turn-one", "three-cities-on-turn-two", "second-seat-two-on-turn-one", "take-before-a-reveal",
        "two-takes-in-one-turn", "turn-zero", "not-a-number"])
def test_a_schedule_the_rules_cannot_produce_exits_2_with_one_error_line(runner: CliRunner, args: list[str],
                                                                         message: str) -> None:
    # "At first, none is visible"; cities are revealed by attacks, and "You can only attack once each turn".
    result = run(runner, WHITE_RED, "--games", "10", *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ") and message in result.stderr


@pytest.mark.parametrize("args", [["--second", "--cities", "1"], ["--takes", "1"], ["--second", "--takes", "1,2,3"]],
                         ids=["second-seat-one-city-on-turn-one", "take-on-turn-one-reveals-the-level-1-city",
                              "second-seat-takes-three"])
def test_a_schedule_the_rules_allow_is_simulated(runner: CliRunner, args: list[str]) -> None:
    assert run(runner, WHITE_RED, "--games", "10", *args).exit_code == 0


def test_cities_override_sets_the_revealed_cities_per_turn(runner: CliRunner) -> None:
    result = run(runner, WHITE_RED, "--games", "200", "--json", "--cities", "0,2,2,5")
    assert [t["cities"] for t in json.loads(result.stdout)["turns"]] == [0, 2, 2, 5, 5, 5]


@pytest.mark.parametrize("args,message", [
    (["--games", "-5"], "--games must be between 1"),
    (["--turns", "0"], "--turns must be between 1"),
    (["--cities", "0,1,x"], "--cities must be a comma list"),
    (["--cities", ""], "--cities must be a comma list"),
    (["--cities", "0,1,1,2,3,4,5"], "give one per turn or fewer"),
    (["--cities", "0,\u00b2"], "--cities must be a comma list"),
    (["--cities", "0,\u0663"], "--cities must be a comma list"),
    (["--cities", "0,1,9"], "--cities values must be 0 to 5"),
    (["--cities", "0,3,1"], "--cities must not fall"),
    (["--cities", "99999999999999999999999"], "--cities values must be 0 to 5"),
    (["--seed", "-1"], "--seed must be"),
    (["--gold", "20"], "--gold does not apply to this game"),
    (["--plot", "out.jpg"], "--plot file must end in .png or .svg"),
    (["--jobs", "0"], "--jobs must be between 1 and 256"),
    (["--jobs", "1000"], "--jobs must be between 1 and 256"),
], ids=["negative-games", "zero-turns", "bad-cities", "empty-cities", "too-many-cities", "superscript-digit",
        "arabic-indic-digit", "more-cities-than-the-game-has", "falling-cities", "huge-cities", "negative-seed",
        "gold-for-tcg", "plot-suffix", "zero-jobs", "a-thousand-jobs"])
def test_bad_arguments_exit_2_with_one_line(runner: CliRunner, args: list[str], message: str) -> None:
    result = run(runner, WHITE_RED, *args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr and result.stdout == ""


def test_cities_for_a_game_without_cities_exit_2(runner: CliRunner) -> None:
    result = run(runner, str(REPO_DECKS / "berserker" / "standard.deck"), "--cities", "1")
    assert result.exit_code == 2 and "--cities does not apply to this game" in result.stderr


def test_an_illegal_deck_is_simulated_with_a_warning(runner: CliRunner) -> None:
    result = run(runner, str(DATA / "tiny.deck"), "--games", "100", "--json")
    assert result.exit_code == 0
    assert "warning:" in result.stderr and "DECK_TOO_SMALL" in result.stderr and "simulating it anyway" in result.stderr
    assert json.loads(result.stdout)["p_decked"] == 1.0


def test_a_deck_with_unresolved_cards_is_not_simulated(runner: CliRunner) -> None:
    result = run(runner, str(DATA / "unresolved.deck"))
    assert result.exit_code == 2 and "'Nobody At All' (line 4)" in result.stderr


def test_a_missing_deck_file_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    result = run(runner, str(tmp_path / "nope.deck"))
    assert result.exit_code == 2 and result.stderr.startswith("error: ")


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_plot_writes_a_png_or_svg_by_suffix(runner: CliRunner, tmp_path: Path, suffix: str, magic: bytes) -> None:
    target = tmp_path / f"curve{suffix}"
    result = run(runner, WHITE_RED, "--games", "500", "--plot", str(target))
    assert result.exit_code == 0 and f"plot written to {target}" in result.stdout
    assert target.read_bytes().startswith(magic)
    if suffix == ".svg":
        import xml.etree.ElementTree as ET

        assert ET.parse(target).getroot().tag.endswith("svg")


def test_a_plot_target_that_cannot_be_a_file_exits_2_before_simulating(runner: CliRunner, tmp_path: Path) -> None:
    (tmp_path / "taken.png").mkdir()
    (tmp_path / "plain").write_text("not a directory")
    for target, message in [(tmp_path / "taken.png", "is a directory"), (tmp_path / "plain" / "x.svg", "is a file")]:
        result = run(runner, WHITE_RED, "--games", "100", "--plot", str(target))
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and message in result.stderr


def test_a_plot_that_cannot_be_written_is_one_write_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.outputs
    from cardkit.errors import WriteFailed
    from cardkit.plotting import figure, save

    def refuse(target: object) -> None:
        raise PermissionError(13, "Permission denied")

    # The folder refuses the writer's temporary file, as a read-only folder does.
    monkeypatch.setattr(cardkit.outputs, "_fresh_file", refuse)
    fig, _ = figure()
    with pytest.raises(WriteFailed, match="can't write .*x.png: permission denied"):
        save(fig, tmp_path / "x.png")


def test_help_explains_every_option(runner: CliRunner) -> None:
    result = runner.invoke(app, ["simulate", "--help"])
    assert result.exit_code == 0
    for option in ("--games", "--turns", "--seed", "--second", "--cities", "--takes", "--gold", "--silver", "--format", "--json", "--plot"):
        assert option in result.stdout


def test_the_same_seed_draws_the_same_svg(runner: CliRunner, tmp_path: Path) -> None:
    paths = [tmp_path / "a.svg", tmp_path / "b.svg"]
    for path in paths:
        assert run(runner, WHITE_RED, "--games", "300", "--plot", str(path)).exit_code == 0
    assert paths[0].read_bytes() == paths[1].read_bytes()


def test_help_says_what_is_reported_for_every_game_and_what_second_means_in_each(runner: CliRunner) -> None:
    text = " ".join(runner.invoke(app, ["simulate", "--help"]).stdout.replace("│", " ").split())
    for game in ("Berserk TCG:", "Berserker fleet game:", "Berserk CCG and Berserk Online:"):
        assert game in text
    assert "fleet game: the Berserker moves first" in text and "draws on its first turn" in text


def _stderr_on_a_terminal(*args: str) -> tuple[int, bytes]:
    """Run the command with stderr on a pseudo-terminal (stdout a pipe); its exit code and what stderr showed."""
    import os
    import subprocess
    import sys

    pty = pytest.importorskip("pty")
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-c", "from cardkit.cli.main import main; main()", "simulate", *args], stdout=subprocess.PIPE,
                              stderr=follower, check=False)
    finally:
        os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed once everything written has been read
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    return done.returncode, shown


def test_a_progress_bar_is_shown_on_a_terminal_but_never_with_json() -> None:
    code, shown = _stderr_on_a_terminal(WHITE_RED, "--games", "30000", "--turns", "1")
    assert code == 0 and b"simulating" in shown
    code, shown = _stderr_on_a_terminal(WHITE_RED, "--games", "30000", "--turns", "1", "--json")
    assert code == 0 and shown == b""


def test_the_shared_progress_bar_is_nothing_when_disabled_and_takes_steps_or_totals_when_enabled() -> None:
    from cardkit.cli._progress import progress_bar, show_progress

    assert show_progress(as_json=True) is False
    with progress_bar("working", enabled=False) as bar:
        assert bar is None
    with progress_bar("working", enabled=True, total=10) as bar:
        assert bar is not None
        bar.advance(4)
        bar.update(6, 12)
        task = bar._progress.tasks[0]
        assert (task.completed, task.total) == (6, 12)


@pytest.mark.slow
@pytest.mark.parametrize("deck", [WHITE_RED, str(REPO_DECKS / "berserker" / "standard.deck")], ids=["tcg", "berserker"])
def test_jobs_change_nothing_in_the_output(runner: CliRunner, deck: str) -> None:
    outputs = {jobs: run(runner, deck, "--games", "30000", "--turns", "2", "--jobs", jobs, "--json") for jobs in ("1", "2")}
    assert all(r.exit_code == 0 for r in outputs.values())
    assert outputs["1"].stdout == outputs["2"].stdout


SQUADS = Path(__file__).resolve().parent.parent / "squads"


@pytest.mark.parametrize(("name", "what", "command"), [
    ("online-squad.json", "a squad file", "squad check"),
    ("ccg-squad.txt", "a squad file", "squad check"),
    ("online-deal.json", "a deal file", "squad best"),
    ("ccg-placement.json", "a squad placement", "squad place"),
    ("online-battle-first.json", "a squad placement", "squad place"),
])
def test_a_squad_file_given_as_the_deck_is_named_a_squad_file_with_the_command_that_reads_it(
        runner: CliRunner, name: str, what: str, command: str) -> None:
    path = SQUADS / name
    for args in (["simulate", str(path), "--games", "10"], ["validate", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert f"error: {path}: {what}, not a deck (`cardkit {command} {path}` reads it)" in result.stderr
        assert "0 cards" not in result.output


def test_a_deck_with_a_squad_header_naming_a_team_is_still_a_deck(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "team.deck"
    deck.write_text("game: berserk-tcg\nsquad: red team\n3 BK1-12\n", encoding="utf-8")
    assert runner.invoke(app, ["deck", "hash", str(deck)]).exit_code == 0


@pytest.mark.parametrize("deck", ["decks/berserk-tcg/white-hawks.deck", "decks/berserk-online/forest-elves.deck"])
def test_a_deck_file_name_with_an_escape_sequence_is_shown_written_out_not_obeyed(
        runner: CliRunner, tmp_path: Path, deck: str) -> None:
    path = tmp_path / "e\x1b[2Jv\u202e.deck"
    path.write_bytes((REPO_DECKS.parent / deck).read_bytes())
    result = runner.invoke(app, ["simulate", str(path), "--games", "20", "--turns", "1"])
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\u202e" not in result.stdout
    assert "e\\x1b[2Jv\\u202e.deck: 20 " in result.stdout


def _engine_state(runner: CliRunner, tmp_path: Path, group: str, *inputs: str) -> Path:
    out = tmp_path / f"{group}.json"
    result = runner.invoke(app, [group, "new", *inputs, "--seed", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_a_game_state_fleet_or_registry_given_as_the_deck_is_named_with_the_command_that_reads_it(
        runner: CliRunner, tmp_path: Path) -> None:
    root = REPO_DECKS.parent
    fleets = root / "decks" / "berserker" / "fleets"
    registry = tmp_path / "registry.json"
    assert runner.invoke(app, ["tournament", "register", str(root / "events" / "spring-open"), "--out",
                               str(registry)]).exit_code in (0, 1)
    cases = [
        (_engine_state(runner, tmp_path, "battle", str(SQUADS / "online-battle-first.json"),
                       str(SQUADS / "online-battle-second.json")), "a battle state", "battle moves"),
        (_engine_state(runner, tmp_path, "tcg", str(root / "decks/berserk-tcg/white-hawks.deck"),
                       str(root / "decks/berserk-tcg/red-apostles.deck")), "a Berserk TCG game state", "tcg moves"),
        (_engine_state(runner, tmp_path, "fleet", str(fleets / "human-ram-screen.fleet.json"),
                       str(fleets / "berserker-centre.fleet.json")), "a fleet game state", "fleet moves"),
        (fleets / "human-ram-screen.fleet.json", "a fleet file", "fleet check"),
        (registry, "a tournament registry", "tournament deck-check"),
    ]
    for path, what, command in cases:
        for args in (["simulate", str(path), "--games", "10"], ["validate", str(path)], ["deck", "hash", str(path)]):
            result = runner.invoke(app, args)
            assert result.exit_code == 2, result.output
            assert f"error: {path}: {what}" in result.stderr and f"not a deck (`cardkit {command} " in result.stderr
            assert "0 cards" not in result.output and "squad place" not in result.output


@pytest.mark.parametrize("args", [["--gold", "99999999999999999999"], ["--silver", "1001"], ["--gold", "-1"]],
                         ids=["gold-past-any-integer", "silver-over-the-limit", "negative-gold"])
def test_a_squad_simulation_refuses_crystals_past_the_limit_in_one_line(runner: CliRunner, args: list[str]) -> None:
    result = run(runner, str(REPO_DECKS / "berserk-online" / "steppe-mountains.deck"), *args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "must be between 0 and 1,000" in result.stderr and result.stdout == ""
