"""`cardkit serve` with hostile addresses and hostile data: error pages in words, formula-safe CSV."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.tournament import check_event
from cardkit.tournament.database import write_database
from cardkit.visible import csv_cell
from cardkit.web.csvguard import CsvRewriter

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "tests" / "data" / "tournament" / "spring-open"
CLI = [sys.executable, "-c", "from cardkit.cli.main import main; main()"]
# Cells a spreadsheet would run, as an organizer's players might name themselves and their decks.
FORMULAS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "\uff1d1+1",
            "\uff0bcmd", "\uff0d2+3", "\uff201"]


@pytest.fixture(scope="module")
def catalogue(catalogue_db: Path) -> Path:
    return catalogue_db


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("event")
    shutil.copytree(EVENT / "decks", folder / "decks")
    hawks = (EVENT / "decks" / "alice.deck").read_text(encoding="utf-8")
    body = hawks[hawks.index("\n", hawks.index("game:")) + 1:]
    for i, formula in enumerate(FORMULAS):
        (folder / "decks" / f"f{i}.deck").write_text(f"game: berserk-tcg\nplayer: {formula}\nname: {formula}\n{body}",
                                                    encoding="utf-8")
    out = tmp_path_factory.mktemp("db") / "t.db"
    write_database([check_event([folder / "decks"])], out)
    return out


def fetch(ds: Any, path: str) -> Any:
    async def go() -> Any:
        await ds.invoke_startup()
        return await ds.client.get(path)

    return asyncio.run(go())


@pytest.fixture(scope="module")
def ds(catalogue: Path, hostile_db: Path) -> Any:
    from cardkit.web.server import make_datasette

    return make_datasette({"cardkit": catalogue, "t": hostile_db})


def test_the_web_csv_of_an_attached_database_keeps_every_formula_text(ds: Any) -> None:
    for path in ("/t/decks.csv", "/t/decks.csv?_stream=1&_size=3", "/t/decks.csv?_dl=1",
                 "/t/verdicts.csv?_stream=1", "/t.csv?sql=select+player,name+from+decks"):
        response = fetch(ds, path)
        assert response.status_code == 200, path
        rows = list(csv.reader(io.StringIO(response.text)))
        players = {row[rows[0].index("player")] for row in rows[1:]}
        for formula in FORMULAS:
            assert "'" + formula in players, (path, formula)
        for row in rows:
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\uff1d", "\uff0b", "\uff20")), (path, cell)
                assert not cell.startswith("-") or re.fullmatch(r"-[0-9.]+", cell), (path, cell)


def test_numbers_and_the_catalogue_csv_are_unchanged(ds: Any, catalogue: Path) -> None:
    response = fetch(ds, "/cardkit/sets.csv")
    import sqlite3

    with sqlite3.connect(catalogue) as conn:
        count = conn.execute("select count(*) from sets").fetchone()[0]
    rows = list(csv.reader(io.StringIO(response.text)))
    assert len(rows) == count + 1 and not any(cell.startswith("'") for row in rows for cell in row)
    assert csv_cell(-3) == "-3" and csv_cell("-2.5") == "-2.5" and csv_cell("-2+3") == "'-2+3"


cells = st.one_of(st.text(max_size=12), st.sampled_from(FORMULAS + ["", '"', '""', "a\r\nb", "\n", ",", "-1", "1e5"]))


@settings(max_examples=examples(80))
@given(rows=st.lists(st.lists(cells, min_size=1, max_size=5), min_size=1, max_size=6), cuts=st.lists(st.integers(0, 400)))
def test_the_csv_rewriter_guards_each_cell_wherever_the_stream_is_cut(rows: list[list[str]], cuts: list[int]) -> None:
    text = io.StringIO(newline="")
    csv.writer(text, lineterminator="\r\n").writerows(rows)
    data = text.getvalue().encode("utf-8")
    rewriter = CsvRewriter()
    out = b""
    at = 0
    for cut in sorted(set(c for c in cuts if c < len(data))):
        out += rewriter.feed(data[at:cut])
        at = cut
    out += rewriter.feed(data[at:], final=True)
    assert list(csv.reader(io.StringIO(out.decode("utf-8"), newline=""))) == [[csv_cell(c) for c in row] for row in rows]


@pytest.mark.parametrize(("path", "status", "words"), [
    ("/cardkit/cards/x", 404, "names no row"),
    ("/cardkit/cards/x.json", 404, "names no row"),
    ("/cardkit/cards?_sort=nope", 400, "Cannot sort table by nope"),
    ("/cardkit/cards.json?_sort_desc=nope", 400, "Cannot sort table by nope"),
    ("/cardkit/nope", 404, "not found"),
    ("/t/decks?_where=nope(", 400, ""),
], ids=["short-row", "short-row-json", "sort", "sort-desc-json", "no-table", "bad-where"])
def test_a_bad_address_is_a_400_or_404_page_in_words(ds: Any, path: str, status: int, words: str) -> None:
    response = fetch(ds, path)
    assert response.status_code == status, response.text[:300]
    if path.split("?")[0].endswith(".json"):
        assert words in response.json()["error"]
    else:
        assert "<h1>" in response.text and words.lower() in response.text.lower()


@dataclass
class Served:
    """A live `cardkit serve`: its address while it runs; its exit code and terminal text once stopped by Ctrl-C."""

    base: str
    returncode: int | None = None
    err: str = ""


@contextmanager
def serving(catalogue: Path, attached: Path) -> Iterator[Served]:
    """`cardkit serve` of the catalogue with `attached` beside it, on a free port, stopped with Ctrl-C at the end."""
    proc = subprocess.Popen([*CLI, "serve", "--db", str(catalogue), "--attach", str(attached), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()  # type: ignore[union-attr]
        announced = re.search(r"at (http://127\.0\.0\.1:\d+)/cardkit", line)
        assert announced, line
        served = Served(announced.group(1))
        yield served
        proc.send_signal(signal.SIGINT)
        _, served.err = proc.communicate(timeout=20)
        served.returncode = proc.returncode
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_servers_terminal_prints_nothing_for_an_error_page(catalogue: Path, hostile_db: Path) -> None:
    with serving(catalogue, hostile_db) as served:
        for path in ("/cardkit/cards/x", "/cardkit/cards?_sort=nope", "/t/decks?_where=nope(", "/nope",
                     "/cardkit/cards/berserk-tcg,nope"):
            with pytest.raises(urllib.error.HTTPError) as failed:
                urllib.request.urlopen(served.base + path, timeout=20)
            assert failed.value.code in (400, 404), path
        with urllib.request.urlopen(served.base + "/t/decks.csv", timeout=20) as response:
            assert "'=HYPERLINK" in response.read().decode("utf-8")
    err = served.err
    assert served.returncode == 0
    assert [line for line in err.splitlines() if line.strip()] == ["stopped"] or "ERROR" not in err, err
    assert "ERROR" not in err and "Traceback" not in err and "error" not in err.lower(), err


def test_a_page_whose_sql_builds_a_huge_value_is_refused_in_words_without_building_it(ds: Any) -> None:
    for sql in ("select+length(randomblob(200000000))", "select+length(hex(zeroblob(5000000)))",
                "select+length(zeroblob(200000000))"):
        response = fetch(ds, "/t.json?sql=" + sql)
        assert response.status_code == 400, (sql, response.text[:300])
        assert "too big" in response.json()["error"], sql
    assert fetch(ds, "/t.json?sql=select+length(randomblob(1000000))+as+n").json()["rows"] == [[1000000]]


def test_the_servers_terminal_prints_no_warning_after_a_facet_by_no_column(catalogue: Path, hostile_db: Path) -> None:
    with serving(catalogue, hostile_db) as served:
        for path in ("/cardkit/cards?_facet=nope", "/t/decks?_facet=nope&_facet_array=nope&_facet_date=nope"):
            with pytest.raises(urllib.error.HTTPError) as failed:
                urllib.request.urlopen(served.base + path, timeout=20)
            assert failed.value.code == 400, path
        with urllib.request.urlopen(served.base + "/cardkit/cards", timeout=20) as response:
            assert response.status == 200
    assert served.returncode == 0
    assert "Warning" not in served.err and "never awaited" not in served.err and ".py:" not in served.err, served.err


# --- a heavy paste ---------------------------------------------------------------------------------------


def big_paste(lines: int) -> str:
    return "game: berserk-tcg\n" + "1 Guts\n" * lines


def test_a_big_paste_runs_off_the_event_loop_while_other_pages_are_answered(ds: Any) -> None:
    async def race() -> tuple[bool, Any, Any]:
        await ds.invoke_startup()
        post = asyncio.create_task(ds.client.post("/-/deck.json", data={"deck": big_paste(60_000)}))
        await asyncio.sleep(0.05)  # the paste's body is read and its check is under way
        page = await ds.client.get("/cardkit/sets.json?_shape=array")
        answered_first = not post.done()
        return answered_first, page, await post

    answered_first, page, posted = asyncio.run(race())
    assert page.status_code == 200 and len(page.json()) > 0
    assert answered_first, "the page waited for the paste's check"
    assert posted.status_code == 200
    reply = posted.json()
    # 60,000 alike lines are one problem with a count, not 60,000 problems with 15 candidates each.
    (ambiguous,) = [p for p in reply["problems"] if p["code"] == "AMBIGUOUS_CARD"]
    assert ambiguous["count"] == 60_000 and ambiguous["line"] == 2 and ambiguous["lines"][:3] == [2, 3, 4]
    assert len(posted.content) < 20_000


def test_more_deck_checks_than_the_server_takes_at_once_are_told_to_come_back(ds: Any,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.web import deckworkers

    monkeypatch.setattr(deckworkers, "DECK_CHECKS_WAITING", 0)
    monkeypatch.setattr(deckworkers, "DECK_CHECKS_AT_ONCE", 1)

    async def flood() -> list[Any]:
        await ds.invoke_startup()
        return list(await asyncio.gather(*(ds.client.post("/-/deck.json", data={"deck": big_paste(20_000)})
                                           for _ in range(3))))

    replies = asyncio.run(flood())
    statuses = sorted(r.status_code for r in replies)
    assert statuses[0] == 200 and 503 in statuses
    busy = next(r for r in replies if r.status_code == 503)
    assert "again" in busy.json()["error"]


def test_a_reply_names_at_most_a_thousand_problems_and_says_how_many_more(ds: Any) -> None:
    paste = "game: berserk-tcg\n" + "".join(f"1 Nosuchcard{i}\n" for i in range(1_500))

    async def post() -> Any:
        await ds.invoke_startup()
        return await ds.client.post("/-/deck.json", data={"deck": paste})

    reply = asyncio.run(post()).json()
    assert len(reply["problems"]) == 1_000 and reply["problems_omitted"] >= 500


# --- downloads -------------------------------------------------------------------------------------------


def test_the_catalogue_downloads_whole_and_an_attached_database_only_when_allowed(catalogue: Path,
                                                                                   hostile_db: Path) -> None:
    from cardkit.web.server import make_datasette

    closed, open_ = (make_datasette({"cardkit": catalogue, "t": hostile_db}, allow_download=allow) for allow in (False, True))
    assert fetch(closed, "/cardkit.db").content == catalogue.read_bytes()
    refused = fetch(closed, "/t.db")
    assert refused.status_code == 403 and "--allow-download" in refused.text
    assert "download-sqlite" not in fetch(closed, "/t").text and "download-sqlite" in fetch(closed, "/cardkit").text
    assert fetch(open_, "/t.db").content == hostile_db.read_bytes()
    assert "download-sqlite" in fetch(open_, "/t").text


def test_serve_help_names_allow_download() -> None:
    from typer.testing import CliRunner

    from cardkit.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0 and "--allow-download" in result.stdout


# --- cardkit's own queries under the server's time limit -------------------------------------------------


class _Settings:
    def __init__(self, limit_ms: int) -> None:
        self.limit_ms = limit_ms

    def setting(self, name: str) -> int:
        assert name == "sql_time_limit_ms"
        return self.limit_ms


def test_a_query_of_cardkits_own_is_stopped_at_the_servers_time_limit_in_words() -> None:
    import sqlite3

    from cardkit.web.querylimits import TooSlow, time_limited

    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    conn = sqlite3.connect(":memory:")
    with pytest.raises(TooSlow, match="longer than the server's limit of 50 ms"):
        time_limited(_Settings(50), lambda c: c.execute(endless).fetchall())(conn)
    # The handler is gone afterwards: the connection's next query runs to its end.
    assert conn.execute("SELECT count(*) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                        "WHERE i < 300000) SELECT i FROM n)").fetchone() == (300000,)


def test_the_table_search_and_the_ranked_page_refuse_3000_comma_separated_words_in_words(ds: Any) -> None:
    words = ",".join(["a"] * 3000)
    table = fetch(ds, f"/cardkit/cards?_search={words}")
    assert table.status_code == 200 and "the query has 3000 words and filters; the limit is" in table.text
    ranked = fetch(ds, f"/-/search?q={words}")
    assert ranked.status_code == 200 and "the query has 3000 words and filters; the limit is" in ranked.text


def test_the_ranked_search_page_runs_under_the_servers_time_limit(catalogue: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.web import server

    ds = server.make_datasette({"cardkit": catalogue})
    # Only the setting cardkit's own queries read is lowered: Datasette's schema questions keep their 2 s, so a
    # busy machine cannot interrupt them before the search runs (a 1 ms limit for everything did, under load).
    setting = ds.setting
    monkeypatch.setattr(ds, "setting", lambda key: 1 if key == "sql_time_limit_ms" else setting(key))
    page = fetch(ds, "/-/search?q=-zzzz")
    assert page.status_code == 200 and "took longer than the server&#39;s limit of 1 ms" in page.text


# --- deck checks in worker processes ---------------------------------------------------------------------


def test_a_deck_checked_in_a_worker_process_is_exactly_the_check_made_in_the_server() -> None:
    from cardkit.web import deckworkers
    from cardkit.web.deckpage import check_posted

    assert deckworkers.in_processes()
    body = b"deck=" + "game: berserk-tcg\n3 Guts\n3 Gutz\nSB: 2 Casca\n40 BK1-001\n".replace("\n", "%0A").encode()
    kind = "application/x-www-form-urlencoded"
    for page in (True, False):
        there = asyncio.run(deckworkers.off_the_loop(check_posted, kind, body, page))
        assert there == check_posted(kind, body, page)
    assert there.report.problems and there.fixes == {} and check_posted(kind, body, True).fixes


def test_a_worker_that_dies_fails_its_one_check_and_the_next_check_is_answered(ds: Any) -> None:
    import os

    from cardkit.web import deckworkers, errorpages

    with pytest.raises(deckworkers.CheckStopped, match="send it again"):
        asyncio.run(deckworkers.off_the_loop(os._exit, 3))

    async def post() -> Any:
        await ds.invoke_startup()
        return await ds.client.post("/-/deck.json", data={"deck": "game: berserk-tcg\n3 Guts\n"})

    reply = asyncio.run(post())
    assert reply.status_code == 200 and reply.json()["problems"][0]["code"] == "AMBIGUOUS_CARD"
    status, title, message = errorpages.describe_failure(deckworkers.CheckStopped("x"))
    assert (status, title) == (503, "Busy")


@pytest.mark.skipif(not hasattr(__import__("os"), "nice"), reason="the system has no nice()")
def test_a_deck_check_worker_runs_at_a_lower_priority_than_the_server() -> None:
    import os

    from cardkit.web import deckworkers

    assert asyncio.run(deckworkers.off_the_loop(os.nice, 0)) >= min(19, os.nice(0) + deckworkers.DECK_CHECK_NICENESS)


# --- what one query may cost -----------------------------------------------------------------------------

# Each ran 10 to 130 s inside one step of SQLite, where no time limit reaches.
COSTLY_SQL = {
    "printf-repeat": "select length(printf('%.*c', 2147483647, 'x'))",
    "printf-repeat-text": "select length(format('%.*c', ' 2147483647', 'x'))",
    "printf-width-real": "select length(printf('%*c', 2147483647.0, 'x'))",
    "instr-square": "select instr(printf('%.*c',1600000,'a'), printf('%.*c',800000,'a')||'b')",
    "instr-blobs": "select instr(zeroblob(1600000), zeroblob(800000) || x'01')",
    "instr-mixed": "select instr(printf('%.*c',1600000,'a'), zeroblob(800000) || x'01')",
    "replace-square": "select length(replace(printf('%.*c',1600000,'a'), printf('%.*c',800000,'a')||'b', ''))",
    "like-square": "select printf('%.*c',1600000,'a') like '%'||printf('%.*c',40000,'a')||'b'",
}


@pytest.mark.parametrize("sql", list(COSTLY_SQL.values()), ids=list(COSTLY_SQL))
def test_sql_that_would_cost_one_step_of_minutes_is_answered_or_refused_within_the_time_limit(ds: Any, sql: str) -> None:
    from urllib.parse import quote

    started = time.perf_counter()
    response = fetch(ds, "/t.json?sql=" + quote(sql))
    assert time.perf_counter() - started < 2
    assert response.status_code in (200, 400), response.text[:300]
    if response.status_code == 400:
        assert "too big" in response.json()["error"] or "too complex" in response.json()["error"]
    else:
        assert response.json()["rows"][0][0] in (0, 1_600_000)


def test_the_bounded_functions_answer_as_sqlites_own_do() -> None:
    import sqlite3

    from cardkit.web.querylimits import prepare_connection

    plain, bounded = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    prepare_connection(bounded)
    for sql in ("select printf('%d %s %5.2f %% %.*c %-4s| %q %Q %w', 3, 'x', 2.5, 3, 'z', 'ab', 'it''s', null, 'a\"b')",
                "select format('%5s', 'x')", "select printf('%*d', 6, 42)",
                "select printf('%.*c|%*d', ' 3x', 'z', 4.7, 1)", "select printf('%', 1)", "select printf('%5', 1)", "select printf(null)", "select printf(7)",
                "select instr('Koch the Bold', 'the')", "select instr(x'00ff01', x'ff01')", "select instr(123.5, 3.5)",
                "select instr(null, 'a')", "select instr('абв', 'в')", "select replace('a-b-c', '-', '+')",
                "select replace('abc', '', 'x')", "select replace(12345, 3, 'x')", "select replace(null, 'a', 'b')",
                "select replace('ab', 'a', null)"):
        assert bounded.execute(sql).fetchall() == plain.execute(sql).fetchall(), sql


def test_every_query_of_the_server_is_interrupted_at_its_time_limit_even_inside_a_thousand_slow_steps() -> None:
    import sqlite3

    from cardkit.web.querylimits import interrupt_at_limit

    conn = sqlite3.connect(":memory:", check_same_thread=False)
    conn.create_function("slow", 0, lambda: time.sleep(0.01))
    # A progress handler every 1,000 steps (Datasette's) would first look after 10 s of these.
    conn.set_progress_handler(lambda: 0, 1000)
    many = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000) SELECT count(slow()) FROM n"
    started = time.perf_counter()
    with pytest.raises(sqlite3.OperationalError, match="interrupt"):
        interrupt_at_limit(_Settings(200), lambda c: c.execute(many).fetchall())(conn)
    assert time.perf_counter() - started < 1
    assert conn.execute("select 1").fetchone() == (1,)


# --- stalled uploads -------------------------------------------------------------------------------------


def _stalled_post(base: str, length: int) -> Any:
    """A socket that has sent a deck post's header, declaring `length` bytes, and then nothing."""
    import socket
    from urllib.parse import urlsplit

    address = urlsplit(base)
    sock = socket.create_connection((address.hostname, address.port), timeout=20)
    sock.sendall((f"POST /-/deck.json HTTP/1.1\r\nHost: {address.netloc}\r\n"
                  f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\r\n").encode())
    return sock


def test_connections_that_declare_a_deck_and_send_nothing_hold_no_deck_check_place(catalogue: Path,
                                                                                   hostile_db: Path) -> None:
    from cardkit.web.deckworkers import DECK_CHECKS_WAITING

    with serving(catalogue, hostile_db) as served:
        stalled = [_stalled_post(served.base, 1_000_000) for _ in range(DECK_CHECKS_WAITING + 4)]
        try:
            time.sleep(0.5)
            body = b"deck=" + b"game: berserk-tcg%0A3 Guts%0A"
            request = urllib.request.Request(served.base + "/-/deck.json", data=body, method="POST")
            with urllib.request.urlopen(request, timeout=30) as response:
                assert response.status == 200
                assert json.loads(response.read())["problems"][0]["code"] == "AMBIGUOUS_CARD"
        finally:
            for sock in stalled:
                sock.close()


def test_a_post_declaring_more_than_a_form_holds_is_refused_from_its_header_alone(catalogue: Path,
                                                                                 hostile_db: Path) -> None:
    with serving(catalogue, hostile_db) as served:
        sock = _stalled_post(served.base, 100_000_000_000)
        try:
            started = time.perf_counter()
            received = b""
            while b"bytes" not in received and (chunk := sock.recv(65536)):
                received += chunk
            assert time.perf_counter() - started < 5
            reply = received.decode("utf-8", "replace")
        finally:
            sock.close()
    assert reply.startswith("HTTP/1.1 413"), reply[:200]
    assert "100,000,000,000 bytes" in reply


def test_a_deck_whose_body_stops_arriving_is_refused_after_the_body_time_limit(ds: Any,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.web import deckworkers

    monkeypatch.setattr(deckworkers, "BODY_SECONDS", 0.3)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if not sent:
            sent.append({})
            return {"type": "http.request", "body": b"deck=game", "more_body": True}
        await asyncio.sleep(3600)
        raise AssertionError("never")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def post() -> None:
        await ds.invoke_startup()
        scope = {"type": "http", "method": "POST", "path": "/-/deck.json", "raw_path": b"/-/deck.json",
                 "query_string": b"", "headers": [(b"content-type", b"application/x-www-form-urlencoded"),
                                                  (b"content-length", b"1000")], "http_version": "1.1",
                 "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": ""}
        await asyncio.wait_for(ds.app()(scope, receive, send), 5)

    started = time.perf_counter()
    asyncio.run(post())
    assert time.perf_counter() - started < 3
    start = next(m for m in sent if m.get("type") == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m.get("type") == "http.response.body")
    assert start["status"] == 408 and b"did not arrive within" in body


def _post_in_parts(ds: Any, parts: list[bytes]) -> tuple[int, bool]:
    """(status, whether the whole body had been read when the answer began) for a deck post sent in `parts`."""
    given: list[bytes] = list(parts)
    read_all_first: list[bool] = []
    status: list[int] = []

    async def receive() -> dict[str, Any]:
        body = given.pop(0)
        return {"type": "http.request", "body": body, "more_body": bool(given)}

    async def send(message: dict[str, Any]) -> None:
        if message.get("type") == "http.response.start":
            status.append(message["status"])
            read_all_first.append(not given)

    async def post() -> None:
        await ds.invoke_startup()
        length = str(sum(map(len, parts))).encode()
        scope = {"type": "http", "method": "POST", "path": "/-/deck.json", "raw_path": b"/-/deck.json",
                 "query_string": b"", "headers": [(b"content-type", b"application/x-www-form-urlencoded"),
                                                  (b"content-length", length)], "http_version": "1.1",
                 "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "root_path": ""}
        await ds.app()(scope, receive, send)

    asyncio.run(post())
    return status[0], read_all_first[0]


def test_a_paste_told_the_server_is_busy_is_read_whole_first_so_its_sender_reads_the_503_not_a_reset(
        ds: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.web import deckworkers

    parts = [b"deck=game%3A+berserk-tcg%0A", b"3+Guts%0A" * 60_000, b"%23+end%0A"]
    monkeypatch.setattr(deckworkers, "DECK_CHECKS_WAITING", 0)
    monkeypatch.setattr(deckworkers, "DECK_CHECKS_AT_ONCE", 0)
    assert _post_in_parts(ds, parts) == (503, True)
    monkeypatch.setattr(deckworkers, "BODIES_AT_ONCE", 0)
    assert _post_in_parts(ds, parts) == (503, True)


# --- what a served page shows of a player's text -----------------------------------------------------------


@pytest.fixture(scope="module")
def hidden_text_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hidden")
    shutil.copytree(EVENT / "decks", folder / "decks")
    hawks = (EVENT / "decks" / "alice.deck").read_text(encoding="utf-8")
    body = hawks[hawks.index("\n", hawks.index("game:")) + 1:]
    (folder / "decks" / "mallory.deck").write_text(
        f"game: berserk-tcg\nplayer: Mal\u202elory\x1b[2J\nname: \u2067Hawks\x1b[31m\n{body}", encoding="utf-8")
    out = tmp_path_factory.mktemp("hiddendb") / "t.db"
    write_database([check_event([folder / "decks"])], out)
    return out


def test_a_served_page_shows_a_players_bidi_and_escape_characters_escaped_as_a_published_page_does(
        catalogue: Path, hidden_text_db: Path) -> None:
    from cardkit.web.server import make_datasette

    served = make_datasette({"cardkit": catalogue, "t": hidden_text_db})
    pages = [fetch(served, path).text for path in ("/t/decks", "/t/decks?_facet=player", "/t/verdicts",
                                                   "/t/decks?player=Mal%E2%80%AElory%1B%5B2J")]
    for page in pages:
        assert "\x1b" not in page and "\u202e" not in page and "\u2067" not in page
    assert "Mal\\u202elory\\x1b[2J" in pages[0] and "\\u2067Hawks\\x1b[31m" in pages[0]
    assert "Mal\\u202elory\\x1b[2J" in pages[1] and "Mal\\u202elory\\x1b[2J" in pages[3]
    # The data itself is unchanged: JSON says exactly what the player wrote.
    rows = fetch(served, "/t/decks.json?_shape=array&_col=player").json()
    assert "Mal\u202elory\x1b[2J" in {row["player"] for row in rows}


def test_no_page_nor_query_shows_where_the_served_files_are(ds: Any, catalogue: Path, hostile_db: Path) -> None:
    places = (str(catalogue.resolve().parent), str(hostile_db.resolve().parent))
    listed = fetch(ds, "/-/databases.json")
    assert {db["name"] for db in listed.json()} == {"cardkit", "t"}
    assert all(db["size"] > 0 and "path" not in db for db in listed.json())
    for path in ("/-/databases.json", "/-/databases", "/t.json?sql=select+*+from+pragma_database_list",
                 "/cardkit?sql=select+file+from+pragma_database_list"):
        response = fetch(ds, path)
        assert response.status_code == 200 and not any(place in response.text for place in places), path
