"""Checking an event's deck submissions: each deck's legality, then the checks across decks and registrations."""

from __future__ import annotations

import errno
import itertools
import os
import stat
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

from cardkit.decks import DeckGameUnknown, read_deck, validate_deck
from cardkit.decks.canonical import lists_hash
from cardkit.decks.model import Deck, Tally
from cardkit.decks.report import DeckReport
from cardkit.errors import BadArgument, UnreadableInput
from cardkit.formats import Format
from cardkit.jsonio import is_stdin
from cardkit.problems import Problem, error, warning
from cardkit.tournament.batch import Progress, check_all, collector_paused
from cardkit.tournament.confusables import LookalikeIndex, confusable_message
from cardkit.tournament.errors import FormatsDiffer
from cardkit.tournament.registrations import Registrations, player_key
from cardkit.visible import quoted, shortened

SUBMISSION_SUFFIXES: tuple[str, ...] = (".deck", ".deck.json")


class Verdict(str, Enum):
    LEGAL = "legal"
    ILLEGAL = "illegal"
    UNREADABLE = "unreadable"
    MISSING = "missing"


class ListedCard(NamedTuple):
    """One card of a deck's list: its section, the catalogue id, how many, and the first line naming it.

    A tuple, not a dataclass: a big event sends 70,000 of them back from the worker processes.
    """

    section: str
    card: str
    copies: int
    line: int | None = None


@dataclass
class Submission:
    """One deck file of the event (or, when `missing`, a registered player who sent none).

    `report` is the per-deck verdict of `cardkit validate`; tournament problems are
    added to its problems. `relative` is the path inside the folder it was found in.
    """

    report: DeckReport
    relative: str = ""
    name: str | None = None
    hash: str | None = None
    missing: bool = False
    cards: list[ListedCard] = field(default_factory=list)
    """The resolved list, one entry per card and section in the order written; cards that didn't resolve are not in it."""

    def __getstate__(self) -> dict[str, Any]:
        # Worker processes send submissions back pickled; plain tuples load ten times faster than named ones.
        return {**self.__dict__, "cards": [tuple(c) for c in self.cards]}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.cards = [tuple.__new__(ListedCard, c) for c in state["cards"]]

    @property
    def path(self) -> str:
        return self.report.path

    @property
    def player(self) -> str | None:
        return self.report.player

    @property
    def problems(self) -> list[Problem]:
        """Every problem, an unreadable file's reason included as `UNREADABLE`."""
        return self.report.all_problems

    @property
    def first_problem(self) -> Problem | None:
        """The first error, else the first warning: what a one-line summary shows."""
        problems = self.problems
        return next((p for p in problems if p.is_error), problems[0] if problems else None)

    def add(self, problem: Problem) -> None:
        self.report.problems.append(problem)

    @property
    def verdict(self) -> Verdict:
        if self.missing:
            return Verdict.MISSING
        if self.report.failure is not None:
            return Verdict.UNREADABLE
        return Verdict.LEGAL if self.report.legal else Verdict.ILLEGAL

    @property
    def errors(self) -> int:
        return sum(p.is_error for p in self.problems)

    @property
    def warnings(self) -> int:
        return sum(not p.is_error for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        """`cardkit validate --json`'s object for the deck plus name, verdict, tallies and hash."""
        base = self.report.to_dict()
        return {"path": base["path"], "player": base["player"], "name": self.name, "game": base["game"],
                "format": base["format"], "verdict": self.verdict.value, "legal": base["legal"],
                "errors": self.errors, "warnings": self.warnings, "counts": base["counts"], "hash": self.hash,
                "problems": base["problems"]}


@dataclass
class EventCheck:
    """The verdict on a whole event: one row per submission and per missing player, plus the list's own problems."""

    event: str
    format: str | None
    submissions: list[Submission]
    registrations: str | None = None
    problems: list[Problem] = field(default_factory=list)

    def summary(self) -> dict[str, int]:
        counts = {v.value: 0 for v in Verdict}
        for s in self.submissions:
            counts[s.verdict.value] += 1
        return {"rows": len(self.submissions), **counts,
                "warnings": sum(s.warnings for s in self.submissions) + sum(not p.is_error for p in self.problems)}

    def must_show(self) -> list[tuple[Submission, Problem]]:
        """The problems a summary shows whatever else it leaves out: a warning that two players may be one
        (`SUMMARY_CODES`), each with its submission."""
        return [(s, p) for s in self.submissions for p in s.problems if p.code in SUMMARY_CODES]

    def identical_groups(self) -> list[list[Submission]]:
        """The groups of decks with the same cards that IDENTICAL_DECKS warns of, in the order of their first deck."""
        groups: dict[str, list[Submission]] = {}
        for s in self.submissions:
            if s.hash and any(p.code == "IDENTICAL_DECKS" for p in s.problems):
                groups.setdefault(s.hash, []).append(s)
        return list(groups.values())

    @property
    def ok(self) -> bool:
        """Every submission legal (warnings allowed), nobody missing, the registration list without errors."""
        return all(s.verdict is Verdict.LEGAL for s in self.submissions) and not any(p.is_error for p in self.problems)

    def to_dict(self) -> dict[str, Any]:
        return {"event": self.event, "format": self.format, "registrations": self.registrations, "legal": self.ok,
                "summary": self.summary(), "problems": [p.to_dict() for p in self.problems],
                "submissions": [s.to_dict() for s in self.submissions]}


SUMMARY_CODES: frozenset[str] = frozenset({"CONFUSABLE_PLAYER"})
"""Problems a summary of the event never folds away: two names that may be one player need a person's eye."""


class Found(NamedTuple):
    """A submission found under an input: its path, the path inside its folder, and why it must not be read, if so.

    A tuple, not a frozen dataclass: a big event finds thousands, and the dataclass's constructor was a tenth of the walk.
    """

    path: Path
    relative: str
    refusal: str | None = None
    link: bool = False


def _stat_reason(exc: OSError, link: bool) -> str:
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop"
    if exc.errno in (errno.ENOENT, errno.ENOTDIR):
        return "a dangling symbolic link (its target does not exist)" if link else "no such file"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or "cannot be read"


def _inside(path: Path, real_root: str) -> bool:
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)


