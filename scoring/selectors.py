"""Read operations that feed pages; each runs a fixed number of queries, whatever the number of
players (annotate and prefetch, no query per row)."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Prefetch, Sum

from scoring.domain.player_import import match_key
from scoring.domain.ranking import PlayerScore, RankedScore, rank, sitout_credit
from scoring.models import Deal, Evening, Participant, Partnership, Player, Round, Seating, Session, Table

PARTNERSHIP_PLAYERS = ("team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2")


# --- Ranking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingRow:
    """One line of the individual ranking; amounts in matchsticks (Fraction: sit-out credit is exact)."""

    place: int
    shared: bool
    player: Player
    sessions: tuple[Fraction, ...]
    total: Fraction


def evening_ranking(evening: Evening) -> list[RankingRow]:
    """The live individual ranking of an evening (5 queries).

    Every matchstick a team wins counts for both partners; a player who sits out a round is
    credited the exact average of the teams that played in it (DOMAIN.md). Everybody checked in
    or drawn appears, with 0 where they have no score yet.
    """
    sessions = list(evening.sessions.order_by("number").values_list("id", "number", "sitout_player_id"))
    index_of = {sid: number - 1 for sid, number, _ in sessions}
    session_count = max(evening.sessions_count, len(sessions))
    scores: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0)] * session_count)

    partners = {
        p["id"]: (p["player_1"], p["player_2"])
        for p in Partnership.objects.filter(session__evening=evening).values("id", "player_1", "player_2")
    }
    round_teams: dict[int, list[int]] = defaultdict(list)
    round_session: dict[int, int] = {}
    seatings = (
        Seating.objects.filter(round__session__evening=evening)
        .values("round_id", "round__session_id", "team_a_id", "team_b_id")
        .annotate(sum_a=Sum("deals__points_a"), sum_b=Sum("deals__points_b"))
    )
    for s in seatings:
        i = index_of[s["round__session_id"]]
        round_session[s["round_id"]] = i
        for team, total in ((s["team_a_id"], s["sum_a"] or 0), (s["team_b_id"], s["sum_b"] or 0)):
            round_teams[s["round_id"]].append(total)
            for pid in partners[team]:
                scores[pid][i] += total

    session_sitouts = {sid: pid for sid, _, pid in sessions if pid}
    for r in Round.objects.filter(session__evening=evening).values("id", "session_id", "sitout_partnership_id"):
        credit = sitout_credit(round_teams.get(r["id"], []))
        i = index_of[r["session_id"]]
        sitters = list(partners[r["sitout_partnership_id"]]) if r["sitout_partnership_id"] else []
        if r["session_id"] in session_sitouts:
            sitters.append(session_sitouts[r["session_id"]])
        for pid in sitters:
            scores[pid][i] += credit

    players = {
        p.pk: p
        for p in Player.objects.filter(participations__evening=evening).distinct()
    }
    for pid in scores:  # drawn players who were checked out later still rank
        players.setdefault(pid, None)
    missing = [pid for pid, p in players.items() if p is None]
    if missing:
        players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})
    lines: list[RankedScore] = rank(
        [PlayerScore(pid, tuple(scores[pid])) for pid in players],
        name_key=lambda s: players[s.player].name.casefold(),
    )
    return [
        RankingRow(
            place=line.place,
            shared=line.shared,
            player=players[line.score.player],
            sessions=line.score.sessions,
            total=line.score.total,
        )
        for line in lines
    ]


def evening_is_complete(evening: Evening) -> bool:
    """True when every session is drawn and every seating is complete."""
    drawn = evening.sessions.count()
    open_seatings = Seating.objects.filter(round__session__evening=evening, completed_at__isnull=True)
    return drawn == evening.sessions_count and not open_seatings.exists()


# --- Table lists and progress ------------------------------------------------------------------


def sessions_with_rounds(evening: Evening) -> list[Session]:
    """The evening's sessions with partnerships, rounds, seatings (teams, players, deal counts)
    prefetched: one query per level, independent of the number of players."""
    seatings = Seating.objects.select_related("table", *PARTNERSHIP_PLAYERS).annotate(
        deal_count=Count("deals")
    )
    rounds = Round.objects.select_related(
        "sitout_partnership__player_1", "sitout_partnership__player_2"
    ).prefetch_related(Prefetch("seatings", queryset=seatings))
    return list(
        evening.sessions.order_by("number")
        .select_related("sitout_player")
        .prefetch_related(
            Prefetch("rounds", queryset=rounds),
            Prefetch(
                "partnerships", queryset=Partnership.objects.select_related("player_1", "player_2")
            ),
        )
    )


def checked_in_count(evening: Evening) -> int:
    return Participant.objects.filter(evening=evening, checked_in=True).count()


# --- Scorer page ------------------------------------------------------------------------------


@dataclass(frozen=True)
class NextSeat:
    """Where a player sits in the round after a completed one."""

    player: Player
    table: int | None        # table number, None when sitting out or not drawn yet
    partner: Player | None
    sits_out: bool = False
    not_drawn: bool = False


@dataclass
class ScorerState:
    """Everything the table scorer's page shows."""

    table: Table
    seating: Seating | None                    # the round to enter now, None when nothing is open
    deals: dict[int, Deal] = field(default_factory=dict)
    deal_numbers: list[int] = field(default_factory=list)
    total_a: int = 0
    total_b: int = 0
    finished: Seating | None = None            # the round completed last at this table
    next_seats: list[NextSeat] = field(default_factory=list)

    @property
    def next_deal(self) -> int | None:
        return next((n for n in self.deal_numbers if n not in self.deals), None)

    @property
    def all_entered(self) -> bool:
        return self.seating is not None and self.next_deal is None

    @property
    def awaiting_confirmation(self) -> bool:
        """The scorer has finished the round; the other team has not confirmed it yet."""
        return self.seating is not None and self.seating.finished_at is not None

    @property
    def confirming_team(self) -> str | None:
        """The team that must confirm: the one whose scorer did not finish the round."""
        if not self.awaiting_confirmation:
            return None
        return "A" if self.seating.finished_by == "B" else "B"

    @property
    def closed(self) -> bool:
        """The organiser has closed the session: the table can change nothing."""
        return self.seating is not None and self.seating.round.session.closed

    @property
    def locked(self) -> bool:
        """The organiser has locked the round: no more deal entries at the table."""
        return self.seating is not None and self.seating.round.locked

    @property
    def can_enter(self) -> bool:
        """Deals may be entered or corrected at the table (a correction of a finished round
        reopens it)."""
        return self.seating is not None and not (self.closed or self.locked)


