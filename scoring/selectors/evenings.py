"""An evening's sessions and rounds, check-in counts, the draw's wishes and a session's players."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import BooleanField, Count, ExpressionWrapper, Prefetch, Q
from django.utils.translation import get_language

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.evening import evening_is_over
from scoring.domain.names import display_names, person_key
from scoring.models import Deal, DrawnDeal, Evening, Participant, Partnership, Player, Round, Seating, Session
from scoring.selectors.players import PARTNERSHIP_PLAYERS, by_name


def evening_has_deals(evening: Evening) -> bool:
    """Whether any deal (or drawn Bräus deal) of the evening is entered: its rule set is then fixed."""
    seatings = Seating.objects.filter(round__session__evening=evening)
    return Deal.objects.filter(seating__in=seatings).exists() or DrawnDeal.objects.filter(seating__in=seatings).exists()


def evening_over(evening: Evening, drawn: int | None = None) -> bool:
    """Whether the evening is over (:func:`scoring.domain.evening.evening_is_over`): every session
    of its format drawn and every table of every round confirmed.

    ``drawn``: the number of sessions drawn (the latest session's number) when the caller knows
    it: then no query before the last session, else 1; without it 2 queries."""
    if drawn is None:
        drawn = evening.sessions.count()
    if not evening_is_over(sessions_planned=evening.sessions_count, sessions_drawn=drawn, tables_confirmed=()):
        return False
    open_seatings = Seating.objects.filter(round__session__evening_id=evening.pk, confirmed_at__isnull=True)
    return evening_is_over(
        sessions_planned=evening.sessions_count,
        sessions_drawn=drawn,
        tables_confirmed=[not open_seatings.exists()] if drawn else [],
    )


def sessions_with_rounds(evening: Evening, number: int | None = None) -> list[Session]:
    """The evening's sessions (only session ``number`` when given) with partnerships, rounds,
    seatings (teams, players, deal counts) prefetched: one query per level, independent of the
    number of players."""
    seatings = Seating.objects.select_related("table", *PARTNERSHIP_PLAYERS).annotate(deal_count=Count("deals"))
    rounds = Round.objects.select_related(
        "sitout_partnership__player_1", "sitout_partnership__player_2", "sitout_partnership__player_3"
    ).prefetch_related(Prefetch("seatings", queryset=seatings))
    sessions = evening.sessions.order_by("number")
    if number is not None:
        sessions = sessions.filter(number=number)
    return list(
        sessions.select_related("sitout_player", "sitout_player_2").prefetch_related(
            Prefetch("rounds", queryset=rounds),
            Prefetch("partnerships", queryset=Partnership.objects.select_related("player_1", "player_2", "player_3")),
        )
    )


@dataclass(frozen=True)
class ProgressCell:
    """One table in one round on the evening page: deals entered, confirmed or not."""

    seating_id: int
    table: int
    deals: int
    confirmed: bool


@dataclass
class SessionProgress:
    """A session on the evening page: its number and seed, and per round one cell per table."""

    number: int
    seed: int
    rounds: list[tuple[int, list[ProgressCell]]] = field(default_factory=list)

    @property
    def tables(self) -> list[int]:
        """The table numbers (of the first round), for the header."""
        return [cell.table for cell in self.rounds[0][1]] if self.rounds else []


def evening_progress(evening: Evening) -> list[SessionProgress]:
    """Every drawn session's progress grid for the evening page: plain values, no partnerships
    or players (2 queries, whatever the number of players)."""
    sessions = {
        pk: SessionProgress(number, seed)
        for pk, number, seed in evening.sessions.order_by("number").values_list("pk", "number", "seed")
    }
    cells = (
        Seating.objects.filter(round__session__evening=evening)
        .annotate(
            deal_count=Count("deals"),
            confirmed=ExpressionWrapper(Q(confirmed_at__isnull=False), output_field=BooleanField()),
        )
        .order_by("round__session__number", "round__number", "table__number")
        .values_list("round__session_id", "round__number", "pk", "table__number", "deal_count", "confirmed")
    )
    for session_id, round_number, pk, table, deals, confirmed in cells:
        rounds = sessions[session_id].rounds
        if not rounds or rounds[-1][0] != round_number:
            rounds.append((round_number, []))
        rounds[-1][1].append(ProgressCell(pk, table, deals, bool(confirmed)))
    return list(sessions.values())


def checked_in_count(evening: Evening) -> int:
    return Participant.objects.filter(evening=evening, checked_in=True).count()


def latest_session(evening: Evening) -> Session | None:
    return evening.sessions.order_by("-number").select_related("sitout_player", "sitout_player_2").first()


def session_players(session: Session) -> list[Player]:
    """Everybody drawn in a session (partnerships and the whole-session sit-outs), A to Z (1 query)."""
    players: dict[int, Player] = {}
    for p in Partnership.objects.filter(session=session).select_related("player_1", "player_2", "player_3"):
        players.update((player.pk, player) for player in p.players)
    for sitter in (session.sitout_player, session.sitout_player_2):
        if sitter is not None:
            players[sitter.pk] = sitter
    return by_name(players.values())


@dataclass(frozen=True)
class DrawWishes:
    """What the check-in page shows about the draw: wishes "not together", stand-ins, the
    players who could be chosen for a wish, and what the number of players means.

    ``participants``: the players checked in now, A to Z (who can be chosen for a wish "not
    together": a player checked out is not drawn, so a wish about them would mean nothing)."""

    exclusions: list
    stand_ins: set[int]
    participants: list[Player]
    present: int
    ranked_present: int
    table_size: int = 4  # players at a table: 4, or 6 in six-handed Bräus

    @property
    def remainder(self) -> int:
        """Players present modulo the table size: 0 full tables; otherwise it says who sits out."""
        return self.present % self.table_size


def draw_wishes(evening: Evening) -> DrawWishes:
    """The evening's wishes "not together" and stand-ins (2 queries)."""
    from scoring.models import PartnerExclusion

    exclusions = list(PartnerExclusion.objects.filter(evening=evening).select_related("player_a", "player_b"))
    participants = list(Participant.objects.filter(evening=evening).select_related("player"))
    participants.sort(key=lambda p: person_key(p.player.name, p.player.club, p.player.pk, get_language()))
    return DrawWishes(
        exclusions=exclusions,
        stand_ins={p.player_id for p in participants if p.is_stand_in},
        participants=[p.player for p in participants if p.checked_in],
        present=sum(p.checked_in for p in participants),
        ranked_present=sum(p.checked_in and not p.is_stand_in for p in participants),
        table_size=evening.rules.players_per_table,
    )


@dataclass(frozen=True)
class SessionChanges:
    """What the session page needs for redrawing, swapping and replacing players."""

    started: bool  # a deal has been entered (or a round confirmed)
    in_session: list[Player]  # drawn into the session (incl. its sit-out player)
    candidates: list[Player]  # checked in, not drawn (late arrivals, stand-ins)
    stand_ins: set[int]
    substitutions: list
    names: dict[int, str] = field(default_factory=dict)  # player id -> name shown (club if names collide)


def session_changes(session: Session) -> SessionChanges:
    """Players of a session and the evening's other present players, stand-ins, replacements
    made, and whether deals have been entered (5 queries)."""
    from scoring.models import Substitution

    started = (
        Deal.objects.filter(seating__round__session=session).exists()
        or Seating.objects.filter(round__session=session, confirmed_at__isnull=False).exists()
    )
    ids: set[int] = set()
    for team in Partnership.objects.filter(session=session).only("player_1", "player_2", "player_3"):
        ids.update(team.player_ids)
    ids.update(session.sitout_player_ids)
    participants = list(Participant.objects.filter(evening_id=session.evening_id).select_related("player"))
    known = {p.player_id: p.player for p in participants}
    missing = ids - set(known)
    if missing:
        known.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})

    return SessionChanges(
        started=started,
        in_session=by_name(known[pid] for pid in ids),
        candidates=by_name(p.player for p in participants if p.checked_in and p.player_id not in ids),
        stand_ins={p.player_id for p in participants if p.is_stand_in},
        substitutions=list(Substitution.objects.filter(session=session).select_related("leaving", "replacement")),
        names=display_names((p.player_id, p.player.name, p.player.club) for p in participants),
    )


