"""The one guarded writer: every file cardkit writes goes through `Output`.

The rule, for every written path (its folders' symbolic links followed, never its own):

* never written through a symbolic link: a link at the path is refused, or with `--force` (kinds that
  allow it) the link itself is replaced by the new file, and the file it led to is left as it was
  (a `LinkReplaced` warning says so); a link that leads to an input, a folder or a special file is
  refused as that;
* never an input of the same command (same file: same device and inode, so hard links count);
* never anything but a regular file (a directory, FIFO, socket or device is refused);
* never a file cardkit did not write itself: an existing non-empty file is replaced only
  when its kind's recogniser says cardkit wrote it (a database's marker, a report's own
  shape, a converted deck's canonical form, a plot's `cardkit` tag), or, for kinds that
  allow it, when the write is forced. An empty file holds nothing to lose.

A refusal is an `OutputRefused` raised before anything is written; the checks run
again just before the finished file is renamed into place. Writes are atomic
(`atomic_target`), and temporary files that a killed writer left beside the target
are removed once they are stale (see `clean_stale_temporaries`). A replaced file is
never made readable by more people than it was: the new file's mode is what the umask
gives, less what the old file (or the file a replaced link led to) did not allow.

Several files written as one (`write_together`) are put in place all or none: each old
file is first set aside (a hard link), and a failure or interrupt between two renames puts
every one back. Ctrl-C, SIGTERM and SIGHUP are held while a command's product is put in
place; one that came meanwhile is raised once every file is in place, as
`InterruptedAfterWriting`, so the command says what was written rather than "interrupted".

A kind that is never replaced unless forced (a registry) is also never replaced by a
concurrent writer: its final step creates the file only if it is still absent (`place_new`),
so of two writers started together one writes and the other is refused.

A write that fails (a full disk, a file size limit, a folder that can't be written) is a
`WriteFailed` whatever wrote it: JSON, HTML, CSV, a plot, or SQLite through
`Output.database()`, the one SQLite writer.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import stat
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardkit.errors import InterruptedAfterWriting, LinkReplaced, OutputRefused, WriteFailed

if TYPE_CHECKING:  # sqlite3 is loaded by the writers of databases only, not by every command that writes a file
    import sqlite3

# A temporary file older than this whose writer is gone is a leftover of a killed write.
STALE_SECONDS = 600


@dataclass(frozen=True)
class Kind:
    """What an output is, and how to tell that an existing file is cardkit's own earlier output of that kind."""

    noun: str
    recognise: Callable[[Path], bool]
    forceable: bool = False
    # An existing file of this kind, even cardkit's own, is replaced only with --force.
    keep_existing: bool = False
    # What a command is run to make (not a cache note): an interrupt that comes while it is put in place waits
    # until it is whole, so that the command can say it was written.
    product: bool = True

    def __repr__(self) -> str:
        return f"Kind({self.noun!r})"


