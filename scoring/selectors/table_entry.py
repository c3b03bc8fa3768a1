"""What a table's tablet shows: the round to enter, its deals and totals, the next seats."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Prefetch, Q

from scoring.domain.rules import DealResult
from scoring.domain.rulesets import BOCK, RuleSet, rule_set
from scoring.models import Deal, DealChange, DrawnDeal, Player, Round, Seating, Session, Table
from scoring.selectors.evenings import evening_over
from scoring.selectors.history import Seat, evening_history
from scoring.selectors.players import PARTNERSHIP_PLAYERS
from scoring.selectors.room import seating_state


@dataclass(frozen=True)
class NextSeat:
    """Where a player of a completed round sits in the round after it: their :class:`Seat`
    there, None when the next round is not drawn yet (``not_drawn``) or they have no seat in it
    (they left the session: shown as sitting out)."""

    player: Player
    seat: Seat[Player] | None
    not_drawn: bool = False

    @property
    def table(self) -> int | None:
        return self.seat.table if self.seat else None

    @property
    def partner(self) -> Player | None:
        """The partner (the first one in a team of three), None if none."""
        return self.seat.partner if self.seat else None

    @property
    def partners(self) -> tuple[Player, ...]:
        """The partners in the next round: one, or two in a team of three; () if none."""
        return self.seat.partners if self.seat else ()

    @property
    def sits_out(self) -> bool:
        return not self.not_drawn and (self.seat is None or self.seat.sits_out)


@dataclass(frozen=True)
class DealRow:
    """One line of the tablet's list of deals."""

    number: int
    deal: Deal | None  # None: not entered yet
    carried_in: int = 0  # matchsticks Bocks before it carry to this deal's winner (Treia)
    draws: int = 0  # drawn Bräus deals recorded for this deal number

    @property
    def is_bock(self) -> bool:
        return self.deal is not None and self.deal.winner == BOCK


@dataclass
class ScorerState:
    """Everything the table scorer's page shows."""

    table: Table
    seating: Seating | None  # the round to enter now, None when nothing is open
    rules: RuleSet = field(default_factory=lambda: rule_set(""))
    deals: dict[int, Deal] = field(default_factory=dict)
    rows: list[DealRow] = field(default_factory=list)
    deal_numbers: list[int] = field(default_factory=list)
    total_a: int = 0
    total_b: int = 0
    last_confirmed: Seating | None = None  # the round completed last at this table
    next_seats: list[NextSeat] = field(default_factory=list)
    # The session now drawn when nobody plays at this table in it (fewer tables than before).
    unused_in_session: int | None = None
    # Nothing left to enter and the evening is over (:func:`scoring.domain.evening.evening_is_over`).
    evening_over: bool = False

    @property
    def next_deal(self) -> int | None:
        return next((n for n in self.deal_numbers if n not in self.deals), None)

    @property
    def all_entered(self) -> bool:
        return self.seating is not None and self.next_deal is None

    @property
    def awaiting_confirmation(self) -> bool:
        """The scorer has finished the round; the other team has not confirmed it yet."""
        return self.seating is not None and self.seating.entered_at is not None

    @property
    def confirming_team(self) -> str | None:
        """The team that must confirm: the one whose scorer did not finish the round."""
        if self.seating is None or self.seating.entered_at is None:
            return None
        return "A" if self.seating.entered_by == "B" else "B"

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

    @property
    def step(self) -> str:
        """What the table does now, for the page: ``"confirm"`` (the other team checks),
        ``"finish"`` (every deal entered), ``"enter"`` (deals to enter), ``"closed"`` (session
        closed or round locked: nothing to do at the table), ``"over"`` (the evening is over: the
        final ranking), ``"unused"`` (no table this session), ``"waiting"`` (for the next session)
        or ``"not_drawn"``."""
        if self.seating is None:
            if self.evening_over:
                return "over"
            if self.unused_in_session:
                return "unused"
            return "waiting" if self.last_confirmed else "not_drawn"
        if self.awaiting_confirmation:
            return "confirm"
        if self.all_entered and not self.closed:
            return "finish"
        return "enter" if self.can_enter else "closed"

    def carried_into(self, number: int | None) -> int:
        """Matchsticks a Bock before deal ``number`` carries to its winner (Treia; else 0)."""
        return next((row.carried_in for row in self.rows if row.number == number), 0)

    def carries_on(self, number: int | None) -> int:
        """Matchsticks a Bock in deal ``number`` would carry on (0 on the round's last deal: it lapses)."""
        if number is None or number >= len(self.deal_numbers):
            return 0
        return self.carried_into(number) + 1


