"""The individual ranking of an evening, and every deal entered (for results and exports)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import get_language

from scoring.domain.errors import DomainError
from scoring.domain.names import person_key
from scoring.domain.ranking import played_evening, ranked_in_evening, round_sitout_credit
from scoring.domain.tiebreaks import Criterion, RankedRow, Row, criteria_used, parse_chain, rank_rows
from scoring.models import Deal, Evening, Participant, Player
from scoring.selectors.evenings import evening_over
from scoring.selectors.history import EveningHistory, evening_histories
from scoring.selectors.players import PARTNERSHIP_PLAYERS


@dataclass(frozen=True)
class RankingRow:
    """One line of the individual ranking; amounts in matchsticks (Fraction: sit-out credit is exact).

    ``provisional``: indexes of the sessions (0 = session 1) whose value includes a sit-out
    credit of a round that is still running (shown with ``PROVISIONAL_MARK``, "°").

    ``tiebreaks``: the value of every tie-break criterion for this player
    (:class:`scoring.domain.tiebreaks.Criterion` -> int or Fraction, see :func:`tiebreak_values`),
    whether or not the evening's chain uses it. ``ahead_by``: the criterion of the chain that
    put this player ahead of the next line (``ahead_of``) although their totals are equal;
    ``behind_by``: the one that put the previous line ahead of this one.
    """

    place: int
    shared: bool
    player: Player
    sessions: tuple[Fraction, ...]
    total: Fraction
    provisional: frozenset[int] = frozenset()
    tiebreaks: Mapping[Criterion, int | Fraction] = field(default_factory=dict)
    ahead_by: Criterion | None = None
    ahead_of: Player | None = None
    behind_by: Criterion | None = None


def evening_ranking(evening: Evening) -> list[RankingRow]:
    """The live individual ranking of an evening (5 queries).

    Every matchstick a team wins counts for both partners; a player who sits out a round is
    credited the exact average of the teams that played in it (docs/rules.md, "Sitting out"); while the round runs,
    only tables that have finished it count, and the credit is provisional
    (:func:`scoring.domain.ranking.round_sitout_credit`, ``RankingRow.provisional``). Who appears:
    :func:`scoring.domain.ranking.ranked_in_evening` (once a session is drawn, everybody drawn,
    checked out since or not; before the first draw, everybody checked in, at 0; stand-ins
    never: they play but are not ranked). A player seated in a round gets no sit-out credit for it
    (the session's sit-out player may have taken over from a player who left;
    :attr:`scoring.selectors.history.RoundHistory.sitters`).

    Equal totals share a place, unless the evening has a tie-break chain (``Evening.tiebreaks``,
    :func:`scoring.domain.tiebreaks.rank_rows`): then the chain's criteria, in the organiser's
    order, separate them.
    """
    return evening_rankings([evening])[evening.pk]


def evening_rankings(
    evenings: Iterable[Evening], histories: Mapping[int, EveningHistory] | None = None
) -> dict[int, list[RankingRow]]:
    """:func:`evening_ranking` of several evenings: evening id -> ranking (5 queries, 6 when a
    drawn player has been taken off an evening's list; whatever the number of evenings and
    players). Each evening is ranked with its own tie-break chain.

    ``histories``: :func:`scoring.selectors.history.evening_histories` of these evenings when
    the caller has loaded them already (then 1 or 2 queries)."""
    return ranked_evenings(list(evenings), histories).rankings


@dataclass(frozen=True)
class RankedEvenings:
    """The rankings of several evenings with what they were computed from, for callers that
    need more than the rows (the season ranking): evening id -> its :class:`PlayedFigures`, its
    ranked players (player id -> Player), its ranking, and the ids of the players who count as
    having played it (:func:`scoring.domain.ranking.played_evening`: drawn, not a stand-in; none
    before the first draw, when the ranking lists the players checked in at 0)."""

    figures: dict[int, PlayedFigures]
    people: dict[int, dict[int, Player]]
    rankings: dict[int, list[RankingRow]]
    played: dict[int, frozenset[int]] = field(default_factory=dict)


def ranked_evenings(evenings: list[Evening], histories: Mapping[int, EveningHistory] | None = None) -> RankedEvenings:
    """:func:`evening_rankings` with the figures and players behind them (the same queries)."""
    if histories is None:
        histories = evening_histories(evenings)
    played = {evening.pk: PlayedFigures.of(evening, histories[evening.pk]) for evening in evenings}
    people, played_ids = _ranked_players(evenings, histories)
    rankings = {evening.pk: _rank(evening, played[evening.pk], people[evening.pk]) for evening in evenings}
    return RankedEvenings(figures=played, people=people, rankings=rankings, played=played_ids)


def _rank(evening: Evening, figures: PlayedFigures, players: dict[int, Player]) -> list[RankingRow]:
    chain = evening_chain(evening)
    rows = [Row(pid, sum(figures.scores[pid], Fraction(0)), figures.tiebreaks(pid)) for pid in players]
    lines = rank_rows(
        rows,
        chain,
        name_key=lambda row: person_key(players[row.key].name, players[row.key].club, row.key, get_language()),
    )
    result = []
    for index, line in enumerate(lines):
        pid = line.row.key
        below = lines[index + 1].row.key if line.below_by is not None else None
        result.append(
            RankingRow(
                place=line.place,
                shared=line.shared,
                player=players[pid],
                sessions=tuple(figures.scores[pid]),
                total=Fraction(line.row.total),
                provisional=frozenset(figures.provisional[pid]),
                tiebreaks=line.row.values,
                ahead_by=line.below_by,
                ahead_of=players[below] if below is not None else None,
                behind_by=line.above_by,
            )
        )
    return result


def evening_chain(evening: Evening) -> tuple[Criterion, ...]:
    """The evening's tie-break chain in the organiser's order (empty: equal totals share a place).
    A stored value that is no longer valid counts as no chain (never an error page)."""
    try:
        return parse_chain(evening.tiebreaks)
    except DomainError:
        return ()


def tiebreak_columns(evening: Evening, rows: Sequence[RankingRow]) -> tuple[Criterion, ...]:
    """The tie-break criteria a ranking shows as columns: the evening's chain as far as it was
    looked at for equal totals (:func:`scoring.domain.tiebreaks.criteria_used`); none without a
    chain or without equal totals (no query)."""
    lines = [RankedRow(Row(r.player.pk, r.total), r.place, r.shared, r.behind_by, r.ahead_by) for r in rows]
    return criteria_used(lines, evening_chain(evening))


@dataclass
class PlayedFigures:
    """What each player did in one evening, from its history (no query).

    - ``scores``: player id -> matchsticks per session (index 0 = session 1), sit-out credit included;
    - ``provisional``: player id -> indexes of the sessions whose value includes a provisional
      sit-out credit;
    - ``deals_won``: player id -> deals won by the player's team (five tricks reached);
    - ``bonus``: player id -> matchsticks from daring and striking of the player's teams;
    - ``sat_out``: player id -> rounds sat out, counted from the moment a table has finished the
      round (as the sit-out credit: a round nobody has played yet is not counted).
    """

    scores: dict[int, list[Fraction]]
    provisional: dict[int, set[int]] = field(default_factory=lambda: defaultdict(set))
    deals_won: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    bonus: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    sat_out: dict[int, int] = field(default_factory=lambda: defaultdict(int))

    @classmethod
    def of(cls, evening: Evening, history: EveningHistory) -> PlayedFigures:
        session_count = max(evening.sessions_count, len(history.sessions))
        figures = cls(scores=defaultdict(lambda: [Fraction(0)] * session_count))
        for r in history.rounds:
            i = r.session - 1
            for t in r.tables:
                for team, total, won, bonus in (
                    (t.team_a, t.sum_a, t.wins_a, t.bonus_a),
                    (t.team_b, t.sum_b, t.wins_b, t.bonus_b),
                ):
                    for pid in team:
                        figures.scores[pid][i] += total
                        figures.deals_won[pid] += won
                        figures.bonus[pid] += bonus
            credit = round_sitout_credit(r.table_results())
            for pid in r.sitters:
                figures.scores[pid][i] += credit.value
                if credit.provisional:
                    figures.provisional[pid].add(i)
                if credit.tables_counted:
                    figures.sat_out[pid] += 1
        return figures

    def tiebreaks(self, pid: int) -> dict[Criterion, int | Fraction]:
        """:func:`tiebreak_values` of one player."""
        return tiebreak_values(self.scores[pid], self.deals_won[pid], self.bonus[pid], self.sat_out[pid])


def tiebreak_values(sessions, deals_won: int, bonus: int, sat_out: int) -> dict[Criterion, int | Fraction]:
    """Every tie-break criterion's value for one player of an evening (docs/rules.md, "Equal
    totals"): best single session (the highest session total, sit-out credit included, in
    matchsticks), deals won by the player's team, matchsticks from daring and striking of the
    player's teams, rounds sat out."""
    return {
        Criterion.BEST_SESSION: max(sessions, default=Fraction(0)),
        Criterion.DEALS_WON: deals_won,
        Criterion.BONUS_STICKS: bonus,
        Criterion.FEWEST_SITOUTS: sat_out,
    }


