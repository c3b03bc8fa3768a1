"""Table list (Tischliste) of a session, for the wall: large print, A4 portrait.

Part one: the rounds, as many to a page as fit whole (26 players: two rounds a page; a round
with many tables starts a page and continues on the next, with its heading repeated): table
number, the two teams (two or three names each), who sits out.
Part two, from a new page: the players from A to Z, each with their partner (both partners in a
team of three) and table in every round ("setzt aus" where they sit out). It is set a little
smaller when that puts it on one page; over several pages its rows are shared out evenly and its
heading is on each page, so no page holds a scrap of two rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.platypus import PageBreak, Spacer, Table

from scoring.documents import pdf_base as base
from scoring.documents.data import RoundPlan, SessionPlan, partners_of, person_sort_key, seats_by_player

NAME = 18  # pt, team names on the wall
SMALLER_NAME = 16  # pt, when it puts two rounds on a page
NUMBER = 28  # pt, table numbers
LIST = 14  # pt, the A-Z list
#: Sizes tried for the A-Z list, largest first, to put it on one page.
LIST_SIZES = (LIST, 13, 12)
#: Space between two rounds on one page.
ROUND_GAP = 8 * mm
SITS_OUT = 10  # pt, "setzt aus" in a round column of the A-Z list


def table_list_name(evening, session_number: int) -> str:
    detail = gettext("Session %(number)s") % {"number": session_number}
    return base.document_name(gettext("Table list"), evening, detail)


def build_table_list(evening, plan: SessionPlan, *, printed_at: datetime | None = None) -> bytes:
    """:func:`table_list_part` as PDF bytes."""
    return base.render_part(table_list_part(evening, plan, printed_at=printed_at))


def table_list_part(evening, plan: SessionPlan, *, printed_at: datetime | None = None) -> base.Part:
    """The table list of a session (the rounds, as many to a page as fit whole, then the players
    from A to Z), to render with :func:`base.render_part` or with other documents."""
    title = table_list_name(evening, plan.number)
    decor = base.PageDecor(title=title, printed=base.printed_text(printed_at))
    session = gettext("Session %(number)s") % {"number": plan.number}
    room = base.frame_height(decor)
    width = base.FRAME_WIDTH
    story, pages = _rounds(evening, plan, session, room, NAME)
    if pages > 1:
        smaller, fewer = _rounds(evening, plan, session, room, SMALLER_NAME)
        if fewer < pages:  # two rounds a page in slightly smaller print (26 players: 2 pages, not 4)
            story = smaller
    story.append(PageBreak())
    heading = " · ".join((gettext("Players from A to Z"), session))
    above = [base.para(evening.name, 14, space_after=4)]
    first_room = base.room_below(above, width, room)
    tables = _players_table(plan, heading, first_room, room, LIST)
    if len(tables) == 2:  # a list on one page and a bit: smaller print may put it on one
        for size in LIST_SIZES[1:]:
            smaller = _players_table(plan, heading, first_room, room, size)
            if len(smaller) == 1:
                tables = smaller
                break
    story += [*above, *base.one_a_page(tables)]
    return base.Part(story, title, decor, None, gettext("Table list"))


def _rounds(evening, plan: SessionPlan, session: str, room: float, name_size: float) -> tuple[list, int]:
    """Part one, names in ``name_size`` points: each round below the one before when it fits
    whole on the page, else from a new page (``room``: a page's frame height). Returns the
    flowables and the number of pages they take."""
    width = base.FRAME_WIDTH
    story: list = []
    pages = 0
    free = 0.0  # height left on the current page
    for round_ in plan.rounds:
        heading = " · ".join((gettext("Table list"), session, gettext("Round %(n)s") % {"n": round_.number}))
        sitouts = _sitouts(plan, round_, name_size)
        whole = _round_table(round_, heading, float("inf"), float("inf"), name_size)
        height = -base.room_below([*whole, *sitouts], width, 0)
        if story and len(whole) == 1 and height + ROUND_GAP <= free - base.PAGE_SLACK:
            story += [Spacer(1, ROUND_GAP), *whole, *sitouts]  # another round on this page
            free -= height + ROUND_GAP
            continue
        if story:
            story.append(PageBreak())
        above = [base.para(evening.name, 14, space_after=4)]
        tables = _round_table(round_, heading, base.room_below(above, width, room), room, name_size)
        story += [*above, *base.one_a_page(tables), *sitouts]
        pages += len(tables)
        free = base.room_below([*(above if len(tables) == 1 else ()), tables[-1], *sitouts], width, room)
    return story, pages


def _round_table(
    round_: RoundPlan, heading: str, first_room: float, room: float, name_size: float = NAME
) -> list[Table]:
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
    number_size = NUMBER * name_size / NAME
    compact = name_size < NAME  # two rounds a page: tighter rows, a smaller heading
    padding = (2, 3) if compact else (5, 6)
    data: list[list] = [
        [base.para(heading, 20 if compact else 24, bold=True), "", ""],
        [gettext("Table"), gettext("Team A"), gettext("Team B")],
    ]
    for seat in round_.tables:
        data.append(
            [str(seat.table), _team_cell(seat.team_a, team_w, name_size), _team_cell(seat.team_b, team_w, name_size)]
        )
    return base.page_by_page(
        data,
        col_widths=[number_w, team_w, team_w],
        repeat_rows=2,
        first_room=first_room,
        room=room,
        balance=True,
        commands=[
            ("FONT", (0, 0), (-1, -1), base.FONT, name_size),
            ("SPAN", (0, 0), (-1, 0)),
            ("LEFTPADDING", (0, 0), (0, 0), 0),
            ("BOTTOMPADDING", (0, 0), (-1, 0), 6 if compact else 10),
            ("FONT", (0, 1), (-1, 1), base.FONT_BOLD, 12),
            ("FONT", (0, 2), (0, -1), base.FONT_BOLD, number_size, number_size * 1.1),
            ("FONT", (1, 2), (-1, -1), base.FONT, name_size, name_size * 1.2),
            ("ALIGN", (0, 1), (0, -1), "CENTER"),
            ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 1), (-1, -1), padding[0]),
            ("BOTTOMPADDING", (0, 1), (-1, -1), padding[1]),
            ("LINEBELOW", (0, 1), (-1, 1), 1.2, colors.black),
            ("LINEBELOW", (0, 2), (-1, -1), 0.5, base.RULE),
            ("LINEAFTER", (0, 1), (1, -1), 0.5, base.RULE),
            ("ROWBACKGROUNDS", (0, 2), (-1, -1), [colors.white, base.LIGHT]),
        ],
    )


def _team_cell(team, width: float, size: float = NAME):
    """The team's names (two, or three), one a line; a name too long for the column wraps at its
    spaces (:func:`_names_cell`)."""
    return _names_cell([p.label for p in team.players], size, width - 14)


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


def _sitouts(plan: SessionPlan, round_: RoundPlan, size: float = NAME) -> list:
    out = []
    gap = 4 * mm if size >= NAME else 2 * mm
    if round_.sitout:
        out += [Spacer(1, gap), base.para(gettext("Sits out") + ": " + round_.sitout.label, size, bold=True)]
    if len(round_.session_sitters) == 1:
        text = gettext("%(name)s sits out this whole session.") % {"name": round_.session_sitters[0].label}
        out += [Spacer(1, gap), base.para(text, size, bold=True)]
    elif round_.session_sitters:  # two players left over by the teams of three
        names = " & ".join(p.label for p in round_.session_sitters)
        text = gettext("%(names)s sit out this whole session.") % {"names": names}
        out += [Spacer(1, gap), base.para(text, size, bold=True)]
    return out


def _partner_cell(mates: list[str], width: float, size: float = LIST):
    """The partner's name ("–" for nobody); both partners of a team of three one a line."""
    if len(mates) > 1:
        return _names_cell(mates, size, width - 12)
    return _cell(mates[0] if mates else "–", size, width)


class _RoundColumns(NamedTuple):
    """The round columns of the players' list: width and padding (pt), the headings and the size
    of their words and of "setzt aus" (pt)."""

    width: float
    pad: float
    heads: list[str]
    head_size: float
    sits_size: float


def _round_columns(rounds: list[int], size: float, width: float) -> _RoundColumns:
    """Narrow round columns ("setzt aus" may take two lines), so that names rarely wrap; with six to
    eight rounds half the page's ``width``, less padding. "Runde 8" and "setzt aus" a little smaller
    where a word would not fit its column: never broken inside a word ("Ru/nd/e 8", "set/zt")."""
    sits_out = gettext("sits out")
    heads = [gettext("Round %(n)s") % {"n": n} for n in rounds]
    widest_word = max(
        [base.text_width(word, SITS_OUT) for word in sits_out.split()]
        + [base.text_width(word, SITS_OUT, bold=True) for head in heads for word in head.split()]
    )
    round_w = max(widest_word + 16, base.text_width("00", size, bold=True) + 16, 14 * mm)
    pad = 6  # pt, each side of a round column (reportlab's default)
    if len(rounds) * round_w > width * 0.5:  # six to eight rounds: half the width, less padding
        round_w, pad = width * 0.5 / max(len(rounds), 1), 2
    inner = round_w - 2 * pad  # pt, the room for text in a round column
    head_size = min(
        [SITS_OUT, *(SITS_OUT * inner / base.text_width(w, SITS_OUT, bold=True) for h in heads for w in h.split())]
    )
    sits_size = min([SITS_OUT, *(SITS_OUT * inner / base.text_width(w, SITS_OUT) for w in sits_out.split())])
    return _RoundColumns(round_w, pad, heads, head_size, sits_size)


def _player_rows(plan: SessionPlan, columns: _RoundColumns, name_w: float, partner_w: float, size: float) -> list:
    """One row per player A to Z: name, partner, and per round the table, "setzt aus" or "–"."""
    seats = seats_by_player(plan)
    partners = partners_of(plan)
    sits_out = gettext("sits out")
    rows = []
    for player in sorted(seats, key=person_sort_key):
        by_round = {s.round: s for s in seats[player]}
        mates = [p.label for p in partners.get(player, ())]
        cells = []
        for round_ in plan.rounds:
            seat = by_round.get(round_.number)
            if seat is None:  # left the session (replaced) or joined it later as a replacement
                cells.append("–")
            elif seat.sits_out:
                cells.append(_cell(sits_out, columns.sits_size, columns.width, padding=2 * columns.pad, align="center"))
            else:
                cells.append(str(seat.table))
        rows.append([_cell(player.label, size, name_w), _partner_cell(mates, partner_w, size), *cells])
    return rows


def _players_table_style(size: float, pad: float) -> list[tuple]:
    """The players' list's table style: heading spanned, column names bold, rows striped."""
    return [
        ("FONT", (0, 0), (-1, 0), base.FONT, 11),  # every cell in DejaVu Sans, the spanned ones too
        ("SPAN", (0, 0), (-1, 0)),
        ("LEFTPADDING", (0, 0), (0, 0), 0),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 8),
        ("FONT", (0, 1), (-1, 1), base.FONT_BOLD, 11),
        ("FONT", (0, 2), (1, -1), base.FONT, size, size * 1.2),
        ("FONT", (2, 2), (-1, -1), base.FONT_BOLD, size, size * 1.2),
        ("ALIGN", (2, 1), (-1, -1), "CENTER"),
        ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 1), (-1, -1), 3),
        ("BOTTOMPADDING", (0, 1), (-1, -1), 4),
        ("LINEBELOW", (0, 1), (-1, 1), 1.2, colors.black),
        ("LINEBELOW", (0, 2), (-1, -1), 0.4, base.RULE),
        ("ROWBACKGROUNDS", (0, 2), (-1, -1), [colors.white, base.LIGHT]),
        ("LEFTPADDING", (2, 1), (-1, -1), pad),
        ("RIGHTPADDING", (2, 1), (-1, -1), pad),
    ]


