"""The one loader of an evening's history: who played with and against whom at which table, who
sat out which round, and each table's matchsticks so far.

The ranking, the draw, the fairness report, the session changes, the printed documents (table
list, route cards, score sheets) and the seat finder (the player's seat page, the tablet's "where
everyone sits next") all read the evening through :func:`evening_history`, so the rules "who sits
out a round" and "a replacement plays from their first round on" are worked out in one place
(:attr:`RoundHistory.sitting_out`, :meth:`RoundHistory.seats`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.db.models import Count, Q, QuerySet, Sum

from scoring.domain import draw as draw_domain
from scoring.domain.fairness import PlayedRound
from scoring.domain.ranking import TableResult
from scoring.domain.rules import TEAM_A, TEAM_B
from scoring.models import Evening, Partnership, Round, Seating, Session

Team = tuple[int, ...]  # the player ids of a partnership: two, or three (six-handed Bräus)
P = TypeVar("P")
N = TypeVar("N")


@dataclass(frozen=True)
class Seat(Generic[P]):
    """Where one player is in one round: at a table with their partners (one, or two in a team of
    three) against the other team, or sitting out (with the partners of the sit-out partnership,
    or as one of the session's sit-out players). ``P`` is how a person is given: a player id
    (:meth:`RoundHistory.seats`), a :class:`~scoring.models.Player` or a printed name
    (:meth:`named`)."""

    session: int  # session number
    round: int  # round number
    table: int | None  # table number, None: sits out
    partners: tuple[P, ...] = ()  # in seat order; () for a session sit-out player
    opponents: tuple[P, ...] = ()

    @property
    def sits_out(self) -> bool:
        return self.table is None

    @property
    def partner(self) -> P | None:
        """The partner in a team of two (the first partner in a team of three), None if none."""
        return self.partners[0] if self.partners else None

    def named(self: Seat[int], people: Mapping[int, N]) -> Seat[N]:
        """The same seat with partner and opponents looked up in ``people`` (player id -> person)."""
        return Seat(
            self.session,
            self.round,
            self.table,
            tuple(people[p] for p in self.partners),
            tuple(people[p] for p in self.opponents),
        )


def _others(team: tuple[int, ...], me: int) -> tuple[int, ...]:
    """The other players of ``team`` (in seat order)."""
    return tuple(p for p in team if p != me)


@dataclass(frozen=True)
class PartnershipHistory:
    """A partnership of a session: its number and its players (ids; two, or three)."""

    id: int
    session_id: int
    number: int
    players: Team


@dataclass(frozen=True)
class TableHistory:
    """One seating: a table in a round, its two partnerships and their matchsticks so far."""

    seating_id: int
    table: int  # table number
    team_a_id: int  # partnership ids
    team_b_id: int
    team_a: Team  # player ids
    team_b: Team
    sum_a: int  # matchsticks of the deals entered so far
    sum_b: int
    deal_count: int
    entered: bool  # entered (by the scorer) or every deal there
    confirmed: bool
    token: str = ""  # the table's secret link token (for the scorer's link on the score sheet)
    wins_a: int = 0  # deals won (five tricks reached) so far
    wins_b: int = 0
    bonus_a: int = 0  # matchsticks from daring and striking so far
    bonus_b: int = 0

    @property
    def players(self) -> tuple[int, ...]:
        return self.team_a + self.team_b


@dataclass(frozen=True)
class RoundHistory:
    """One drawn round: its tables in table order and who sat out."""

    id: int
    session_id: int
    session: int  # session number
    number: int
    tables: tuple[TableHistory, ...]
    sitout_team: Team | None  # the round's sit-out partnership (odd number of partnerships)
    session_sitters: tuple[int, ...]  # the session's sit-out players (players left over by the teams)
    sitout_team_id: int | None = None  # the sit-out partnership's id

    @property
    def seated(self) -> frozenset[int]:
        return frozenset(p for t in self.tables for p in t.players)

    @property
    def sitting_out(self) -> tuple[tuple[int, ...], ...]:
        """Who sat out this round (and gets the sit-out credit, docs/rules.md "Sitting out"): the round's sit-out
        partnership (its ids), and each of the session's sit-out players alone (two of them, left
        over by teams of three, are not partners), except those seated in this round (they
        replaced a player who left) or already in that partnership (they replaced a player of the
        sitting-out partnership)."""
        groups: list[tuple[int, ...]] = []
        if self.sitout_team is not None:
            groups.append(tuple(self.sitout_team))
        groups += [(p,) for p in self.session_sitters if p not in self.seated and p not in (self.sitout_team or ())]
        return tuple(groups)

    @property
    def sitters(self) -> frozenset[int]:
        """The players of :attr:`sitting_out` who are not seated in the round."""
        return frozenset(p for group in self.sitting_out for p in group) - self.seated

    @property
    def confirmed(self) -> bool:
        """Every table of the round has confirmed (a round without tables counts as confirmed)."""
        return all(t.confirmed for t in self.tables)

    def seats(self) -> dict[int, Seat[int]]:
        """Player id -> their seat in this round: everybody seated at a table and everybody in
        :attr:`sitting_out`. A player who left the session (replaced) has none."""
        seats: dict[int, Seat[int]] = {}
        for t in self.tables:
            for team, other in ((t.team_a, t.team_b), (t.team_b, t.team_a)):
                for me in team:
                    seats[me] = Seat(self.session, self.number, t.table, _others(team, me), other)
        for group in self.sitting_out:
            for me in group:
                seats.setdefault(me, Seat(self.session, self.number, None, _others(group, me)))
        return seats

    def table_results(self) -> list[TableResult]:
        """The round's tables for :func:`scoring.domain.ranking.round_sitout_credit`."""
        return [TableResult(t.sum_a, t.sum_b, entered=t.entered, confirmed=t.confirmed) for t in self.tables]


