"""The one loader of an evening's history: who played with and against whom at which table, who
sat out which round, and each table's matchsticks so far.

The ranking, the draw, the fairness report and the session changes all read the evening through
:func:`evening_history`, so the rules "who sits out a round" and "a replacement plays from their
first round on" are worked out in one place (:attr:`RoundHistory.sitting_out`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count, Sum

from scoring.domain import draw as draw_domain
from scoring.domain.fairness import PlayedRound
from scoring.domain.ranking import TableResult
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
    sessions_qs = Session.objects.filter(evening=evening)
    if exclude is not None:
        sessions_qs = sessions_qs.exclude(pk=exclude.pk)
    return _load(sessions_qs, {evening.pk: evening.deals_per_round})[evening.pk]


def evening_histories(evenings: Sequence[Evening]) -> dict[int, EveningHistory]:
    """Evening id -> :class:`EveningHistory` of several evenings at once (for a season): 4
    queries, whatever the number of evenings and players."""
    sessions_qs = Session.objects.filter(evening__in=[e.pk for e in evenings])
    return _load(sessions_qs, {e.pk: e.deals_per_round for e in evenings})


def _load(sessions_qs, deals_per_round: dict[int, int]) -> dict[int, EveningHistory]:
    """The histories of the evenings in ``deals_per_round`` (evening id -> deals per round),
    from the sessions of ``sessions_qs`` (4 queries)."""
    sessions = {
        sid: (number, sitter, evening_id)
        for sid, number, sitter, evening_id in sessions_qs.values_list("id", "number", "sitout_player_id", "evening_id")
    }
    teams: dict[int, Team] = {}
    evening_teams: dict[int, dict[int, Team]] = {pk: {} for pk in deals_per_round}
    for p in Partnership.objects.filter(session__in=sessions_qs).values("id", "session_id", "player_1", "player_2"):
        teams[p["id"]] = evening_teams[sessions[p["session_id"]][2]][p["id"]] = (p["player_1"], p["player_2"])
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
        .annotate(sum_a=Sum("deals__points_a"), sum_b=Sum("deals__points_b"), deal_count=Count("deals"))
    )
    for s in seatings:
        tables.setdefault(s["round_id"], []).append(
            TableHistory(
                seating_id=s["id"],
                table=s["table__number"],
                team_a_id=s["team_a_id"],
                team_b_id=s["team_b_id"],
                team_a=teams[s["team_a_id"]],
                team_b=teams[s["team_b_id"]],
                sum_a=s["sum_a"] or 0,
                sum_b=s["sum_b"] or 0,
                deal_count=s["deal_count"],
                entered=s["entered_at"] is not None
                or s["deal_count"] >= deals_per_round[s["round__session__evening_id"]],
                confirmed=s["confirmed_at"] is not None,
            )
        )
    rounds: dict[int, list[RoundHistory]] = {pk: [] for pk in deals_per_round}
    for r in Round.objects.filter(session__in=sessions_qs).values(
        "id", "session_id", "number", "sitout_partnership_id"
    ):
        number, sitter, evening_id = sessions[r["session_id"]]
        rounds[evening_id].append(
            RoundHistory(
                id=r["id"],
                session_id=r["session_id"],
                session=number,
                number=r["number"],
                tables=tuple(tables.get(r["id"], ())),
                sitout_team=teams[r["sitout_partnership_id"]] if r["sitout_partnership_id"] else None,
                session_sitter=sitter,
            )
        )
    return {
        pk: EveningHistory(
            sessions={sid: number for sid, (number, _, eid) in sessions.items() if eid == pk},
            teams=evening_teams[pk],
            rounds=tuple(sorted(evening_rounds, key=lambda r: (r.session, r.number))),
        )
        for pk, evening_rounds in rounds.items()
    }
