"""The round clock's services (scoring.services.clock): lengths, start, pause, resume, break and
off, bad input, a locked round or closed session, a Helfer, two organisers at once (a message,
nothing changed); the clock stops with its round once every table has confirmed it. What the
screens show of it: tests/views/test_round_clock.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import selectors, services
from scoring.domain import clock
from scoring.models import Evening, Round, Seating
from scoring.services.base import ServiceError
from scoring.setup.builders import evening_with_players, play_round, play_seating
from tests import rows
from tests.conftest import make_evening

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


CLOCK_FIELDS = (
    "round_minutes",
    "break_minutes",
    "clock_locks_round",
    "clock_kind",
    "clock_status",
    "clock_session",
    "clock_round",
    "clock_ends_at",
    "clock_remaining",
    "clock_version",
    "version",
    "seating_version",
)


@pytest.fixture(scope="session")
def _clock_evening_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows of :func:`drawn`, built through the services once per test process (tests/rows.py)."""

    def build() -> int:
        evening = make_evening(8)
        services.draw_session(evening=evening, seed=3)
        return evening.pk

    with django_db_blocker.unblock():
        return rows.capture(build)


@pytest.fixture
def drawn(db, _clock_evening_rows):
    """8 players, session 1 drawn (seed 3): the rows as the services wrote them, put back."""
    return rows.evening_put_back(_clock_evening_rows)


def _stored(evening) -> tuple:
    return Evening.objects.values_list(*CLOCK_FIELDS).get(pk=evening.pk)


def _refused(code: str, service, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        service(**kwargs)
    assert error.value.code == code
    return error.value


def _run_out(evening) -> None:
    """The clock's end time a second ago, as if its minutes had passed (nobody looking)."""
    Evening.objects.filter(pk=evening.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))


@pytest.mark.parametrize("minutes", [0, -5, "-5", 181, 100000, "", "abc", "2.5", None])
def test_a_length_of_zero_negative_or_absurd_is_refused_and_nothing_changes(drawn, organiser, minutes):
    before = _stored(drawn)
    for field in ("round_minutes", "break_minutes"):
        values = {"round_minutes": 30, "break_minutes": 10, field: minutes}
        error = _refused(
            "minutes_range" if isinstance(minutes, int) or str(minutes).lstrip("-").isdigit() else "minutes_invalid",
            services.set_clock_lengths,
            evening_id=drawn.pk,
            locks_round=True,
            user=organiser,
            **values,
        )
        assert ("break" in error.message) == (field == "break_minutes")
    assert _stored(drawn) == before


def test_lengths_are_saved(drawn, organiser):
    evening = services.set_clock_lengths(
        evening_id=drawn.pk, round_minutes="25", break_minutes=5, locks_round=True, user=organiser
    )
    assert (evening.round_minutes, evening.break_minutes, evening.clock_locks_round) == (25, 5, True)
    started = services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk, user=organiser)
    assert selectors.round_clock(started).seconds_left in (25 * 60, 25 * 60 - 1)


def test_a_start_on_a_locked_round_a_closed_session_or_a_finished_round_is_refused(drawn, organiser):
    round_1 = _round(drawn)
    services.set_round_locked(round_id=round_1.pk, locked=True)
    before = _stored(drawn)
    error = _refused("round_locked", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk)
    assert error.params == {"session": 1, "round": 1}
    services.set_round_locked(round_id=round_1.pk, locked=False)
    play_round(round_1.session, 1)
    before = _stored(drawn)
    _refused("round_finished", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk)
    services.set_session_closed(session_id=round_1.session_id, closed=True)
    before = _stored(drawn)
    _refused("session_closed", services.start_round_clock, evening_id=drawn.pk, round_id=_round(drawn, number=2).pk)
    other = make_evening(8, name="Anderer Abend")
    foreign = Round.objects.filter(session=services.draw_session(evening=other, seed=1)).first()
    _refused("no_round", services.start_round_clock, evening_id=drawn.pk, round_id=foreign.pk)
    assert _stored(drawn) == before


