"""Write operations of Bruus Turnier, one transaction each.

Views call these functions and nothing else to change data. Bad input raises
:class:`~scoring.domain.errors.DomainError` (or a subclass) whose message the view translates;
because each service runs in one transaction, an error saves nothing half.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from scoring.domain import draw as draw_domain
from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.player_import import ParsedPlayer, match_key, normalise_name
from scoring.domain.rules import DealResult, DealScore, ImpossibleResult, score_deal
from scoring.models import (
    Deal,
    DealChange,
    Evening,
    Participant,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Table,
    new_table_token,
)

class ServiceError(DomainError):
    """A request the current state of the evening does not allow (message is a msgid)."""


# --- Player register -------------------------------------------------------------------------


def add_player(*, name: str, club: str = "") -> tuple[Player, bool]:
    """Add a player to the register, or find the one already there.

    Args:
        name: full name; whitespace is normalised, markup and quotes are kept literally.
        club: club or village, may be empty.

    Returns:
        ``(player, created)``; ``created`` is False when a player with the same name and club
        (ignoring case and extra spaces) was already registered.

    Raises:
        ServiceError: empty name, or name/club longer than 100 characters.
    """
    name, club = normalise_name(name), normalise_name(club)
    if not name:
        raise ServiceError(gettext_noop("Please enter the player's name."), code="name_missing")
    if len(name) > 100 or len(club) > 100:
        raise ServiceError(
            gettext_noop("Name and club may have at most 100 characters each."), code="too_long"
        )
    existing = Player.objects.filter(match_key=match_key(name, club)).first()
    if existing:
        return existing, False
    with transaction.atomic():
        return Player.objects.create(name=name, club=club), True


@dataclass(frozen=True)
class ImportOutcome:
    """Counts of an import: players created, and players already in the register."""

    created: int
    existing: int
    checked_in: int


@transaction.atomic
def import_players(
    players: Iterable[ParsedPlayer], *, check_in_to: Evening | None = None
) -> ImportOutcome:
    """Save parsed player rows to the register in one transaction.

    Players already registered (same name and club, ignoring case and spacing) are recognised
    and not duplicated. With ``check_in_to``, every imported player is also checked in for that
    evening.
    """
    rows = list(players)
    keys = {match_key(p.name, p.club): p for p in rows}
    known = {p.match_key: p for p in Player.objects.filter(match_key__in=keys)}
    created = [
        Player(name=p.name, club=p.club, match_key=key) for key, p in keys.items() if key not in known
    ]
    Player.objects.bulk_create(created)
    checked_in = 0
    if check_in_to is not None:
        all_players = Player.objects.filter(match_key__in=keys)
        for player in all_players:
            Participant.objects.update_or_create(
                evening=check_in_to, player=player, defaults={"checked_in": True}
            )
            checked_in += 1
    return ImportOutcome(created=len(created), existing=len(keys) - len(created), checked_in=checked_in)


# --- Evening --------------------------------------------------------------------------------


def create_evening(
    *, name: str, date, venue: str = "", sessions_count: int = 3, rounds_per_session: int = 4,
    deals_per_round: int = 4,
) -> Evening:
    """Create an evening (default 3 sessions of 4 rounds of 4 deals, DOMAIN.md)."""
    evening = Evening(
        name=name.strip(),
        date=date,
        venue=venue.strip(),
        sessions_count=sessions_count,
        rounds_per_session=rounds_per_session,
        deals_per_round=deals_per_round,
    )
    evening.full_clean()
    evening.save()
    return evening


@transaction.atomic
def set_checked_in(*, evening: Evening, player: Player, checked_in: bool) -> Participant:
    """Check a player in for the evening (present for the next draw), or out again."""
    participant, _ = Participant.objects.update_or_create(
        evening=evening, player=player, defaults={"checked_in": checked_in}
    )
    return participant


# --- Draw -----------------------------------------------------------------------------------


def _history(evening: Evening) -> draw_domain.History:
    """The evening's partners, opponents and sit-outs so far, for the draw."""
    partners: set[frozenset[int]] = set()
    for p in Partnership.objects.filter(session__evening=evening).values("player_1", "player_2"):
        partners.add(frozenset((p["player_1"], p["player_2"])))
    opponents: dict[frozenset[int], int] = {}
    seatings = Seating.objects.filter(round__session__evening=evening).values(
        "team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2"
    )
    for s in seatings:
        for a in (s["team_a__player_1"], s["team_a__player_2"]):
            for b in (s["team_b__player_1"], s["team_b__player_2"]):
                key = frozenset((a, b))
                opponents[key] = opponents.get(key, 0) + 1
    sitouts: dict[int, int] = {}
    for r in Round.objects.filter(session__evening=evening, sitout_partnership__isnull=False).values(
        "sitout_partnership__player_1", "sitout_partnership__player_2"
    ):
        for pid in r.values():
            sitouts[pid] = sitouts.get(pid, 0) + 1
    for s in Session.objects.filter(evening=evening, sitout_player__isnull=False):
        sitouts[s.sitout_player_id] = sitouts.get(s.sitout_player_id, 0) + evening.rounds_per_session
    return draw_domain.History(partners=frozenset(partners), opponents=opponents, sitouts=sitouts)


