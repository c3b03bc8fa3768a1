"""The clock stops with its round: once every table has confirmed the round a
clock was started for, it is gone from the projector, the tablets and "Where do I sit?"; it never
counts on into the next session; at the evening's end no clock at all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.domain import clock
from scoring.models import Evening, Round, Seating
from scoring.setup.builders import evening_with_players, play_round, play_seating

pytestmark = pytest.mark.django_db

CLOCK = 'data-testid="round-clock"'


@pytest.fixture
def evening(db):
    """Eight players, two sessions of two rounds of one deal; session 1 drawn."""
    evening = evening_with_players(8, sessions_count=2, rounds_per_session=2, deals_per_round=1)
    services.draw_session(evening=evening, seed=1)
    return evening


def _round(evening, session=1, number=1) -> Round:
    return Round.objects.get(session__evening=evening, session__number=session, number=number)


def _fresh(evening) -> Evening:
    return Evening.objects.get(pk=evening.pk)


def test_the_rule():
    now = timezone.now()
    running = clock.ClockState(clock.ROUND, clock.RUNNING, 1, 1, now + timedelta(minutes=5))
    pause = clock.ClockState(clock.BREAK, clock.RUNNING, 1, 1, now + timedelta(minutes=5))
    assert not clock.outlived(running, round_done=False, evening_over=False)
    assert clock.outlived(running, round_done=True, evening_over=False)
    assert not clock.outlived(pause, round_done=True, evening_over=False)  # a break follows a round
    assert clock.outlived(pause, round_done=True, evening_over=True)
    assert not clock.outlived(clock.ClockState(), round_done=True, evening_over=True)


def test_the_organisers_confirmation_stops_it_too(evening, organiser):
    services.start_round_clock(evening_id=evening.pk, round_id=_round(evening).pk)
    for seating in Seating.objects.filter(round=_round(evening)):
        play_seating(seating, complete=False)
        services.confirm_seating(seating_id=seating.pk, team="B", user=organiser)
    assert _fresh(evening).clock_kind == ""


def test_the_next_rounds_clock_is_left_alone(evening):
    services.start_round_clock(evening_id=evening.pk, round_id=_round(evening, number=2).pk)
    play_round(evening.sessions.get(number=1), 1)
    assert (_fresh(evening).clock_round, _fresh(evening).clock_status) == (2, "running")


def test_closing_the_session_stops_its_rounds_clock(evening):
    services.start_round_clock(evening_id=evening.pk, round_id=_round(evening).pk)
    services.set_session_closed(session_id=evening.sessions.get(number=1).pk, closed=True)
    assert _fresh(evening).clock_kind == ""