@dataclass(frozen=True)
class EveningHistory:
    """Every drawn session of an evening (or all but one), as loaded by :func:`evening_history`."""

    sessions: dict[int, int]  # session id -> number
    teams: dict[int, Team]  # partnership id -> player ids
    rounds: tuple[RoundHistory, ...]  # by session, then round
    partnerships: tuple[PartnershipHistory, ...] = ()  # by session, then number
    sitters: dict[int, tuple[int, ...]] = field(default_factory=dict)  # session id -> its sit-out players

    def session_rounds(self, session_id: int) -> tuple[RoundHistory, ...]:
        """The session's rounds, in order."""
        return tuple(r for r in self.rounds if r.session_id == session_id)

    def seats(self, session_id: int) -> dict[int, list[Seat[int]]]:
        """Player id -> their seat in each round of the session they play or sit out, in round
        order (a replacement's list starts, a leaver's ends, where the replacement took over)."""
        seats: dict[int, list[Seat[int]]] = {}
        for r in self.session_rounds(session_id):
            for pid, seat in r.seats().items():
                seats.setdefault(pid, []).append(seat)
        return seats

    def for_draw(self) -> draw_domain.History:
        """Partners, opponents and sit-outs so far, as the draw counts them.

        Partners are pairs of players of one team (three pairs in a team of three). Partnerships
        split by a replacement count both ways (the leaver and the replacement were both the
        remaining players' partner)."""
        partners = frozenset(
            frozenset(pair) for team in self.teams.values() for pair in itertools.combinations(team, 2)
        )
        opponents: dict[frozenset[int], int] = {}
        sitouts: dict[int, int] = {}
        for r in self.rounds:
            for t in r.tables:
                for a in t.team_a:
                    for b in t.team_b:
                        key = frozenset((a, b))
                        opponents[key] = opponents.get(key, 0) + 1
            for pid in sorted(r.sitters):
                sitouts[pid] = sitouts.get(pid, 0) + 1
        return draw_domain.History(partners=partners, opponents=opponents, sitouts=sitouts)

    def played_rounds(self) -> list[PlayedRound[int]]:
        """Every round as :class:`scoring.domain.fairness.PlayedRound`, for the fairness report."""
        return [
            PlayedRound(r.session, r.number, tuple((t.team_a, t.team_b) for t in r.tables), r.sitting_out)
            for r in self.rounds
        ]


