"""Drawing a session (and drawing it again before any deal is entered)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.domain import draw as draw_domain
from scoring.domain.errors import gettext_noop
from scoring.domain.fairness import opponent_repeat_lower_bound
from scoring.models import (
    Deal,
    Evening,
    Participant,
    PartnerExclusion,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Substitution,
    Table,
)
from scoring.selectors.evenings import next_session_blocker
from scoring.selectors.history import evening_history
from scoring.services.base import ServiceError, evening_changed
from scoring.services.clock import stop_outlived_clock


class SessionStartedError(ServiceError):
    """The session has entered deals: it can no longer be drawn again or rearranged."""


def _draw_inputs(evening: Evening) -> dict:
    """The draw's keyword arguments from the evening: the players checked in, the stand-ins,
    the wishes "not together" and, with "mix clubs", every player's club (2 queries)."""
    present = list(
        Participant.objects.filter(evening=evening, checked_in=True).values_list(
            "player_id", "is_stand_in", "player__club"
        )
    )
    return {
        "players": sorted(pid for pid, _, _ in present),
        "stand_ins": sorted(pid for pid, stand_in, _ in present if stand_in),
        "forbidden": list(PartnerExclusion.objects.filter(evening=evening).values_list("player_a_id", "player_b_id")),
        "clubs": {pid: club for pid, _, club in present} if evening.mix_clubs else None,
    }


@dataclass(frozen=True)
class _Planned:
    """A draw made before the write transaction, and the state it was made from: the write
    uses it only if the state is still the same (else it draws again, with a short budget)."""

    state: tuple
    draw: draw_domain.SessionDraw
    plan: draw_domain.EveningPlan | None
    bound: int | None


def _plan_budget(first: bool) -> draw_domain.PlanBudget:
    """The planner's budget from the settings (``DRAW_PLAN_SECONDS_FIRST`` for the first draw
    of an evening, ``DRAW_PLAN_SECONDS_LATER`` after it, ``DRAW_PLAN_ITERATIONS_PER_SECOND``)."""
    seconds = settings.DRAW_PLAN_SECONDS_FIRST if first else settings.DRAW_PLAN_SECONDS_LATER
    return draw_domain.PlanBudget.of(seconds, settings.DRAW_PLAN_ITERATIONS_PER_SECOND)


# The budget when the state changed between the search and the write (inside the transaction).
_RECHECK_BUDGET = draw_domain.PlanBudget(seconds=0.3, iterations=20_000)


def _run_draw(
    evening: Evening,
    history: draw_domain.History,
    seed: int,
    number: int,
    budget: draw_domain.PlanBudget | None = None,
) -> _Planned:
    """The pure draw of session ``number`` with the evening's players and wishes; a DrawError
    names the players.

    The evening planner (:func:`scoring.domain.draw.plan_evening`) plans the sessions left
    (``number`` to ``evening.sessions_count``) and the first planned session is the draw; it
    resumes the plan stored with the session before when that still fits. Teams of three when
    the evening's rule set plays at tables of six (six-handed Bräus)."""
    inputs = _draw_inputs(evening)
    players = inputs.pop("players")
    state = (number, players, inputs, history, _earlier_plan(evening, number))
    check_next_session_drawable(evening, [], len(players))
    rounds = evening.rounds_per_session
    team_size = evening.rules.players_per_team
    try:
        sessions = max(1, evening.sessions_count - number + 1)
        earlier = state[-1]
        plan = draw_domain.plan_evening(
            players,
            history,
            rounds,
            sessions,
            random.Random(seed),
            budget=budget or _plan_budget(first=number == 1),
            stop_at=opponent_repeat_lower_bound(len(players), evening.sessions_count, rounds, team_size),
            start=draw_domain.plan_from_json(earlier) if earlier else (),
            team_size=team_size,
            **inputs,
        )
    except draw_domain.DrawError as error:
        raise _with_names(error) from None
    bound = opponent_repeat_lower_bound(len(players), evening.sessions_count, rounds, team_size)
    return _Planned(state, plan.sessions[0], plan, bound)


def _earlier_plan(evening: Evening, number: int) -> object:
    """The plan stored with the session before ``number`` (its sessions after it), or None."""
    return evening.sessions.filter(number=number - 1).values_list("plan", flat=True).first()


def _current_state(evening: Evening, history: draw_domain.History, number: int) -> tuple:
    inputs = _draw_inputs(evening)
    return (number, inputs.pop("players"), inputs, history, _earlier_plan(evening, number))


