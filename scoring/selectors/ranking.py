"""The individual ranking of an evening, and every deal entered (for results and exports)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, Sum

from scoring.domain.names import person_key
from scoring.domain.ranking import PlayerScore, RankedScore, TableResult, rank, round_sitout_credit
from scoring.models import Deal, Evening, Participant, Partnership, Player, Round, Seating
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
