"""What each table and column of a tournament database means, and the queries organizers run on it.

Plain data, read by `cardkit.web.metadata` for a file `cardkit tournament db`
wrote (`cardkit.tournament.database`), served beside the catalogue by
`cardkit serve --attach`. A column in `COLUMNS` means the same in every table
it appears in; `Table.columns` overrides that for one table.
"""

from __future__ import annotations

from cardkit.games.registry import GAMES, in_words
from cardkit.web.queries import CannedQuery
from cardkit.web.tables import Described, Table

TITLE = "Tournament deck checks"
SOURCE = "cardkit tournament db (each submission checked against its format in data/formats/)"

COLUMNS: dict[str, str] = {
    "event_id": "The event the row belongs to (see `events`).",
    "player": "The player, from the deck's `player:` line or the registration list's `deck` column.",
    "format": "The deck-building format (a file in data/formats/), as `--format` names it.",
    "game": f"The game the deck is for: {in_words(GAMES)}.",
    "code": "The problem's stable code (TOO_MANY_COPIES, MISSING_SUBMISSION, ...); docs/ list them all.",
    "severity": "error (the deck is illegal) or warning (worth a look, still legal).",
    "message": "What is wrong, in words.",
}

TABLES: dict[str, Table] = {
    "events": Table(
        "One row per event checked: its format, its registration list and how many submissions got each verdict.",
        facets=("format", "ok"),
        columns={
            "id": "The event's number in this file.",
            "name": "The event's name (`--event`, else the folder's name).",
            "format": "The event's format: every deck must be in it; empty when each deck was checked against its own.",
            "registrations": "The registration list (CSV) the submissions were checked against, as given; empty without one.",
            "ok": "1 when every submission is legal (warnings allowed) and nobody registered is missing, else 0.",
            "rows": "Rows in `verdicts` for this event: one per submission and one per missing player.",
            "legal": "Submissions that are legal.",
            "illegal": "Submissions with at least one error.",
            "unreadable": "Files that could not be read as a deck.",
            "missing": "Registered players who sent no deck.",
            "warnings": "Warnings over all submissions.",
        },
        search_columns=("name", "format", "registrations"),
    ),
    "decks": Table(
        "One row per deck file submitted, with what was read from it; a file that could not be read has no counts.",
        facets=("game", "format"),
        sort="path",
        label_column="path",
        columns={
            "id": "The deck's number in this file.",
            "path": "The submitted file, as found in the event folder.",
            "name": "The deck's `name:` line.",
            "game": "The game the deck is for, from its `game:` line or its cards; empty when unreadable.",
            "format": "The format the deck was checked against.",
            "hash": "The canonical deck hash (as `cardkit deck hash`): the same cards give the same hash; "
                    "empty when a card didn't resolve.",
            "main": "Cards in the main deck.",
            "side": "Cards in the side deck.",
            "mix": "The deck's colours (TCG: white+black, ...) or elements (CCG and Online: steppe+forest, ...) over its "
                   "main deck, in the game's order; colourless or neutral when it has none; empty for Berserker decks "
                   "and unreadable files.",
        },
        search_columns=("path", "player", "name", "game", "format", "hash", "mix"),
    ),
    "deck_cards": Table(
        "Each deck's list as it resolved: one row per card and section, with how many copies and the line that first "
        "names it. The card links to its page in the catalogue served beside this database.",
        facets=("section", "game"),
        label_column=None,
        columns={
            "id": "The row's number in this file.",
            "deck_id": "The deck the card is in (see `decks`).",
            "section": "main or side.",
            "card": "The catalogue id of the card (see `cards`, and the catalogue's own `cards` table).",
            "count": "Copies of the card in this section of this deck, over every line that names it.",
            "line": "The deck file's first line naming the card; empty for JSON decks.",
        },
        search_columns=("section", "game", "card"),
    ),
    "cards": Table(
        "The catalogue's name, kind and colours of every card the decks of this file play, so lists read as names.",
        facets=("game", "kind", "colours"),
        columns={
            "id": "The card's id within its game; links to its page in the catalogue.",
            "name": "The card's printed name.",
            "kind": "TCG kind (character, effect-normal, city, ...), else the card's type (creature, artifact, ...).",
            "colours": "A TCG card's colour, or a CCG or Online card's elements, comma-separated; empty for "
                       "colourless, neutral and Berserker cards.",
        },
        search_columns=("id", "name", "kind", "colours"),
    ),
    "verdicts": Table(
        "One row per submission and per registered player who sent nothing: legal, illegal, unreadable or missing.",
        facets=("verdict", "first_problem", "legal"),
        label_column="player",
        columns={
            "id": "The verdict's number in this file.",
            "deck_id": "The deck file judged (see `decks`); empty for a missing player.",
            "verdict": "legal, illegal (an error), unreadable (not a deck) or missing (registered, no deck).",
            "legal": "1 for a legal submission (warnings allowed), 0 otherwise.",
            "errors": "Errors found in the submission.",
            "warnings": "Warnings found in the submission.",
            "first_problem": "Code of the first error, else of the first warning: what a one-line summary shows.",
        },
        search_columns=("player", "verdict", "first_problem"),
    ),
    "problems": Table(
        "Every problem found in a submission, in the order found, with the card and line it concerns.",
        facets=("code", "severity"),
        label_column="code",
        columns={
            "id": "The problem's number in this file, in the order found.",
            "verdict_id": "The submission the problem belongs to (see `verdicts`).",
            "card": "The card id the problem is about, if any.",
            "line": "The deck file's line the problem is about, if any.",
            "lim": "The limit the rule sets (for example 3 copies), as JSON.",
            "actual": "What the deck has instead (for example 4 copies), as JSON.",
        },
        search_columns=("code", "severity", "message", "card"),
    ),
    "event_problems": Table(
        "Problems of an event's registration list itself: rows without a player, players registered twice, ...",
        facets=("code", "severity"),
        label_column="code",
        columns={
            "id": "The problem's number in this file.",
            "line": "The registration list's line.",
            "file": "The registration list.",
        },
        search_columns=("code", "severity", "message", "file"),
    ),
    "metagame_mixes": Table(
        "The legal decks per colour or element mix, as `tournament publish` shows them (one DataFrame makes both).",
        facets=("game",),
        label_column=None,
        columns={
            "mix": "The colours (TCG) or elements (CCG and Online) of the decks' main decks, as `decks.mix`.",
            "decks": "Legal decks of that mix.",
            "percent": "Those decks as a percentage of the game's legal decks, to one decimal.",
        },
        search_columns=("game", "mix"),
    ),
    "metagame_cards": Table(
        "Each card the legal decks play: in how many decks, in what numbers; most played first, as on the published page.",
        facets=("game", "kind"),
        label_column="name",
        columns={
            "card": "The catalogue id of the card (see `cards`).",
            "name": "The card's printed name.",
            "kind": "TCG kind (character, effect-normal, city, ...), else the card's type (creature, artifact, ...).",
            "decks": "Legal decks playing the card (main or side).",
            "percent": "Those decks as a percentage of the game's legal decks, to one decimal.",
            "copies": "Copies over all those decks.",
            "average": "Copies per deck playing it, to two decimals.",
            "fewest": "The fewest copies one of those decks plays.",
            "most": "The most copies one of those decks plays.",
        },
        search_columns=("game", "card", "name", "kind"),
    ),
    "metagame_sizes": Table(
        "The legal decks per main-deck size.",
        facets=("game",),
        label_column=None,
        columns={"main": "Cards in the main deck.", "decks": "Legal decks of that size."},
        search_columns=("game",),
    ),
    "tournament_meta": Table(
        "Facts about this file: that `cardkit tournament db` wrote it (`kind`), its layout, the cardkit version and when.",
        label_column=None,
        columns={"key": "Name of the fact.", "value": "The fact's value."},
        search_columns=("key", "value"),
    ),
}

