"""Exceptions for input that stops an operation.

Findings about an input (an illegal deck, a broken catalogue entry) are
`Problem` values, not exceptions. These classes are for what cannot be read
or acted on at all. Each carries the facts as attributes and a message worded
for any caller, naming no command-line option; the CLI (cardkit/cli/_errors.py)
words each for a terminal and gives it its exit code.
"""

from __future__ import annotations

from typing import Literal

from cardkit.visible import quoted


class CardkitError(Exception):
    """Something cardkit could not do."""

    # Stable names for scripts: `--json` prints an error as {"error": {"code": ..., "message": ...}}.
    # Only subclasses are raised, each with a code docs/json.md lists; this default is never printed.
    error_code: str = "ERROR"
    # Advice in terms of a terminal (a command, an option, a shell line), kept out of `message` so the
    # message reads right wherever it is shown (the web deck page has no options and no shell).
    hint: str | None = None

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or (self.__doc__ or "").strip())

    @property
    def message(self) -> str:
        """What went wrong and what to change in the input, worded for any place it is shown."""
        return str(self.args[0])

    @property
    def terminal_message(self) -> str:
        """`message` with the terminal's own advice (`hint`) after it, as the CLI prints it."""
        return with_hint(self.message, self.hint)


def with_hint(message: str, hint: str | None) -> str:
    """A message as a terminal shows it: its terminal-only advice in brackets after it."""
    return f"{message} ({hint})" if hint else message


class UnreadableInput(CardkitError):
    """The input file could not be read."""

    error_code = "UNREADABLE"

    def __init__(self, path: object, reason: str, hint: str | None = None) -> None:
        self.path = str(path)
        self.reason = reason
        self.hint = hint
        super().__init__(f"{self.path}: {reason}")


class OutputRefused(CardkitError):
    """cardkit will not write this file: an input, a special file, or a file it did not write itself.

    `forcing_replaces`: the write is refused only because it was not forced (an `Output` with `force=True`);
    an input or a special file is never written, forced or not.
    """

    error_code = "OUTPUT_REFUSED"

    def __init__(self, path: object, reason: str, *, forcing_replaces: bool = False, replaced: str = "it") -> None:
        self.path = str(path)
        self.reason = reason
        self.forcing_replaces = forcing_replaces
        # What a forced write would replace: the file, or for a symbolic link the link itself, never what it leads to.
        self.replaced = replaced
        super().__init__(f"{self.path} {reason}" + (f"; forcing the write replaces {replaced}" if forcing_replaces else ""))


class LinkReplaced(UserWarning):
    """A forced write replaced the symbolic link at its path with the new file; the file the link led to is
    left as it was. A warning, not an error: the write happened, and the command line shows it as a note."""

    def __init__(self, path: object, led_to: str) -> None:
        self.path = str(path)
        self.led_to = led_to
        super().__init__(f"replaced the symbolic link {self.path} with the file written; {led_to}, where it led, "
                         "is left as it was")


class InterruptedAfterWriting(KeyboardInterrupt):
    """An interrupt (Ctrl-C, SIGTERM, SIGHUP) that came while finished files were being put in place: it was held
    until every one was, so they are all whole and new, and the command stopped there."""

    def __init__(self, paths: tuple[str, ...]) -> None:
        self.paths = paths
        super().__init__(f"interrupted once every file was written ({', '.join(paths)}): each is whole and new; "
                         "the command stopped there")


class WriteFailed(CardkitError):
    """cardkit could not finish writing a file (a full disk, a file size limit, a folder it cannot write in);
    whatever was at the path before is left as it was."""

    error_code = "WRITE_FAILED"

    def __init__(self, path: object, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"can't write {self.path}: {reason}; nothing written")


class UnknownGame(CardkitError):
    """No such game."""

    error_code = "UNKNOWN_GAME"

    def __init__(self, game: str) -> None:
        from cardkit.games.registry import GAMES

        self.game = game
        super().__init__(f"unknown game {quoted(game)}; known games: {', '.join(GAMES)}")


class UnknownFormat(CardkitError):
    """No such format."""

    error_code = "UNKNOWN_FORMAT"

    def __init__(self, name: str, known: list[str] | None = None) -> None:
        self.name = name
        hint = f"; known formats: {', '.join(known)}" if known else ""
        super().__init__(f"unknown format {quoted(name)}{hint}")


class CardNotFound(CardkitError):
    """No card matches."""

    error_code = "NOT_FOUND"

    def __init__(self, query: str, suggestions: list[str] | None = None) -> None:
        self.query = query
        self.suggestions = suggestions or []
        hint = f"; did you mean: {', '.join(self.suggestions)}" if self.suggestions else ""
        super().__init__(f"no card matches {quoted(query)}{hint}")


class AmbiguousCard(CardkitError):
    """Several cards match."""

    error_code = "AMBIGUOUS"

    def __init__(self, query: str, candidates: list[str]) -> None:
        self.query = query
        self.candidates = candidates
        shown = ", ".join(candidates[:12]) + (" ..." if len(candidates) > 12 else "")
        super().__init__(f"{quoted(query)} matches {len(candidates)} cards: {shown}; give an id")


class CardNotInGame(CardNotFound):
    """No card of the one game asked about matches (a card of another game does not count)."""

    def __init__(self, query: str, game: str, suggestions: list[str] | None = None, why: str = "") -> None:
        self.game = game
        self.suggestions = suggestions or []
        self.query = query
        hint = f"; did you mean: {', '.join(self.suggestions)}" if self.suggestions else ""
        CardkitError.__init__(self, f"no {game} card matches {quoted(query)}{why}{hint}")


class CatalogueError(CardkitError):
    """The catalogue is missing or cannot be read.

    `remedy` is what puts it right, when that is one of two things: `check` (the catalogue check says
    where the fault is) or `import` (the game's card list was never imported); the message ends with it.
    """

    error_code = "CATALOGUE"
    REMEDIES = {"check": "the catalogue check says where", "import": "import the game's card list first"}

    def __init__(self, problem: str, remedy: Literal["check", "import"] | None = None) -> None:
        self.problem = problem
        self.remedy = remedy
        super().__init__(f"{problem}; {self.REMEDIES[remedy]}" if remedy else problem)


class BadArgument(CardkitError):
    """An argument has a value the operation cannot use.

    `parameter` names the argument at fault as the Python API spells it (`games`, `attacker_life`); the message
    then starts with it and goes on with `problem`, so a command can name its own option in its place.
    """

    error_code = "BAD_ARGUMENT"

    def __init__(self, problem: str, parameter: str | None = None) -> None:
        self.problem = problem
        self.parameter = parameter
        super().__init__(f"{parameter} {problem}" if parameter else problem)

class BadActionText(CardkitError):
    """The text names no action of the game (every engine's, and the TCG opening engine's)."""

    error_code = "BAD_ACTION"

    def __init__(self, text: str, expected: str, kind: str = "an action", why: str = "") -> None:
        self.text = text
        super().__init__(f"not {kind}: {quoted(text)}{'; ' + why if why else ''}; expected {expected}")


class IllegalAction(CardkitError):
    """The action is not legal in this state: `reason` says why, `action` (when given) which action."""

    error_code = "ILLEGAL_ACTION"

    def __init__(self, reason: str, action: object | None = None) -> None:
        self.reason, self.action = reason, action
        super().__init__(reason if action is None else f"{action}: {reason}")