def drawn_players(history: EveningHistory) -> frozenset[int]:
    """The ids of everybody seated at a table or sitting out in a round of the evening's drawn
    sessions (no query): who was drawn (:func:`scoring.domain.ranking.played_evening`)."""
    return frozenset(pid for r in history.rounds for pid in r.seated | r.sitters)


def _ranked_players(
    evenings: list[Evening], histories: Mapping[int, EveningHistory]
) -> tuple[dict[int, dict[int, Player]], dict[int, frozenset[int]]]:
    """Evening id -> (player id -> Player) of everybody ranked, by the rule of
    :func:`scoring.domain.ranking.ranked_in_evening`: once a session is drawn, the players drawn
    (checked out since or not), before the first draw those checked in; never a stand-in. And
    evening id -> the ids of those who played it (:func:`scoring.domain.ranking.played_evening`).
    1 query, 2 when a drawn player has been taken off an evening's list."""
    found: dict[int, dict[int, Player]] = {evening.pk: {} for evening in evenings}
    checked_in: dict[int, set[int]] = defaultdict(set)
    stand_ins: dict[int, set[int]] = defaultdict(set)
    for participant in Participant.objects.filter(evening__in=list(found)).select_related("player"):
        found[participant.evening_id][participant.player_id] = participant.player
        if participant.is_stand_in:
            stand_ins[participant.evening_id].add(participant.player_id)
        if participant.checked_in:
            checked_in[participant.evening_id].add(participant.player_id)
    ranked_ids = {
        evening.pk: ranked_in_evening(
            drawn=drawn_players(histories[evening.pk]),
            checked_in=checked_in[evening.pk],
            stand_ins=stand_ins[evening.pk],
            any_session_drawn=bool(histories[evening.pk].sessions),
        )
        for evening in evenings
    }
    missing = {pid for pk, ids in ranked_ids.items() for pid in ids if pid not in found[pk]}
    if missing:  # drawn, then taken off the evening's list
        extra = {p.pk: p for p in Player.objects.filter(pk__in=missing)}
        for pk, ids in ranked_ids.items():
            found[pk].update({pid: extra[pid] for pid in ids if pid not in found[pk]})
    people = {pk: {pid: found[pk][pid] for pid in ids} for pk, ids in ranked_ids.items()}
    played = {
        evening.pk: played_evening(drawn_players(histories[evening.pk]), stand_ins[evening.pk]) for evening in evenings
    }
    return people, played


def evening_is_confirmed(evening: Evening) -> bool:
    """True when the evening is over (:func:`scoring.domain.evening.evening_is_over`): every
    session of its format drawn and every table of every round confirmed (2 queries)."""
    return evening_over(evening)


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
