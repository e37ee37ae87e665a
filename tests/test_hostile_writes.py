"""Writes that fail or race: a full disk, a file size limit, two writers at once.

Every writer goes through `cardkit.outputs.Output`; SQLite files through `Output.database()`.
Whatever fails: one `error:` line (one JSON error under --json), exit 2, no traceback, and
nothing written: no new file, no temporary left behind, an existing file left as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from limits import file_size_limit, file_size_limited_child
from sampling import examples

from cardkit.errors import OutputRefused, WriteFailed
from cardkit.outputs import Kind, Output

ROOT = Path(__file__).resolve().parent.parent
MINI = ROOT / "tests" / "data" / "catalogue" / "mini"
EVENT = ROOT / "tests" / "data" / "tournament" / "spring-open"
KEEP = Kind("test file", lambda path: True, forceable=True, keep_existing=True)
ANY = Kind("test file", lambda path: True)


@pytest.fixture(scope="module")
def mini_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A CARDKIT_HOME with the real formats and schemas and the small test catalogue, so a build takes a moment."""
    home = tmp_path_factory.mktemp("home")
    (home / "data").mkdir()
    for item in (ROOT / "data").iterdir():
        if item.name not in ("cards", "catalogue.json"):
            (home / "data" / item.name).symlink_to(item)
    (home / "data" / "cards").symlink_to(MINI / "cards")
    (home / "data" / "catalogue.json").symlink_to(MINI / "catalogue.json")
    (home / "schemas").symlink_to(ROOT / "schemas")
    return home


def cardkit(args: list[str], cwd: Path, limit: int | None = None, **env: str) -> subprocess.CompletedProcess[str]:
    environment: dict[str, str] = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    preexec = None
    if limit is not None:
        environment, preexec = file_size_limited_child(environment, limit)
    return subprocess.run([sys.executable, "-m", "cardkit", *args], cwd=cwd, env=environment, capture_output=True,
                          text=True, timeout=120, preexec_fn=preexec)


def assert_one_write_error(done: subprocess.CompletedProcess[str], as_json: bool) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    if as_json:
        assert json.loads(done.stdout)["error"]["code"] == "WRITE_FAILED"
        assert "ulimit -f" in json.loads(done.stdout)["error"]["message"]
    else:
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: can't write ")
        assert "ulimit -f" in done.stderr


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_build_past_the_file_size_limit_is_one_error_and_writes_nothing(mini_home: Path, tmp_path: Path,
                                                                          as_json: bool) -> None:
    done = cardkit(["build", "--out", "c.db", *(["--json"] if as_json else [])], tmp_path, limit=16 << 10,
                   CARDKIT_HOME=str(mini_home))
    assert_one_write_error(done, as_json)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_failed_build_leaves_the_earlier_database_as_it_was(mini_home: Path, tmp_path: Path) -> None:
    assert cardkit(["build", "--out", "c.db"], tmp_path, CARDKIT_HOME=str(mini_home)).returncode == 0
    before = (tmp_path / "c.db").read_bytes()
    # A limit below the old file's size: the rebuild can't finish, the old database stays whole.
    done = cardkit(["build", "--out", "c.db"], tmp_path, limit=16 << 10, CARDKIT_HOME=str(mini_home))
    assert_one_write_error(done, False)
    assert [p.name for p in tmp_path.iterdir()] == ["c.db"] and (tmp_path / "c.db").read_bytes() == before


def test_the_first_use_build_under_cardkit_db_is_one_json_error(mini_home: Path, tmp_path: Path) -> None:
    done = cardkit(["cards", "search", "--json", "guts"], tmp_path, limit=16 << 10, CARDKIT_HOME=str(mini_home),
                   CARDKIT_DB=str(tmp_path / "first.db"))
    assert_one_write_error(done, True)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_a_tournament_database_past_the_file_size_limit_is_one_error(tmp_path: Path, as_json: bool) -> None:
    done = cardkit(["tournament", "db", str(EVENT), "--out", "t.db", *(["--json"] if as_json else [])], tmp_path,
                   limit=8 << 10)
    assert_one_write_error(done, as_json)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_report_and_a_registry_past_the_limit_fail_the_same_way(tmp_path: Path) -> None:
    for args in (["tournament", "check", str(EVENT), "--report", "r.html"],
                 ["tournament", "register", str(EVENT), "--out", "r.json"]):
        assert_one_write_error(cardkit(args, tmp_path, limit=512), False)
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=examples(40))
@given(rows=st.integers(min_value=0, max_value=400), limit=st.integers(min_value=0, max_value=64 << 10),
       existing=st.booleans())