TOURNAMENT = Described(TABLES, COLUMNS)

# The field is the legal decks: those that will be played.
_LEGAL_DECKS = "select d.* from decks d join verdicts v on v.deck_id = d.id where v.verdict = 'legal'"

QUERIES: dict[str, CannedQuery] = {
    "most_played_cards": CannedQuery(
        "Most played cards",
        "Each card of the legal decks with how many decks play it (main or side), the share of the field, and in what "
        "numbers: copies over all decks, and the fewest and most one deck plays.",
        f"""\
select e.name as event, p.game, p.card, c.name, count(*) as decks,
       round(100.0 * count(*) / (select count(*) from ({_LEGAL_DECKS}) f where f.event_id = p.event_id), 1) as percent,
       sum(p.copies) as copies, min(p.copies) as fewest, max(p.copies) as most
from (
  select d.event_id, dc.deck_id, dc.game, dc.card, sum(dc.count) as copies
  from deck_cards dc join ({_LEGAL_DECKS}) d on d.id = dc.deck_id
  group by dc.deck_id, dc.game, dc.card
) p
join events e on e.id = p.event_id
left join cards c on c.game = p.game and c.id = p.card
group by p.event_id, p.game, p.card
order by e.name, decks desc, copies desc, c.name
limit 200""",
    ),
    "decks_playing_card": CannedQuery(
        "Decks that play a card",
        "Every deck (legal or not) that plays the card given by id or by name (any case), with its copies in the main "
        "and side deck and its verdict.",
        """\
select e.name as event, d.player, d.path, v.verdict, dc.game, dc.card, c.name,
       sum(case when dc.section = 'main' then dc.count else 0 end) as main,
       sum(case when dc.section = 'side' then dc.count else 0 end) as side
from deck_cards dc
join decks d on d.id = dc.deck_id
join events e on e.id = d.event_id
left join verdicts v on v.deck_id = d.id
left join cards c on c.game = dc.game and c.id = dc.card
where dc.card = :card or lower(c.name) = lower(:card)
group by dc.deck_id, dc.game, dc.card
order by e.name, d.player, d.path""",
    ),
    "field_split": CannedQuery(
        "Colours and elements of the field",
        "How many legal decks play each mix of colours (TCG) or elements (CCG and Online) in their main deck, and "
        "their share of the event's legal decks of that game.",
        f"""\
select e.name as event, f.game, coalesce(f.mix, '(none)') as mix, count(*) as decks,
       round(100.0 * count(*) / (select count(*) from ({_LEGAL_DECKS}) g
                                 where g.event_id = f.event_id and g.game = f.game), 1) as percent
from ({_LEGAL_DECKS}) f
join events e on e.id = f.event_id
group by f.event_id, f.game, f.mix
order by e.name, f.game, decks desc, mix""",
    ),
    "illegal_decks": CannedQuery(
        "Decks that are not legal, with their first error",
        "Every illegal or unreadable submission, with the first error found in it: what to tell the player.",
        """\
select e.name as event, v.player, d.path, v.verdict, v.errors, v.warnings,
       p.code as first_error, p.message, p.card, p.line
from verdicts v
join events e on e.id = v.event_id
left join decks d on d.id = v.deck_id
left join problems p on p.id = (
  select min(id) from problems where verdict_id = v.id and severity = 'error')
where v.verdict in ('illegal', 'unreadable')
order by e.name, d.path""",
    ),
    "problems_by_code": CannedQuery(
        "Problems by code",
        "How often each problem code was found, in how many submissions and whose; "
        "the registration list's own problems count too. Errors first.",
        """\
select * from (
  select p.code, p.severity, count(*) as problems, count(distinct p.verdict_id) as submissions,
         group_concat(distinct coalesce(v.player, d.path)) as players
  from problems p
  join verdicts v on v.id = p.verdict_id
  left join decks d on d.id = v.deck_id
  group by p.code, p.severity
  union all
  select code, severity, count(*), 0, null
  from event_problems
  group by code, severity
)
order by severity = 'warning', problems desc, code""",
    ),
    "identical_decks": CannedQuery(
        "Groups of identical decks",
        "Decks of one event with the same canonical hash (the same cards), one row per group "
        "with who sent them: organizers look at these.",
        """\
select e.name as event, g.hash, count(*) as decks,
       group_concat(coalesce(g.player, '(no player)') || ' (' || g.path || ')', '; ') as submissions
from (select * from decks where hash is not null order by path) g
join events e on e.id = g.event_id
group by g.event_id, g.hash
having count(*) > 1
order by e.name, decks desc, g.hash""",
    ),
    "missing_submissions": CannedQuery(
        "Missing submissions",
        "Registered players who sent no deck, with the registration line that names them.",
        """\
select e.name as event, v.player, p.message
from verdicts v
join events e on e.id = v.event_id
left join problems p on p.verdict_id = v.id and p.code = 'MISSING_SUBMISSION'
where v.verdict = 'missing'
order by e.name, v.player""",
    ),
}
