"""The reads of the table's tablet (scoring.selectors.table_entry): its fingerprint, where everyone sits next."""

from __future__ import annotations

import pytest

from scoring import selectors, services
from scoring.models import Seating, Table
from scoring.selectors.history import evening_history
from tests.conftest import make_evening
from tests.selectors.test_seats import replaced_evening
from tests.services.test_draw_wishes import play_round


@pytest.mark.django_db
def test_a_table_without_a_round_of_its_own_sees_the_next_session_drawn(roster_evening):
    """The fingerprint of a table that plays in no round (its query returns no row, so the
    latest session comes from a second query) still changes when a session is drawn: its
    tablet moves on from "not drawn yet"."""
    table = Table.objects.create(evening=roster_evening, number=99)
    before = selectors.table_signature(table)
    assert selectors.table_signature(table) == before
    services.draw_session(evening=roster_evening, seed=1)
    assert not Seating.objects.filter(table=table).exists()
    assert selectors.table_signature(table) != before


@pytest.mark.django_db
def test_next_seats_on_the_tablet_follow_the_replacement():
    evening, session, sitter, leaver, partner = replaced_evening()
    seating = (
        Seating.objects.filter(round__session=session, round__number=1).filter(team_a__player_1=leaver).first()
        or Seating.objects.filter(round__session=session, round__number=1).filter(team_b__player_1=leaver).first()
    )
    nexts = {n.player.pk: n for n in selectors.next_seats(seating)}
    assert nexts[partner.pk].partner == sitter and nexts[partner.pk].table is not None
    assert nexts[leaver.pk].sits_out and nexts[leaver.pk].partner is None
    second = Seating.objects.filter(round__session=session, round__number=2).first()
    for n in selectors.next_seats(second):
        assert not n.not_drawn and n.seat.round == 3


@pytest.mark.django_db
def test_after_the_last_round_the_next_session_or_not_drawn():
    evening = make_evening(16)
    session = services.draw_session(evening=evening, seed=1)
    last = Seating.objects.filter(round__session=session, round__number=evening.rounds_per_session).first()
    assert all(n.not_drawn and not n.sits_out for n in selectors.next_seats(last))
    for number in range(1, evening.rounds_per_session + 1):
        play_round(session, number)
    services.draw_session(evening=evening, seed=2)
    seats = selectors.next_seats(last)
    assert all(n.seat.session == 2 and n.seat.round == 1 and n.table for n in seats)


def _whole_round_seats(seating: Seating) -> dict[int, tuple]:
    """Player id -> (table, partner ids) in the round after ``seating``'s, worked out from that
    whole round (the history of every table)."""
    after = seating.round.session.rounds.get(number=seating.round.number + 1)
    seats = evening_history(seating.round.session.evening, rounds=(after.pk,)).rounds[0].seats()
    return {pid: (s.table, s.partners) for pid, s in seats.items()}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "rule_set", "replaced"),
    [(17, "", False), (18, "", False), (17, "", True), (31, "braeus6", False)],
    ids=["sit-out-player", "sit-out-partnership", "replacement", "six-handed"],
)
def test_next_seats_read_from_the_tables_players_alone_are_those_of_the_whole_round(players, rule_set, replaced):
    """The tablet reads "where everyone sits next" from the tables of its own players only (issue
    15: not the whole round of 1,000 players for every tablet): for every table of round 1, each
    player's next table, partners and opponents are those the whole round gives, with a session
    sit-out player, a round's sit-out partnership, a replacement and teams of three."""
    if replaced:
        evening, session, *_ = replaced_evening(players)
    else:
        evening = make_evening(players, rule_set=rule_set) if rule_set else make_evening(players)
        session = services.draw_session(evening=evening, seed=3)
        play_round(session, 1)
    seatings = list(Seating.objects.filter(round__session=session, round__number=1))
    assert seatings
    for seating in seatings:
        whole = _whole_round_seats(seating)
        for next_seat in selectors.next_seats(seating):
            seat = next_seat.seat
            got = None if seat is None else (seat.table, tuple(p.pk for p in seat.partners))
            assert got == whole.get(next_seat.player.pk), next_seat.player
    # What was read: only the (at most two) tables of one table's two teams, not the whole round.
    after = session.rounds.get(number=2)
    players = [*seatings[0].team_a.player_ids, *seatings[0].team_b.player_ids]
    read = evening_history(evening, rounds=(after.pk,), players=players).rounds[0]
    assert 1 <= len(read.tables) <= 2 < len(seatings)
