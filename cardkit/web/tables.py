"""What each table and column of the catalogue database means, and how to browse it.

Plain data, read by `cardkit.web.metadata`: a description for every table and
column people see, each table's default facets and sort. A column described
in `COLUMNS` means the same in every table it appears in; `Table.columns`
overrides that for one table. `Described` bundles the two for one kind of
database, so another kind (`cardkit.web.tournament`) brings its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardkit.games.registry import GAMES, in_words

COLUMNS: dict[str, str] = {
    "game": f"Game: {in_words(GAMES)}.",
    "id": "The card's id within its game (TCG `BK1-009`, CCG `10001`, Online proto name, Berserker card or ship name).",
    "name": "The card's printed name (Russian for the CCG and Online).",
    "latin": "The name transliterated into Latin letters, so it can be searched on an English keyboard.",
    "set_id": "The set the card belongs to: TCG volume (BK1..BK5), CCG set number, Online series, Berserker `standard`.",
    "set": "The set the card belongs to.",
    "set_label": "The game, set id and set name together (TCG BK1 Volume 1, CCG 10 Война стихий), so sets of different games never mix.",
    "number": "The card's number within its set.",
    "kind": "What sort of card it is: TCG kind (character, effect-normal, effect-eternal, city), CCG and Online type, Berserker card type (move, attack, defense).",
    "type": "What sort of card it is (creature, flyer, companion, artifact, equipment, terrain, ...).",
    "colour": "TCG colour: white, green, black or red; empty for the colourless cities.",
    "elements": "CCG and Online elements, comma-separated (steppe, forest, mountains, swamps, darkness); empty for a neutral card; NULL for games without elements.",
    "level": "TCG Level: the card can be opened once this many cities are revealed.",
    "cost": "Total cost: TCG cards to sacrifice, CCG and Online crystals.",
    "cost_white": "TCG cost: white cards to sacrifice.",
    "cost_green": "TCG cost: green cards to sacrifice.",
    "cost_black": "TCG cost: black cards to sacrifice.",
    "cost_red": "TCG cost: red cards to sacrifice.",
    "cost_colourless": "TCG cost: cards of any colour to sacrifice.",
    "elite": "1 for an elite card (paid with gold crystals only), 0 for an ordinary one.",
    "is_unique": "1 for a Unique card (only one of its kind in play), 0 otherwise.",
    "unique": "1 for a Unique card (only one of its kind in play), 0 otherwise.",
    "rarity": "How rare the card is: CCG common, uncommon, rare, ultra-rare; Online a one-letter code.",
    "mercenary": "1 for a TCG Mercenary, which a deck may hold any number of, 0 otherwise.",
    "quick": "TCG Quick: 1 if the card may be opened outside its owner's opening phase.",
    "power": "TCG attack power.",
    "hp": "TCG hit points.",
    "range": "TCG range (0 for melee).",
    "movement": "TCG movement in squares.",
    "subtypes": "TCG subtypes (for example Mercenary), as a JSON list.",
    "zone": "Where the card stands in play: battlefield, or auxiliary zone for flyers and terrains.",
    "life": "Life (hit points).",
    "move": "Movement in squares.",
    "moves": "Movement in squares.",
    "strike": "Strike damage, weak/medium/strong, as JSON.",
    "classes": "Creature classes, as a JSON list.",
    "icons": "Ability icons and their values, as JSON.",
    "horde": "1 for a horde creature, 0 otherwise.",
    "printings": "For a card printed more than once (a later set's reprint under a new id), the ids of every printing, oldest first, as JSON; a name means the last. Empty otherwise.",
    "flying": "1 for a flying creature, 0 otherwise.",
    "ranged": "1 for a creature with a ranged attack, 0 otherwise.",
    "abilities": "Ability codes, as a JSON list.",
    "unlimited": "1 if a card set may hold any number of copies, 0 otherwise.",
    "loner": "1 for a loner creature, 0 otherwise.",
    "series": "The Online series (1 to 5) the card was released in; empty for unnumbered cards.",
    "count": "How many copies of this card are in the standard deck.",
    "data": "The full card record from the catalogue, as JSON.",
    "position": "The card's place in catalogue order (games, then files, then cards as listed).",
    "name_key": "The name folded for matching (lower case, no accents, ё as е).",
    "latin_key": "The transliterated name folded for matching.",
    "search_key": "Every word of the name, its transliteration and the id, folded each way a search may be typed; the search box matches a word only where one of these begins.",
    "loose_key": "The transliterated name with spelling schemes merged (y, j and i alike; ts as c; kh as h), so Dikiy and Dikij find Dikii.",
}

# A column name, or {"array": column} to facet a JSON list by its items.
Facet = str | dict[str, str]


@dataclass(frozen=True)
class Table:
    """How one table is described and browsed."""

    description: str
    facets: tuple[Facet, ...] = ()
    sort: str | None = None
    label_column: str | None = "name"
    columns: dict[str, str] = field(default_factory=dict)
    # The game whose cards the table lists ("*": every game), searched with the query language; None: no search.
    search_game: str | None = None
    # For a table that holds no cards: the columns its search box looks in (every word must appear in one).
    search_columns: tuple[str, ...] = ()
    # A search's `order:FIELD` sorts the table page by this column (the query language's field -> column);
    # a field missing here (a TCG cost held by colour) is said not to sort this table.
    order_columns: dict[str, str] = field(default_factory=dict)


JSON_ELEMENTS: Facet = {"array": "elements"}

TABLES: dict[str, Table] = {
    "cards": Table(
        "Every card of every game, one row each, in catalogue order. Search with the words and filters of "
        "`cardkit cards search` (Koch, c:red lv<=2, e:forest elite:yes); narrow down by game, colour, element, level, kind or set.",
        # Sets by `set_label`, which names the game and the set; rarity is faceted in each game's own table,
        # since the CCG's words and Online's letters mean different things.
        facets=("game", "colour", "elements", "level", "kind", "set_label", "elite", "is_unique"),
        sort="position",
        search_game="*",
        order_columns={"name": "latin_key", "cost": "cost", "level": "level", "set": "set_id", "kind": "kind",
                       "colour": "colour", "element": "elements", "rarity": "rarity", "game": "game", "id": "id"},
    ),
    "tcg_cards": Table(
        "Berserk TCG cards (Konami, after Kentaro Miura's manga) with every field, the cost split by colour.",
        facets=("colour", "level", "kind", "set", "unique", "quick", "mercenary", {"array": "subtypes"}),
        columns={"cost": "The cost by colour, as JSON; see the cost_* columns.",
                 "set": "The TCG volume (BK1..BK5); empty for the cities."},
        search_game="berserk-tcg",
        order_columns={"name": "name", "level": "level", "set": "set", "kind": "kind", "colour": "colour", "id": "id"},
    ),
    "ccg_cards": Table(
        "Cards of the Russian tabletop Berserk CCG with every field.",
        facets=(JSON_ELEMENTS, "type", "rarity", "set", "elite", "unique", "zone"),
        columns={"cost": "Crystals to play the card.", "set": "The CCG set number (10, 20, ...).",
                 "elements": "The card's elements, as a JSON list; [] for a neutral card."},
        search_game="berserk-ccg",
        order_columns={"name": "latin", "cost": "cost", "set": "set", "kind": "type", "element": "elements",
                       "rarity": "rarity", "id": "id"},
    ),
    "online_cards": Table(
        "Berserk Online cards with every field.",
        facets=(JSON_ELEMENTS, "type", "rarity", "series", "elite", "flying", "unlimited"),
        sort="name",
        columns={"cost": "Crystals to play the card.",
                 "elements": "The card's element, as a JSON list of at most one; [] for a neutral card."},
        search_game="berserk-online",
        order_columns={"name": "latin", "cost": "cost", "set": "series", "kind": "type", "element": "elements",
                       "rarity": "rarity", "id": "id"},
    ),
    "berserker_cards": Table(
        "The Berserker fleet game's shared deck: each card, how many copies, and who may play it.",
        facets=("type", "damage"),
        columns={
            "type": "move, attack or defense.",
            "value": "The card's number: squares moved, or attack or defence strength.",
            "damage": "Hits dealt by an attack card.",
            "negates": "What a defence card cancels: the whole attack, or only its damage.",
            "destroys_user": "1 if playing the card destroys the ship that plays it (Marines: the Ramship), 0 otherwise.",
            "restriction": "Who may play the card, as JSON: the printed label and the ships, side or opposing cards it names.",
        },
        search_game="berserker",
        order_columns={"name": "name", "kind": "type", "id": "id"},
    ),
    "berserker_ships": Table(
        "The Berserker fleet game's units: the Berserker and the human ships, with their numbers.",
        facets=("side",),
        columns={
            "id": "The ship's id.",
            "name": "The ship's name.",
            "side": "Which side the ship fights on: human or berserker.",
            "count": "How many of this ship are in the fleet.",
            "hits": "Hits the ship takes before it is destroyed.",
            "speed": "Squares the ship may move each turn.",
            "range": "How many squares its weapons reach.",
            "attacks_per_turn": "How many attacks the ship may make each turn.",
            "fires_through_ships": "1 if the ship may fire through other ships, 0 otherwise.",
        },
        search_columns=("id", "name", "side"),
    ),
    "sets": Table(
        "The sets (TCG volumes, CCG sets, Online series, the Berserker deck) the cards were released in.",
        facets=("game",),
        columns={"id": "The set's id within its game.", "name": "The set's name.",
                 "latin": "The set's name in Latin letters.", "cards": "How many cards of the catalogue are in the set."},
        search_columns=("game", "id", "name", "latin"),
    ),
    "formats": Table(
        "Deck-building formats: the rules a deck is checked against (sizes, copy limits, crystals), as data.",
        facets=("game",),
        columns={"name": "The format's name, as given to `--format`.",
                 "game": "The game the format is for.",
                 "data": "The whole format definition, as JSON."},
        search_columns=("name", "game"),
    ),
    "meta": Table(
        "Facts about this build: when it was made, the cardkit version, and hashes of the catalogue and formats it was built from.",
        label_column=None,
        columns={"key": "Name of the build fact.", "value": "The build fact's value."},
        search_columns=("key", "value"),
    ),
}


@dataclass(frozen=True)
class Described:
    """Descriptions, facets and sorts of one kind of database: its tables, and columns shared across them."""

    tables: dict[str, Table]
    columns: dict[str, str]

    def column_description(self, table: str, column: str) -> str | None:
        """The description of `column` in `table`, or None if nobody wrote one."""
        spec = self.tables.get(table)
        if spec and column in spec.columns:
            return spec.columns[column]
        return self.columns.get(column)


CATALOGUE = Described(TABLES, COLUMNS)


def column_description(table: str, column: str) -> str | None:
    """The description of `column` in a catalogue `table`, or None if nobody wrote one."""
    return CATALOGUE.column_description(table, column)
