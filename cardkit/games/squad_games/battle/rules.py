"""The rules as data: the Angriffstabelle, each game's zone facts and the readings of open cases.

Everything comes from `data/battle/rules.json` (schema `schemas/battle-rules.schema.json`),
read and checked once; a reading is the project's choice where the texts say nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from cardkit import checkcache, paths
from cardkit.errors import CatalogueError
from cardkit.jsonio import schema_error_text
from cardkit.visible import quoted

Hit = Literal["miss", "weak", "medium", "strong"]
HITS: tuple[Hit, ...] = ("miss", "weak", "medium", "strong")
DIE = range(1, 7)


@dataclass(frozen=True)
class Strike:
    """A card's three strike values (weak, medium, strong), as printed `2-3-4`."""

    weak: int
    medium: int
    strong: int

    def damage(self, hit: Hit) -> int:
        return 0 if hit == "miss" else int(getattr(self, hit))

    def __str__(self) -> str:
        return f"{self.weak}-{self.medium}-{self.strong}"


@dataclass(frozen=True)
class GameRules:
    """What differs between Berserk Online and the tabletop CCG in a battle."""

    game: str
    flyers_start_on_field: bool
    second_player_hides_third_row: bool
    figure_types: frozenset[str]
    first_player_at_random: bool = False


@dataclass(frozen=True)
class Reading:
    """A case the texts leave open, the sentence it rests on, and the reading chosen."""

    id: str
    question: str
    text: str
    reading: str

    @property
    def note(self) -> str:
        return f"reading {self.id}: {self.reading}"


def checked_data(name: str) -> dict[str, Any]:
    """`data/battle/{name}.json`, checked against `schemas/battle-{name}.schema.json`; CatalogueError when
    either is missing or broken. The one loader of the battle's data files."""
    path = paths.DATA_DIR / "battle" / f"{name}.json"
    schema_name = f"battle-{name}.schema.json"
    try:
        raw, schema_raw = path.read_bytes(), (paths.SCHEMAS_DIR / schema_name).read_bytes()
        data: dict[str, Any] = json.loads(raw.decode("utf-8"))
        schema = json.loads(schema_raw.decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise CatalogueError(f"{path}: cannot be read: {exc}") from None

    def check() -> None:
        from jsonschema import Draft202012Validator

        errors = list(Draft202012Validator(schema).iter_errors(data))
        if errors:
            raise CatalogueError(f"{path}: /{'/'.join(map(str, errors[0].absolute_path))}: {schema_error_text(errors[0])}")

    # Checked once per content (file and schema), so a battle command need not load jsonschema.
    checkcache.check_once(f"battle-{name}", [(schema_name, schema_raw), (path.name, raw)], check)
    return data


@lru_cache(maxsize=1)
def rules_data() -> dict[str, Any]:
    """`data/battle/rules.json`, schema-checked; CatalogueError when it is missing or broken."""
    return checked_data("rules")


def game_rules(game: str) -> GameRules:
    """The battle facts of `game`; CatalogueError when the data has no battle for it."""
    games = rules_data()["games"]
    if game not in games:
        raise CatalogueError(f"no battle rules for {quoted(game)}; battles exist for {', '.join(games)}")
    g = games[game]
    return GameRules(game, g["flyers_start_on_field"], g["second_player_hides_third_row"], frozenset(g["figure_types"]),
                     bool(g.get("first_player_at_random", False)))


def reading(reading_id: str) -> Reading:
    for r in rules_data()["readings"]:
        if r["id"] == reading_id:
            return Reading(r["id"], r["question"], r["text"], r["reading"])
    raise CatalogueError(f"data/battle/rules.json has no reading {quoted(reading_id)}")


def _reading_value(reading_id: str, key: str) -> Any:
    return next(r[key] for r in rules_data()["readings"] if r["id"] == reading_id)


def strike_table(attacker_die: int, defender_die: int) -> tuple[Hit, Hit]:
    """The Angriffstabelle: (attacker's strike, defender's counter-strike) for the two dice of a strike on an open card."""
    _check_die(attacker_die)
    _check_die(defender_die)
    table = rules_data()["attack_table"]
    diff = attacker_die - defender_die
    if diff == 0:
        eq = table["equal"]
        pair = eq["high"] if attacker_die >= eq["high_from"] else eq["low"]
    else:
        side = table["attacker_higher"] if diff > 0 else table["defender_higher"]
        pair = side[str(min(abs(diff), 5))]
    return pair[0], pair[1]


def closed_target_hit(die: int) -> Hit:
    """The attacker's strike on a closed card from its one die (reading `closed_target_die`)."""
    _check_die(die)
    hit: Hit = _reading_value("closed_target_die", "die")[str(die)]
    return hit


def variable_shot_hit(die: int) -> Hit:
    """Which of a shot's three values (`2-3-4`) the die picks (reading `variable_shot_die`)."""
    _check_die(die)
    hit: Hit = _reading_value("variable_shot_die", "die")[str(die)]
    return hit


def strikes_diagonally() -> bool:
    return bool(_reading_value("strike_reach", "diagonal"))


def beside_diagonally() -> bool:
    return bool(_reading_value("beside", "diagonal"))


def ranged_melee_distance() -> int:
    return int(_reading_value("ranged_melee", "distance"))


def ranged_melee_effect() -> int:
    return int(_reading_value("ranged_melee", "effect"))


def _check_die(value: int) -> None:
    if value not in DIE:
        raise ValueError(f"a die shows 1 to 6, not {value}")
