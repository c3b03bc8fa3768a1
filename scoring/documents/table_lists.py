"""Table list (Tischliste) of a session, for the wall: large print, A4 portrait.

Part one: one round per page (a round with many tables continues on the next page, with the
heading row repeated): table number, the two teams (two or three names each), who sits out.
Part two: the players from A to Z, each with their partner (both partners in a team of three)
and table in every round ("setzt aus" where they sit out).
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import PageBreak, Spacer, Table

from scoring.documents import pdf_base as base
from scoring.documents.data import RoundPlan, SessionPlan, partners_of, person_sort_key, seats_by_player

NAME = 18  # pt, team names on the wall
NUMBER = 28  # pt, table numbers
LIST = 14  # pt, the A-Z list
SITS_OUT = 10  # pt, "setzt aus" in a round column of the A-Z list


def table_list_name(evening, session_number: int) -> str:
    detail = gettext("Session %(number)s") % {"number": session_number}
    return base.document_name(gettext("Table list"), evening, detail)


def build_table_list(evening, plan: SessionPlan, *, printed_at: datetime | None = None) -> bytes:
    """The table list of a session as PDF bytes (one round per page, then players A to Z)."""
    title = table_list_name(evening, plan.number)
    decor = base.PageDecor(title=title, printed=base.printed_text(printed_at))
    session = gettext("Session %(number)s") % {"number": plan.number}
    room = base.frame_height(decor)
    width = base.FRAME_WIDTH
    story = []
    for round_ in plan.rounds:
        if story:
            story.append(PageBreak())
        heading = " · ".join((gettext("Table list"), session, gettext("Round %(n)s") % {"n": round_.number}))
        above = [base.para(evening.name, 14, space_after=4)]
        story += [*above, *_round_table(round_, heading, base.room_below(above, width, room), room)]
        story += _sitouts(plan, round_)
    story.append(PageBreak())
    above = [
        base.para(" · ".join((gettext("Players from A to Z"), session)), 24, bold=True, space_after=2),
        base.para(evening.name, 14, space_after=8),
    ]
    story += [*above, *_players_table(plan, base.room_below(above, width, room), room)]
    return base.render(story, title=title, decor=decor, subject=gettext("Table list"))


def _round_table(round_: RoundPlan, heading: str, first_room: float, room: float) -> list[Table]:
    """The round's tables, a table per page (:func:`base.page_by_page`, ``first_room``: the
    height free on its first page, ``room`` on the others); the heading ("Tischliste ·
    Durchgang 1 · Runde 2") and the column names stand at the top of every page the round needs,
    so each page on the wall says which round it is."""
    width = base.FRAME_WIDTH
    number_w = (
        max(
            base.text_width(gettext("Table"), 12, bold=True),
            base.text_width(str(max((t.table for t in round_.tables), default=0)), NUMBER, bold=True),
        )
        + 16
    )
    team_w = (width - number_w) / 2
    data = [
        [base.para(heading, 24, bold=True), "", ""],
        [gettext("Table"), gettext("Team A"), gettext("Team B")],
    ]
    for seat in round_.tables:
        data.append([str(seat.table), _team_cell(seat.team_a, team_w), _team_cell(seat.team_b, team_w)])
    return base.page_by_page(
        data,
        col_widths=[number_w, team_w, team_w],
        repeat_rows=2,
        first_room=first_room,
        room=room,
        commands=[
            ("FONT", (0, 0), (-1, -1), base.FONT, NAME),
            ("SPAN", (0, 0), (-1, 0)),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
            ("BOTTOMPADDING", (0, 0), (-1, 0), 10),
            ("FONT", (0, 1), (-1, 1), base.FONT_BOLD, 12),
            ("FONT", (0, 2), (0, -1), base.FONT_BOLD, NUMBER, NUMBER * 1.1),
            ("FONT", (1, 2), (-1, -1), base.FONT, NAME, NAME * 1.2),
            ("ALIGN", (0, 1), (0, -1), "CENTER"),
            ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 1), (-1, -1), 5),
            ("BOTTOMPADDING", (0, 1), (-1, -1), 6),
            ("LINEBELOW", (0, 1), (-1, 1), 1.2, colors.black),
            ("LINEBELOW", (0, 2), (-1, -1), 0.5, base.RULE),
            ("LINEAFTER", (0, 1), (1, -1), 0.5, base.RULE),
            ("ROWBACKGROUNDS", (0, 2), (-1, -1), [colors.white, base.LIGHT]),
        ],
    )


def _team_cell(team, width: float):
    """The team's names (two, or three), one a line; a name too long for the column wraps at its
    spaces (:func:`_names_cell`)."""
    return _names_cell([p.label for p in team.players], NAME, width - 14)


def _names_cell(names: list[str], size: float, room: float):
    """``names`` one a line, a name too long for ``room`` wrapped at its spaces. A plain string
    (drawn line by line, far cheaper than a paragraph: 250 tables x 4 rounds at 1,000 players)
    unless a single word is wider than the column: then a paragraph breaks it."""
    if all(base.fits(name, size, room) for name in names):
        return "\n".join(names)
    if all(base.fits(word, size, room) for word in " ".join(names).split()):
        return "\n".join(line for name in names for line in simpleSplit(name, base.FONT, size, room))
    return base.lines(names, size, leading=size * 1.2)


def _cell(text: str, size: float, width: float, **kwargs):
    """:func:`base.cell`, but a text that wraps at its spaces stays a plain string of lines."""
    room = width - kwargs.get("padding", 12)
    if not base.fits(text, size, room) and all(base.fits(word, size, room) for word in text.split()):
        return "\n".join(simpleSplit(text, base.FONT, size, room))
    return base.cell(text, size, width, **kwargs)


def _sitouts(plan: SessionPlan, round_: RoundPlan) -> list:
    out = []
    if round_.sitout:
        out += [Spacer(1, 4 * mm), base.para(gettext("Sits out") + ": " + round_.sitout.label, NAME, bold=True)]
    if len(round_.session_sitters) == 1:
        text = gettext("%(name)s sits out this whole session.") % {"name": round_.session_sitters[0].label}
        out += [Spacer(1, 4 * mm), base.para(text, NAME, bold=True)]
    elif round_.session_sitters:  # two players left over by the teams of three
        names = " & ".join(p.label for p in round_.session_sitters)
        text = gettext("%(names)s sit out this whole session.") % {"names": names}
        out += [Spacer(1, 4 * mm), base.para(text, NAME, bold=True)]
    return out


def _partner_cell(mates: list[str], width: float):
    """The partner's name ("–" for nobody); both partners of a team of three one a line."""
    if len(mates) > 1:
        return _names_cell(mates, LIST, width - 12)
    return _cell(mates[0] if mates else "–", LIST, width)


def _players_table(plan: SessionPlan, first_room: float, room: float) -> list[Table]:
    """The players A to Z, a table per page (:func:`base.page_by_page`), the column names on
    top of each."""
    seats = seats_by_player(plan)
    partners = partners_of(plan)
    players = sorted(seats, key=person_sort_key)
    rounds = [r.number for r in plan.rounds]
    width = base.FRAME_WIDTH
    sits_out = gettext("sits out")
    # Narrow round columns ("setzt aus" may take two lines), so that names rarely wrap.
    heads = [gettext("Round %(n)s") % {"n": n} for n in rounds]
    widest_word = max(
        [base.text_width(word, SITS_OUT) for word in sits_out.split()]
        + [base.text_width(word, SITS_OUT, bold=True) for head in heads for word in head.split()]
    )
    round_w = max(widest_word + 16, base.text_width("00", LIST, bold=True) + 16, 14 * mm)
    if len(rounds) * round_w > width * 0.5:
        round_w = width * 0.5 / max(len(rounds), 1)
    name_w = (width - len(rounds) * round_w) * 0.52
    partner_w = width - len(rounds) * round_w - name_w
    data = [
        [gettext("Name"), gettext("Partner"), *[base.para(head, SITS_OUT, bold=True, align="center") for head in heads]]
    ]
    for player in players:
        by_round = {s.round: s for s in seats[player]}
        mates = [p.label for p in partners.get(player, ())]
        cells = []
        for n in rounds:
            seat = by_round.get(n)
            if seat is None:  # left the session (replaced) or joined it later as a replacement
                cells.append("–")
            elif seat.sits_out:
                cells.append(_cell(sits_out, SITS_OUT, round_w, padding=10, align="center"))
            else:
                cells.append(str(seat.table))
        data.append(
            [
                _cell(player.label, LIST, name_w),
                _partner_cell(mates, partner_w),
                *cells,
            ]
        )
    commands = [
        ("FONT", (0, 0), (-1, 0), base.FONT_BOLD, 11),
        ("FONT", (0, 1), (1, -1), base.FONT, LIST, LIST * 1.2),
        ("FONT", (2, 1), (-1, -1), base.FONT_BOLD, LIST, LIST * 1.2),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LINEBELOW", (0, 0), (-1, 0), 1.2, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.4, base.RULE),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, base.LIGHT]),
    ]
    small = {  # "setzt aus" and "–" in the round columns
        row: [("FONT", column, column, base.FONT, SITS_OUT)]
        for row, line in enumerate(data[1:], start=1)
        for column, value in enumerate(line[2:], start=2)
        if not (isinstance(value, str) and value.isdigit())
    }
    return base.page_by_page(
        data,
        col_widths=[name_w, partner_w, *[round_w] * len(rounds)],
        repeat_rows=1,
        commands=commands,
        row_commands=small,
        first_room=first_room,
        room=room,
    )
