"""The evening's results for the club's website: one self-contained HTML file (organiser,
Helfer and Turnierleitung), in the evening's language.

The file holds the ranking, each session's results (every round: the tables, both teams and the
matchsticks each team made) and the list of every deal, with its style inline: no stylesheet,
script, font or picture from anywhere, so it can be uploaded to any website or mailed as it is.
The columns of the ranking and the deal list are those of the CSV downloads (the same tables).
"""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tables2.export import TableExport

from scoring import selectors
from scoring.documents.data import load_session_plan
from scoring.documents.pdf_base import document_name, long_date
from scoring.tables import DealResultTable, RankingTable
from scoring.transfer.exports import attachment
from scoring.views.access import helper_required
from scoring.views.common import evening_or_404
from scoring.views.results import ranking_records
from scoring.web import tiebreak_labels

#: A cell set right-aligned: a number as the page shows it ("12", "6,2", "6.2", "3.*", "–").
NUMBER = re.compile(r"^(–|\d+([.,]\d+)?[.*°]*)$")


def _as_text(table) -> tuple[list[str], list[list[tuple[str, bool]]]]:
    """A django-tables2 table as the text of its CSV download: the headings, and the rows as
    (text, is a number) cells."""
    table.export_format = "csv"
    dataset = TableExport("csv", table).dataset
    rows = []
    for row in dataset:
        texts = ["" if v is None else str(v) for v in row]
        rows.append([(text, bool(NUMBER.match(text))) for text in texts])
    return [str(h) for h in dataset.headers], rows


def _sessions(evening) -> list[dict]:
    """Each drawn session: its rounds, each with its tables (teams and their matchsticks) and
    who sat out. One plan per session (:func:`load_session_plan`, a fixed number of queries)."""
    sessions = []
    for number in evening.sessions.order_by("number").values_list("number", flat=True):
        plan = load_session_plan(evening, number, scorer_url=str, with_deals=True)
        if plan is None:
            continue
        rounds = []
        for round_ in plan.rounds:
            tables = [
                {
                    "number": seat.table,
                    "team_a": seat.team_a.label,
                    "team_b": seat.team_b.label,
                    "points_a": sum(d.points_a for d in seat.deals),
                    "points_b": sum(d.points_b for d in seat.deals),
                    "deals": len(seat.deals),
                }
                for seat in round_.tables
            ]
            sitting_out = [round_.sitout.label] if round_.sitout else []
            sitting_out += [p.label for p in round_.session_sitters]
            rounds.append({"number": round_.number, "tables": tables, "sitting_out": sitting_out})
        sessions.append({"number": number, "rounds": rounds, "deals_per_round": plan.deals_per_round})
    return sessions


@helper_required
def results_html(request: HttpRequest, pk: int) -> HttpResponse:
    """The results file ``Ergebnisse – <evening> – <date>.html``, as a download."""
    evening = evening_or_404(pk)
    rows = selectors.evening_ranking(evening)
    if not rows:
        messages.error(request, _("There are no results yet: no player is checked in."))
        return redirect("organiser:ranking", pk=evening.pk)
    records, _provisional, criteria = ranking_records(evening, rows)
    names = selectors.evening_display_names(evening.pk)
    ranking = RankingTable(records, evening.sessions_count, criteria=criteria, rules=evening.rules)
    deals = DealResultTable(selectors.evening_deals(evening), names=names, exclude=("updated_at",), rules=evening.rules)
    ranking_head, ranking_rows_ = _as_text(ranking)
    deal_head, deal_rows = _as_text(deals)
    for cells, record in zip(ranking_rows_, records, strict=True):  # the place as on the page: "3.*"
        cells[0] = (f"{record['place']}.{'*' if record['shared'] else ''}", True)
    title = document_name(_("Results"), evening)
    content = render_to_string(
        "website/results.html",
        {
            "title": title,
            "evening": evening,
            "when": " · ".join(x for x in (long_date(evening.date), evening.venue) if x),
            "rules": _("Rules: %(name)s") % {"name": evening.get_rule_set_display()},
            "complete": selectors.evening_is_confirmed(evening),
            "ranking_head": ranking_head,
            "ranking_rows": ranking_rows_,
            "sessions": _sessions(evening),
            "deal_head": deal_head,
            "deal_rows": deal_rows,
            "chain": [tiebreak_labels.label(c, evening.rules) for c in selectors.evening_chain(evening)],
            "made": timezone.localtime(),
        },
    )
    response = HttpResponse(content, content_type="text/html; charset=utf-8")
    response["Content-Disposition"] = attachment(f"{title}.html")
    response["Cache-Control"] = "no-store"
    return response
