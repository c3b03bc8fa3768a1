"""The fairness report of the draw: partners, opponents, repeated opponents, sit-outs."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language

from scoring.domain.fairness import PlayedRound
from scoring.domain.names import person_key
from scoring.models import Evening, Participant, Player, Session
from scoring.selectors.history import Team, evening_history


@dataclass(frozen=True)
class FairnessRow:
    """One player's line of the fairness report (names, not ids)."""

    player: Player
    stand_in: bool
    partners: tuple[tuple[int, str], ...]  # (session, partner's name)
    opponents: int  # different opponents met
    repeated: tuple[tuple[str, int], ...]  # (opponent's name, times met), met more than once
    repeats: int  # sum of (times met - 1)
    rounds_played: int
    rounds_sat_out: int


@dataclass(frozen=True)
class FairnessReport:
    """The fairness report of an evening: per player, the evening's totals and the reasons."""

    rows: list[FairnessRow]
    repeated_opponents: int
    lower_bound: int
    reasons: tuple  # scoring.domain.fairness.Reason
    repeated_partners: tuple[tuple[str, str, int], ...]
    sessions_drawn: int
    # The a-priori bound the draw planned towards (scoring.domain.fairness.opponent_repeat_lower_bound
    # for the players of the last planned draw), None if no session was drawn by the planner.
    planned_bound: int | None = None


def played_rounds(evening: Evening) -> tuple[list[PlayedRound[int]], dict[int, Team]]:
    """Every drawn round of the evening as :class:`scoring.domain.fairness.PlayedRound` (who sat
    at which table, who sat out), with players who replaced a leaver in the rounds they played
    (4 queries, :func:`scoring.selectors.history.evening_history`). Also returns partnership
    id -> player ids."""
    history = evening_history(evening)
    return history.played_rounds(), history.teams


def evening_fairness(evening: Evening) -> FairnessReport:
    """Partners, opponents, repeated opponents and sit-outs of every player who played, the
    evening's repeated opponents against the lower bound and against the bound the draw planned
    towards, and why (6 queries at most, whatever the number of players)."""
    from scoring.domain.fairness import evening_fairness as fairness

    rounds, _ = played_rounds(evening)
    report = fairness(rounds)
    participants = {p.player_id: p for p in Participant.objects.filter(evening=evening).select_related("player")}
    players = {pid: p.player for pid, p in participants.items()}
    missing = [pid for pid in report.players if pid not in players]
    if missing:
        players.update({p.pk: p for p in Player.objects.filter(pk__in=missing)})

    def name(pid: int) -> str:
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
    rows.sort(
        key=lambda row: (-row.repeats, person_key(row.player.name, row.player.club, row.player.pk, get_language()))
    )

    def partners_line(pair: frozenset[int], count: int) -> tuple[str, str, int]:
        first, second = sorted((name(pid) for pid in pair), key=lambda text: person_key(text, language=get_language()))
        return first, second, count

    repeated_partners = tuple(partners_line(pair, count) for pair, count in report.repeated_partners)
    return FairnessReport(
        rows=rows,
        repeated_opponents=report.repeated_opponents,
        lower_bound=report.lower_bound,
        reasons=report.reasons,
        repeated_partners=repeated_partners,
        sessions_drawn=len({r.session for r in rounds}),
        planned_bound=Session.objects.filter(evening=evening, plan_bound__isnull=False)
        .order_by("-number")
        .values_list("plan_bound", flat=True)
        .first(),
    )
