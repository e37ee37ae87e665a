"""Tournament tools: check every deck submission of an event, against the registration list, and report.

One function per output of an event, each from its files to the written file: `check_and_report`,
`write_event_database`, `publish_event`, `register_event` (`cardkit.tournament.workflows`).
"""

from __future__ import annotations

from cardkit.tournament.check import EventCheck, Submission, Verdict, check_event, check_submission, find_submissions
from cardkit.tournament.registrations import Registration, Registrations, read_registrations
from cardkit.tournament.workflows import check_and_report, publish_event, register_event, write_event_database

__all__ = ["EventCheck", "Registration", "Registrations", "Submission", "Verdict", "check_and_report", "check_event",
           "check_submission", "find_submissions", "publish_event", "read_registrations", "register_event",
           "write_event_database"]