def matchsticks(deals: Iterable[Deal]) -> tuple[int, int]:
    """Team A's and team B's matchsticks of the given deals."""
    deals = list(deals)
    return sum(d.points_a for d in deals), sum(d.points_b for d in deals)


@dataclass(frozen=True)
class SheetRow:
    """One deal of a round on the organiser's page: the deal (None: not entered) and its changes."""

    number: int
    deal: Deal | None
    changes: list[DealChange]


@dataclass(frozen=True)
class SeatingSheet:
    """The organiser's page of one table in one round (:func:`seating_sheet`)."""

    deals: dict[int, Deal]  # deal number -> deal entered
    rows: list[SheetRow]  # one per deal of the round, 1 to deals per round
    total_a: int  # matchsticks so far
    total_b: int
    state: str  # :func:`scoring.selectors.room.seating_state`
    all_entered: bool

    @property
    def history(self) -> list[tuple[int, DealChange]]:
        """Every change of every deal as ``(deal number, change)``, oldest first (time, then the
        order saved): the history the page shows, not grouped by deal."""
        changes = [(row.number, change) for row in self.rows for change in row.changes]
        return sorted(changes, key=lambda item: (item[1].changed_at, item[1].pk))


def seating_sheet(seating: Seating, deals_per_round: int) -> SeatingSheet:
    """Every deal of a seating with its changes (and who made them), the totals and the state
    (2 queries, whatever the number of deals and changes)."""
    deals = {d.number: d for d in Deal.objects.filter(seating=seating).prefetch_related("changes__changed_by")}
    total_a, total_b = matchsticks(deals.values())
    return SeatingSheet(
        deals=deals,
        rows=[
            SheetRow(n, deals.get(n), list(deals[n].changes.all()) if n in deals else [])
            for n in range(1, deals_per_round + 1)
        ],
        total_a=total_a,
        total_b=total_b,
        state=seating_state(seating, len(deals)),
        all_entered=len(deals) >= deals_per_round,
    )


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
    current = next((s for s in seatings if s.confirmed_at is None), None)
    confirmed_list = [s for s in seatings if s.confirmed_at is not None]
    state = ScorerState(table=table, seating=current, rules=table.evening.rules)
    if current is not None:
        state.deals = {d.number: d for d in current.deals.all()}
        state.deal_numbers = list(range(1, current.round.session.evening.deals_per_round + 1))
        state.rows = _rows(state, current)
        state.total_a, state.total_b = matchsticks(state.deals.values())
    if confirmed_list and (current is None or not state.deals):
        state.last_confirmed = confirmed_list[-1]
        state.next_seats = next_seats(state.last_confirmed)
    if current is None:
        latest = Session.objects.filter(evening_id=table.evening_id).order_by("-number").first()
        if latest is not None and not any(s.round.session_id == latest.pk for s in seatings):
            state.unused_in_session = latest.number
        state.evening_over = latest is not None and _evening_over(table, latest.number)
    return state


def _evening_over(table: Table, latest: int) -> bool:
    """Whether the table's evening is over, given the number of its latest session drawn (no
    query before the last session, then 1)."""
    return evening_over(table.evening, latest)