@dataclass(eq=False)
class Output:
    """A path a command is about to write, the command's inputs, and whether `--force` was given."""

    path: Path
    kind: Kind
    inputs: tuple[str | os.PathLike[str], ...] = ()
    force: bool = False
    # The file `check` last found to be cardkit's own, as (path, identity): checked again just before the
    # rename, an unchanged file is not read again (a state's recogniser reads a whole state).
    _recognised: tuple[Path, tuple[int, ...]] | None = field(default=None, init=False, repr=False)

    def __repr__(self) -> str:
        return f"Output({str(self.path)!r}, {self.kind!r})"

    def with_inputs(self, more: Iterable[str | os.PathLike[str]]) -> Output:
        # Kept as given: inputs are only stat'ed, and a big event's 5,000 paths made Path objects cost a tenth of a second.
        return Output(self.path, self.kind, self.inputs + tuple(more), self.force)

    def check(self) -> Path:
        """The path to rename the finished file onto (the given one, its folders' links followed), or
        `OutputRefused` saying in one line why not."""
        return check_output(self)

    @property
    def exclusive(self) -> bool:
        """Whether the final step must find the path still absent (see `place_new`)."""
        return self.kind.keep_existing and not self.force

    @contextmanager
    def target(self) -> Iterator[Path]:
        """A temporary path to fill; renamed over the checked target when the block ends without error.

        Any failure to write (here or in the block) is a `WriteFailed` naming the path, and the
        target is left as it was."""
        with self._staged() as staged:
            yield staged.tmp
            _place_all([staged])

    @contextmanager
    def _staged(self) -> Iterator[_Staged]:
        """A new private temporary file beside the checked target, removed unless it was put in place."""
        place = self.check()
        clean_stale_temporaries(place)
        try:
            try:
                place.parent.mkdir(parents=True, exist_ok=True)
                tmp = _fresh_file(place)
            except FileExistsError:
                raise WriteFailed(self.path, "a folder in the path is a file") from None
            try:
                yield _Staged(self, tmp, place)
            finally:
                tmp.unlink(missing_ok=True)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise WriteFailed(self.path, os_write_reason(exc)) from None

    def write(self, data: str | bytes) -> None:
        with self.target() as tmp:
            tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)

    @contextmanager
    def database(self) -> Iterator[sqlite3.Connection]:
        """A connection to a new SQLite file, private until the block ends; then committed, closed and
        renamed into place like any output. The one SQLite writer: SQLite's own failures to write
        (a full disk, a file size limit, an I/O error) become `WriteFailed`; other SQLite errors
        (a constraint the data breaks) propagate for the caller to word."""
        import sqlite3

        with self.target() as tmp:
            conn = sqlite3.connect(tmp)
            try:
                # The file is private until renamed, so a crash only loses a temporary file: no journal.
                conn.execute("PRAGMA journal_mode=OFF")
                conn.execute("PRAGMA synchronous=OFF")
                yield conn
                conn.commit()
            except sqlite3.Error as exc:
                reason = sqlite_write_reason(exc, tmp)
                if reason is None:
                    raise
                raise WriteFailed(self.path, reason) from None
            finally:
                conn.close()


def write_together(files: Sequence[tuple[Output, str | bytes]]) -> None:
    """Write several files as one output, every one or none: each is filled and flushed to disk beside its
    target first, and only when all are written are they put in place (`_place_all`), which puts every old
    file back if one fails or an interrupt comes between two renames. A failure (a full disk, a folder
    that can't be made) or Ctrl-C at any step leaves every target as it was. One target inside another
    (a page asked for where its tables' folder goes) is refused before any is written."""
    places = [(os.path.abspath(output.path), output.path) for output, _ in files]
    for place, path in places:
        for other, other_path in places:
            if other != place and other.startswith(place.rstrip(os.sep) + os.sep):
                raise OutputRefused(path, f"can't be both a file to write and the folder of {other_path}, written with it; "
                                          "give them places apart")
    with ExitStack() as stack:
        staged = []
        for output, data in files:
            each = stack.enter_context(output._staged())
            try:
                with open(each.tmp, "wb") as fh:
                    fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            except OSError as exc:
                raise WriteFailed(output.path, os_write_reason(exc)) from None
            staged.append(each)
        _place_all(staged)


@dataclass(frozen=True)
class _Staged:
    """A finished temporary file and the checked path it goes to."""

    output: Output
    tmp: Path
    place: Path


@dataclass
class _SetAside:
    """A path being replaced: the old file kept under a temporary name until every new file is in place."""

    place: Path
    kept: Path | None  # None: nothing was there
    moved: bool = False  # renamed aside (no hard links here), rather than linked
    placed: bool = False


def _place_all(staged: Sequence[_Staged]) -> None:
    """Put every finished file in place, or none: checked again (what is there now is what gets replaced),
    flushed to disk and given its mode first; then, with interrupts held, each old file set aside and the
    new one renamed in; a failure or interrupt puts every old file back."""
    for each in staged:
        each.output.check()
    for each in staged:
        try:
            with open(each.tmp, "rb+") as fh:
                os.fsync(fh.fileno())
            each.tmp.chmod(_new_mode(each.place))
        except OSError as exc:
            raise WriteFailed(each.output.path, os_write_reason(exc)) from None
    links: list[tuple[_Staged, str]] = []
    try:
        with _interrupts_held(any(each.output.kind.product for each in staged), [str(s.output.path) for s in staged]):
            links = _swap_in(staged)
    finally:
        for each, led_to in links:
            warnings.warn(LinkReplaced(each.output.path, led_to), stacklevel=4)