def _walk(root: Path) -> list[Found]:
    """Every submission under `root`, links checked before anything of their target is read.

    A link whose target lies outside `root` is a refused row, and so are dangling and looping
    links and subfolders that can't be listed: an organizer sees each, never a silent gap.
    """
    real_root = os.path.realpath(root)
    found: list[Found] = []
    folders = [root]
    while folders:
        folder = folders.pop()
        rel = folder.relative_to(root).as_posix()
        # Each entry's path inside `root` is its folder's plus its name: pathlib per file was a tenth of the walk.
        prefix = "" if rel == "." else rel + "/"
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            found.append(Found(folder, rel, f"folder can't be read ({_stat_reason(exc, False)}); "
                                            "any deck in it was not checked"))
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(path)
                    continue
            except OSError:
                pass
            relative = prefix + entry.name
            if not entry.name.lower().endswith(SUBMISSION_SUFFIXES):
                if entry.is_symlink() and os.path.isdir(path) and not _inside(path, real_root):
                    # Decks may be behind it, and the organizer should know they were not looked at.
                    found.append(Found(path, relative, "a symbolic link to a folder outside the event folder; "
                                                       "not followed, so any deck in it was not checked"))
                continue
            if not entry.is_symlink():
                found.append(Found(path, relative))
                continue
            try:
                os.stat(path)
            except OSError as exc:
                found.append(Found(path, relative, _stat_reason(exc, True)))
                continue
            if not _inside(path, real_root):
                found.append(Found(path, relative, "a symbolic link leading outside the event folder; not followed"))
            else:
                found.append(Found(path, relative, link=True))
    # `str` is `as_posix()` where `/` separates (the walk's paths are the system's own), and cheaper per file.
    return sorted(found, key=(lambda f: str(f.path)) if os.sep == "/" else (lambda f: f.path.as_posix()))


def _real_folder(folder: str, known: dict[str, str]) -> str:
    """`os.path.realpath(folder)`, asked once per folder: per file it was a fifth of a big event's time."""
    if folder not in known:
        known[folder] = os.path.realpath(folder)
    return known[folder]