def table_signature(table: Table) -> str:
    """A short fingerprint (16 hex digits) of everything a table's tablet page shows that the
    room can change: each of the table's rounds (finished, confirmed, locked, closed; its deals'
    count, versions and last change; its recorded draws), the latest session drawn, the rule set,
    the round clock's version, and for a table done with the evening's last session whether the
    evening is over (one more small query then).

    The page carries it and polls with it every 15 s (``scorer:poll``): the same fingerprint
    means 204, nothing to redraw. One small query (two for a table that plays in no round) and
    no model objects, whatever the evening's size, so 250 polling tablets cost the server little.
    Take it *before* loading the state the page shows: a write in between then makes the next
    poll redraw, never hides a change.

    The query is written out in SQL (:func:`_signature_sql`, the same on SQLite and PostgreSQL):
    the ORM took 20 times longer to build and compile it than the database took to answer it,
    on every poll of every tablet; and on PostgreSQL each query is a round trip to another
    process, which waits for a core like everything else when the room is busy.
    """
    rounds_sql, latest_sql = _signature_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(rounds_sql, [table.evening_id, table.pk])
        rows = cursor.fetchall()
        if rows:  # the latest session drawn comes with every row
            latest = rows[0][0]
        else:  # a table that plays in no round yet (or none of this session)
            cursor.execute(latest_sql, [table.evening_id])
            latest = cursor.fetchone()[0]
    evening = table.evening
    # A table done with the last session waits for the others: the evening's end changes its page.
    over = latest is not None and all(row[4] is not None for row in rows) and _evening_over(table, latest)
    parts = (
        [row[1:] for row in rows],
        latest,
        evening.rule_set,
        evening.deals_per_round,
        evening.clock_version,
        over,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


@functools.cache
def _signature_sql(vendor: str) -> tuple[str, str]:
    """The SQL of :func:`table_signature` (``vendor``: the cache key; the text is the same for
    SQLite and PostgreSQL): per round of the table, in session and round order, the evening's
    latest session number, the round's id, finished (when, by whom), confirmed, locked, closed,
    its deals' count, summed versions and last change, and its recorded draws (parameters: the
    evening's id, the table's id); then the evening's latest session number alone, for a table
    with no round (parameter: the evening's id)."""
    name = {
        model: connection.ops.quote_name(model._meta.db_table) for model in (Seating, Round, Session, Deal, DrawnDeal)
    }
    latest = f"SELECT MAX(number) FROM {name[Session]} WHERE evening_id = %s"  # noqa: S608 - table names only
    rounds = f"""
        SELECT ({latest}),
               s.id, s.entered_at, s.entered_by, s.confirmed_at, r.locked, se.closed,
               COUNT(d.id), SUM(d.version), MAX(d.updated_at),
               (SELECT COUNT(*) FROM {name[DrawnDeal]} dd WHERE dd.seating_id = s.id)
        FROM {name[Seating]} s
        JOIN {name[Round]} r ON r.id = s.round_id
        JOIN {name[Session]} se ON se.id = r.session_id
        LEFT JOIN {name[Deal]} d ON d.seating_id = s.id
        WHERE s.table_id = %s
        GROUP BY s.id, s.entered_at, s.entered_by, s.confirmed_at, r.locked, se.closed, se.number, r.number
        ORDER BY se.number, r.number"""
    return rounds, latest


def _rows(state: ScorerState, seating: Seating) -> list[DealRow]:
    """The list of deals: each with what Bocks carry into it and the draws recorded for it."""
    rules = state.rules
    draws: dict[int, int] = {}
    if rules.no_winner and rules.no_winner != BOCK:  # a rule set with draws: one query for them
        for drawn in DrawnDeal.objects.filter(seating=seating).only("number"):
            draws[drawn.number] = draws.get(drawn.number, 0) + 1
    results = {n: DealResult(d.winner, d.to_nil, d.bonus_a, d.bonus_b) for n, d in state.deals.items()}
    return [DealRow(n, state.deals.get(n), rules.carried_into(results, n), draws.get(n, 0)) for n in state.deal_numbers]


def next_seats(seating: Seating) -> list[NextSeat]:
    """Where each of a seating's players (four, or six in six-handed Bräus) sits in the following
    round (or the first round of the next session, if it has been drawn): 6 queries, that round,
    :func:`~scoring.selectors.history.evening_history` of it alone and of the tables these
    players sit at, and the partners (a few rows, whatever the field's size)."""
    session = seating.round.session
    players = [*seating.team_a.players, *seating.team_b.players]
    after = (
        Round.objects.filter(
            Q(session=session, number=seating.round.number + 1)
            | Q(session__evening_id=session.evening_id, session__number=session.number + 1, number=1)
        )
        .order_by("session__number")
        .values_list("pk", "session__number")
        .first()
    )
    if after is None:
        return [NextSeat(player=p, seat=None, not_drawn=True) for p in players]
    # That round alone and the tables of these players: the same few small queries at 24 or 1,000.
    history = evening_history(
        session.evening, sessions=(after[1],), rounds=(after[0],), players=[p.pk for p in players]
    )
    seats = history.rounds[0].seats()
    mine = [seats.get(p.pk) for p in players]
    people = Player.objects.in_bulk({p for s in mine if s is not None for p in s.partners})
    return [
        NextSeat(player=p, seat=Seat(s.session, s.round, s.table, s.partners).named(people) if s else None)
        for p, s in zip(players, mine, strict=True)
    ]


def current_seating(table: Table) -> Seating | None:
    """The table's first seating (by session and round) that is not confirmed yet, or None."""
    return (
        Seating.objects.filter(table=table, confirmed_at__isnull=True)
        .select_related("round__session")
        .order_by("round__session__number", "round__number")
        .first()
    )