def _swap_in(staged: Sequence[_Staged]) -> list[tuple[_Staged, str]]:
    """Rename each finished file over its path, keeping the old files aside until all are in; on any failure or
    interrupt every old file is put back and the error raised. The links replaced, with where each led."""
    aside: list[_SetAside] = []
    links: list[tuple[_Staged, str]] = []
    try:
        for each in staged:
            led_to = os.path.realpath(each.place) if os.path.islink(each.place) else None
            # An exclusive write replaces nothing: a file found there is another writer's, and is left alone.
            kept = _SetAside(each.place, None) if each.output.exclusive else _set_aside(each.place)
            aside.append(kept)
            try:
                _put_in_place(each)
            except FileExistsError:
                if not each.output.exclusive:
                    raise WriteFailed(each.output.path, "a folder in the path is a file") from None
                raise OutputRefused(each.output.path, f"was written by another command meanwhile, and a "
                                                      f"{each.output.kind.noun} is kept (nothing written)",
                                    forcing_replaces=True) from None
            except BrokenPipeError:
                raise
            except OSError as exc:
                raise WriteFailed(each.output.path, os_write_reason(exc)) from None
            kept.placed = True
            if led_to is not None:
                links.append((each, led_to))
    except BaseException:
        _put_back(aside)
        raise
    for kept in aside:
        if kept.kept is not None:
            kept.kept.unlink(missing_ok=True)
    return links


def _put_in_place(staged: _Staged) -> None:
    """The one rename of a finished file onto its path (a link there is replaced, never followed)."""
    if staged.output.exclusive:
        place_new(staged.tmp, staged.place)
    else:
        os.replace(staged.tmp, staged.place)


def _set_aside(place: Path) -> _SetAside:
    """Keep what is at `place` under a temporary name beside it: a hard link, so the path is never empty;
    where the file system has none, a rename."""
    if not os.path.lexists(place):
        return _SetAside(place, None)
    for _ in range(1000):
        kept = place.parent / f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            os.link(place, kept, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError as exc:
            if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV):
                raise
            if os.path.lexists(kept):
                continue
            os.rename(place, kept)
            return _SetAside(place, kept, moved=True)
        return _SetAside(place, kept)
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(place.parent))


def _put_back(aside: Sequence[_SetAside]) -> None:
    """Undo `_swap_in` as far as it went: each old file back at its path, each new file where none was removed."""
    for kept in reversed(aside):
        try:
            if kept.kept is not None and (kept.placed or kept.moved):
                os.replace(kept.kept, kept.place)
            elif kept.kept is not None:
                kept.kept.unlink()  # a second name of the file still in place
            elif kept.placed:
                os.unlink(kept.place)
        except OSError:
            continue  # best effort: the error that stopped the write is the one to report


_HELD_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextmanager
def _interrupts_held(hold: bool, paths: Sequence[str]) -> Iterator[None]:
    """Hold Ctrl-C, SIGTERM and SIGHUP while the block runs (a few renames): one that comes meanwhile is
    only noted, and raised as `InterruptedAfterWriting` once the block has finished. A signal the process
    ignores stays ignored. Python runs signal handlers in the main thread only, so a block run in another
    thread, or with `hold` false, is stopped by an interrupt as anywhere else (and `_swap_in` puts things back)."""
    import threading

    if not hold or threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(signum: int, frame: object) -> None:
        came.append(signum)

    before: dict[int, Any] = {}
    try:
        for signum in _HELD_SIGNALS:
            current = signal.getsignal(signum)
            # None: a handler set outside Python, which could not be put back.
            if current is not None and current != signal.SIG_IGN:
                before[signum] = signal.signal(signum, note)
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    if came:
        raise InterruptedAfterWriting(tuple(paths))


def _new_mode(place: Path) -> int:
    """The mode of a new file at `place`: what the umask gives, never more than the file it replaces allowed."""
    mode = 0o666 & ~current_umask()
    try:
        mode &= stat.S_IMODE(os.stat(place).st_mode)
    except OSError:
        pass
    return mode


# The atomic writer itself, used by `Output` alone (a test checks that no other module writes a file); here,
# not in jsonio, so that a command that writes nothing (an engine's `moves`) does not compile it.

def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux), since a
    set-and-restore would leave other threads a moment with umask 0."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def _fresh_file(target: Path) -> Path:
    """A new empty file beside `target`, private (0600), named `.TARGET.PID.XXXXXXXX.tmp`: the pid lets a later
    writer tell a killed write's leftover from a live one (cardkit/outputs.py), the eight random characters
    keep writers apart. Created with O_EXCL, so never an existing file nor the target of a planted symlink.
    (tempfile.mkstemp does the same, but importing tempfile costs more than an engine command's whole write.)"""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(1000):
        name = os.path.abspath(target.parent / f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(name, flags, 0o600)
        except FileExistsError:
            continue
        os.close(fd)
        return Path(name)
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(target.parent))


