"""What a table's tablet shows: the round to enter, its deals and totals, the next seats."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from scoring.models import Deal, Player, Round, Seating, Session, Table
from scoring.selectors.players import PARTNERSHIP_PLAYERS


@dataclass(frozen=True)
class NextSeat:
    """Where a player sits in the round after a completed one."""

    player: Player
    table: int | None  # table number, None when sitting out or not drawn yet
    partner: Player | None
    sits_out: bool = False
    not_drawn: bool = False


@dataclass
class ScorerState:
    """Everything the table scorer's page shows."""

    table: Table
    seating: Seating | None  # the round to enter now, None when nothing is open
    deals: dict[int, Deal] = field(default_factory=dict)
    deal_numbers: list[int] = field(default_factory=list)
    total_a: int = 0
    total_b: int = 0
    last_confirmed: Seating | None = None  # the round completed last at this table
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
        return self.seating is not None and self.seating.entered_at is not None

    @property
    def confirming_team(self) -> str | None:
        """The team that must confirm: the one whose scorer did not finish the round."""
        if not self.awaiting_confirmation:
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
    state = ScorerState(table=table, seating=current)
    if current is not None:
        state.deals = {d.number: d for d in current.deals.all()}
        state.deal_numbers = list(range(1, current.round.session.evening.deals_per_round + 1))
        state.total_a = sum(d.points_a for d in state.deals.values())
        state.total_b = sum(d.points_b for d in state.deals.values())
    if confirmed_list and (current is None or not state.deals):
        state.last_confirmed = confirmed_list[-1]
        state.next_seats = next_seats(state.last_confirmed)
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