def session_is_confirmed(session: Session) -> bool:
    """True when every seating of every round of the session has been completed (one query)."""
    return not Seating.objects.filter(round__session=session, confirmed_at__isnull=True).exists()


def next_session_blocker(evening: Evening, drawn: Sequence[Session], present: int | None = None) -> DomainError | None:
    """Why the evening's next session may not be drawn now, None when it may: all
    ``evening.sessions_count`` sessions are drawn (code ``all_drawn``), a round of the last drawn one
    is not confirmed (``previous_incomplete``) or, when ``present`` (the number of players checked
    in) is given, fewer players are there than one table of the evening's rule set seats
    (``too_few_players``: 4, or 6 for six-handed Bräus). ``drawn``: the evening's sessions so far, in
    number order (1 query for the last one's seatings). The draw raises it
    (:func:`scoring.services.check_next_session_drawable`); the evening page offers the draw
    without it."""
    if len(drawn) >= evening.sessions_count:
        return DomainError(
            gettext_noop("All %(count)s sessions of this evening have been drawn already."),
            code="all_drawn",
            count=evening.sessions_count,
        )
    if drawn and not session_is_confirmed(drawn[-1]):
        return DomainError(
            gettext_noop(
                "Session %(number)s is not complete yet: every table must finish its rounds "
                "before the next session is drawn."
            ),
            code="previous_incomplete",
            number=drawn[-1].number,
        )
    needed = evening.rules.players_per_table
    if present is not None and present < needed:
        return DomainError(
            gettext_noop("At least %(needed)s players are needed for one table; %(count)s are checked in."),
            code="too_few_players",
            needed=needed,
            count=present,
        )
    return None