def evening_history(
    evening: Evening,
    *,
    exclude: Session | None = None,
    sessions: tuple[int, ...] | None = None,
    rounds: tuple[int, ...] | None = None,
    players: Iterable[int] | None = None,
) -> EveningHistory:
    """The evening's drawn sessions: partnerships, every round's tables (with matchsticks so far
    and the table's link token) and sit-outs (4 queries, whatever the number of players).

    ``exclude``: a session to leave out (the one being drawn again or rearranged).
    ``sessions``: only these session numbers (a document of one session, the seat finder).
    ``rounds``: only these rounds (ids; a tablet's "where everyone sits next"), with the
    partnerships of their sessions.
    ``players``: only the tables these players (ids) sit at and the partnerships there or
    sitting out (a tablet's four players at 1,000 players): the seats
    (:meth:`RoundHistory.seats`) of these players are right, everything else is partial.
    """
    return evening_histories([evening], exclude=exclude, sessions=sessions, rounds=rounds, players=players)[evening.pk]


def evening_histories(
    evenings: Iterable[Evening],
    *,
    exclude: Session | None = None,
    sessions: tuple[int, ...] | None = None,
    rounds: tuple[int, ...] | None = None,
    players: Iterable[int] | None = None,
) -> dict[int, EveningHistory]:
    """:func:`evening_history` of several evenings at once: evening id -> EveningHistory (4
    queries, whatever the number of evenings and players; an evening without sessions gets an
    empty history). For a player's page and rankings over many evenings."""
    by_id = {evening.pk: evening for evening in evenings}
    sessions_qs = Session.objects.filter(evening__in=list(by_id))
    if exclude is not None:
        sessions_qs = sessions_qs.exclude(pk=exclude.pk)
    if sessions is not None:
        sessions_qs = sessions_qs.filter(number__in=sessions)
    loaded = {
        sid: (evening_id, number, tuple(p for p in (first, second) if p is not None))
        for sid, evening_id, number, first, second in sessions_qs.values_list(
            "id", "evening_id", "number", "sitout_player_id", "sitout_player_2_id"
        )
    }
    rounds_qs = Round.objects.filter(session__in=sessions_qs)
    if rounds is not None:
        rounds_qs = rounds_qs.filter(pk__in=rounds)
    seatings = Seating.objects.filter(round__in=rounds_qs)
    partnerships_qs = Partnership.objects.filter(session__in=sessions_qs)
    if players is not None:
        ids = list(players)
        theirs = partnerships_qs.filter(Q(player_1__in=ids) | Q(player_2__in=ids) | Q(player_3__in=ids))
        seatings = seatings.filter(Q(team_a__in=theirs) | Q(team_b__in=theirs))
        partnerships_qs = partnerships_qs.filter(
            Q(pk__in=theirs)
            | Q(pk__in=seatings.values("team_a"))
            | Q(pk__in=seatings.values("team_b"))
            | Q(pk__in=rounds_qs.values("sitout_partnership"))
        )
    partnerships, team_of = _partnership_histories(partnerships_qs, loaded, list(by_id))
    tables = _table_histories(seatings, by_id, team_of)
    by_evening = _round_histories(rounds_qs, loaded, tables, team_of, list(by_id))
    return {pk: _history(pk, loaded, partnerships[pk], by_evening[pk]) for pk in by_id}


def _round_histories(
    rounds_qs: QuerySet[Round],
    loaded: Mapping[int, tuple[int, int, Team]],
    tables: Mapping[int, Sequence[TableHistory]],
    team_of: Mapping[int, Team],
    evening_ids: Iterable[int],
) -> dict[int, list[RoundHistory]]:
    """Evening id -> its rounds (1 query), with their tables and who sits out; ``loaded``: session
    id -> (evening id, session number, the session's sitters)."""
    by_evening: dict[int, list[RoundHistory]] = {pk: [] for pk in evening_ids}
    for r in rounds_qs.values("id", "session_id", "number", "sitout_partnership_id"):
        evening_id, number, sitters = loaded[r["session_id"]]
        by_evening[evening_id].append(
            RoundHistory(
                id=r["id"],
                session_id=r["session_id"],
                session=number,
                number=r["number"],
                tables=tuple(tables.get(r["id"], ())),
                sitout_team=team_of[r["sitout_partnership_id"]] if r["sitout_partnership_id"] else None,
                session_sitters=sitters,
                sitout_team_id=r["sitout_partnership_id"],
            )
        )
    return by_evening


