"""A submission saved in another encoding than UTF-8: whose it is, read from its `player:` line.

Such a file is never checked (a wrong guess reads as other cards), but its player is plain to see in
the encoding the file reads as, and an organizer wants one row for that player: the file that could not
be read, the encoding and the `iconv` line, not an unreadable row beside a "sent no deck" row.
"""

from __future__ import annotations

import codecs
import json
import os
import re

from cardkit.errors import UnreadableInput
from cardkit.jsonio import MAX_INPUT_BYTES, read_bytes_input

_ICONV_FROM = re.compile(r"iconv -f (\S+)")
_PLAYER_LINE = re.compile(r"^[ \t]*player[ \t]*:[ \t]*(\S[^\r\n#]*)", re.IGNORECASE | re.MULTILINE)


def player_of(path: str | os.PathLike[str], hint: str | None) -> str | None:
    """The player a file that is not UTF-8 names, read in the encoding its `iconv` line (`hint`, from
    `encodinghints`) converts from; None when the hint names none or the file names no player."""
    found = _ICONV_FROM.search(hint or "")
    if found is None:
        return None
    try:
        codecs.lookup(found.group(1))
        text = read_bytes_input(path, MAX_INPUT_BYTES).decode(found.group(1))
    except (LookupError, UnicodeDecodeError, UnreadableInput):
        return None
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            return None
        player = data.get("player") if isinstance(data, dict) else None
        return player.strip() or None if isinstance(player, str) else None
    line = _PLAYER_LINE.search(text)
    return line.group(1).strip() or None if line else None