def find_submissions(inputs: Iterable[str | os.PathLike[str]]) -> list[Found]:
    """Every submission: folders searched recursively for `.deck`/`.deck.json` files (hidden ones
    skipped; links leaving the folder refused), files taken as given, each once, in order."""
    found: list[Found] = []
    seen: set[str] = set()
    real_folders: dict[str, str] = {}
    for given in inputs:
        if is_stdin(given):
            # An event is many named files; one unnamed stream has no file name to report or register.
            raise BadArgument("-: the submissions of an event are folders or files, not standard input; "
                              "save the deck to a file (a file really called - is ./-)")
        root = Path(given)
        try:
            is_dir = stat.S_ISDIR(os.stat(root).st_mode)
        except OSError as exc:
            # A mistyped folder is the organizer's slip, not a submission that failed to read.
            reason = _stat_reason(exc, False)
            raise BadArgument(f"{root}: {'no such file or folder' if reason == 'no such file' else reason}") from None
        if is_dir:
            pairs = _walk(root)
            if not pairs:
                raise BadArgument(f"{root}: no deck submissions ({', '.join(SUBMISSION_SUFFIXES)} files) in this folder")
        else:
            pairs = [Found(root, root.name)]
        # A file and a link to it are one submission, shown under the file's own name.
        kept: set[int] = set()
        for i, item in sorted(enumerate(pairs), key=lambda pair: pair[1].link):
            if item.refusal:
                key = item.path.as_posix()
            elif is_dir and not item.link:
                # The walk saw this entry is no link: its real path is its folder's, resolved once per folder.
                # Split as a string (the path's own, already normalised): a parent path per file cost a third of the walk.
                folder, name = os.path.split(str(item.path))
                key = _real_folder(folder or ".", real_folders) + os.sep + name
            else:
                key = os.path.realpath(item.path)
            if key not in seen:
                seen.add(key)
                kept.add(i)
        found += [item for i, item in enumerate(pairs) if i in kept]
    if not found:
        raise BadArgument("no deck submissions given")
    return found


def check_submission(path: str | os.PathLike[str], fmt: Format | None = None, relative: str | None = None) -> Submission:
    """Read and validate one submission against the event format `fmt` (else its own format).

    A file that can't be read as a deck becomes an `unreadable` submission, never an exception.
    """
    relative = relative if relative is not None else Path(path).name
    try:
        try:
            deck = read_deck(path, fmt.name if fmt else None)
        except DeckGameUnknown:
            if fmt is None:
                raise
            # The deck names another game than the event's: read it as its own to say so.
            deck = read_deck(path)
    except UnreadableInput as exc:
        # A file in another encoding still says whose it is: its row is that player's, not a second "sent no deck".
        from cardkit.tournament.misencoded import player_of

        return Submission(DeckReport(path=str(path), failure=exc.message, failure_hint=exc.hint,
                                     player=player_of(path, exc.hint)), relative=relative)
    plays_event_game = fmt is not None and fmt.game == deck.game
    problems = validate_deck(deck, fmt if plays_event_game else None)
    if fmt is not None:
        declared = (deck.header.get("format") or "").lower()
        if not plays_event_game:
            of_game = f", a {fmt.game} format" if fmt.name != fmt.game else ""
            problems.append(error("WRONG_FORMAT", f"a {deck.game} deck; the event plays {fmt.name}{of_game}",
                                  limit=fmt.name, actual=deck.format))
        elif declared and declared != fmt.name:
            problems.append(error("WRONG_FORMAT", f"the deck says `format: {declared}`; the event plays {fmt.name}, "
                                                  "so it was checked against that", limit=fmt.name, actual=declared))
    # The deck's counts were made once, for the validation; the report, hash and card list read them again.
    counted = deck.tally()
    sizes = counted.sizes
    report = DeckReport(path=str(path), game=deck.game, format=fmt.name if plays_event_game and fmt else deck.format,
                        player=deck.player, counts={"main": sizes["main"], "side": sizes["side"]}, problems=problems)
    # `deck_hash(deck)` for a resolved deck, without asking its problems a second time.
    resolved = deck.resolved
    return Submission(report, relative=relative, name=deck.name, hash=lists_hash(deck.game, counted.sections) if resolved else None,
                      cards=_listed(counted))


def listed_cards(deck: Deck) -> list[ListedCard]:
    """Every resolved card of `deck` once per section with its total count and first line, in the order written."""
    return _listed(deck.tally())


def _listed(counted: Tally) -> list[ListedCard]:
    sections, new = counted.sections, tuple.__new__  # a ListedCard without its keyword handling
    return [new(ListedCard, (section, card, sections[section][card], line)) for (section, card), line in counted.first.items()]


