"""The round clock: how long a round (or the break between two rounds) has left, and what the
organiser's buttons do to it. Pure Python: times are given, never read from the system.

The clock is stored as data on the evening (``scoring.models.Evening``, fields ``clock_*``), so
every screen, a reloaded page, a tablet that was offline and a restarted server all show the
same time: while it runs, its **end time** (server time, UTC); while it is paused, the
**seconds left**. Browsers count down from the end time by themselves
(``static/js/clock.js``); nobody polls every second.

States (:class:`ClockState`):

- off (``kind`` ""): no clock shown;
- running: ``ends_at`` set; its time is up once ``now >= ends_at`` (the screens show "Round
  over"), and the next request that reads it settles it to *ended*
  (:func:`scoring.services.clock.settle_round_clock`, which also locks the round when the
  organiser asked for that);
- paused: ``remaining`` seconds set, ``ends_at`` empty;
- ended: the time ran out and was settled.

Limits (our decision): a round or a break lasts 1 to :data:`MAX_MINUTES` minutes; an
extension adds 1 to :data:`MAX_EXTEND_MINUTES` minutes, and never beyond :data:`MAX_MINUTES`
minutes left. Every refusal is a :class:`~scoring.domain.errors.DomainError` with a msgid.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from scoring.domain.errors import DomainError, gettext_noop

#: The kinds of clock: a round of the session, or the break between two rounds.
ROUND, BREAK = "round", "break"
#: The states of a clock that is on.
RUNNING, PAUSED, ENDED = "running", "paused", "ended"

#: Default lengths of a new evening (minutes).
DEFAULT_ROUND_MINUTES = 30
DEFAULT_BREAK_MINUTES = 10
#: The shortest and the longest round or break (minutes).
MIN_MINUTES, MAX_MINUTES = 1, 180
#: The largest single extension (minutes).
MAX_EXTEND_MINUTES = 60
#: The screens turn to the warning colour for the last this many seconds.
WARNING_SECONDS = 5 * 60


class ClockError(DomainError):
    """A clock length or a button the clock's state does not allow."""


