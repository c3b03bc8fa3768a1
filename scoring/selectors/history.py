"""The one loader of an evening's history: who played with and against whom at which table, who
sat out which round, and each table's matchsticks so far.

The ranking, the draw, the fairness report and the session changes all read the evening through
:func:`evening_history`, so the rules "who sits out a round" and "a replacement plays from their
first round on" are worked out in one place (:attr:`RoundHistory.sitting_out`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Q, Sum

from scoring.domain import draw as draw_domain
from scoring.domain.fairness import PlayedRound
from scoring.domain.ranking import TableResult
from scoring.domain.rules import TEAM_A, TEAM_B
from scoring.models import Evening, Partnership, Round, Seating, Session

Team = tuple[int, int]


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
    session_sitter: int | None  # the session's sit-out player (odd number of players)

    @property
    def seated(self) -> frozenset[int]:
        return frozenset(p for t in self.tables for p in t.players)

    @property
    def sitting_out(self) -> tuple[tuple[int, ...], ...]:
        """Who sat out this round (and gets the sit-out credit, DOMAIN.md): the round's sit-out
        partnership (two ids), and the session's sit-out player (one id) unless seated in this
        round (they replaced a player who left) or already in that partnership (they replaced a
        player of the sitting-out partnership)."""
        groups: list[tuple[int, ...]] = []
        if self.sitout_team is not None:
            groups.append(tuple(self.sitout_team))
        sitter = self.session_sitter
        if sitter is not None and sitter not in self.seated and sitter not in (self.sitout_team or ()):
            groups.append((sitter,))
        return tuple(groups)

    @property
    def sitters(self) -> frozenset[int]:
        """The players of :attr:`sitting_out` who are not seated in the round."""
        return frozenset(p for group in self.sitting_out for p in group) - self.seated

    def table_results(self) -> list[TableResult]:
        """The round's tables for :func:`scoring.domain.ranking.round_sitout_credit`."""
        return [TableResult(t.sum_a, t.sum_b, entered=t.entered, confirmed=t.confirmed) for t in self.tables]


@dataclass(frozen=True)
class EveningHistory:
    """Every drawn session of an evening (or all but one), as loaded by :func:`evening_history`."""

    sessions: dict[int, int]  # session id -> number
    teams: dict[int, Team]  # partnership id -> player ids
    rounds: tuple[RoundHistory, ...]  # by session, then round

    def for_draw(self) -> draw_domain.History:
        """Partners, opponents and sit-outs so far, as the draw counts them.

        Partnerships split by a replacement count both ways (the leaver and the replacement were
        both the remaining player's partner)."""
        partners = frozenset(frozenset(pair) for pair in self.teams.values())
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

    def played_rounds(self) -> list[PlayedRound]:
        """Every round as :class:`scoring.domain.fairness.PlayedRound`, for the fairness report."""
        return [
            PlayedRound(r.session, r.number, tuple((t.team_a, t.team_b) for t in r.tables), r.sitting_out)
            for r in self.rounds
        ]


def evening_history(evening: Evening, *, exclude: Session | None = None) -> EveningHistory:
    """The evening's drawn sessions: partnerships, every round's tables (with matchsticks so far)
    and sit-outs (4 queries, whatever the number of players).

    ``exclude``: a session to leave out (the one being drawn again or rearranged).
    """
    return evening_histories([evening], exclude=exclude)[evening.pk]


def evening_histories(evenings: Iterable[Evening], *, exclude: Session | None = None) -> dict[int, EveningHistory]:
    """:func:`evening_history` of several evenings at once: evening id -> EveningHistory (4
    queries, whatever the number of evenings and players; an evening without sessions gets an
    empty history). For a player's page and rankings over many evenings."""
    by_id = {evening.pk: evening for evening in evenings}
    sessions_qs = Session.objects.filter(evening__in=list(by_id))
    if exclude is not None:
        sessions_qs = sessions_qs.exclude(pk=exclude.pk)
    sessions = {
        sid: (evening_id, number, sitter)
        for sid, evening_id, number, sitter in sessions_qs.values_list("id", "evening_id", "number", "sitout_player_id")
    }
    teams: dict[int, dict[int, Team]] = {pk: {} for pk in by_id}
    team_of: dict[int, Team] = {}
    for p in Partnership.objects.filter(session__in=sessions_qs).values("id", "session_id", "player_1", "player_2"):
        team_of[p["id"]] = teams[sessions[p["session_id"]][0]][p["id"]] = (p["player_1"], p["player_2"])
    tables: dict[int, list[TableHistory]] = {}
    seatings = (
        Seating.objects.filter(round__session__in=sessions_qs)
        .order_by("table__number")
        .values(
            "id",
            "round_id",
            "round__session__evening_id",
            "table__number",
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
    for s in seatings:
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
                wins_a=s["wins_a"],
                wins_b=s["wins_b"],
                bonus_a=s["bonus_a"] or 0,
                bonus_b=s["bonus_b"] or 0,
            )
        )
    rounds: dict[int, list[RoundHistory]] = {pk: [] for pk in by_id}
    for r in Round.objects.filter(session__in=sessions_qs).values(
        "id", "session_id", "number", "sitout_partnership_id"
    ):
        evening_id, number, sitter = sessions[r["session_id"]]
        rounds[evening_id].append(
            RoundHistory(
                id=r["id"],
                session_id=r["session_id"],
                session=number,
                number=r["number"],
                tables=tuple(tables.get(r["id"], ())),
                sitout_team=team_of[r["sitout_partnership_id"]] if r["sitout_partnership_id"] else None,
                session_sitter=sitter,
            )
        )
    return {
        pk: EveningHistory(
            sessions={sid: number for sid, (evening_id, number, _) in sessions.items() if evening_id == pk},
            teams=teams[pk],
            rounds=tuple(sorted(rounds[pk], key=lambda r: (r.session, r.number))),
        )
        for pk in by_id
    }