def _seating_qs():
    return Seating.objects.select_related("round__session__evening", "table", *PARTNERSHIP_PLAYERS)


def scorer_state(table: Table) -> ScorerState:
    """The state of a table's tablet page: current round, its deals and totals, and after a
    completed round where each of its players sits next."""
    seatings = list(
        _seating_qs()
        .filter(table=table)
        .order_by("round__session__number", "round__number")
        .prefetch_related(Prefetch("deals", queryset=Deal.objects.order_by("number")))
    )
    current = next((s for s in seatings if s.completed_at is None), None)
    finished_list = [s for s in seatings if s.completed_at is not None]
    state = ScorerState(table=table, seating=current)
    if current is not None:
        state.deals = {d.number: d for d in current.deals.all()}
        state.deal_numbers = list(range(1, current.round.session.evening.deals_per_round + 1))
        state.total_a = sum(d.points_a for d in state.deals.values())
        state.total_b = sum(d.points_b for d in state.deals.values())
    if finished_list and (current is None or not state.deals):
        state.finished = finished_list[-1]
        state.next_seats = next_seats(state.finished)
    return state


def next_seats(seating: Seating) -> list[NextSeat]:
    """Where each of a seating's four players sits in the following round (or the first round of
    the next session, if it has been drawn)."""
    session = seating.round.session
    next_round = (
        Round.objects.filter(session=session, number=seating.round.number + 1).first()
        or Round.objects.filter(session__evening=session.evening, session__number=session.number + 1, number=1).first()
    )
    players = [
        seating.team_a.player_1,
        seating.team_a.player_2,
        seating.team_b.player_1,
        seating.team_b.player_2,
    ]
    if next_round is None:
        return [NextSeat(player=p, table=None, partner=None, not_drawn=True) for p in players]
    where: dict[int, NextSeat] = {}
    for s in _seating_qs().filter(round=next_round):
        for team in (s.team_a, s.team_b):
            for me, partner in ((team.player_1, team.player_2), (team.player_2, team.player_1)):
                where[me.pk] = NextSeat(player=me, table=s.table.number, partner=partner)
    result = []
    sitout = next_round.sitout_partnership
    for p in players:
        if p.pk in where:
            result.append(where[p.pk])
        else:
            partner = None
            if sitout and p.pk in (sitout.player_1_id, sitout.player_2_id):
                partner = sitout.player_2 if sitout.player_1_id == p.pk else sitout.player_1
            result.append(NextSeat(player=p, table=None, partner=partner, sits_out=True))
    return result


