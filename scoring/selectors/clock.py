"""The round clock as the screens show it (``templates/public/_round_clock.html``), and the
organiser's clock panel on the live overview."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone

from scoring.domain import clock
from scoring.models import Evening, Round, Seating
from scoring.selectors.evenings import evening_over


@dataclass(frozen=True)
class RoundClock:
    """What a screen shows of an evening's clock (:func:`round_clock`).

    - ``kind``: ``"round"`` or ``"break"``;
    - ``status``: ``"running"``, ``"paused"`` or ``"ended"`` (a running clock whose end time has
      passed is shown as ended too, before any request settled it);
    - ``session``, ``round``: the numbers of the round timed (for a break: the round before it;
      None when unknown);
    - ``seconds_left``: whole seconds left at ``now`` (0 when ended);
    - ``ends_at``: the end time (aware datetime, server time) while running, else None;
    - ``now``: the server time of this reading; the browser counts down from ``ends_at`` and
      corrects its own clock by ``now`` (``static/js/clock.js``);
    - ``warning``: within the last :data:`scoring.domain.clock.WARNING_SECONDS` seconds;
    - ``version``: ``Evening.clock_version`` (the organiser's forms send it back, ``seen``).
    """

    kind: str
    status: str
    session: int | None
    round: int | None
    seconds_left: int
    ends_at: datetime | None
    now: datetime
    warning: bool
    version: int

    @property
    def running(self) -> bool:
        return self.status == clock.RUNNING

    @property
    def paused(self) -> bool:
        return self.status == clock.PAUSED

    @property
    def ended(self) -> bool:
        return self.status == clock.ENDED

    @property
    def is_break(self) -> bool:
        return self.kind == clock.BREAK

    @property
    def shown(self) -> str:
        """``mm:ss`` left at ``now``."""
        return clock.format_seconds(self.seconds_left)

    @property
    def ends_at_ms(self) -> int | None:
        """The end time in milliseconds since the epoch (for the browser), None unless running."""
        return None if self.ends_at is None else int(self.ends_at.timestamp() * 1000)

    @property
    def now_ms(self) -> int:
        return int(self.now.timestamp() * 1000)

    @property
    def warning_seconds(self) -> int:
        return clock.WARNING_SECONDS


def round_done(evening: Evening, session: int | None, number: int | None) -> bool:
    """Whether round ``number`` of session ``session`` is done: confirmed at every table, or its
    session closed (also True for a round that does not exist; 1 query)."""
    if session is None or number is None:
        return True
    return not Seating.objects.filter(
        round__session__evening_id=evening.pk,
        round__session__number=session,
        round__session__closed=False,
        round__number=number,
        confirmed_at__isnull=True,
    ).exists()


def round_clock(evening: Evening, now: datetime | None = None) -> RoundClock | None:
    """The evening's clock at ``now`` (default: the server's time), None when it is off.
    No query: everything is on the evening's row. A clock never counts on for a finished round:
    the write that finishes the round (its last confirmation, closing its session, the
    evening's last confirmation) switches it off in the same transaction
    (:func:`scoring.services.clock.stop_outlived_clock`), and migration
    ``0023_clock_stops_with_its_round`` switched off the clocks stored before; so every screen
    reads the stopped clock from the evening's row, as it does every other state of the clock.
    The template is ``templates/public/_round_clock.html`` (``round_clock``, ``size`` "large" or
    "small")."""
    state = evening.clock_state
    if not state.on:
        return None
    now = now or timezone.now()
    left = state.seconds_left(now)
    status = clock.ENDED if state.due(now) else state.status
    running = status == clock.RUNNING
    return RoundClock(
        kind=state.kind,
        status=status,
        session=state.session,
        round=state.round,
        seconds_left=left,
        ends_at=state.ends_at if running else None,
        now=now,
        warning=status != clock.ENDED and left <= clock.WARNING_SECONDS,
        version=evening.clock_version,
    )


@dataclass(frozen=True)
class ClockPanel:
    """The clock panel of the live overview: the clock (None when off), the round the "start"
    button starts (the first round not confirmed at every table, or None), the round after it
    (for starting the next round early, or None), the evening's lengths, and whether the evening
    is over (then no clock is offered, not even a break)."""

    clock: RoundClock | None
    start_round: Round | None
    next_round: Round | None
    round_minutes: int
    break_minutes: int
    locks_round: bool
    evening_over: bool = False

    @property
    def start_offered(self) -> bool:
        """Whether "start" is offered for :attr:`start_round`: not while its clock runs or is
        paused already."""
        c = self.clock
        if self.start_round is None:
            return False
        if c is None or c.is_break or c.ended:
            return True
        return (c.session, c.round) != (self.start_round.session.number, self.start_round.number)


def clock_panel(evening: Evening) -> ClockPanel:
    """The live overview's clock panel (2 queries, whatever the size of the field; 1 or 2 more
    once every drawn round is confirmed, to tell whether the evening is over)."""
    first_open = (
        Seating.objects.filter(round__session__evening=evening, confirmed_at__isnull=True)
        .order_by("round__session__number", "round__number")
        .values_list("round_id", flat=True)
        .first()
    )
    start = next_ = None
    if first_open is not None:
        rounds = list(
            Round.objects.select_related("session")
            .filter(session__evening=evening, session__rounds__pk=first_open)
            .order_by("number")
        )
        index = next((i for i, r in enumerate(rounds) if r.pk == first_open), None)
        if index is not None:
            start = rounds[index]
            next_ = rounds[index + 1] if index + 1 < len(rounds) else None
    return ClockPanel(
        clock=round_clock(evening),
        start_round=start,
        next_round=next_,
        round_minutes=evening.round_minutes,
        break_minutes=evening.break_minutes,
        locks_round=evening.clock_locks_round,
        evening_over=first_open is None and evening_over(evening),
    )
