"""``doublesix reports``: the reports players sent the site's operator (``server/reports.py``).

- ``list [--all]``: the open reports, oldest first, one a paragraph (``--all``: the closed
  ones too, with their notes);
- ``close ID [--note TEXT]``: the report is dealt with. What to do about the account is
  ``doublesix account silence`` or ``close``.

Like ``account``, each runs on the site's database (``--db``, as ``serve``'s), the server
running or not.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from doublesix.cli.common import Subparsers, UsageError
from doublesix.cli.site_db import add_db, on_site

if TYPE_CHECKING:
    from doublesix.server.reports import Report


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "reports",
        help="the reports players sent the operator: list them, close one",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tasks = parser.add_subparsers(dest="task", required=True, metavar="TASK")
    listing = tasks.add_parser("list", help="the open reports, oldest first")
    listing.add_argument("--all", action="store_true", help="the closed ones too")
    close = tasks.add_parser("close", help="close the report ID: it has been dealt with")
    close.add_argument("id", metavar="ID", type=int, help="the report's number, as listed")
    close.add_argument("--note", default=None, help="what was done, kept with the report")
    for task in (listing, close):
        add_db(task)
    return parser


def run(args: argparse.Namespace) -> int:
    from doublesix.server import reports

    if args.task == "list":
        found = on_site(args.db, lambda s: reports.reports(s, closed=args.all))
        for report in found:
            print(shown(report))
        if not found:
            print("no open reports" if not args.all else "no reports")
        return 0
    if args.note is not None and len(args.note) > reports.NOTE_MAX:
        raise UsageError(f"--note: at most {reports.NOTE_MAX} characters")
    closed = on_site(args.db, lambda s: reports.close(s, args.id, args.note, time.time()))
    print(f"report {closed.id} about {closed.name} is closed")
    return 0


def shown(report: Report) -> str:
    """A report as the operator reads it: its number, when, who about whom and why, where,
    the text, and the note once closed."""
    when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(report.at))
    where = f" at table {report.table}" if report.table else ""
    lines = [
        f"#{report.id} {when} UTC  {report.reporter} reports {report.name}: {report.reason}{where}"
    ]
    if report.text:
        lines += [f"    {line}" for line in report.text.splitlines()]
    if report.message is not None:  # a private message reported: its words ("": erased)
        lines.append("    their message:" + ("" if report.message else " (erased)"))
        lines += [f"    > {line}" for line in report.message.splitlines()]
    if report.closed_at is not None:
        closed = time.strftime("%Y-%m-%d %H:%M", time.gmtime(report.closed_at))
        lines.append(f"    closed {closed} UTC" + (f": {report.note}" if report.note else ""))
    return "\n".join(lines)
