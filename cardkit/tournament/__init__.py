"""Tournament tools: check every deck submission of an event, against the registration list, and report."""

from __future__ import annotations

from cardkit.tournament.check import (EventCheck, Submission, Verdict, check_event, check_submission,
                                      find_submissions)
from cardkit.tournament.registrations import Registration, Registrations, read_registrations

__all__ = ["EventCheck", "Registration", "Registrations", "Submission", "Verdict", "check_event", "check_submission",
           "find_submissions", "read_registrations"]
