"""Event reports for organizers: CSV for spreadsheets, JSON for scripts, one self-contained HTML page."""

from __future__ import annotations

import csv
import io
import json
import os
from html import escape
from pathlib import Path
from typing import Callable

from cardkit.errors import BadArgument
from cardkit.outputs import Kind, Output, file_head
from cardkit.problems import Problem
from cardkit.tournament.check import EventCheck, Submission
from cardkit.visible import csv_cell, visible, visible_json

CSV_COLUMNS: tuple[str, ...] = ("path", "player", "name", "game", "format", "verdict", "legal", "errors", "warnings",
                                "hash", "codes", "first_problem")


def _html(value: object) -> str:
    """Text for the page: made visible, then HTML-escaped."""
    return escape(visible(value))


def _problem_text(p: Problem) -> str:
    return f"{p.code}: {p.message}"


def render_csv(result: EventCheck) -> str:
    """One row per submission (and per missing player); `codes` lists every problem code, space-separated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for s in result.submissions:
        problems = s.problems
        row = (s.path, s.player, s.name, s.report.game, s.report.format, s.verdict.value,
               "yes" if s.verdict.value == "legal" else "no", s.errors, s.warnings, s.hash,
               " ".join(p.code for p in problems), _problem_text(s.first_problem) if s.first_problem else "")
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()


def render_json(result: EventCheck) -> str:
    return visible_json(json.dumps(result.to_dict(), ensure_ascii=False, indent=2)) + "\n"


_CSS = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222}
h1{margin-bottom:.2rem} .meta{color:#555;margin-top:0}
.summary span{display:inline-block;margin:.2rem .6rem .2rem 0;padding:.3rem .7rem;border-radius:.4rem;background:#eee}
table{border-collapse:collapse;width:100%;margin:1rem 0} th,td{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} tr.legal td.verdict{background:#d8f5d8} tr.illegal td.verdict{background:#f8d0d0}
tr.unreadable td.verdict{background:#f6c38a} tr.missing td.verdict{background:#ddd}
td.hash{font-family:monospace} .error{color:#a00} .warning{color:#8a5a00}
section{border-top:1px solid #ddd;padding-top:.4rem} ul{margin:.3rem 0}
"""


def _problems_html(problems: list[Problem]) -> str:
    items = []
    for p in problems:
        where = f"line {p.line}: " if p.line is not None else ""
        items.append(f'<li class="{_html(p.severity.value)}"><b>{_html(p.code)}</b> ({_html(p.severity.value)}) '
                     f"{_html(where)}{_html(p.message)}</li>")
    return "<ul>" + "".join(items) + "</ul>"


def _row_html(i: int, s: Submission) -> str:
    first = s.first_problem
    link = f'<a href="#s{i}">{_html(first.code)}</a>' if first else ""
    cells = [f'<td class="verdict">{_html(s.verdict.value)}</td>', f"<td>{_html(s.path or '—')}</td>",
             f"<td>{_html(s.player or '')}</td>", f"<td>{_html(s.name or '')}</td>",
             f"<td>{_html(s.report.format or s.report.game or '')}</td>", f"<td>{s.errors}</td>", f"<td>{s.warnings}</td>",
             f'<td class="hash" title="{_html(s.hash or "")}">{_html((s.hash or "")[:12])}</td>',
             f"<td>{link}</td>"]
    return f'<tr class="{_html(s.verdict.value)}">{"".join(cells)}</tr>'


# Marks the page as cardkit's own, so a later report may replace it without --force.
_GENERATOR = '<meta name="generator" content="cardkit tournament check">'
_JSON_KEYS = {"event", "format", "registrations", "legal", "summary", "problems", "submissions"}
# A report written before the verdict was named `legal` everywhere is still cardkit's own.
_OLD_JSON_KEYS = (_JSON_KEYS - {"legal"}) | {"ok"}


def render_html(result: EventCheck) -> str:
    """A page that opens anywhere: summary counts, the table of verdicts, then every submission's problems."""
    summary = result.summary()
    title = f"{result.event}: deck check"
    counts = "".join(f"<span>{_html(k)}: <b>{v}</b></span>" for k, v in summary.items())
    meta = f"format {_html(result.format or 'each deck its own')}"
    if result.registrations:
        meta += f"; registrations {_html(result.registrations)}"
    parts = [f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">{_GENERATOR}<title>{_html(title)}</title>',
             f"<style>{_CSS}</style></head><body>", f"<h1>{_html(title)}</h1>", f'<p class="meta">{meta}</p>',
             f'<p class="summary">{counts}</p>']
    if result.problems:
        parts += ["<h2>Registration list</h2>", _problems_html(result.problems)]
    parts.append("<table><thead><tr><th>verdict</th><th>file</th><th>player</th><th>deck</th><th>format</th>"
                 "<th>errors</th><th>warnings</th><th>hash</th><th>first problem</th></tr></thead><tbody>")
    parts += [_row_html(i, s) for i, s in enumerate(result.submissions)]
    parts.append("</tbody></table><h2>Problems per submission</h2>")
    for i, s in enumerate(result.submissions):
        if s.problems:
            label = s.path or f"{s.player} (no submission)"
            parts.append(f'<section id="s{i}"><h3>{_html(label)}</h3>'
                         f"<p>{_html(s.player or 'no player')} · {_html(s.verdict.value)}</p>{_problems_html(s.problems)}</section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


RENDERERS: dict[str, Callable[[EventCheck], str]] = {".csv": render_csv, ".json": render_json, ".html": render_html}


def report_renderer(path: str | os.PathLike[str]) -> Callable[[EventCheck], str]:
    """The renderer for the report file's suffix; `BadArgument` for any other suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".htm":
        suffix = ".html"
    try:
        return RENDERERS[suffix]
    except KeyError:
        raise BadArgument(f"report {path}: unknown suffix {suffix or '(none)'!r}; use .csv, .json or .html") from None


def is_report(path: Path) -> bool:
    """True for a report `write_report` wrote: a CSV whose first line is exactly its header, a JSON
    object with exactly the report's keys, or an HTML page with cardkit's generator tag near its top."""
    head = file_head(path)
    if head is None:
        return False
    if head.startswith(b"{"):
        whole = file_head(path, 4096 + (64 << 20))
        try:
            data = json.loads((whole or b"").decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return False
        return isinstance(data, dict) and set(data) in (_JSON_KEYS, _OLD_JSON_KEYS)
    if head.startswith(b"<!DOCTYPE html>"):
        return _GENERATOR.encode() in head
    return head.split(b"\n", 1)[0] == ",".join(CSV_COLUMNS).encode()


REPORT = Kind("report", is_report, forceable=True)


def write_report(result: EventCheck, path: str | os.PathLike[str], inputs: tuple[Path, ...] = (),
                 force: bool = False) -> None:
    """Write the report chosen by `path`'s suffix atomically (a crash leaves any old report whole),
    through the guarded writer: never over an input (the event's decks and registration list
    are added here), a special file, or a file that is not an earlier report unless `force`."""
    text = report_renderer(path)(result)
    out = Output(Path(path), REPORT, inputs, force).with_inputs(result_inputs(result))
    out.write(text)


def result_inputs(result: EventCheck) -> list[Path]:
    """Every file the event check read: the submissions and the registration list."""
    found = [Path(s.path) for s in result.submissions if s.path]
    return found + ([Path(result.registrations)] if result.registrations else [])
