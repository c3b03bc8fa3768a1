"""Read operations that feed pages; each runs a fixed number of queries, whatever the number of
players (annotate and prefetch, no query per row)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Prefetch, Q, Sum

from scoring.domain.names import collation_key, display_names, person_key
from scoring.domain.player_import import match_key
from scoring.domain.ranking import PlayerScore, RankedScore, TableResult, rank, round_sitout_credit
from scoring.models import Deal, Evening, Participant, Partnership, Player, Round, Seating, Session, Table

PARTNERSHIP_PLAYERS = ("team_a__player_1", "team_a__player_2", "team_b__player_1", "team_b__player_2")


# --- Ranking ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankingRow:
    """One line of the individual ranking; amounts in matchsticks (Fraction: sit-out credit is exact).

    ``provisional``: indexes of the sessions (0 = session 1) whose value includes a sit-out
    credit of a round that is still running (shown with ``PROVISIONAL_MARK``, "°").
    """

    place: int
    shared: bool
    player: Player
    sessions: tuple[Fraction, ...]
    total: Fraction
    provisional: frozenset[int] = frozenset()

    @property
    def total_provisional(self) -> bool:
        return bool(self.provisional)


def evening_ranking(evening: Evening) -> list[RankingRow]:
    """The live individual ranking of an evening (5 queries).

    Every matchstick a team wins counts for both partners; a player who sits out a round is
    credited the exact average of the teams that played in it (DOMAIN.md); while the round runs,
    only tables that have finished it count, and the credit is provisional
    (:func:`scoring.domain.ranking.round_sitout_credit`, ``RankingRow.provisional``). Everybody checked in
    or drawn appears, with 0 where they have no score yet, except stand-ins (Ersatzspieler:
    they play but are not ranked). A player seated in a round gets no sit-out credit for it
    (the session's sit-out player may have taken over from a player who left).
    """
    sessions = list(evening.sessions.order_by("number").values_list("id", "number", "sitout_player_id"))
    index_of = {sid: number - 1 for sid, number, _ in sessions}
    session_count = max(evening.sessions_count, len(sessions))
    scores: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0)] * session_count)

    partners = {
        p["id"]: (p["player_1"], p["player_2"])
        for p in Partnership.objects.filter(session__evening=evening).values("id", "player_1", "player_2")
    }
    round_tables: dict[int, list[TableResult]] = defaultdict(list)
    seated: dict[int, set[int]] = defaultdict(set)
    seatings = (
        Seating.objects.filter(round__session__evening=evening)
        .values("round_id", "round__session_id", "team_a_id", "team_b_id", "finished_at", "completed_at")
        .annotate(sum_a=Sum("deals__points_a"), sum_b=Sum("deals__points_b"), deal_count=Count("deals"))
    )
    for s in seatings:
        i = index_of[s["round__session_id"]]
        round_tables[s["round_id"]].append(TableResult(
            s["sum_a"] or 0, s["sum_b"] or 0,
            finished=s["finished_at"] is not None or s["deal_count"] >= evening.deals_per_round,
            confirmed=s["completed_at"] is not None,
        ))
        for team, total in ((s["team_a_id"], s["sum_a"] or 0), (s["team_b_id"], s["sum_b"] or 0)):
            seated[s["round_id"]].update(partners[team])
            for pid in partners[team]:
                scores[pid][i] += total

    provisional: dict[int, set[int]] = defaultdict(set)
    session_sitouts = {sid: pid for sid, _, pid in sessions if pid}
    for r in Round.objects.filter(session__evening=evening).values("id", "session_id", "sitout_partnership_id"):
        credit = round_sitout_credit(round_tables.get(r["id"], []))
        i = index_of[r["session_id"]]
        sitters = set(partners[r["sitout_partnership_id"]]) if r["sitout_partnership_id"] else set()
        if r["session_id"] in session_sitouts:
            sitters.add(session_sitouts[r["session_id"]])
        for pid in sitters - seated[r["id"]]:
            scores[pid][i] += credit.value
            if credit.provisional:
                provisional[pid].add(i)

    players = {}
    stand_ins = set()
    for participant in Participant.objects.filter(evening=evening).select_related("player"):
        if participant.is_stand_in:
            stand_ins.add(participant.player_id)
        else:
            players[participant.player_id] = participant.player
    for pid in scores:  # drawn players who were checked out later still rank
        if pid not in stand_ins:
            players.setdefault(pid, None)
    missing = [pid for pid, p in players.items() if p is None]
    if missing:
        players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})
    lines: list[RankedScore] = rank(
        [PlayerScore(pid, tuple(scores[pid]), frozenset(provisional[pid])) for pid in players],
        name_key=lambda s: person_key(players[s.player].name, players[s.player].club, s.player),
    )
    return [
        RankingRow(
            place=line.place,
            shared=line.shared,
            player=players[line.score.player],
            sessions=line.score.sessions,
            total=line.score.total,
            provisional=line.score.provisional,
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
    # The session now drawn when nobody plays at this table in it (fewer tables than before).
    unused_in_session: int | None = None

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
    if current is None:
        latest = Session.objects.filter(evening_id=table.evening_id).order_by("-number").first()
        if latest is not None and not any(s.round.session_id == latest.pk for s in seatings):
            state.unused_in_session = latest.number
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


def search_players(query: str = "") -> list[Player]:
    """Players of the register whose name or club contains ``query`` (any case); all when empty;
    in German alphabetical order (:func:`by_name`)."""
    players = Player.objects.all()
    query = query.strip()
    if query:
        players = players.filter(Q(name__icontains=query) | Q(club__icontains=query))
    return by_name(players)


def by_name(players) -> list[Player]:
    """Players in the one German alphabetical order of every list, page and printout: DIN 5007-1,
    by surname, then first name, then club (:func:`scoring.domain.names.person_key`). Sorted in
    Python, so SQLite and PostgreSQL give the same order."""
    return sorted(players, key=lambda p: person_key(p.name, p.club, p.pk))


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
    credits: list = field(default_factory=list)     # per round: SitoutCredit, None without sit-outs

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
        cells[column[s.round_id]] = LiveCell(s.pk, state, s.deal_count, s.finished_by)
        tables[column[s.round_id]].append(TableResult(
            s.sum_a or 0, s.sum_b or 0, finished=s.finished_at is not None or s.deal_count >= deals_per_round,
            confirmed=s.completed_at is not None))
    sits_out = session.sitout_player_id is not None
    return LiveGrid(
        session=session,
        rounds=rounds,
        rows=sorted(rows.items()),
        counts=counts,
        deals_per_round=deals_per_round,
        credits=[round_sitout_credit(t) if sits_out or r.sitout_partnership_id else None
                 for r, t in zip(rounds, tables)],
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
    return by_name(players.values())


def evening_display_names(evening_id: int) -> dict[int, str]:
    """Player id -> the name shown for that player wherever a name appears alone in this evening:
    "Jens Carstensen (Schwesing)" when another player of the evening is also called Jens
    Carstensen, else the bare name (1 query; :func:`scoring.domain.names.display_names`)."""
    return display_names(
        Participant.objects.filter(evening_id=evening_id).values_list("player_id", "player__name", "player__club")
    )


def alphabetical(text: str) -> str:
    """``text`` folded for searching and comparing as in a German list (Ö with O, ß as ss)."""
    return collation_key(text)


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


# --- Fairness of the draw, and the organiser's wishes ----------------------------------------


@dataclass(frozen=True)
class FairnessRow:
    """One player's line of the fairness report (names, not ids)."""

    player: Player
    stand_in: bool
    partners: tuple[tuple[int, str], ...]      # (session, partner's name)
    opponents: int                             # different opponents met
    repeated: tuple[tuple[str, int], ...]      # (opponent's name, times met), met more than once
    repeats: int                               # sum of (times met - 1)
    rounds_played: int
    rounds_sat_out: int


@dataclass(frozen=True)
class FairnessReport:
    """The fairness report of an evening: per player, the evening's totals and the reasons."""

    rows: list[FairnessRow]
    repeated_opponents: int
    lower_bound: int
    reasons: tuple                             # scoring.domain.fairness.Reason
    repeated_partners: tuple[tuple[str, str, int], ...]
    sessions_drawn: int


def played_rounds(evening: Evening) -> tuple[list, dict[int, tuple[int, int]]]:
    """Every drawn round of the evening as :class:`scoring.domain.fairness.PlayedRound` (who sat
    at which table, who sat out), with players who replaced a leaver in the rounds they played
    (4 queries). Also returns partnership id -> player ids."""
    from scoring.domain.fairness import PlayedRound

    sessions = dict(evening.sessions.values_list("id", "number"))
    session_sitter = dict(
        evening.sessions.filter(sitout_player__isnull=False).values_list("id", "sitout_player_id")
    )
    teams = {
        p["id"]: (p["player_1"], p["player_2"])
        for p in Partnership.objects.filter(session__evening=evening).values("id", "player_1", "player_2")
    }
    tables: dict[int, list] = defaultdict(list)
    for s in (
        Seating.objects.filter(round__session__evening=evening)
        .order_by("table__number")
        .values("round_id", "team_a_id", "team_b_id")
    ):
        tables[s["round_id"]].append((teams[s["team_a_id"]], teams[s["team_b_id"]]))
    played = []
    for r in Round.objects.filter(session__evening=evening).values(
        "id", "number", "session_id", "sitout_partnership_id"
    ):
        seated = {p for table in tables[r["id"]] for team in table for p in team}
        sitting = []
        if r["sitout_partnership_id"]:
            sitting.append(teams[r["sitout_partnership_id"]])
        sitter = session_sitter.get(r["session_id"])
        if sitter is not None and sitter not in seated:
            sitting.append((sitter,))
        played.append(
            PlayedRound(sessions[r["session_id"]], r["number"], tuple(tables[r["id"]]), tuple(sitting))
        )
    return played, teams


def evening_fairness(evening: Evening) -> FairnessReport:
    """Partners, opponents, repeated opponents and sit-outs of every player who played, the
    evening's repeated opponents against the lower bound, and why (6 queries at most, whatever
    the number of players)."""
    from scoring.domain.fairness import evening_fairness as fairness

    rounds, _ = played_rounds(evening)
    report = fairness(rounds)
    participants = {
        p.player_id: p for p in Participant.objects.filter(evening=evening).select_related("player")
    }
    players = {pid: p.player for pid, p in participants.items()}
    missing = [pid for pid in report.players if pid not in players]
    if missing:
        players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})

    def name(pid) -> str:
        return players[pid].name

    rows = [
        FairnessRow(
            player=players[pid],
            stand_in=pid in participants and participants[pid].is_stand_in,
            partners=tuple((session, name(partner)) for session, partner in line.partners),
            opponents=line.opponents,
            repeated=tuple((name(other), count) for other, count in line.repeated),
            repeats=line.repeats,
            rounds_played=line.rounds_played,
            rounds_sat_out=line.rounds_sat_out,
        )
        for pid, line in report.players.items()
    ]
    rows.sort(key=lambda row: (-row.repeats, person_key(row.player.name, row.player.club, row.player.pk)))
    repeated_partners = tuple(
        (*sorted((name(pid) for pid in pair), key=person_key), count) for pair, count in report.repeated_partners
    )
    return FairnessReport(
        rows=rows,
        repeated_opponents=report.repeated_opponents,
        lower_bound=report.lower_bound,
        reasons=report.reasons,
        repeated_partners=repeated_partners,
        sessions_drawn=len({r.session for r in rounds}),
    )