def _players_table(plan: SessionPlan, heading: str, first_room: float, room: float, size: float = LIST) -> list[Table]:
    """The players A to Z in ``size`` points, a table per page (:func:`base.page_by_page`, rows
    shared out evenly), the heading ("Spieler von A bis Z · Durchgang 1") and the column names
    on top of each."""
    rounds = [r.number for r in plan.rounds]
    width = base.FRAME_WIDTH
    columns = _round_columns(rounds, size, width)
    round_w, pad = columns.width, columns.pad
    name_w = (width - len(rounds) * round_w) * 0.52
    partner_w = width - len(rounds) * round_w - name_w
    data: list[list] = [
        [base.para(heading, 24, bold=True), "", *[""] * len(rounds)],
        [
            gettext("Name"),
            gettext("Partner"),
            *[base.para(head, columns.head_size, bold=True, align="center") for head in columns.heads],
        ],
        *_player_rows(plan, columns, name_w, partner_w, size),
    ]
    commands = _players_table_style(size, pad)
    small: dict[int, Sequence[tuple]] = {  # "setzt aus" and "–" in the round columns (every such cell of a row)
        row: [
            ("FONT", column, column, base.FONT, columns.sits_size)
            for column, value in enumerate(line[2:], start=2)
            if not (isinstance(value, str) and value.isdigit())
        ]
        for row, line in enumerate(data[2:], start=2)
    }
    return base.page_by_page(
        data,
        col_widths=[name_w, partner_w, *[round_w] * len(rounds)],
        repeat_rows=2,
        commands=commands,
        row_commands=small,
        first_room=first_room,
        room=room,
        balance=True,
    )