def check_event(inputs: Iterable[str | os.PathLike[str]], format_name: str | None = None,
                registrations: str | os.PathLike[str] | None = None, event: str | None = None,
                progress: Progress | None = None, jobs: int | None = None,
                phase: Callable[[str], None] | None = None, found: list[Found] | None = None) -> EventCheck:
    """Check every submission under `inputs` and across them: format, registrations, duplicates, copies.

    Decks are checked over `jobs` processes (default: every core) when there are many.
    `phase` is told as each step starts (finding, checking, comparing), `progress` after each deck.
    `found` is `find_submissions(inputs)` when the caller already has it (the folder is not walked again).

    The event format is `format_name`, else the registration list's `format` column, else
    none (each deck is checked against its own format). The event's name is `event`, else
    the list's `event` column, else the folder's name. Raises only for the caller's
    mistakes: an unknown format, an unreadable registration list, no submissions.
    """
    from cardkit.formats import load_format
    from cardkit.tournament.registrations import read_registrations

    inputs = list(inputs)
    fmt = load_format(format_name) if format_name else None
    regs = read_registrations(registrations) if registrations is not None else None
    if fmt and regs and regs.format and regs.format != fmt.name:
        raise FormatsDiffer(fmt.name, regs.format, regs.path)
    if fmt is None and regs and regs.format:
        fmt = load_format(regs.format)
    tell = phase or (lambda label: None)
    with collector_paused():
        if found is None:
            tell("finding submissions")
            found = find_submissions(inputs)
        tell("checking decks")
        submissions = check_all(partial(_check_found, fmt), found, progress, jobs)
        tell("comparing decks")
        submissions.extend(cross_check(submissions, regs))
    return EventCheck(event=event or (regs.event if regs else None) or _event_name(inputs, registrations),
                      format=fmt.name if fmt else None, submissions=submissions,
                      registrations=regs.path if regs else None, problems=list(regs.problems) if regs else [])


def _check_found(fmt: Format | None, item: Found) -> Submission:
    """One found submission checked, or its refusal (a link leaving the folder, a loop, ...) as an unreadable row."""
    if item.refusal is not None:
        return Submission(DeckReport(path=str(item.path), failure=f"{item.path}: {item.refusal}"), relative=item.relative)
    return check_submission(item.path, fmt, item.relative)


def _event_name(inputs: list[Any], registrations: str | os.PathLike[str] | None = None) -> str:
    """The name of the one folder given; else (only files, or several folders) of the registration list's
    folder, the event's own; else of the folder every input lies in; `event` when none has a name."""
    folders = [Path(p) for p in inputs if os.path.isdir(p)]
    if len(folders) == 1:
        return folders[0].resolve().name
    if registrations is not None and not is_stdin(registrations):
        name = Path(registrations).resolve().parent.name
        if name:
            return name
    try:
        shared = Path(os.path.commonpath([os.path.abspath(p) if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))
                                          for p in inputs]))
    except ValueError:  # nothing in common (no inputs, or paths on different drives)
        return "event"
    return shared.name or "event"


