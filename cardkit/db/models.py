"""The database's tables and indexes as sqlmodel models; imported only by the build.

This is the one place the catalogue database's schema is written: the build emits
the CREATE TABLE and CREATE INDEX statements sqlalchemy derives from these models.
The table and column names are a contract with the Datasette front end:
add columns freely, never rename or drop one. Lists and objects are JSON text.
"""

from __future__ import annotations

from typing import Optional

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
    set_id: Optional[str] = None
    kind: Optional[str] = None
    colour: Optional[str] = None
    elements: Optional[str] = None
    level: Optional[int] = None
    cost: Optional[int] = None
    elite: Optional[bool] = None
    is_unique: Optional[bool] = None
    rarity: Optional[str] = None
    mercenary: Optional[bool] = None
    data: JsonText
    position: int = Field(index=True)
    name_key: str = Field(index=True)  # a card page lists every card of its name
    latin_key: str
    loose_key: str
    search_key: str
    set_label: Optional[str] = None


class TcgCard(SQLModel, table=True):
    __tablename__ = "tcg_cards"
    id: str = Field(primary_key=True)
    set: Optional[str] = None
    number: Optional[int] = None
    name: str
    colour: Optional[str] = None
    cost: Optional[JsonText] = None
    level: Optional[int] = None
    unique: bool
    quick: bool
    kind: str
    power: Optional[int] = None
    hp: Optional[int] = None
    range: Optional[int] = None
    movement: Optional[int] = None
    subtypes: JsonText
    mercenary: bool
    cost_white: Optional[int] = None
    cost_green: Optional[int] = None
    cost_black: Optional[int] = None
    cost_red: Optional[int] = None
    cost_colourless: Optional[int] = None


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
    life: Optional[int] = None
    move: Optional[int] = None
    strike: Optional[JsonText] = None
    classes: JsonText
    icons: JsonText
    horde: bool
    printings: Optional[JsonText] = None


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
    life: Optional[int] = None
    strike: Optional[JsonText] = None
    moves: Optional[int] = None
    classes: JsonText
    abilities: JsonText
    horde: bool
    unlimited: bool
    loner: bool
    series: Optional[int] = None
    rarity: Optional[str] = None


class BerserkerCard(SQLModel, table=True):
    __tablename__ = "berserker_cards"
    id: str = Field(primary_key=True)
    name: str
    count: int
    type: str
    value: Optional[int] = None
    damage: Optional[int] = None
    destroys_user: Optional[bool] = None
    negates: Optional[str] = None
    restriction: Optional[JsonText] = None


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
    name: Optional[str] = None
    latin: Optional[str] = None
    cards: int


class FormatRow(SQLModel, table=True):
    __tablename__ = "formats"
    name: str = Field(primary_key=True)
    game: Optional[str] = None
    data: JsonText


class MetaRow(SQLModel, table=True):
    __tablename__ = "meta"
    key: str = Field(primary_key=True)
    value: str


MODELS: tuple[type[SQLModel], ...] = (
    CardRow, TcgCard, CcgCard, OnlineCard, BerserkerCard, BerserkerShip, SetRow, FormatRow, MetaRow,
)
