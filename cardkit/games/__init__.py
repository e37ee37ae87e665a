"""The games: one registry (`registry`) and, for each game, a package holding what only it has.

Where does my code go (docs/layout.md says the same at more length)?

| what                                                        | where                                   |
|-------------------------------------------------------------|-----------------------------------------|
| the list of games and where each one's parts live           | `registry.py` (`GameSpec`)              |
| what every engine shares: protocol, reader, writer, status  | `engine.py`                             |
| `IllegalAction`, `BadActionText`                            | `cardkit/errors.py`                     |
| squares, neighbours and straight lines on a board           | `board.py` (`Grid`)                     |
| reading the rules' open cases                               | `readings.py` (readings in data/rules/) |
| what Online and the CCG share: squads, the battle engine,   | `squad_games/` (`squads/`, `battle/`,   |
| the deal simulator                                          | `simulate.py`)                          |
| a game's card-list importer                                 | `<game>/importer.py`                    |
| the TCG's two-player game                                   | `berserk_tcg/game/`                     |
| the TCG's one-player opening engine and its simulator       | `berserk_tcg/opening/`                  |
| the fleet game's board engine                               | `berserker/game/`                       |
| the fleet game's ships and cards, card use, hands simulator | `berserker/` (`model`, `usage`,         |
|                                                             | `simulate`)                             |

Each engine (`squad_games/battle/`, `berserk_tcg/game/`, `berserker/game/`) has the same
files: `state`, `notation`, `legal`, `apply`, `setup` and `engine`.
A fifth game is a package here (its importer, and whatever rules only it has), its card files
in data/cards/, its format files in data/formats/, and one `GameSpec` in `registry.py`;
tests/test_game_registry.py checks that it provides every part its spec names.
This package's own module imports nothing: an engine command loads its own game only.
"""