def known_match_keys(players) -> set[str]:
    """Of the parsed players (objects with ``name`` and ``club``), the match keys already in the
    register: the import preview marks those rows as known (1 query)."""
    keys = [match_key(p.name, p.club) for p in players]
    return set(Player.objects.filter(match_key__in=keys).values_list("match_key", flat=True))


# --- The room: live state of every table, public ranking, where each player sits ----------------

NOT_STARTED, IN_PROGRESS, ENTERED, CONFIRMED = "not_started", "in_progress", "entered", "confirmed"


def seating_state(seating: Seating, deal_count: int) -> str:
    """not started (no deal), in progress (deals being entered), entered (finished by the scorer,
    waiting for the other team), confirmed (final)."""
    if seating.completed_at is not None:
        return CONFIRMED
    if seating.finished_at is not None:
        return ENTERED
    return IN_PROGRESS if deal_count else NOT_STARTED


@dataclass(frozen=True)
class LiveCell:
    """One table in one round on the organiser's live dashboard."""

    seating_id: int
    state: str
    deals: int
    finished_by: str


@dataclass
class LiveGrid:
    """A session's tables x rounds with each seating's state."""

    session: Session
    rounds: list[Round]
    rows: list[tuple[int, list[LiveCell | None]]]    # (table number, one cell per round)
    counts: dict[str, int]
    deals_per_round: int

    @property
    def complete(self) -> bool:
        return bool(self.rows) and self.counts.get(CONFIRMED, 0) == sum(self.counts.values())


def live_grid(session: Session) -> LiveGrid:
    """The live dashboard of one session (2 queries, whatever the number of tables)."""
    rounds = list(Round.objects.filter(session=session).order_by("number"))
    column = {r.pk: i for i, r in enumerate(rounds)}
    rows: dict[int, list[LiveCell | None]] = {}
    counts = {NOT_STARTED: 0, IN_PROGRESS: 0, ENTERED: 0, CONFIRMED: 0}
    seatings = (
        Seating.objects.filter(round__session=session)
        .select_related("table")
        .annotate(deal_count=Count("deals"))
        .order_by("table__number", "round__number")
    )
    for s in seatings:
        state = seating_state(s, s.deal_count)
        counts[state] += 1
        cells = rows.setdefault(s.table.number, [None] * len(rounds))
        cells[column[s.round_id]] = LiveCell(s.pk, state, s.deal_count, s.finished_by)
    return LiveGrid(
        session=session,
        rounds=rounds,
        rows=sorted(rows.items()),
        counts=counts,
        deals_per_round=session.evening.deals_per_round,
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
        Seating.objects.filter(round__session__evening=evening, completed_at__isnull=True)
        .order_by("round__session__number", "round__number")
        .values("round__session__number", "round__number")
        .first()
    )
    if first_open is None:
        return PlayingNow(None, None, drawn)
    return PlayingNow(first_open["round__session__number"], first_open["round__number"], drawn)