def session_is_complete(session: Session) -> bool:
    """True when every seating of every round of the session has been completed."""
    return not Seating.objects.filter(round__session=session, completed_at__isnull=True).exists()


def draw_session(*, evening: Evening, user=None, seed: int | None = None) -> Session:
    """Draw the evening's next session: partnerships, and for each round the tables and sit-outs.

    Args:
        evening: the evening.
        user: the organiser who draws (recorded).
        seed: the random seed; a fresh one when None. Stored on the session and shown, so the
            same seed and players reproduce the draw exactly.

    Returns:
        The new Session with its partnerships, rounds and seatings saved.

    Raises:
        ServiceError: all sessions are drawn already, the previous session is not complete,
            the same session is being drawn at the same moment, or too few players are checked in
            (DrawError from the draw).
    """
    try:
        with transaction.atomic():
            return _draw_session(evening, user, seed)
    except IntegrityError:
        raise ServiceError(
            gettext_noop("This session has just been drawn by someone else. Please reload the page."),
            code="draw_race",
        ) from None


def _draw_session(evening: Evening, user, seed: int | None) -> Session:
    previous = list(evening.sessions.order_by("number"))
    number = len(previous) + 1
    if number > evening.sessions_count:
        raise ServiceError(
            gettext_noop("All %(count)s sessions of this evening have been drawn already."),
            code="all_drawn",
            count=evening.sessions_count,
        )
    if previous and not session_is_complete(previous[-1]):
        raise ServiceError(
            gettext_noop(
                "Session %(number)s is not complete yet: every table must finish its rounds "
                "before the next session is drawn."
            ),
            code="previous_incomplete",
            number=previous[-1].number,
        )
    player_ids = sorted(
        Participant.objects.filter(evening=evening, checked_in=True).values_list("player_id", flat=True)
    )
    seed = secrets.randbits(48) if seed is None else seed
    result = draw_domain.draw_session(
        player_ids, _history(evening), evening.rounds_per_session, random.Random(seed)
    )
    session = Session.objects.create(
        evening=evening, number=number, seed=seed, sitout_player_id=result.sitout_player, drawn_by=user
    )
    partnerships = Partnership.objects.bulk_create(
        Partnership(session=session, number=i + 1, player_1_id=a, player_2_id=b)
        for i, (a, b) in enumerate(result.partnerships)
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
    return session


def _ensure_tables(evening: Evening, count: int) -> dict[int, Table]:
    existing = {t.number: t for t in evening.tables.all()}
    missing = [Table(evening=evening, number=n) for n in range(1, count + 1) if n not in existing]
    for table in Table.objects.bulk_create(missing):
        existing[table.number] = table
    return existing


@transaction.atomic
def regenerate_table_link(*, table_id: int) -> Table:
    """Give a table a new private link (e.g. when a tablet is lost); the old link stops at once.

    Returns the table with its new token (192 random bits). Raises Table.DoesNotExist.
    """
    table = Table.objects.select_for_update().get(pk=table_id)
    table.token = new_table_token()
    table.save(update_fields=["token"])
    return table


# --- Deals ----------------------------------------------------------------------------------


def _snapshot(deal: Deal) -> dict:
    return {
        "winner": deal.winner,
        "to_nil": deal.to_nil,
        "bonus_a": deal.bonus_a,
        "bonus_b": deal.bonus_b,
        "points_a": deal.points_a,
        "points_b": deal.points_b,
    }


def current_seating(table: Table) -> Seating | None:
    """The table's first seating (by session and round) that is not confirmed yet, or None."""
    return (
        Seating.objects.filter(table=table, completed_at__isnull=True)
        .select_related("round__session")
        .order_by("round__session__number", "round__number")
        .first()
    )


class ConflictError(ServiceError):
    """The form was based on an older state of the deal: someone changed it in the meantime.

    ``deal`` is the deal as it is now; nothing was saved.
    """

    def __init__(self, message: str, code: str = "conflict", *, deal: Deal | None = None, **params):
        super().__init__(message, code=code, **params)
        self.deal = deal


TEAMS = ("A", "B")


def _locked_seating(seating_id) -> Seating | None:
    """The seating, locked for this transaction (PostgreSQL row lock; SQLite takes its write lock
    at the start of every transaction), with its round, session and evening."""
    try:
        seating_id = int(seating_id)
    except (TypeError, ValueError):
        return None
    return (
        Seating.objects.select_related("round__session__evening")
        .select_for_update(of=("self",))  # the seating only: other tables go on entering
        .filter(pk=seating_id)
        .first()
    )


def _check_own_table(seating: Seating | None, table: Table | None) -> Seating:
    if seating is None:
        raise ServiceError(gettext_noop("This round does not exist."), code="no_seating")
    if table is not None and seating.table_id != table.pk:
        raise ServiceError(gettext_noop("This round belongs to another table."), code="foreign_table")
    return seating


def _check_table_may_change(seating: Seating, table: Table, *, entry: bool) -> None:
    """Raise ServiceError unless a table link may change this seating now.

    ``entry``: entering or correcting deals (refused in a locked round); finishing and confirming
    are allowed in a locked round, so the organiser's lock does not trap a table that is done.
    """
    if seating.completed_at is not None:
        raise ServiceError(
            gettext_noop(
                "This round is complete and can no longer be changed at the table. "
                "Please ask the organiser."
            ),
            code="round_complete",
        )
    if seating.round.session.closed:
        raise ServiceError(
            gettext_noop(
                "Session %(number)s is closed: the tables can no longer change anything. "
                "Please ask the organiser."
            ),
            code="session_closed",
            number=seating.round.session.number,
        )
    if entry and seating.round.locked:
        raise ServiceError(
            gettext_noop(
                "Round %(number)s is locked by the organiser: no more entries at the tables. "
                "Please ask the organiser."
            ),
            code="round_locked",
            number=seating.round.number,
        )
    current = current_seating(table)
    if current is None or current.pk != seating.pk:
        raise ServiceError(
            gettext_noop("This is not the current round at this table. Please reload the page."),
            code="not_current_round",
        )


def _check_all_deals_entered(seating: Seating) -> None:
    expected = seating.round.session.evening.deals_per_round
    entered = seating.deals.count()
    if entered < expected:
        raise ServiceError(
            gettext_noop("%(missing)s of %(count)s deals are still missing."),
            code="deals_missing",
            missing=expected - entered,
            count=expected,
        )


def enter_deal(
    *,
    seating_id: int,
    number: int,
    result: DealResult,
    via: str,
    user=None,
    table: Table | None = None,
    reason: str = "",
    accept_impossible: bool = False,
    key: uuid.UUID | None = None,
    based_on_version: int | None = None,
    client: str = "",
) -> Deal:
    """Enter or correct the result of deal ``number`` at a seating, keeping the previous value.

    Args:
        seating_id: the seating (two partnerships at one table in one round).
        number: deal number, 1 .. the evening's deals per round.
        result: what the scorer entered (rules.DealResult).
        via: who/where for the history, e.g. "Tisch 3 (Tablet)" or the organiser's login.
        user: the organiser, when entered from an organiser page.
        table: when entered through a table link: the table it belongs to. The seating must then be
            that table's current seating, not confirmed, its round not locked, its session not
            closed. A correction of a round the scorer has finished reopens it (the other team
            must confirm what is now entered).
        reason: the organiser's reason for a correction or an accepted impossible result;
            required for an organiser's correction of a confirmed round.
        accept_impossible: organiser only: save a result the rules call impossible, with ``reason``.
        key: the idempotency key of the form sent (a UUID made when the form was shown). Sending
            the same key again (double tap, resent form, replay after a lost connection) changes
            nothing and returns the deal as it is, with ``outcome == "replayed"``.
        based_on_version: the deal's ``version`` the form was made from (0: not entered yet). If
            the deal has changed since to a different result, nothing is saved (ConflictError).
        client: the device's network address, kept in the history.

    Returns:
        The saved Deal with its matchsticks (points_a, points_b) and ``outcome``: "created",
        "changed", "unchanged" or "replayed".

    Raises:
        ImpossibleResult: the rules reject the result (nothing saved).
        ConflictError: the deal was changed meanwhile (``based_on_version`` is stale).
        ServiceError: unknown seating or deal number, a confirmed/locked/closed round changed from
            a table link, a missing reason, or a key already used for another deal.
    """
    try:
        with transaction.atomic():
            return _enter_deal(
                seating_id, number, result, via, user, table, reason.strip(), accept_impossible,
                key, based_on_version, client[:64],
            )
    except IntegrityError:  # a backstop: the seating lock serialises entries for one seating
        raise ServiceError(
            gettext_noop("This deal was saved at the same moment on another device. Please reload the page."),
            code="entry_race",
        ) from None


def _enter_deal(seating_id, number, result, via, user, table, reason, accept_impossible, key,
                based_on_version, client) -> Deal:
    seating = _check_own_table(_locked_seating(seating_id), table)
    deals_per_round = seating.round.session.evening.deals_per_round
    if not 1 <= number <= deals_per_round:
        raise ServiceError(
            gettext_noop("There is no deal %(number)s: a round has deals 1 to %(count)s."),
            code="deal_out_of_range",
            number=number,
            count=deals_per_round,
        )
    if key is not None:
        sent = DealChange.objects.filter(deal__seating=seating, submission=key).select_related("deal").first()
        if sent is not None:
            if sent.deal.number != number:
                raise ServiceError(
                    gettext_noop("This form was already sent for deal %(number)s. Please reload the page."),
                    code="key_reused",
                    number=sent.deal.number,
                )
            sent.deal.outcome = "replayed"
            return sent.deal
    if table is not None:
        _check_table_may_change(seating, table, entry=True)
    try:
        score = score_deal(result)
    except ImpossibleResult:
        if not (accept_impossible and user is not None):
            raise
        if not reason:
            raise ServiceError(
                gettext_noop("Please give a reason for accepting a result the rules call impossible."),
                code="reason_missing",
            ) from None
        base = score_deal(DealResult(result.winner, result.to_nil, 0, 0))
        score = DealScore(a=base.a + result.bonus_a, b=base.b + result.bonus_b)
    deal = Deal.objects.filter(seating=seating, number=number).first()
    previous = _snapshot(deal) if deal else None
    if deal is None:
        deal = Deal(seating=seating, number=number, version=0)
    based_on = deal.version
    deal.winner = result.winner
    deal.to_nil = result.to_nil
    deal.bonus_a = result.bonus_a
    deal.bonus_b = result.bonus_b
    deal.points_a = score.a
    deal.points_b = score.b
    deal.override_reason = reason if accept_impossible else ""
    new = _snapshot(deal)
    if previous == new:
        deal.outcome = "unchanged"
        return deal
    if based_on_version is not None and previous is not None and based_on_version != based_on:
        raise ConflictError(
            gettext_noop(
                "Deal %(number)s was changed on another device in the meantime and now reads "
                "%(points_a)s:%(points_b)s. Your entry was not saved. Please check the deal and "
                "correct it if necessary."
            ),
            deal=Deal.objects.get(pk=deal.pk),
            number=number,
            points_a=previous["points_a"],
            points_b=previous["points_b"],
        )
    if user is not None and previous is not None and seating.completed_at is not None and not reason:
        raise ServiceError(
            gettext_noop("This round is already confirmed: please give a reason for the correction."),
            code="reason_required",
        )
    deal.version = based_on + 1
    deal.save()
    DealChange.objects.create(
        deal=deal, changed_by=user, via=via, previous=previous, new=new, reason=reason,
        client=client, submission=key,
    )
    if table is not None and seating.finished_at is not None:
        seating.finished_at = None
        seating.finished_by = ""
        seating.save(update_fields=["finished_at", "finished_by"])
    deal.outcome = "created" if previous is None else "changed"
    return deal


@transaction.atomic
def finish_seating(*, seating_id: int, table: Table, team: str) -> Seating:
    """The scorer finishes the round at the table: every deal is entered; the other team must
    now confirm (:func:`confirm_seating`).

    Args:
        team: "A" or "B", the scorer's team (the team that entered the deals).

    Returns the seating; finishing again changes nothing (the first finish counts).

    Raises:
        ServiceError: another table's round, deals missing, the round confirmed already, its
            session closed, or no team given.
    """
    seating = _check_own_table(_locked_seating(seating_id), table)
    if team not in TEAMS:
        raise ServiceError(gettext_noop("Please choose the scorer's team."), code="team_missing")
    _check_table_may_change(seating, table, entry=False)
    if seating.finished_at is not None:
        return seating
    _check_all_deals_entered(seating)
    seating.finished_at = timezone.now()
    seating.finished_by = team
    seating.save(update_fields=["finished_at", "finished_by"])
    return seating


@transaction.atomic
def reopen_seating(*, seating_id: int, table: Table) -> Seating:
    """The other team does not agree: the finished round goes back to the scorer for corrections.

    Raises ServiceError as :func:`enter_deal` does for a table link (confirmed, locked, closed).
    """
    seating = _check_own_table(_locked_seating(seating_id), table)
    _check_table_may_change(seating, table, entry=True)
    if seating.finished_at is not None:
        seating.finished_at = None
        seating.finished_by = ""
        seating.save(update_fields=["finished_at", "finished_by"])
    return seating


@transaction.atomic
def confirm_seating(
    *, seating_id: int, team: str, table: Table | None = None, user=None, via: str = ""
) -> Seating:
    """The other team confirms the round's deals (Bridgemate style); only then is it final.

    Args:
        team: "A" or "B", the team that confirms. It must not be the team that entered
            (``finished_by``).
        table: through a table link: that table's current round, finished by its scorer.
        user: the organiser confirming on the team's behalf (the round need not be finished at
            the table, but every deal must be entered).
        via: who/where, kept on the seating.

    Returns the seating; confirming a confirmed round again changes nothing.

    Raises:
        ServiceError: another table's round, not finished by the scorer (from a table), the team
            that entered confirming, deals missing, session closed (from a table).
    """
    seating = _check_own_table(_locked_seating(seating_id), table)
    if seating.completed_at is not None:
        return seating
    if team not in TEAMS:
        raise ServiceError(gettext_noop("Please choose a team."), code="team_missing")
    if table is not None:
        _check_table_may_change(seating, table, entry=False)
        if seating.finished_at is None:
            raise ServiceError(
                gettext_noop(
                    "The scorer has not finished this round, or has corrected a deal since. "
                    "Please finish the round first."
                ),
                code="not_finished",
            )
    if seating.finished_by and team == seating.finished_by:
        raise ServiceError(
            gettext_noop(
                "Team %(team)s entered this round, so it cannot confirm it: the other team "
                "(team %(other)s) confirms."
            ),
            code="own_team",
            team=team,
            other="B" if team == "A" else "A",
        )
    _check_all_deals_entered(seating)
    now = timezone.now()
    seating.finished_at = seating.finished_at or now
    seating.completed_at = now
    seating.confirmed_by = user
    seating.confirmed_via = via[:120]
    seating.save(update_fields=["finished_at", "completed_at", "confirmed_by", "confirmed_via"])
    return seating


@transaction.atomic
def complete_seating(*, seating_id: int, table: Table | None = None) -> Seating:
    """Finish and confirm a seating's round in one step (organiser tools, demo, scripts).

    The table's tablet does not use this: there the scorer finishes and the other team confirms.

    Raises:
        ServiceError: deals are missing, or the seating belongs to another table.
    """
    seating = _locked_seating(seating_id)
    if seating is None or (table is not None and seating.table_id != table.pk):
        raise ServiceError(gettext_noop("This round belongs to another table."), code="foreign_table")
    if seating.completed_at is not None:
        return seating
    _check_all_deals_entered(seating)
    seating.completed_at = timezone.now()
    seating.finished_at = seating.finished_at or seating.completed_at
    seating.save(update_fields=["completed_at", "finished_at"])
    return seating


# --- The organiser's controls of the room -----------------------------------------------------


@transaction.atomic
def set_round_locked(*, round_id: int, locked: bool) -> Round:
    """Lock a round (no more deal entries from any table for it) or unlock it."""
    round_ = Round.objects.select_for_update().select_related("session").get(pk=round_id)
    if round_.locked != locked:
        round_.locked = locked
        round_.save(update_fields=["locked"])
    return round_


@transaction.atomic
def set_session_closed(*, session_id: int, closed: bool) -> Session:
    """Close a session (the tables can change nothing in it any more) or open it again."""
    session = Session.objects.select_for_update().get(pk=session_id)
    if session.closed != closed:
        session.closed = closed
        session.save(update_fields=["closed"])
    return session


@transaction.atomic
def set_ranking_hidden(*, evening_id: int, hidden: bool) -> Evening:
    """Hide the public ranking screen (for the last rounds) or reveal it."""
    evening = Evening.objects.select_for_update().get(pk=evening_id)
    if evening.ranking_hidden != hidden:
        evening.ranking_hidden = hidden
        evening.save(update_fields=["ranking_hidden"])
    return evening


__all__ = [
    "ServiceError",
    "ConflictError",
    "add_player",
    "import_players",
    "create_evening",
    "set_checked_in",
    "draw_session",
    "session_is_complete",
    "current_seating",
    "enter_deal",
    "finish_seating",
    "reopen_seating",
    "confirm_seating",
    "complete_seating",
    "set_round_locked",
    "set_session_closed",
    "set_ranking_hidden",
]