@contextmanager
def atomic_target(path: str | os.PathLike[str], exclusive: bool = False) -> Iterator[Path]:
    """A fresh temporary path beside `path`, renamed over it when the block ends without error.

    On any error or interrupt the temporary file is removed and `path` is left as it was.
    OSError from creating the file propagates for the caller to word. With `exclusive` the
    final step creates `path` only if it is absent (`FileExistsError` otherwise): see `place_new`.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _fresh_file(target)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        # mkstemp makes the file private; the finished file gets the mode any new file of the user's gets.
        tmp.chmod(_new_mode(target))
        if exclusive:
            place_new(tmp, target)
        else:
            os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def place_new(tmp: Path, target: Path) -> None:
    """Move the finished `tmp` to `target` only if no file is there, as one step the file system
    guarantees: of two writers racing for one name, exactly one succeeds, the other gets `FileExistsError`.

    A hard link is that step (and the file appears whole); where the file system has no hard links,
    `O_EXCL` reserves the name first and the rename then fills it.
    """
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV):
            raise
        os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        os.replace(tmp, target)
        return
    tmp.unlink()


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write `data` to `path` through `atomic_target`: a crash mid-write leaves the old file intact."""
    with atomic_target(path) as tmp:
        tmp.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def os_write_reason(exc: OSError) -> str:
    """Why a write failed, in words."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if exc.errno == errno.EFBIG:
        return "the file is over the size this process may write (ulimit -f)"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.EROFS:
        return "the file system is read-only"
    if exc.errno == errno.ENOTDIR:
        return "a folder in the path is a file"
    return exc.strerror or str(exc)


# SQLite's primary result codes for a write the file system refused (sqlite3.h).
_SQLITE_WRITE_FAILURES = {3: "permission denied", 8: "the file is read-only",
                          10: "the disk is full, the file is over the size this process may write (ulimit -f), or an I/O error",
                          13: "the disk is full", 14: "the file can't be created", 22: "the file is too large"}


def sqlite_write_reason(exc: sqlite3.Error, written: Path | None = None) -> str | None:
    """Why SQLite could not write, in words; None for an error that is not a failure to write.

    SQLite says only "disk I/O error" when a write past the file size limit fails (EFBIG): with the
    file it was writing, the limit and the free space tell which it was."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return None
    reason = _SQLITE_WRITE_FAILURES.get(code & 0xFF)
    if reason is None:
        return None
    if code & 0xFF == 10 and written is not None:
        reason = _io_error_cause(written) or reason
    return f"{reason} (SQLite: {exc})"


def _io_error_cause(written: Path) -> str | None:
    import shutil

    try:
        import resource  # POSIX only; elsewhere the general reason stands

        limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
        size = os.stat(written).st_size
        if limit != resource.RLIM_INFINITY and size + (1 << 16) >= limit:
            return "the file is over the size this process may write (ulimit -f)"
        if shutil.disk_usage(written.parent).free < (1 << 20):
            return "the disk is full"
    except (ImportError, OSError, ValueError):
        return None
    return None


