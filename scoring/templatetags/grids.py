"""The big grids of the organiser's pages, built in Python: the evening page's progress grid and
the live overview's tables x rounds. At 1,000 players they have 3,000 and 1,000 cells; a
template loop with a ``{% url %}``, translation tags and number formatting per cell took most of
the page's time. Numbers are whole, every text is escaped once."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


def _seating_url() -> str:
    """The organiser's page of a seating without its number: one reverse() per grid."""
    return reverse("organiser:seating_detail", args=[0]).removesuffix("0/")


@register.simple_tag
def progress_rows(session, deals_per_round: int) -> SafeString:
    """The head and body of a session's progress grid (:class:`scoring.selectors.SessionProgress`):
    per cell the deals entered, ✔ when confirmed, a link to the seating's page."""
    url = conditional_escape(_seating_url())
    table = conditional_escape(gettext("Table"))
    round_ = conditional_escape(gettext("Round"))  # a literal call: makemessages finds it
    out = [f"<thead><tr><th>{round_}</th>"]
    out += [f"<th>{table} {int(number)}</th>" for number in session.tables]
    out.append("</tr></thead><tbody>")
    for number, cells in session.rounds:
        out.append(f"<tr><th>{int(number)}</th>")
        for c in cells:
            css = "done" if c.confirmed else "busy" if c.deals else "todo"
            mark = " ✔" if c.confirmed else ""
            out.append(
                f'<td class="{css}"><a href="{url}{int(c.seating_id)}/" title="{table} {int(c.table)}">'
                f"{int(c.deals)}/{int(deals_per_round)}{mark}</a></td>"
            )
        out.append("</tr>")
    out.append("</tbody>")
    return mark_safe("".join(out))  # noqa: S308 - numbers and escaped words only


def live_rows(grid) -> SafeString:
    """The body rows of the live overview (:class:`scoring.selectors.LiveGrid`): per table and
    round the state, linked to the seating's page. Built once per grid and language and kept in
    the shared cache with the grid (``scoring.views.live``): every organiser's poll shows them."""
    url = conditional_escape(_seating_url())
    words = {
        key: conditional_escape(text)
        for key, text in (
            ("confirmed", gettext("confirmed")),
            ("entered", gettext("entered")),
            ("wait_b", gettext("waiting for team B")),
            ("wait_a", gettext("waiting for team A")),
            ("in_progress", gettext("in progress")),
            ("not_started", gettext("not started")),
            ("locked", gettext("locked")),
            ("step_in", gettext("organiser: enter the missing deals")),
        )
    }
    locked = [bool(r.locked) for r in grid.rounds]
    out = []
    for number, cells in grid.rows:
        out.append(f'<tr><th class="num">{int(number)}</th>')
        for column, cell in enumerate(cells, start=1):
            if cell is None:
                out.append('<td class="state none">–</td>')
                continue
            state = cell.state
            stuck = ""
            if state in ("in_progress", "not_started") and column <= len(locked) and locked[column - 1]:
                # The table can enter nothing more: the organiser enters the rest (or unlocks).
                stuck = " stuck"
                text = (
                    f"{words['locked']} {int(cell.deals)}/{int(grid.deals_per_round)}<small>{words['step_in']}</small>"
                )
            elif state == "confirmed":
                text = f"✔ {words['confirmed']}"
            elif state == "entered":
                waiting = {"A": words["wait_b"], "B": words["wait_a"]}.get(cell.entered_by, "")
                text = f"{words['entered']}<small>{waiting}</small>"
            elif state == "in_progress":
                text = f"{words['in_progress']}<small>{int(cell.deals)}/{int(grid.deals_per_round)}</small>"
            else:
                text = words["not_started"]
            state = conditional_escape(state)
            out.append(
                f'<td class="state {state}{stuck}" data-state="{state}" '
                f'data-table="{int(number)}" data-round="{column}">'
                f'<a href="{url}{int(cell.seating_id)}/">{text}</a></td>'
            )
        out.append("</tr>")
    return mark_safe("".join(out))  # noqa: S308 - numbers and escaped words only


@register.simple_tag(takes_context=True)
def table_link_items(context, table_links, can_renew: bool) -> SafeString:
    """The evening page's list of table links: per table its link for the tablet and, for the
    Turnierleitung, the form for a new link (``table_links``: (number, link, form address))."""
    table = conditional_escape(gettext("Table"))
    question = conditional_escape(gettext("Make a new link for this table? The old link stops working at once."))
    button = conditional_escape(gettext("New link (tablet lost)"))
    token = conditional_escape(str(context.get("csrf_token", "")))
    out = []
    for number, link, renew in table_links:
        link = conditional_escape(link)
        form = ""
        if can_renew:
            form = (
                f' <form method="post" action="{conditional_escape(renew)}" class="inline" data-confirm="{question}">'
                f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'
                f'<button class="small">{button}</button></form>'
            )
        out.append(f'<li><strong>{table} {int(number)}</strong>: <a href="{link}">{link}</a>{form}</li>')
    return mark_safe("".join(out))  # noqa: S308 - every text escaped
