"""The games: one registry (`registry`) and, for each game, a package holding what only it has.

Where does my code go?

| what                                                   | where                                      |
|--------------------------------------------------------|--------------------------------------------|
| the list of games and where each one's parts live      | `registry.py` (`GameSpec`)                 |
| what every engine shares: protocol, reader, writer,    | `engine.py`                                |
| `IllegalAction`, `BadActionText`, status fields        |                                            |
| squares, lines and neighbours on a board               | `board.py`                                 |
| open readings of any game's rules text                 | `readings.py` (the readings are data/rules/) |
| what Online and the CCG share: squads, the battle      | `squad_games/` (`squads/`, `battle/`,       |
| engine, the deal simulator                             | `simulate.py`)                             |
| a card list's importer                                 | `<game>/importer.py`                       |
| a two-player engine                                    | `battle/`, `berserk_tcg/game/`,            |
|                                                        | `berserker/game/`: each `state`, `notation`, |
|                                                        | `legal`, `apply`, `setup`, `engine`        |
| the TCG's one-player opening engine and its simulator  | `berserk_tcg/opening/`                     |
| the fleet game's ships, cards and hands simulator      | `berserker/` (`model`, `usage`, `simulate`) |

A fifth game is a package here (its importer, and whatever rules only it has), its card files
in data/cards/, its format files in data/formats/, and one `GameSpec` in `registry.py`;
tests/test_game_registry.py checks that it provides every part its spec names.
This package imports nothing: an engine command loads its own game only.
"""
