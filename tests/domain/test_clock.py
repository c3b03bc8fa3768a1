"""The round clock's rules (scoring.domain.clock), without a database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scoring.domain import clock
from scoring.domain.clock import ClockError, ClockState

NOW = datetime(2026, 11, 21, 19, 30, tzinfo=UTC)


def _started(minutes: int = 30) -> ClockState:
    return clock.start(ClockState(), NOW, minutes, session=1, round=2)


def test_a_started_round_counts_down_from_its_end_time():
    state = _started()
    assert (state.kind, state.status, state.session, state.round) == ("round", "running", 1, 2)
    assert state.ends_at == NOW + timedelta(minutes=30)
    assert state.seconds_left(NOW) == 1800
    assert state.seconds_left(NOW + timedelta(seconds=0.4)) == 1800  # rounded up: 0 only at the end
    assert state.seconds_left(NOW + timedelta(minutes=29, seconds=59)) == 1
    assert state.seconds_left(NOW + timedelta(minutes=31)) == 0
    assert not state.due(NOW + timedelta(minutes=29)) and state.due(NOW + timedelta(minutes=30))


def test_pause_keeps_the_seconds_left_and_resume_runs_on_from_them():
    paused = clock.pause(_started(), NOW + timedelta(minutes=10))
    assert (paused.status, paused.remaining, paused.ends_at) == ("paused", 1200, None)
    assert paused.seconds_left(NOW + timedelta(hours=2)) == 1200  # a paused clock does not run out
    resumed = clock.resume(paused, NOW + timedelta(hours=1))
    assert resumed.status == "running" and resumed.ends_at == NOW + timedelta(hours=1, minutes=20)


def test_extend_adds_minutes_running_paused_or_after_the_end():
    assert clock.extend(_started(), NOW, 5).ends_at == NOW + timedelta(minutes=35)
    paused = clock.pause(_started(), NOW)
    assert clock.extend(paused, NOW, 5).remaining == 35 * 60
    late = NOW + timedelta(minutes=40)  # the time ran out ten minutes ago: five more from now
    assert clock.extend(_started(), late, 5).ends_at == late + timedelta(minutes=5)


def test_restart_and_break():
    restarted = clock.restart(clock.pause(_started(), NOW), NOW + timedelta(minutes=3), 30)
    assert restarted.status == "running" and restarted.ends_at == NOW + timedelta(minutes=33)
    pause = clock.start_break(_started(), NOW, 10)
    assert (pause.kind, pause.session, pause.round) == ("break", 1, 2)  # after the round timed
    with pytest.raises(ClockError) as error:
        clock.start_break(pause, NOW + timedelta(minutes=1), 10)
    assert error.value.code == "break_running"


def test_settled_only_when_the_time_is_up():
    state = _started()
    assert clock.settled(state, NOW + timedelta(minutes=29)) == state
    ended = clock.settled(state, NOW + timedelta(minutes=30))
    assert ended.status == "ended" and ended.seconds_left(NOW) == 0 and not ended.due(NOW + timedelta(hours=1))


@pytest.mark.parametrize(
    ("action", "state", "code"),
    [
        (lambda s: clock.start(s, NOW, 30, session=1, round=2), _started(), "already_running"),
        (lambda s: clock.start(s, NOW, 30, session=1, round=2), clock.pause(_started(), NOW), "already_running"),
        (lambda s: clock.pause(s, NOW), ClockState(), "not_running"),
        (lambda s: clock.pause(s, NOW + timedelta(hours=1)), _started(), "time_up"),
        (lambda s: clock.resume(s, NOW), _started(), "not_paused"),
        (lambda s: clock.extend(s, NOW, 5), ClockState(), "clock_off"),
        (lambda s: clock.extend(s, NOW, 60), _started(150), "too_long"),
        (lambda s: clock.restart(s, NOW, 30), ClockState(), "clock_off"),
    ],
)
def test_a_button_the_state_does_not_allow_is_refused(action, state, code):
    with pytest.raises(ClockError) as error:
        action(state)
    assert error.value.code == code
    assert "%(" not in str(error.value)  # the message's placeholders all filled


def test_starting_the_same_round_again_after_its_end_starts_it_afresh():
    later = NOW + timedelta(minutes=31)
    assert clock.start(_started(), later, 30, session=1, round=2).ends_at == later + timedelta(minutes=30)
    assert clock.start(_started(), NOW, 30, session=1, round=3).round == 3  # the next round: no refusal


@pytest.mark.parametrize(
    ("value", "code"),
    [(0, "minutes_range"), (-5, "minutes_range"), ("-5", "minutes_range"), (181, "minutes_range"),
     ("10000", "minutes_range"), ("", "minutes_invalid"), ("abc", "minutes_invalid"), ("2.5", "minutes_invalid"),
     ("٣٠", "minutes_invalid"), (None, "minutes_invalid"), (True, "minutes_invalid")],
)  # fmt: skip
def test_lengths_outside_one_to_180_minutes_are_refused(value, code):
    for what in ("round", "break"):
        with pytest.raises(ClockError) as error:
            clock.check_minutes(value, what=what)
        assert error.value.code == code


def test_lengths_within_limits():
    assert clock.check_minutes("30") == 30 and clock.check_minutes(1) == 1 and clock.check_minutes(" 180 ") == 180


@pytest.mark.parametrize("value", [0, -1, 61, "x", "", None])
def test_extensions_outside_one_to_60_minutes_are_refused(value):
    with pytest.raises(ClockError) as error:
        clock.check_extension(value)
    assert error.value.code == "extend_invalid"


def test_format():
    assert clock.format_seconds(0) == "00:00" and clock.format_seconds(65) == "01:05"
    assert clock.format_seconds(125 * 60) == "125:00" and clock.format_seconds(-3) == "00:00"