def _with_names(error: draw_domain.DrawError) -> draw_domain.DrawError:
    """The same error with player names instead of ids in its message's placeholders."""
    if not error.player_ids:
        return error
    ids = {pid for group in error.player_ids.values() for pid in group}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    params = dict(error.params)
    for key, group in error.player_ids.items():
        params[key] = ", ".join(names.get(pid, str(pid)) for pid in group)
    named = draw_domain.DrawError(error.message, code=error.code, **params)
    named.player_ids = error.player_ids
    return named


def check_next_session_drawable(evening: Evening, drawn: Sequence[Session], present: int | None = None) -> None:
    """Raise ServiceError unless the evening's next session may be drawn now: the reasons of
    :func:`scoring.selectors.next_session_blocker` (``all_drawn``, ``previous_incomplete``,
    ``too_few_players``), with their messages and codes."""
    blocker = next_session_blocker(evening, drawn, present)
    if blocker is not None:
        raise ServiceError(blocker.message, code=blocker.code, **blocker.params)


_DRAW_RACE = gettext_noop(
    "Session %(number)s has just been drawn (by someone else or by a second click). Please reload the page."
)


def draw_session(*, evening: Evening, user=None, seed: int | None = None, number: int | None = None) -> Session:
    """Draw the evening's next session: partnerships, and for each round the tables and sit-outs.

    Uses exactly the players checked in now, the stand-ins, the wishes "not together" and the
    evening's "mix clubs" option; the history of the sessions before (partners, opponents,
    sit-outs) counts, also for players who have left since.

    Args:
        evening: the evening.
        user: the organiser who draws (recorded).
        seed: the random seed; a fresh one when None. Stored on the session and shown, so the
            same seed and players reproduce the draw exactly.
        number: the session the organiser meant to draw (the page sends it). If it has been
            drawn meanwhile (a second click, a second organiser), nothing happens and a clear
            message says so.

    Returns:
        The new Session with its partnerships, rounds and seatings saved.

    Raises:
        ServiceError: all sessions are drawn already, the previous session is not complete,
            the session has just been drawn (``draw_race``), fewer players are checked in than
            one table seats (``too_few_players``).
        DrawError: too few players, or the wishes "not together" make a draw impossible (the
            message names the players).
    """
    seed = secrets.randbits(48) if seed is None else seed
    # The search runs before the write transaction (it may take seconds; the database must not be
    # locked that long); the write checks that nothing changed meanwhile.
    previous = list(evening.sessions.order_by("number"))
    next_number = len(previous) + 1
    if number is not None and number < next_number:
        raise ServiceError(_DRAW_RACE, code="draw_race", number=number)
    check_next_session_drawable(evening, previous)
    planned = _run_draw(evening, evening_history(evening).for_draw(), seed, next_number)
    try:
        with transaction.atomic():
            return _draw_session(evening, user, seed, number, planned)
    except IntegrityError:  # a backstop: the evening's row lock serialises draws
        raise ServiceError(_DRAW_RACE, code="draw_race", number=number or evening.sessions.count()) from None


def _draw_session(evening: Evening, user, seed: int, wanted: int | None, planned: _Planned) -> Session:
    # One draw at a time per evening: a second request waits here, then sees the new session.
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    previous = list(evening.sessions.order_by("number"))
    number = len(previous) + 1
    if wanted is not None and wanted < number:
        raise ServiceError(_DRAW_RACE, code="draw_race", number=wanted)
    check_next_session_drawable(evening, previous)
    history = evening_history(evening).for_draw()
    if _current_state(evening, history, number) != planned.state:
        planned = _run_draw(evening, history, seed, number, _RECHECK_BUDGET)
    result = planned.draw
    first, second = _session_sitters(result)
    session = Session.objects.create(
        evening=evening,
        number=number,
        seed=seed,
        sitout_player_id=first,
        sitout_player_2_id=second,
        drawn_by=user,
        **_plan_fields(planned),
    )
    _save_draw(evening, session, result)
    evening_changed(evening.pk)
    stop_outlived_clock(evening.pk)  # a round's clock of the session before stops here at the latest
    return session


def _plan_fields(planned: _Planned) -> dict[str, object]:
    """The plan's figures as :class:`Session` fields (empty without a plan)."""
    plan = planned.plan
    return {
        "plan_repeats": plan.repeats if plan else None,
        "plan_baseline": plan.baseline_repeats if plan else None,
        "plan_bound": planned.bound if plan else None,
        "plan": draw_domain.plan_to_json(plan.sessions[1:]) if plan and len(plan.sessions) > 1 else None,
    }


def _session_sitters(result: draw_domain.SessionDraw) -> tuple[int | None, int | None]:
    """The draw's whole-session sit-out players as ``Session.sitout_player`` and
    ``Session.sitout_player_2`` (the first is always filled before the second)."""
    sitters = (*result.sitout_players, None, None)
    return sitters[0], sitters[1]