def test_a_helper_cannot_set_the_clock(drawn, helper):
    before = _stored(drawn)
    _refused("permission", services.start_round_clock, evening_id=drawn.pk, round_id=_round(drawn).pk, user=helper)
    _refused(
        "permission",
        services.set_clock_lengths,
        evening_id=drawn.pk,
        round_minutes=30,
        break_minutes=10,
        locks_round=False,
        user=helper,
    )
    assert _stored(drawn) == before


def test_two_organisers_pressing_at_once_change_the_clock_once(drawn, organiser):
    round_1 = _round(drawn)
    seen = Evening.objects.get(pk=drawn.pk).clock_version
    services.start_round_clock(evening_id=drawn.pk, round_id=round_1.pk, user=organiser, seen=seen)
    after_first = _stored(drawn)
    # The second press, from a page that showed the same clock: refused, nothing changed.
    _refused("clock_changed", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk, seen=seen)
    # Without a version (a script): still started once only.
    _refused("already_running", services.start_round_clock, evening_id=drawn.pk, round_id=round_1.pk)
    assert _stored(drawn) == after_first
    # "+5 minutes" pressed by two organisers: five minutes, not ten.
    seen = after_first[CLOCK_FIELDS.index("clock_version")]
    ends = after_first[CLOCK_FIELDS.index("clock_ends_at")]
    services.extend_round_clock(evening_id=drawn.pk, minutes="5", user=organiser, seen=seen)
    _refused("clock_changed", services.extend_round_clock, evening_id=drawn.pk, minutes="5", seen=seen)
    assert Evening.objects.get(pk=drawn.pk).clock_ends_at == ends + timedelta(minutes=5)


@pytest.mark.parametrize("minutes", ["0", "-3", "61", "x", ""])
def test_a_bad_extension_is_refused(drawn, minutes):
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    before = _stored(drawn)
    _refused("extend_invalid", services.extend_round_clock, evening_id=drawn.pk, minutes=minutes)
    assert _stored(drawn) == before


def test_pause_resume_restart_break_and_off(drawn, organiser):
    round_1 = _round(drawn)
    _refused("not_running", services.pause_round_clock, evening_id=drawn.pk)
    _refused("clock_off", services.stop_round_clock, evening_id=drawn.pk)
    services.start_round_clock(evening_id=drawn.pk, round_id=round_1.pk)
    paused = services.pause_round_clock(evening_id=drawn.pk, user=organiser)
    assert paused.clock_status == "paused" and 29 * 60 <= paused.clock_remaining <= 30 * 60
    _refused("not_running", services.pause_round_clock, evening_id=drawn.pk)
    resumed = services.resume_round_clock(evening_id=drawn.pk)
    assert resumed.clock_status == "running" and resumed.clock_remaining is None
    _refused("not_paused", services.resume_round_clock, evening_id=drawn.pk)
    _run_out(drawn)
    restarted = services.restart_round_clock(evening_id=drawn.pk)
    assert restarted.clock_status == "running" and selectors.round_clock(restarted).seconds_left >= 29 * 60
    pause = services.start_break_clock(evening_id=drawn.pk)
    assert (pause.clock_kind, pause.clock_round) == ("break", 1)
    assert selectors.round_clock(pause).seconds_left in (600, 599)
    assert services.stop_round_clock(evening_id=drawn.pk).clock_kind == ""
    assert selectors.round_clock(Evening.objects.get(pk=drawn.pk)) is None


def test_the_next_round_may_be_started_while_the_last_still_runs(drawn):
    services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn).pk)
    evening = services.start_round_clock(evening_id=drawn.pk, round_id=_round(drawn, number=2).pk)
    assert (evening.clock_round, evening.clock_status) == (2, "running")
