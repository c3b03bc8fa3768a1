"""The room: the live state of every table, the round being played, where a player sits."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Sum

from scoring.domain.ranking import TableResult, round_sitout_credit
from scoring.models import Evening, Player, Round, Seating, Session
from scoring.selectors.history import Seat, evening_history

NOT_STARTED, IN_PROGRESS, ENTERED, CONFIRMED = "not_started", "in_progress", "entered", "confirmed"


def seating_state(seating: Seating, deal_count: int) -> str:
    """not started (no deal), in progress (deals being entered), entered (finished by the scorer,
    waiting for the other team), confirmed (final)."""
    if seating.confirmed_at is not None:
        return CONFIRMED
    if seating.entered_at is not None:
        return ENTERED
    return IN_PROGRESS if deal_count else NOT_STARTED


@dataclass(frozen=True)
class LiveCell:
    """One table in one round on the organiser's live dashboard."""

    seating_id: int
    state: str
    deals: int
    entered_by: str


@dataclass
class LiveGrid:
    """A session's tables x rounds with each seating's state."""

    session: Session
    rounds: list[Round]
    rows: list[tuple[int, list[LiveCell | None]]]  # (table number, one cell per round)
    counts: dict[str, int]
    deals_per_round: int
    credits: list = field(default_factory=list)  # per round: SitoutCredit, None without sit-outs

    @property
    def complete(self) -> bool:
        return bool(self.rows) and self.counts.get(CONFIRMED, 0) == sum(self.counts.values())

    @property
    def has_sitouts(self) -> bool:
        return any(credit is not None for credit in self.credits)


def live_grid(session: Session) -> LiveGrid:
    """The live dashboard of one session (2 queries, whatever the number of tables), with each
    round's sit-out credit so far (provisional until every table has confirmed)."""
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    column = {r.pk: i for i, r in enumerate(rounds)}
    rows: dict[int, list[LiveCell | None]] = {}
    counts = {NOT_STARTED: 0, IN_PROGRESS: 0, ENTERED: 0, CONFIRMED: 0}
    seatings = (
        Seating.objects.filter(round__session=session)
        .select_related("table")
        .annotate(deal_count=Count("deals"), sum_a=Sum("deals__points_a"), sum_b=Sum("deals__points_b"))
        .order_by("table__number", "round__number")
    )
    deals_per_round = session.evening.deals_per_round
    tables: list[list[TableResult]] = [[] for _ in rounds]
    for s in seatings:
        state = seating_state(s, s.deal_count)
        counts[state] += 1
        cells = rows.setdefault(s.table.number, [None] * len(rounds))
        cells[column[s.round_id]] = LiveCell(s.pk, state, s.deal_count, s.entered_by)
        tables[column[s.round_id]].append(
            TableResult(
                s.sum_a or 0,
                s.sum_b or 0,
                entered=s.entered_at is not None or s.deal_count >= deals_per_round,
                confirmed=s.confirmed_at is not None,
            )
        )
    sits_out = session.sitout_player_id is not None
    return LiveGrid(
        session=session,
        rounds=rounds,
        rows=sorted(rows.items()),
        counts=counts,
        deals_per_round=deals_per_round,
        credits=[
            round_sitout_credit(t) if sits_out or r.sitout_partnership_id else None
            for r, t in zip(rounds, tables, strict=True)
        ],
    )


@dataclass(frozen=True)
class PlayingNow:
    """Which round is being played: the first (by session and round) not confirmed everywhere."""

    session: int | None
    round: int | None
    drawn_sessions: int


def playing_now(evening: Evening) -> PlayingNow:
    """The session and round being played (1 query); None, None when nothing is open."""
    drawn = evening.sessions.count()
    first_open = (
        Seating.objects.filter(round__session__evening=evening, confirmed_at__isnull=True)
        .order_by("round__session__number", "round__number")
        .values("round__session__number", "round__number")
        .first()
    )
    if first_open is None:
        return PlayingNow(None, None, drawn)
    return PlayingNow(first_open["round__session__number"], first_open["round__number"], drawn)