def _history(
    pk: int,
    loaded: Mapping[int, tuple[int, int, Team]],
    partnerships: Iterable[PartnershipHistory],
    rounds: Iterable[RoundHistory],
) -> EveningHistory:
    """The EveningHistory of evening ``pk`` from what :func:`evening_histories` loaded."""
    mine = {sid: (number, sitters) for sid, (evening_id, number, sitters) in loaded.items() if evening_id == pk}
    own = sorted(partnerships, key=lambda p: (mine[p.session_id][0], p.number))
    return EveningHistory(
        sessions={sid: number for sid, (number, _) in mine.items()},
        teams={p.id: p.players for p in own},
        rounds=tuple(sorted(rounds, key=lambda r: (r.session, r.number))),
        partnerships=tuple(own),
        sitters={sid: sitters for sid, (_, sitters) in mine.items()},
    )


def _partnership_histories(
    partnerships_qs: QuerySet[Partnership], loaded: Mapping[int, tuple[int, int, Team]], evening_ids: Iterable[int]
) -> tuple[dict[int, list[PartnershipHistory]], dict[int, Team]]:
    """The partnerships (one query): evening id -> its partnerships, and partnership id -> its
    players. ``loaded``: session id -> (evening id, number, sitters)."""
    partnerships: dict[int, list[PartnershipHistory]] = {pk: [] for pk in evening_ids}
    team_of: dict[int, Team] = {}
    for p in partnerships_qs.values("id", "session_id", "number", "player_1", "player_2", "player_3"):
        team = (p["player_1"], p["player_2"]) + ((p["player_3"],) if p["player_3"] is not None else ())
        partnership = PartnershipHistory(p["id"], p["session_id"], p["number"], team)
        partnerships[loaded[p["session_id"]][0]].append(partnership)
        team_of[partnership.id] = partnership.players
    return partnerships, team_of


def _table_histories(
    seatings: QuerySet[Seating], by_id: Mapping[int, Evening], team_of: Mapping[int, Team]
) -> dict[int, list[TableHistory]]:
    """The tables of the rounds (one query, sums and counts of their deals included): round id ->
    its tables by table number. ``team_of``: partnership id -> its players."""
    tables: dict[int, list[TableHistory]] = {}
    seating_rows = (
        seatings.order_by("table__number")
        .values(
            "id",
            "round_id",
            "round__session__evening_id",
            "table__number",
            "table__token",
            "team_a_id",
            "team_b_id",
            "entered_at",
            "confirmed_at",
        )
        .annotate(
            sum_a=Sum("deals__points_a"),
            sum_b=Sum("deals__points_b"),
            deal_count=Count("deals"),
            wins_a=Count("deals", filter=Q(deals__winner=TEAM_A)),
            wins_b=Count("deals", filter=Q(deals__winner=TEAM_B)),
            bonus_a=Sum("deals__bonus_a"),
            bonus_b=Sum("deals__bonus_b"),
        )
    )
    for s in seating_rows:
        deals_per_round = by_id[s["round__session__evening_id"]].deals_per_round
        tables.setdefault(s["round_id"], []).append(
            TableHistory(
                seating_id=s["id"],
                table=s["table__number"],
                team_a_id=s["team_a_id"],
                team_b_id=s["team_b_id"],
                team_a=team_of[s["team_a_id"]],
                team_b=team_of[s["team_b_id"]],
                sum_a=s["sum_a"] or 0,
                sum_b=s["sum_b"] or 0,
                deal_count=s["deal_count"],
                entered=s["entered_at"] is not None or s["deal_count"] >= deals_per_round,
                confirmed=s["confirmed_at"] is not None,
                token=s["table__token"],
                wins_a=s["wins_a"],
                wins_b=s["wins_b"],
                bonus_a=s["bonus_a"] or 0,
                bonus_b=s["bonus_b"] or 0,
            )
        )
    return tables