_SPECIAL: tuple[tuple[Callable[[int], bool], str], ...] = (
    (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def check_output(out: Output) -> Path:
    """Apply the rule of this module to `out`; the real path to write."""
    given = Path(out.path)
    if os.path.islink(given) and not os.path.exists(given):
        raise OutputRefused(given, "is a symbolic link that leads to no file; give another file")
    # A dangling link among the folders would make the write create folders wherever it points.
    dangling = next((p for p in given.parents if os.path.islink(p) and not os.path.exists(p)), None)
    if dangling is not None:
        raise OutputRefused(given, f"is in {dangling}, a symbolic link that leads nowhere; give another file")
    # The folders' links are followed (a home folder may be one), the file's own never: a rename onto the
    # path replaces a link there, and what the link leads to decides only what is refused.
    real = Path(os.path.realpath(given.parent)) / given.name
    link = os.path.islink(real)
    try:
        st = os.stat(real)
    except (FileNotFoundError, NotADirectoryError):
        # Nothing there yet. A file where a folder must be is known now, before a command writes its other
        # outputs (a page, then its tables); other reasons a folder can't hold it fail the write, worded by the caller.
        if any(os.path.lexists(p) and not os.path.isdir(p) for p in real.parents):
            raise WriteFailed(given, "a folder in the path is a file") from None
        return real
    except OSError as exc:
        raise OutputRefused(given, f"cannot be checked before writing ({exc.strerror or exc}); nothing written") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputRefused(given, "is a directory; give a file name")
    if not stat.S_ISREG(st.st_mode):
        what = next((name for test, name in _SPECIAL if test(st.st_mode)), "a special file")
        raise OutputRefused(given, f"is {what}, not a regular file; cardkit writes only regular files")
    for source in out.inputs:
        try:
            same = os.path.samestat(st, os.stat(source))
        except OSError:
            continue
        if same:
            shown = "" if str(source) == str(given) else f" ({source})"
            raise OutputRefused(given, f"is an input of this command{shown}; cardkit never writes over its input")
    if link:
        if out.force and out.kind.forceable:
            return real
        reason = (f"is a symbolic link to {os.path.realpath(real)}; cardkit never writes through a link "
                  "(nothing written)")
        if out.kind.forceable:
            raise OutputRefused(given, reason, forcing_replaces=True, replaced="the link itself, not the file it leads to")
        raise OutputRefused(given, reason[:-len(" (nothing written)")] + ": give that file itself, or another one")
    if out.kind.keep_existing and not out.force:
        raise OutputRefused(given, f"exists, and a {out.kind.noun} is kept (nothing written)", forcing_replaces=True)
    identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    if st.st_size == 0 or out._recognised == (real, identity):
        return real
    if out.kind.recognise(real):
        out._recognised = (real, identity)
        return real
    if out.force and out.kind.forceable:
        return real
    what = describe(real, st.st_size)
    if out.kind.forceable:
        raise OutputRefused(given, f"is {what} that cardkit did not write as a {out.kind.noun}", forcing_replaces=True)
    raise OutputRefused(given, f"is {what} that cardkit did not write as a {out.kind.noun}; "
                               "it is left as it is: remove it yourself or give another file")


def file_head(path: Path, size: int = 4096) -> bytes | None:
    """The first `size` bytes of an existing output, for a kind's recogniser; None when it can't be read.

    Recognisers run after `check_output` has refused special files, so this never waits on a FIFO."""
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return None


def describe(path: Path, size: int) -> str:
    """A few words on what an existing file is, for a refusal."""
    head = file_head(path, 16) or b""
    if head.startswith(b"SQLite format 3\0"):
        tables = sqlite_tables(path)
        if tables:
            shown = ", ".join(tables[:5]) + (" ..." if len(tables) > 5 else "")
            return f"a SQLite database (tables {shown})"
        return "a SQLite database"
    return f"a {size:,}-byte file"


def sqlite_tables(path: Path) -> list[str]:
    """The table names of a SQLite file, read-only; empty when it can't be read."""
    import sqlite3
    from contextlib import closing

    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            return [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    except sqlite3.Error:
        return []


def _temporary_name(name: str, target: str) -> tuple[bool, int | None]:
    """Whether `name` is one of `atomic_target`'s temporaries of `target` (`.TARGET.PID.XXXXXXXX.tmp`,
    or `.TARGET.XXXXXXXX.tmp` from before names carried the pid, or either's `-journal`), and its pid."""
    match = re.fullmatch(re.escape(f".{target}.") + r"(?:(\d+)\.)?[a-z0-9_]{8}\.tmp(?:-journal)?", name)
    if match is None:
        return False, None
    return True, int(match.group(1)) if match.group(1) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists but belongs to someone else
    return True


def clean_stale_temporaries(target: Path, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed write of `target` left beside it; the ones removed.

    Stale means: named like `atomic_target`'s temporaries of this very target
    (`.NAME.*.tmp`, or a SQLite `-journal` of one), untouched for `STALE_SECONDS`, and
    its writer process (the pid in the name) no longer running. A live write is never touched.
    """
    now = time.time() if now is None else now
    removed: list[Path] = []
    prefix = f".{target.name}."
    try:
        # A plain listing rather than a glob: `_temporary_name` is the exact test, and every write comes here.
        with os.scandir(target.parent) as entries:
            candidates = [target.parent / e.name for e in entries if e.name.startswith(prefix)]
    except OSError:
        return removed
    for path in candidates:
        ours, pid = _temporary_name(path.name, target.name)
        if not ours:
            continue
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < STALE_SECONDS:
            continue
        if pid is not None and _alive(pid):
            continue
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            continue
    return removed

