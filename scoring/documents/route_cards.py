"""Route cards (Laufzettel): one small card per player with partner (both partners in a team of
three) and table for every round of the session; eight cards to an A4 page (six when a session
has more than five rounds), players from A to Z, with cut lines."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.platypus import FrameBreak, KeepInFrame, Table, TableStyle

from scoring.documents import pdf_base as base
from scoring.documents.data import SessionPlan, partners_of, person_sort_key, seats_by_player


def route_cards_name(evening, session_number: int) -> str:
    detail = gettext("Session %(number)s") % {"number": session_number}
    return base.document_name(gettext("Route cards"), evening, detail)


def build_route_cards(evening, plan: SessionPlan, *, printed_at: datetime | None = None) -> bytes:
    """:func:`route_cards_part` as PDF bytes."""
    return base.render_part(route_cards_part(evening, plan, printed_at=printed_at))


def route_cards_part(evening, plan: SessionPlan, *, printed_at: datetime | None = None) -> base.Part:
    """Route cards of every player of the session, A to Z, to render with
    :func:`base.render_part` or with other documents."""
    title = route_cards_name(evening, plan.number)
    decor = base.PageDecor(title=title, printed=base.printed_text(printed_at))
    rows = 4 if len(plan.rounds) <= 5 else 3
    template = base.cut_template(2, rows, template_id="cards")
    frame = template.frames[0]
    seats = seats_by_player(plan)
    partners = partners_of(plan)
    session = gettext("Session %(number)s") % {"number": plan.number}
    kicker = " · ".join((gettext("Route card"), session))
    story: list[base.Flowable] = []
    for player in sorted(seats, key=person_sort_key):
        if story:
            story.append(FrameBreak())
        mates = partners.get(player, ())
        content = [
            base.para(kicker, 10, color="#555555"),
            base.para(evening.name, 10, color="#555555", space_after=4),
            base.para(player.label, 17, bold=True),
        ]
        if player.club:
            content.append(base.para(player.club, 10, color="#555555"))
        if len(mates) > 1:  # a team of three
            names = " & ".join(p.label for p in mates)
            line = gettext("Partners: %(names)s") % {"names": names}
        elif mates:
            line = gettext("Partner: %(name)s") % {"name": mates[0].label}
        else:
            line = gettext("You sit out this whole session.")
        content.append(base.para(line, 12, space_after=4))
        content.append(_rounds(seats[player], frame._width))
        story.append(KeepInFrame(frame._width, frame._height, content, mode="shrink"))
    if not story:
        story.append(base.para(gettext("No tables in this session."), 14))
    return base.Part(story, title, decor, [template], gettext("Route cards"))


def _rounds(seats, width: float) -> Table:
    data = []
    for seat in seats:
        where = gettext("sits out") if seat.sits_out else gettext("Table %(n)s") % {"n": seat.table}
        data.append([gettext("Round %(n)s") % {"n": seat.round}, where])
    return Table(
        data,
        colWidths=[width * 0.45, width * 0.55],
        style=TableStyle(
            [
                ("FONT", (0, 0), (0, -1), base.FONT, 13),
                ("FONT", (1, 0), (1, -1), base.FONT_BOLD, 13),
                ("LEFTPADDING", (0, 0), (-1, -1), 2),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
                ("LINEBELOW", (0, 0), (-1, -2), 0.4, base.RULE),
                ("ROWBACKGROUNDS", (0, 0), (-1, -1), [colors.white, base.LIGHT]),
            ]
        ),
        hAlign="LEFT",
    )
