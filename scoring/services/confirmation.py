"""Finishing a round at the table, the other team's confirmation, and the organiser's shortcut."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.domain.errors import gettext_noop
from scoring.domain.rules import TEAMS, other_team
from scoring.hall.origin import Origin
from scoring.models import RoundEvent, Seating, Table
from scoring.services.base import ServiceError, evening_changed
from scoring.services.clock import stop_outlived_clock
from scoring.services.deals import (
    check_all_deals_entered,
    check_own_table,
    check_table_may_change,
    locked_seating,
)
from scoring.services.round_events import record_round_event


@transaction.atomic
def mark_seating_entered(*, seating_id: int, table: Table, team: str) -> Seating:
    """The scorer finishes the round at the table: every deal is entered; the other team must
    now confirm (:func:`confirm_seating`).

    Args:
        team: "A" or "B", the scorer's team (the team that entered the deals).

    Returns the seating; finishing again changes nothing (the first finish counts).

    Raises:
        ServiceError: another table's round, deals missing, the round confirmed already, its
            session closed, or no team given.
    """
    seating = check_own_table(locked_seating(seating_id), table)
    if team not in TEAMS:
        raise ServiceError(gettext_noop("Please choose the scorer's team."), code="team_missing")
    check_table_may_change(seating, table, entry=False)
    if seating.entered_at is not None:
        return seating
    check_all_deals_entered(seating)
    seating.entered_at = timezone.now()
    seating.entered_by = team
    seating.save(update_fields=["entered_at", "entered_by"])
    record_round_event(
        RoundEvent.Kind.FINISHED,
        round_id=seating.round_id,
        seating=seating,
        origin=Origin.table_link(table.number, team),
    )
    evening_changed(seating.round.session.evening_id, seats=False)  # not confirmed yet: no seat moves
    return seating


@transaction.atomic
def reopen_seating(*, seating_id: int, table: Table) -> Seating:
    """The other team does not agree ("Stimmt nicht"): the finished round goes back to the scorer
    for corrections; recorded in the round's history as disputed by the team that did not enter.

    Raises ServiceError as :func:`enter_deal` does for a table link (confirmed, locked, closed).
    """
    seating = check_own_table(locked_seating(seating_id), table)
    check_table_may_change(seating, table, entry=True)
    if seating.entered_at is not None:
        disputing = other_team(seating.entered_by) if seating.entered_by in TEAMS else ""
        seating.entered_at = None
        seating.entered_by = ""
        seating.save(update_fields=["entered_at", "entered_by"])
        record_round_event(
            RoundEvent.Kind.DISPUTED,
            round_id=seating.round_id,
            seating=seating,
            origin=Origin.table_link(table.number, disputing),
        )
        evening_changed(seating.round.session.evening_id, seats=False)
    return seating


@transaction.atomic
def confirm_seating(
    *, seating_id: int, team: str, origin: Origin | None = None, table: Table | None = None, user=None
) -> Seating:
    """The other team confirms the round's deals (Bridgemate style); only then is it final.

    Args:
        team: "A" or "B", the team that confirms. It must not be the team that entered
            (``entered_by``).
        table: through a table link: that table's current round, finished by its scorer.
        user: the organiser confirming on the team's behalf (the round need not be finished at
            the table, but every deal must be entered).
        origin: where the confirmation came from (scoring.hall.origin), kept on the seating (none:
            left empty, as by ``enter_and_confirm_seating``).

    Returns the seating; confirming a confirmed round again changes nothing. The round's last
    confirmation switches its clock off, the evening's last any clock
    (:func:`scoring.services.clock.stop_outlived_clock`).

    Raises:
        ServiceError: another table's round, not finished by the scorer (from a table), the team
            that entered confirming, deals missing, session closed (from a table).
    """
    seating = check_own_table(locked_seating(seating_id), table)
    if seating.confirmed_at is not None:
        return seating
    if team not in TEAMS:
        raise ServiceError(gettext_noop("Please choose a team."), code="team_missing")
    if table is not None:
        check_table_may_change(seating, table, entry=False)
        if seating.entered_at is None:
            raise ServiceError(
                gettext_noop(
                    "The scorer has not finished this round, or has corrected a deal since. "
                    "Please finish the round first."
                ),
                code="not_finished",
            )
    if seating.entered_by and team == seating.entered_by:
        raise ServiceError(
            gettext_noop(
                "Team %(team)s entered this round, so it cannot confirm it: the other team (team %(other)s) confirms."
            ),
            code="own_team",
            team=team,
            other=other_team(team),
        )
    check_all_deals_entered(seating)
    now = timezone.now()
    seating.entered_at = seating.entered_at or now
    seating.confirmed_at = now
    seating.confirmed_by = user
    fields = origin.fields("confirmed_") if origin else {}
    for name, value in fields.items():
        setattr(seating, name, value)
    seating.save(update_fields=["entered_at", "confirmed_at", "confirmed_by", *fields])
    record_round_event(RoundEvent.Kind.CONFIRMED, round_id=seating.round_id, seating=seating, origin=origin, user=user)
    evening_changed(seating.round.session.evening_id)
    stop_outlived_clock(seating.round.session.evening_id)  # the round's last table: its clock stops
    return seating


@transaction.atomic
def enter_and_confirm_seating(*, seating_id: int, table: Table | None = None) -> Seating:
    """Finish and confirm a seating's round in one step (organiser tools, demo, scripts).

    The table's tablet does not use this: there the scorer finishes and the other team confirms.

    Raises:
        ServiceError: deals are missing, or the seating belongs to another table.
    """
    seating = locked_seating(seating_id)
    if seating is None or (table is not None and seating.table_id != table.pk):
        raise ServiceError(gettext_noop("This round belongs to another table."), code="foreign_table")
    if seating.confirmed_at is not None:
        return seating
    check_all_deals_entered(seating)
    seating.confirmed_at = timezone.now()
    seating.entered_at = seating.entered_at or seating.confirmed_at
    seating.save(update_fields=["confirmed_at", "entered_at"])
    record_round_event(RoundEvent.Kind.CONFIRMED, round_id=seating.round_id, seating=seating)
    evening_changed(seating.round.session.evening_id)
    stop_outlived_clock(seating.round.session.evening_id)
    return seating
