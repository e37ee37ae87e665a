"""The database's tables and indexes as sqlmodel models; imported only by the build.

This is the one place the catalogue database's schema is written: the build emits
the CREATE TABLE and CREATE INDEX statements sqlalchemy derives from these models.
The table and column names are a contract with the Datasette front end:
add columns freely, never rename or drop one. Lists and objects are JSON text.
"""

from __future__ import annotations

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

JsonText = str


class CardRow(SQLModel, table=True):
    """One row per card of every game, with the fields the games share."""

    __tablename__ = "cards"
    # Names are searched through `search_key` by the query language (cardkit.db.search), on the command
    # line and in Datasette alike; an FTS index would give Datasette a second, different search.
    # `order:name` sorts on the transliterated key, which this index serves.
    __table_args__ = (Index("cards_latin_key", "latin_key"),)
    game: str = Field(primary_key=True)
    id: str = Field(primary_key=True)
    name: str
    latin: str
    set_id: str | None = None
    kind: str | None = None
    colour: str | None = None
    elements: str | None = None
    level: int | None = None
    cost: int | None = None
    elite: bool | None = None
    is_unique: bool | None = None
    rarity: str | None = None
    mercenary: bool | None = None
    data: JsonText
    position: int = Field(index=True)
    name_key: str = Field(index=True)  # a card page lists every card of its name
    latin_key: str
    loose_key: str
    search_key: str
    set_label: str | None = None


class TcgCard(SQLModel, table=True):
    __tablename__ = "tcg_cards"
    id: str = Field(primary_key=True)
    set: str | None = None
    number: int | None = None
    name: str
    colour: str | None = None
    cost: JsonText | None = None
    level: int | None = None
    unique: bool
    quick: bool
    kind: str
    power: int | None = None
    hp: int | None = None
    range: int | None = None
    movement: int | None = None
    subtypes: JsonText
    mercenary: bool
    cost_white: int | None = None
    cost_green: int | None = None
    cost_black: int | None = None
    cost_red: int | None = None
    cost_colourless: int | None = None


class CcgCard(SQLModel, table=True):
    __tablename__ = "ccg_cards"
    id: str = Field(primary_key=True)
    set: int
    number: int
    name: str
    latin: str
    rarity: str
    cost: int
    elite: bool
    unique: bool
    elements: JsonText
    type: str
    zone: str
    life: int | None = None
    move: int | None = None
    strike: JsonText | None = None
    classes: JsonText
    icons: JsonText
    horde: bool
    printings: JsonText | None = None


class OnlineCard(SQLModel, table=True):
    __tablename__ = "online_cards"
    id: str = Field(primary_key=True)
    name: str
    latin: str
    type: str
    flying: bool
    ranged: bool
    elements: JsonText
    elite: bool
    cost: int
    life: int | None = None
    strike: JsonText | None = None
    moves: int | None = None
    classes: JsonText
    abilities: JsonText
    horde: bool
    unlimited: bool
    loner: bool
    series: int | None = None
    rarity: str | None = None


class BerserkerCard(SQLModel, table=True):
    __tablename__ = "berserker_cards"
    id: str = Field(primary_key=True)
    name: str
    count: int
    type: str
    value: int | None = None
    damage: int | None = None
    destroys_user: bool | None = None
    negates: str | None = None
    restriction: JsonText | None = None


class BerserkerShip(SQLModel, table=True):
    __tablename__ = "berserker_ships"
    id: str = Field(primary_key=True)
    name: str
    side: str
    count: int
    hits: int
    speed: int
    range: int
    attacks_per_turn: int
    fires_through_ships: bool


class SetRow(SQLModel, table=True):
    __tablename__ = "sets"
    game: str = Field(primary_key=True)
    id: str = Field(primary_key=True)
    name: str | None = None
    latin: str | None = None
    cards: int


class FormatRow(SQLModel, table=True):
    __tablename__ = "formats"
    name: str = Field(primary_key=True)
    game: str | None = None
    data: JsonText


class MetaRow(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


MODELS: tuple[type[SQLModel], ...] = (
    CardRow, TcgCard, CcgCard, OnlineCard, BerserkerCard, BerserkerShip, SetRow, FormatRow, MetaRow,
)