def test_the_sqlite_writer_either_writes_the_whole_database_or_nothing(rows: int, limit: int, existing: bool,
                                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("db")
    target = folder / "x.db"
    if existing:
        target.write_bytes(b"earlier")
    try:
        with file_size_limit(limit):
            with Output(target, ANY).database() as conn:
                conn.execute("CREATE TABLE t (n INTEGER, s TEXT)")
                conn.executemany("INSERT INTO t VALUES (?, ?)", ((i, "x" * 100) for i in range(rows)))
    except WriteFailed as exc:
        assert exc.error_code == "WRITE_FAILED" and str(target) in exc.message
        assert [p.name for p in folder.iterdir()] == (["x.db"] if existing else [])
        assert not existing or target.read_bytes() == b"earlier"
        return
    assert [p.name for p in folder.iterdir()] == ["x.db"]
    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT count(*) FROM t").fetchone() == (rows,)
    conn.close()


@settings(max_examples=examples(40))
@given(size=st.integers(min_value=0, max_value=32 << 10), limit=st.integers(min_value=0, max_value=32 << 10))
def test_any_file_written_past_the_limit_is_write_failed_and_the_old_file_stays(
        size: int, limit: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("out")
    target = folder / "x.json"
    target.write_bytes(b"earlier")
    try:
        with file_size_limit(limit):
            Output(target, ANY).write(b"x" * size)
    except WriteFailed:
        assert size > limit
        assert [p.name for p in folder.iterdir()] == ["x.json"] and target.read_bytes() == b"earlier"
        return
    assert size <= limit and target.read_bytes() == b"x" * size


def test_an_error_that_is_not_a_failed_write_is_left_to_its_caller(tmp_path: Path) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        with Output(tmp_path / "x.db", ANY).database() as conn:
            conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            conn.executemany("INSERT INTO t VALUES (?)", [(1,), (1,)])
    assert list(tmp_path.iterdir()) == []


# --- two writers at once -------------------------------------------------------------------------------------


def test_a_file_that_appears_before_the_final_step_is_never_replaced(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "registry.json"
    out = Output(target, KEEP)
    with pytest.raises(OutputRefused, match="another command meanwhile"):
        with out.target() as tmp:
            tmp.write_bytes(b"mine")
            # The other writer wins the race after this writer's last check: only the file system can tell.
            monkeypatch.setattr(Output, "check", lambda self: self.path)
            target.write_bytes(b"theirs")
    assert target.read_bytes() == b"theirs" and [p.name for p in tmp_path.iterdir()] == ["registry.json"]


def test_with_force_the_final_step_replaces(tmp_path: Path) -> None:
    target = tmp_path / "registry.json"
    target.write_bytes(b"old")
    Output(target, KEEP, force=True).write(b"new")
    assert target.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["registry.json"]


def test_without_hard_links_the_name_is_still_taken_only_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def no_links(src: object, dst: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    Output(tmp_path / "a.json", KEEP).write(b"first")
    (tmp_path / "b.json").write_bytes(b"theirs")
    # Past every check, as if the other writer took the name just before this one's final step.
    monkeypatch.setattr(Output, "check", lambda self: self.path)
    with pytest.raises(OutputRefused):
        Output(tmp_path / "b.json", KEEP).write(b"mine")
    assert (tmp_path / "a.json").read_bytes() == b"first" and (tmp_path / "b.json").read_bytes() == b"theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json", "b.json"]


RACER = """
import sys, time
from pathlib import Path
from cardkit.cli._errors import exit_code_of
from cardkit.errors import CardkitError
from cardkit.outputs import Kind, Output
start, target, me = float(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
kind = Kind("registry", lambda path: True, forceable=True, keep_existing=True)
out = Output(target, kind)
try:
    with out.target() as tmp:
        tmp.write_text(me * 1000)
        time.sleep(max(0.0, start - time.time()))  # both finish their work, then race for the name
except CardkitError as exc:
    print(exc.error_code)
    sys.exit(exit_code_of(exc))
print("wrote")
"""


def test_of_two_writers_racing_for_one_registry_exactly_one_writes(tmp_path: Path) -> None:
    import time

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for trial in range(3):
        target = tmp_path / f"r{trial}.json"
        start = time.time() + 0.8
        racers = [subprocess.Popen([sys.executable, "-c", RACER, str(start), str(target), me], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for me in "ab"]
        results = [(p.wait(timeout=60), p.stdout.read().strip() if p.stdout else "") for p in racers]
        for p in racers:
            assert p.stderr is not None and "Traceback" not in p.stderr.read()
        assert sorted(results) == [(0, "wrote"), (2, "OUTPUT_REFUSED")], results
        winner = "ab"[[r[0] for r in results].index(0)]
        assert target.read_text() == winner * 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"r{t}.json" for t in range(3)]


def test_two_tournament_registers_started_together_write_one_registry(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    racers = [subprocess.Popen([sys.executable, "-m", "cardkit", "tournament", "register", str(EVENT), "--json",
                                "--out", "r.json"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [p.communicate(timeout=120) for p in racers]
    codes = sorted(p.returncode for p in racers)
    assert codes == [0, 2], outputs
    refused = next(json.loads(out) for (out, _), p in zip(outputs, racers) if p.returncode == 2)
    assert refused["error"]["code"] == "OUTPUT_REFUSED"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["kind"] == "cardkit-registry"


def test_a_full_disk_is_said_in_words_for_any_file_and_for_sqlite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(os, "fsync", full)
        with pytest.raises(WriteFailed, match="the disk is full"):
            Output(tmp_path / "r.json", ANY).write(b"{}")
    assert list(tmp_path.iterdir()) == []
    from cardkit.outputs import sqlite_write_reason

    exc = sqlite3.OperationalError("database or disk is full")
    exc.sqlite_errorcode = 13  # SQLITE_FULL, as SQLite reports ENOSPC
    assert (sqlite_write_reason(exc) or "").startswith("the disk is full")
    assert sqlite_write_reason(sqlite3.OperationalError("no such table: x")) is None