@dataclass(frozen=True)
class Seat:
    """Where a player sits in one round."""

    session: int
    round: int
    table: int | None             # None: sits out
    partner: Player | None
    opponents: tuple[Player, ...] = ()

    @property
    def sits_out(self) -> bool:
        return self.table is None


@dataclass
class PlayerSeats:
    """A player's seat in the round they play now and in the next one."""

    player: Player
    current: Seat | None
    next: Seat | None
    session_done: bool            # every round of the drawn session is confirmed for this player


def latest_session(evening: Evening) -> Session | None:
    return evening.sessions.order_by("-number").select_related("sitout_player").first()


def session_players(session: Session) -> list[Player]:
    """Everybody drawn in a session (partnerships and a whole-session sit-out), A to Z (1 query)."""
    players: dict[int, Player] = {}
    for p in Partnership.objects.filter(session=session).select_related("player_1", "player_2"):
        players[p.player_1.pk] = p.player_1
        players[p.player_2.pk] = p.player_2
    if session.sitout_player is not None:
        players[session.sitout_player.pk] = session.sitout_player
    return sorted(players.values(), key=lambda p: (alphabetical(p.name), alphabetical(p.club), p.pk))


def alphabetical(text: str) -> str:
    """Sort key A to Z as in a German list: case and accents ignored (Ö with O, ß as ss)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def player_seats(session: Session, player: Player) -> PlayerSeats:
    """Where ``player`` sits in the session's round being played (for them) and the next (2 queries).

    A player's current round is the first whose seating (or, when they sit it out, every seating
    of that round) is not confirmed yet: tables that finish early see their next table at once.
    """
    seatings = Seating.objects.select_related("table", *PARTNERSHIP_PLAYERS)
    rounds = list(
        Round.objects.filter(session=session)
        .order_by("number")
        .select_related("sitout_partnership__player_1", "sitout_partnership__player_2")
        .prefetch_related(Prefetch("seatings", queryset=seatings))
    )
    seats: list[tuple[Seat, bool]] = []
    for r in rounds:
        seat, done = None, all(s.completed_at is not None for s in r.seatings.all())
        for s in r.seatings.all():
            for team, other in ((s.team_a, s.team_b), (s.team_b, s.team_a)):
                if player.pk in (team.player_1_id, team.player_2_id):
                    partner = team.player_2 if team.player_1_id == player.pk else team.player_1
                    seat = Seat(session.number, r.number, s.table.number, partner,
                                (other.player_1, other.player_2))
                    done = s.completed_at is not None
        if seat is None:
            sitout = r.sitout_partnership
            partner = None
            if sitout is not None and player.pk in (sitout.player_1_id, sitout.player_2_id):
                partner = sitout.player_2 if sitout.player_1_id == player.pk else sitout.player_1
            seat = Seat(session.number, r.number, None, partner)
        seats.append((seat, done))
    index = next((i for i, (_, done) in enumerate(seats) if not done), None)
    if index is None:
        return PlayerSeats(player=player, current=None, next=None, session_done=True)
    following = seats[index + 1][0] if index + 1 < len(seats) else None
    return PlayerSeats(player=player, current=seats[index][0], next=following, session_done=False)


# --- Every deal ---------------------------------------------------------------------------------


def evening_deals(evening: Evening):
    """Every entered deal of an evening in playing order (session, round, table, deal), with
    table, round, session and both teams' players joined in: one query, whatever the number of
    deals."""
    return (
        Deal.objects.filter(seating__round__session__evening=evening)
        .select_related("seating__round__session", "seating__table",
                        *(f"seating__{path}" for path in PARTNERSHIP_PLAYERS))
        .order_by("seating__round__session__number", "seating__round__number", "seating__table__number", "number")
    )