def _save_draw(evening: Evening, session: Session, result: draw_domain.SessionDraw) -> None:
    """Save a drawn session's partnerships (teams of two or three), rounds and seatings."""
    partnerships = Partnership.objects.bulk_create(
        Partnership(
            session=session,
            number=i + 1,
            player_1_id=team[0],
            player_2_id=team[1],
            player_3_id=team[2] if len(team) > 2 else None,
        )
        for i, team in enumerate(result.partnerships)
    )
    table_count = max(len(r.tables) for r in result.rounds)
    tables = _ensure_tables(evening, table_count)
    for round_draw in result.rounds:
        sitout = round_draw.sitout_partnership
        round_ = Round.objects.create(
            session=session,
            number=round_draw.number,
            sitout_partnership=partnerships[sitout] if sitout is not None else None,
        )
        Seating.objects.bulk_create(
            Seating(
                round=round_,
                table=tables[t.number],
                team_a=partnerships[t.team_a],
                team_b=partnerships[t.team_b],
            )
            for t in round_draw.tables
        )


def _ensure_tables(evening: Evening, count: int) -> dict[int, Table]:
    existing = {t.number: t for t in evening.tables.all()}
    missing = [Table(evening=evening, number=n) for n in range(1, count + 1) if n not in existing]
    for table in Table.objects.bulk_create(missing):
        existing[table.number] = table
    return existing


def locked_session(session_id) -> Session:
    """The session, its row locked, and its seatings locked too: deal entries for it wait until
    this transaction ends (on SQLite the whole database is locked by the transaction anyway)."""
    session = Session.objects.select_for_update(of=("self",)).select_related("evening").filter(pk=session_id).first()
    if session is None:
        raise ServiceError(gettext_noop("This session does not exist."), code="no_session")
    list(Seating.objects.filter(round__session=session).select_for_update().values_list("pk", flat=True))
    return session


def has_entries(session: Session) -> bool:
    """True once the session has a deal entered or a round confirmed (it may then not be redrawn)."""
    return (
        Deal.objects.filter(seating__round__session=session).exists()
        or Seating.objects.filter(round__session=session, confirmed_at__isnull=False).exists()
    )


def redraw_session(*, session_id, user=None, seed: int | None = None) -> Session:
    """Draw a session again, before any deal of it is entered: new seed, the players checked in
    now, the wishes as they are now. The table links stay the same.

    Raises:
        SessionStartedError: a deal of the session has been entered (nothing is changed).
        DrawError: as :func:`draw_session`.
    """
    seed = secrets.randbits(48) if seed is None else seed
    # The search before the write transaction (see draw_session); the write checks the state.
    session = Session.objects.select_related("evening").filter(pk=session_id).first()
    if session is None:
        raise ServiceError(gettext_noop("This session does not exist."), code="no_session")
    _check_redrawable(session)
    planned = _run_draw(
        session.evening, evening_history(session.evening, exclude=session).for_draw(), seed, session.number
    )
    with transaction.atomic():
        session = locked_session(session_id)
        evening = session.evening
        _check_redrawable(session)
        history = evening_history(evening, exclude=session).for_draw()
        if _current_state(evening, history, session.number) != planned.state:
            planned = _run_draw(evening, history, seed, session.number, _RECHECK_BUDGET)
        result = planned.draw
        Substitution.objects.filter(session=session).delete()
        Seating.objects.filter(round__session=session).delete()
        Round.objects.filter(session=session).delete()
        Partnership.objects.filter(session=session).delete()
        session.seed = seed
        session.sitout_player_id, session.sitout_player_2_id = _session_sitters(result)
        session.drawn_by = user
        session.drawn_at = timezone.now()
        session.closed = False
        for field, value in _plan_fields(planned).items():
            setattr(session, field, value)
        session.save(
            update_fields=[
                "seed",
                "sitout_player",
                "sitout_player_2",
                "drawn_by",
                "drawn_at",
                "closed",
                "plan_repeats",
                "plan_baseline",
                "plan_bound",
                "plan",
            ]
        )
        _save_draw(evening, session, result)
        evening_changed(evening.pk)
        return session


def _check_redrawable(session: Session) -> None:
    """Raise SessionStartedError if a deal of the session is entered or a later session exists."""
    if has_entries(session):
        raise SessionStartedError(
            gettext_noop(
                "Deals of session %(number)s have already been entered: it can no longer be "
                "drawn again. A player who has to leave can be replaced for the remaining rounds."
            ),
            code="session_started",
            number=session.number,
        )
    if session.evening.sessions.filter(number__gt=session.number).exists():  # pragma: no cover - needs deals
        raise SessionStartedError(gettext_noop("Only the last session can be drawn again."), code="not_last_session")