@dataclass(frozen=True)
class ClockState:
    """An evening's clock: ``kind`` (:data:`ROUND`, :data:`BREAK` or "" for off), ``status``
    (:data:`RUNNING`, :data:`PAUSED`, :data:`ENDED`; "" when off), the session and round
    numbers it times (the round just played for a break), ``ends_at`` (aware datetime, while
    running) and ``remaining`` (whole seconds, while paused)."""

    kind: str = ""
    status: str = ""
    session: int | None = None
    round: int | None = None
    ends_at: datetime | None = None
    remaining: int | None = None

    @property
    def on(self) -> bool:
        return bool(self.kind)

    def seconds_left(self, now: datetime) -> int:
        """Whole seconds left at ``now`` (rounded up, so 0 only at the end); 0 when ended or off."""
        if self.status == PAUSED:
            return self.remaining or 0
        if self.status == RUNNING and self.ends_at is not None:
            left = (self.ends_at - now).total_seconds()
            return max(0, -int(-left // 1))
        return 0

    def due(self, now: datetime) -> bool:
        """Running, and its time is up: to be settled (:func:`settled`)."""
        return self.status == RUNNING and self.ends_at is not None and now >= self.ends_at


def check_minutes(value: object, *, what: str = "round") -> int:
    """A length in whole minutes from a form (int, or a string of ASCII digits), within
    :data:`MIN_MINUTES`..:data:`MAX_MINUTES`; ``what`` ("round" or "break") names it in the
    message. Raises :class:`ClockError` (``minutes_invalid``, ``minutes_range``)."""
    minutes = _whole(value)
    if minutes is None:
        message = (
            gettext_noop("Please give the length of the break in whole minutes, for example 10.")
            if what == BREAK
            else gettext_noop("Please give the length of a round in whole minutes, for example 30.")
        )
        raise ClockError(message, code="minutes_invalid")
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        message = (
            gettext_noop("A break lasts from %(low)s to %(high)s minutes; %(minutes)s is not possible.")
            if what == BREAK
            else gettext_noop("A round lasts from %(low)s to %(high)s minutes; %(minutes)s is not possible.")
        )
        raise ClockError(message, code="minutes_range", low=MIN_MINUTES, high=MAX_MINUTES, minutes=minutes)
    return minutes


def check_extension(value: object) -> int:
    """Minutes to add: 1..:data:`MAX_EXTEND_MINUTES`. Raises :class:`ClockError`
    (``extend_invalid``)."""
    minutes = _whole(value)
    if minutes is None or not 1 <= minutes <= MAX_EXTEND_MINUTES:
        raise ClockError(
            gettext_noop("Please add between 1 and %(high)s minutes."), code="extend_invalid", high=MAX_EXTEND_MINUTES
        )
    return minutes


def _whole(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        negative = text.startswith("-")
        digits = text[1:] if negative else text
        if digits and digits.isascii() and digits.isdigit() and len(digits) <= 9:
            return -int(digits) if negative else int(digits)
    return None


def start(state: ClockState, now: datetime, minutes: int, *, session: int, round: int) -> ClockState:
    """A round's clock started with ``minutes`` (:func:`check_minutes` first). Refused
    (``already_running``) while this round's clock already runs or is paused: two organisers
    pressing "start" at once start it once."""
    same = state.kind == ROUND and (state.session, state.round) == (session, round)
    if same and state.status in (RUNNING, PAUSED) and not state.due(now):
        raise ClockError(
            gettext_noop("The clock of session %(session)s, round %(round)s is already running."),
            code="already_running",
            session=session,
            round=round,
        )
    return ClockState(ROUND, RUNNING, session, round, now + timedelta(minutes=minutes), None)


def start_break(state: ClockState, now: datetime, minutes: int) -> ClockState:
    """The break's clock, ``minutes`` long, after the round the clock timed (kept for the
    screens). Refused (``break_running``) while a break runs already."""
    if state.kind == BREAK and state.status in (RUNNING, PAUSED) and not state.due(now):
        raise ClockError(gettext_noop("The break is already running."), code="break_running")
    return ClockState(BREAK, RUNNING, state.session, state.round, now + timedelta(minutes=minutes), None)


def pause(state: ClockState, now: datetime) -> ClockState:
    """Stop the running clock with the seconds it has left. Refused when it does not run
    (``not_running``) or its time is up already (``time_up``)."""
    if state.status != RUNNING:
        raise ClockError(gettext_noop("The clock is not running, so it cannot be paused."), code="not_running")
    if state.due(now):
        raise ClockError(gettext_noop("The time is up already; nothing to pause."), code="time_up")
    return replace(state, status=PAUSED, ends_at=None, remaining=state.seconds_left(now))


def resume(state: ClockState, now: datetime) -> ClockState:
    """Run a paused clock on with the seconds it had left. Refused unless paused
    (``not_paused``)."""
    if state.status != PAUSED:
        raise ClockError(gettext_noop("The clock is not paused, so it cannot be resumed."), code="not_paused")
    return replace(state, status=RUNNING, ends_at=now + timedelta(seconds=state.remaining or 0), remaining=None)


def extend(state: ClockState, now: datetime, minutes: int) -> ClockState:
    """Add ``minutes`` (:func:`check_extension` first): to the end time while running, to the
    seconds left while paused; a clock whose time is up runs again for ``minutes`` from now.
    Refused when off (``clock_off``) or when more than :data:`MAX_MINUTES` minutes would be
    left (``too_long``)."""
    if not state.on:
        raise ClockError(gettext_noop("No clock is running. Please start it first."), code="clock_off")
    left = state.seconds_left(now) + minutes * 60
    if left > MAX_MINUTES * 60:
        raise ClockError(
            gettext_noop("The clock can show at most %(high)s minutes; please restart it instead."),
            code="too_long",
            high=MAX_MINUTES,
        )
    if state.status == PAUSED:
        return replace(state, remaining=left)
    if state.status == RUNNING and state.ends_at is not None and not state.due(now):
        return replace(state, ends_at=state.ends_at + timedelta(minutes=minutes))
    return replace(state, status=RUNNING, ends_at=now + timedelta(minutes=minutes), remaining=None)


def restart(state: ClockState, now: datetime, minutes: int) -> ClockState:
    """The same round (or break) from the start again, ``minutes`` long, running. Refused when
    off (``clock_off``)."""
    if not state.on:
        raise ClockError(gettext_noop("No clock is running. Please start it first."), code="clock_off")
    return replace(state, status=RUNNING, ends_at=now + timedelta(minutes=minutes), remaining=None)


def settled(state: ClockState, now: datetime) -> ClockState:
    """The clock at ``now``: *ended* when its time is up (:meth:`ClockState.due`), else as it
    is. The end time is kept (the screens say since when)."""
    return replace(state, status=ENDED) if state.due(now) else state


def outlived(state: ClockState, *, round_done: bool, evening_over: bool) -> bool:
    """Whether the clock has outlived what it timed and is to be switched off: a round's
    clock once its round is done (confirmed at every table, or its session closed; a later
    session is drawn only after every round of the one before is confirmed, so a clock never
    outlives its session), any clock (a break's too) once the evening is over. A clock that is
    off has outlived nothing.

    Args:
        state: the clock.
        round_done: the round the clock was started for is confirmed at every table or its
            session is closed (ignored for a break).
        evening_over: :func:`scoring.domain.evening.evening_is_over`.
    """
    if not state.on:
        return False
    return evening_over or (state.kind == ROUND and round_done)


def format_seconds(seconds: int) -> str:
    """``mm:ss`` (minutes may exceed 59: ``125:00``); never negative."""
    seconds = max(0, int(seconds))
    return f"{seconds // 60:02d}:{seconds % 60:02d}"
