"""Everything to print for a session, in one PDF: the table list, the score sheets (blank, to
write on), the route cards and, for session 1, the table cards. Each document starts on a new
page with its own footer and page numbers, exactly as when printed on its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from scoring.documents import pdf_base as base
from scoring.documents.data import SessionPlan
from scoring.documents.route_cards import route_cards_part
from scoring.documents.score_sheets import score_sheets_part
from scoring.documents.table_cards import table_cards_part
from scoring.documents.table_lists import table_list_part


def session_print_name(evening, session_number: int) -> str:
    """ "Alles zum Drucken Durchgang 1 – <evening> – <date>"."""
    detail = gettext("Session %(number)s") % {"number": session_number}
    return base.document_name(gettext("Everything to print"), evening, detail)


def build_session_print(
    evening,
    plan: SessionPlan,
    *,
    tables: Sequence = (),
    table_url: Callable[[Any], str] | None = None,
    join_url: str = "",
    wifi_name: str = "",
    printed_at: datetime | None = None,
) -> bytes:
    """The session's documents in one PDF, as bytes.

    Args:
        evening: the Evening.
        plan: the session (:func:`scoring.documents.data.load_session_plan`).
        tables: the evening's tables (objects with ``number`` and ``code``) for the table cards;
            empty: no table cards (sessions after the first: the cards are on the tables already).
        table_url, join_url, wifi_name: as :func:`scoring.documents.table_cards.build_table_cards`.
    """
    parts = [
        table_list_part(evening, plan, printed_at=printed_at),
        score_sheets_part(evening, plan, filled=False, printed_at=printed_at),
        route_cards_part(evening, plan, printed_at=printed_at),
    ]
    if tables and table_url is not None:
        parts.append(
            table_cards_part(
                evening, tables, table_url=table_url, join_url=join_url, wifi_name=wifi_name, printed_at=printed_at
            )
        )
    return base.render_parts(parts, title=session_print_name(evening, plan.number), subject=gettext("Session"))
