"""Every registered game provides each part its `GameSpec` names: a fifth game is one package, its data and one spec."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cardkit.games.engine import Engine
from cardkit.games.registry import BATTLE_ENGINE, BATTLE_GAMES, GAME_SPECS, GAMES, SQUAD_GAMES, GameSpec, game_spec

ROOT = Path(__file__).resolve().parents[1]
SPECS = pytest.mark.parametrize("spec", GAME_SPECS, ids=[g.id for g in GAME_SPECS])


def test_every_game_is_registered_once_under_its_own_id() -> None:
    assert len(set(GAMES)) == len(GAMES) == len(GAME_SPECS)
    assert all(game_spec(g).id == g for g in GAMES)


@SPECS
def test_each_game_has_an_importer_that_imports_files(spec: GameSpec) -> None:
    assert callable(spec.module("importer").import_files)


@SPECS
def test_each_game_has_its_cards_in_the_catalogue(spec: GameSpec) -> None:
    assert sorted((ROOT / "data" / "cards" / spec.id).glob("*.json")), f"no card files for {spec.id}"


@SPECS
def test_each_game_names_format_files_that_are_its_own(spec: GameSpec) -> None:
    from cardkit.formats import load_format

    assert spec.formats
    for name in spec.formats:
        assert (ROOT / "data" / "formats" / f"{name}.json").is_file()
        assert load_format(name).game == spec.id


def test_every_format_file_is_named_by_the_game_it_is_for() -> None:
    named = {name: g.id for g in GAME_SPECS for name in g.formats}
    for path in sorted((ROOT / "data" / "formats").glob("*.json")):
        assert named.get(path.stem) == json.loads(path.read_text(encoding="utf-8"))["game"], path.name


@SPECS
def test_each_engine_a_game_names_satisfies_the_engine_protocol(spec: GameSpec) -> None:
    if spec.engine is None:
        pytest.skip(f"cardkit plays no game of {spec.id}")
    engine = spec.module("engine").ENGINE
    assert isinstance(engine, Engine)
    assert engine.name and engine.noun and (ROOT / "schemas" / engine.schema).is_file()


def test_the_cli_runs_every_registered_engine_and_no_other() -> None:
    from cardkit.cli._engine_commands import ENGINE_MODULES

    assert set(ENGINE_MODULES.values()) == {g.engine for g in GAME_SPECS if g.engine}
    for command, module in ENGINE_MODULES.items():
        assert game_spec(next(g.id for g in GAME_SPECS if g.engine == module)).module("engine").ENGINE.name == command


def test_the_battle_games_are_the_games_the_battle_engine_plays() -> None:
    assert sorted(BATTLE_GAMES) == sorted(g.id for g in GAME_SPECS if g.engine == BATTLE_ENGINE)


@SPECS
def test_a_game_with_squad_rules_has_them_in_every_format(spec: GameSpec) -> None:
    from cardkit.formats import load_format

    if spec.squads is None:
        assert all(not load_format(name).squad for name in spec.formats)
        return
    assert spec.id in SQUAD_GAMES
    assert callable(spec.module("squads").squad_rules)
    for name in spec.formats:
        assert spec.module("squads").squad_rules(name).game == spec.id


@SPECS
def test_each_simulator_a_game_names_simulates_with_the_options_it_accepts(spec: GameSpec) -> None:
    if spec.simulator is None:
        pytest.skip(f"no simulator for {spec.id}")
    module = spec.module("simulator")
    assert callable(module.simulate)
    assert isinstance(module.ACCEPTS, frozenset)


@SPECS
def test_each_game_has_a_database_table_and_its_pages(spec: GameSpec) -> None:
    from cardkit.db.rows import GAME_TABLES
    from cardkit.web.tables import TABLES

    assert GAME_TABLES[spec.id].table == spec.table
    assert TABLES[spec.table].search_game == spec.id


@SPECS
def test_a_game_with_colours_names_a_deck_without_any(spec: GameSpec) -> None:
    assert bool(spec.colours) == (spec.no_colour is not None)
    assert len(set(spec.colours)) == len(spec.colours)


def test_reading_the_registry_imports_no_game() -> None:
    code = ("import sys, cardkit.games.registry; "
            "print(sorted(m for m in sys.modules if m.startswith('cardkit.games.') and m != 'cardkit.games.registry'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"