def cross_check(submissions: list[Submission], regs: Registrations | None) -> list[Submission]:
    """Add the problems between submissions (and against `regs`) in place; return the missing players' rows.

    Linear in the submissions: each player's name is folded once, and a message about a
    group names its first few members without walking the whole group per member.
    """
    sent_as: dict[int, Submission] = _match_registered_files(submissions, regs) if regs is not None else {}
    readable = [s for s in submissions if s.report.failure is None]
    keys: dict[int, str | None] = {id(s): player_key(s.player) if s.player else None for s in submissions}
    by_player: dict[str, list[Submission]] = defaultdict(list)
    for s in submissions:
        key = keys[id(s)]
        if key is not None:
            by_player[key].append(s)
        elif s.report.failure is None:
            s.add(error("NO_PLAYER", "the deck has no `player:` line, so it can't be matched to a player"))
    for group in by_player.values():
        if len(group) > 1:
            for s in group:
                others = _some((o.path for o in group[:_SHOWN + 1] if o is not s), total=len(group) - 1)
                s.add(error("DUPLICATE_SUBMISSION", f"{quoted(s.player)} also submitted {others}; a player sends one deck",
                            actual=len(group), limit=1))
    by_hash: dict[str, list[Submission]] = defaultdict(list)
    for s in readable:
        if s.hash:
            by_hash[s.hash].append(s)
    for group in by_hash.values():
        if len(group) > 1:
            _warn_identical(group, keys)
    if regs is None:
        return []
    lookalikes: LookalikeIndex | None = None
    looks_like: dict[str, Submission] = {}
    for s in readable:
        if s.player and regs.find(s.player) is None:
            s.add(error("UNREGISTERED_PLAYER", f"{quoted(s.player)} is not in the registration list {regs.path}"))
            if lookalikes is None:
                lookalikes = LookalikeIndex(row.player for row in regs.rows)
            other = lookalikes.confused_with(s.player)
            if other is not None:
                s.add(warning("CONFUSABLE_PLAYER", confusable_message(s.player, other, "the registered ")))
                looks_like.setdefault(player_key(other), s)
    missing: list[Submission] = []
    for row in regs.rows:
        if player_key(row.player) not in by_player:
            found = sent_as.get(row.line)
            if found is not None:
                # The file is there, sent under another name (its row is PLAYER_MISMATCH): not "not found".
                what = f" (its registered deck file {quoted(row.deck)} was sent, but names another player, {quoted(found.player)})"
            else:
                what = f" (registered deck file {quoted(row.deck)} not found)" if row.deck else ""
            twin = looks_like.get(player_key(row.player))
            if twin is not None:
                what += f"; {twin.path} is from {quoted(twin.player)}, which only looks like this name (CONFUSABLE_PLAYER)"
            report = DeckReport(path="", player=row.player, format=regs.format,
                                problems=[error("MISSING_SUBMISSION", f"{quoted(row.player)} is registered (line {row.line}) but sent no deck{what}",
                                                line=row.line, file=regs.path)])
            missing.append(Submission(report, missing=True))
    return missing


def _warn_identical(group: list[Submission], keys: dict[int, str | None]) -> None:
    """IDENTICAL_DECKS on each deck of `group` (one hash) that another player also sent.

    A deck's twins are the group's decks of other players (or of no player). Only the
    first `_SHOWN` twins are named, so each deck looks at a shortlist: the group's decks
    in order, at most `_SHOWN` per player. A deck's first twins are all in it, and at most
    `_SHOWN` entries of the deck's own player stand between them.
    """
    per_key: Counter[str | None] = Counter(keys[id(s)] for s in group)
    shortlist: list[Submission] = []
    kept: Counter[str | None] = Counter()
    for s in group:
        key = keys[id(s)]
        if kept[key] < _SHOWN:
            kept[key] += 1
            shortlist.append(s)
    for s in group:
        key = keys[id(s)]
        # A deck without a player twins with every other deck; one with a player, with the other players' decks.
        count = len(group) - 1 if key is None else len(group) - per_key[key]
        if not count:
            continue
        twins = []
        for o in shortlist:
            if o is not s and (key is None or keys[id(o)] != key):
                twins.append(f"{o.path} ({shortened(o.player) if o.player else 'no player'})")
                if len(twins) == _SHOWN:
                    break
        s.add(warning("IDENTICAL_DECKS", f"the same cards as {_some(twins, total=count)}", actual=count + 1))


_SHOWN = 5


def _some(items: Iterable[str], limit: int = _SHOWN, total: int | None = None) -> str:
    """The first `limit` items and how many more (of `total`, else of `items`): a big event must not make
    messages of a thousand paths."""
    shown = list(itertools.islice(items, limit)) if total is not None else list(items)
    count = total if total is not None else len(shown)
    more = f" and {count - limit} more" if count > limit else ""
    return ", ".join(shown[:limit]) + more


def _match_registered_files(submissions: list[Submission], regs: Registrations) -> dict[int, Submission]:
    """A submission named in the `deck` column belongs to that row's player: fill a missing `player:`, flag a different one.

    Returns the submission found for each row's file, by the row's line.
    """
    sent_as: dict[int, Submission] = {}
    for s in submissions:
        row = regs.for_file(s.relative) if s.relative else None
        if row is None:
            continue
        sent_as.setdefault(row.line, s)
        if not s.player:
            s.report.player = row.player
        elif player_key(s.player) != player_key(row.player):
            s.add(error("PLAYER_MISMATCH", f"the deck says `player: {shortened(s.player or '')}`, but the registration list gives "
                                           f"this file to {quoted(row.player)} (line {row.line})", limit=row.player, actual=s.player))
    return sent_as
