"""The individual ranking of an evening, and every deal entered (for results and exports)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from scoring.domain.names import person_key
from scoring.domain.ranking import PlayerScore, RankedScore, rank, round_sitout_credit
from scoring.models import Deal, Evening, Participant, Player, Seating
from scoring.selectors.history import EveningHistory, evening_history
from scoring.selectors.players import PARTNERSHIP_PLAYERS


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
    (the session's sit-out player may have taken over from a player who left;
    :attr:`scoring.selectors.history.RoundHistory.sitters`).
    """
    scores, provisional = _session_scores(evening, evening_history(evening))
    players = _ranked_players(evening, scores)
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


def _session_scores(evening: Evening, history: EveningHistory) -> tuple[dict[int, list[Fraction]], dict[int, set[int]]]:
    """Player id -> matchsticks per session (index 0 = session 1), and player id -> the indexes
    of the sessions whose value includes a provisional sit-out credit."""
    session_count = max(evening.sessions_count, len(history.sessions))
    scores: dict[int, list[Fraction]] = defaultdict(lambda: [Fraction(0)] * session_count)
    provisional: dict[int, set[int]] = defaultdict(set)
    for r in history.rounds:
        i = r.session - 1
        for t in r.tables:
            for team, total in ((t.team_a, t.sum_a), (t.team_b, t.sum_b)):
                for pid in team:
                    scores[pid][i] += total
        credit = round_sitout_credit(r.table_results())
        for pid in r.sitters:
            scores[pid][i] += credit.value
            if credit.provisional:
                provisional[pid].add(i)
    return scores, provisional


def _ranked_players(evening: Evening, scores: dict[int, list[Fraction]]) -> dict[int, Player]:
    """Player id -> Player of everybody ranked: checked in or drawn, not a stand-in (1 query,
    2 when a drawn player has been taken off the evening's list)."""
    players: dict[int, Player | None] = {}
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
    return players


def evening_is_confirmed(evening: Evening) -> bool:
    """True when every session is drawn and every seating is complete."""
    drawn = evening.sessions.count()
    open_seatings = Seating.objects.filter(round__session__evening=evening, confirmed_at__isnull=True)
    return drawn == evening.sessions_count and not open_seatings.exists()


def evening_deals(evening: Evening):
    """Every entered deal of an evening in playing order (session, round, table, deal), with
    table, round, session and both teams' players joined in: one query, whatever the number of
    deals."""
    return (
        Deal.objects.filter(seating__round__session__evening=evening)
        .select_related(
            "seating__round__session", "seating__table", *(f"seating__{path}" for path in PARTNERSHIP_PLAYERS)
        )
        .order_by("seating__round__session__number", "seating__round__number", "seating__table__number", "number")
    )
