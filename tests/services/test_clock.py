"""The clock stops with its round: once every table has confirmed the round a
clock was started for, it is gone from the projector, the tablets and "Where do I sit?"; it never
counts on into the next session; at the evening's end no clock at all."""

from __future__ import annotations

import importlib
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import selectors, services
from scoring.domain import clock
from scoring.models import Evening, Player, ProjectorMode, Round, Seating, Table
from scoring.services.base import ServiceError
from scoring.setup.builders import evening_with_players, play_round, play_seating, play_session

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


def _pages(evening, organiser) -> dict[str, str]:
    """The projector's clock view, a tablet, a player's seat page and the seat finder."""
    services.set_projector_mode(evening_id=evening.pk, mode=ProjectorMode.ROTATION, user=organiser)
    client = Client()
    table = Table.objects.get(evening=evening, number=1)
    player = Player.objects.get(name="Spieler 1")
    return {
        "projector": client.get(reverse("public:projector", args=[evening.pk])).content.decode(),
        "tablet": client.get(reverse("scorer:table", args=[table.token])).content.decode(),
        "seat": client.get(reverse("public:seat", args=[evening.pk, player.pk])).content.decode(),
        "finder": client.get(reverse("public:seat_finder", args=[evening.pk])).content.decode(),
    }


def test_the_rule():
    now = timezone.now()
    running = clock.ClockState(clock.ROUND, clock.RUNNING, 1, 1, now + timedelta(minutes=5))
    pause = clock.ClockState(clock.BREAK, clock.RUNNING, 1, 1, now + timedelta(minutes=5))
    assert not clock.outlived(running, round_done=False, evening_over=False)
    assert clock.outlived(running, round_done=True, evening_over=False)
    assert not clock.outlived(pause, round_done=True, evening_over=False)  # a break follows a round
    assert clock.outlived(pause, round_done=True, evening_over=True)
    assert not clock.outlived(clock.ClockState(), round_done=True, evening_over=True)


def test_the_clock_runs_until_the_rounds_last_table_confirms_then_is_gone_everywhere(evening, organiser):
    services.start_round_clock(evening_id=evening.pk, round_id=_round(evening).pk)
    first, last = Seating.objects.filter(round=_round(evening)).order_by("table__number")
    play_seating(first)
    assert selectors.round_clock(_fresh(evening)).running  # one table still plays
    assert all(CLOCK in html for html in _pages(evening, organiser).values())

    play_seating(last)
    stopped = _fresh(evening)
    assert stopped.clock_kind == "" and selectors.round_clock(stopped) is None
    for name, html in _pages(evening, organiser).items():
        assert CLOCK not in html, name


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


def test_the_migration_stops_a_clock_stored_for_a_confirmed_round_and_leaves_a_live_one(evening, organiser):
    from django.apps import apps

    stop_outlived_clocks = importlib.import_module(
        "scoring.migrations.0023_clock_stops_with_its_round"
    ).stop_outlived_clocks
    live = evening_with_players(8, name="Live", player_name="Gast {n}")
    services.draw_session(evening=live, seed=1)
    services.start_round_clock(evening_id=live.pk, round_id=_round(live).pk)
    play_session(evening.sessions.get(number=1))
    services.draw_session(evening=evening, seed=2)
    # A clock left running for session 1, round 1 (stored before the rule, as in the issue).
    Evening.objects.filter(pk=evening.pk).update(
        clock_kind="round",
        clock_status="running",
        clock_session=1,
        clock_round=1,
        clock_ends_at=timezone.now() + timedelta(minutes=20),
    )
    assert CLOCK in _pages(evening, organiser)["projector"]
    stop_outlived_clocks(apps, None)
    assert _fresh(evening).clock_kind == ""
    for name, html in _pages(evening, organiser).items():
        assert CLOCK not in html, name
    assert _fresh(live).clock_status == "running"


def test_closing_the_session_stops_its_rounds_clock(evening):
    services.start_round_clock(evening_id=evening.pk, round_id=_round(evening).pk)
    services.set_session_closed(session_id=evening.sessions.get(number=1).pk, closed=True)
    assert _fresh(evening).clock_kind == ""


def test_at_the_evenings_end_no_clock_runs_not_even_a_break(evening, organiser, organiser_client):
    live = reverse("organiser:live", args=[evening.pk])
    play_session(evening.sessions.get(number=1))
    assert 'data-testid="clock-break"' in organiser_client.get(live).content.decode()  # between sessions
    session = services.draw_session(evening=evening, seed=2)
    play_round(session, 1)
    services.start_break_clock(evening_id=evening.pk)
    assert _fresh(evening).clock_kind == "break"
    play_round(session, 2)
    assert _fresh(evening).clock_kind == ""
    with pytest.raises(ServiceError) as error:
        services.start_break_clock(evening_id=evening.pk)
    assert error.value.code == "evening_over"
    assert _fresh(evening).clock_kind == ""
    for name, html in _pages(evening, organiser).items():
        assert CLOCK not in html, name
    assert 'data-testid="clock-break"' not in organiser_client.get(live).content.decode()  # nothing to offer