@dataclass
class PlayerSeats:
    """A player's seat in the round they play now and in the next one."""

    player: Player | Person  # Person: as kept in the shared cache (session_seats)
    current: Seat[Player] | Seat[Person] | None
    next: Seat[Player] | Seat[Person] | None
    session_done: bool  # every round of the drawn session is confirmed for this player


def player_seats(session: Session, player: Player) -> PlayerSeats:
    """Where ``player`` sits in the session's round being played (for them) and the next (5
    queries: :func:`~scoring.selectors.history.evening_history` of the session and the people).

    A player's current round is the first whose seating (or, when they sit it out, every seating
    of that round) is not confirmed yet: tables that finish early see their next table at once.
    Rounds in which the player has no seat (before a replacement joined, after a leaver left)
    are skipped.
    """
    history = evening_history(session.evening, sessions=(session.number,))
    shown = _shown_seats(_round_views(history.session_rounds(session.pk)), player.pk)
    if shown is None:
        return PlayerSeats(player=player, current=None, next=None, session_done=True)
    people = Player.objects.in_bulk({p for seat in shown for p in (*seat.partners, *seat.opponents)})
    current, *following = (seat.named(people) for seat in shown)
    return PlayerSeats(player=player, current=current, next=following[0] if following else None, session_done=False)


#: Of one round: every player's seat, whether each seated player's table has confirmed, and
#: whether the whole round has (for who sits it out).
_RoundView = tuple[dict[int, Seat[int]], dict[int, bool], bool]


def _round_views(rounds) -> list[_RoundView]:
    return [(r.seats(), {p: t.confirmed for t in r.tables for p in t.players}, r.confirmed) for r in rounds]


def _shown_seats(views: list[_RoundView], player_id: int) -> list[Seat[int]] | None:
    """The player's current seat and the next one (see :func:`player_seats`), None when every
    round of theirs is confirmed."""
    seats: list[tuple[Seat[int], bool]] = []
    for by_player, table_done, round_done in views:
        seat = by_player.get(player_id)
        if seat is None:
            continue
        seats.append((seat, round_done if seat.sits_out else table_done[player_id]))
    index = next((i for i, (_, done) in enumerate(seats) if not done), None)
    if index is None:
        return None
    return [seats[index][0], *([seats[index + 1][0]] if index + 1 < len(seats) else [])]


@dataclass(frozen=True)
class Person:
    """A player as a seat page shows them: id and name (what the ``shown`` filters read); small
    to keep in the shared cache of the screens."""

    pk: int
    name: str
    club: str = ""


def session_seats(session: Session, players: list[Player]) -> dict[int, PlayerSeats]:
    """:func:`player_seats` of every one of ``players`` (the session's, :func:`session_players`)
    at once, with :class:`Person` for the people (4 queries, the history; one more after a
    replacement, for the leavers; whatever the field):
    what "Wo sitze ich?" keeps in the shared cache for a seating version."""
    history = evening_history(session.evening, sessions=(session.number,))
    views = _round_views(history.session_rounds(session.pk))
    people = {p.pk: Person(p.pk, p.name, p.club) for p in players}
    named = {p for by_player, _, _ in views for seat in by_player.values() for p in (*seat.partners, *seat.opponents)}
    if missing := named - people.keys():  # a leaver no longer in the session's list (one query)
        people.update((p.pk, Person(p.pk, p.name, p.club)) for p in Player.objects.filter(pk__in=missing))
    seats: dict[int, PlayerSeats] = {}
    for player in players:
        shown = _shown_seats(views, player.pk)
        person = people[player.pk]
        if shown is None:
            seats[player.pk] = PlayerSeats(player=person, current=None, next=None, session_done=True)
            continue
        current, *following = (seat.named(people) for seat in shown)
        seats[player.pk] = PlayerSeats(
            player=person, current=current, next=following[0] if following else None, session_done=False
        )
    return seats