@dataclass(frozen=True)
class DrawWishes:
    """What the check-in page shows about the draw: wishes "not together", stand-ins, the
    players who could be chosen for a wish, and what the number of players means."""

    exclusions: list
    stand_ins: set[int]
    participants: list[Player]
    present: int
    ranked_present: int

    @property
    def remainder(self) -> int:
        """Players present modulo 4: 0 full tables; 1, 2 or 3 say who sits out."""
        return self.present % 4


def draw_wishes(evening: Evening) -> DrawWishes:
    """The evening's wishes "not together" and stand-ins (2 queries)."""
    from scoring.models import PartnerExclusion

    exclusions = list(
        PartnerExclusion.objects.filter(evening=evening).select_related("player_a", "player_b")
    )
    participants = list(Participant.objects.filter(evening=evening).select_related("player"))
    participants.sort(key=lambda p: person_key(p.player.name, p.player.club, p.player.pk))
    return DrawWishes(
        exclusions=exclusions,
        stand_ins={p.player_id for p in participants if p.is_stand_in},
        participants=[p.player for p in participants],
        present=sum(p.checked_in for p in participants),
        ranked_present=sum(p.checked_in and not p.is_stand_in for p in participants),
    )


@dataclass(frozen=True)
class SessionChanges:
    """What the session page needs for redrawing, swapping and replacing players."""

    started: bool                              # a deal has been entered (or a round confirmed)
    in_session: list[Player]                   # drawn into the session (incl. its sit-out player)
    candidates: list[Player]                   # checked in, not drawn (late arrivals, stand-ins)
    stand_ins: set[int]
    substitutions: list
    names: dict[int, str] = field(default_factory=dict)   # player id -> name shown (club if names collide)


def session_changes(session: Session) -> SessionChanges:
    """Players of a session and the evening's other present players, stand-ins, replacements
    made, and whether deals have been entered (5 queries)."""
    from scoring.models import Substitution

    started = (
        Deal.objects.filter(seating__round__session=session).exists()
        or Seating.objects.filter(round__session=session, completed_at__isnull=False).exists()
    )
    ids = set()
    for a, b in Partnership.objects.filter(session=session).values_list("player_1_id", "player_2_id"):
        ids.update((a, b))
    if session.sitout_player_id:
        ids.add(session.sitout_player_id)
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
        substitutions=list(
            Substitution.objects.filter(session=session).select_related("leaving", "replacement")
        ),
        names=display_names((p.player_id, p.player.name, p.player.club) for p in participants),
    )
