"""The season ranking (Jahreswertung): every evening of a season ranked as the evening ranking
ranks it, then scored together by :mod:`scoring.domain.season`.

The evenings are read at once (:func:`scoring.selectors.history.evening_histories`), so the
number of queries does not grow with the number of evenings or players.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from fractions import Fraction

from scoring.domain import season as season_domain
from scoring.domain.names import person_key
from scoring.domain.ranking import PlayerScore, rank
from scoring.models import Evening, Participant, Player, Season
from scoring.selectors.history import EveningHistory, evening_histories
from scoring.selectors.ranking import _session_scores


@dataclass(frozen=True)
class SeasonEvening:
    """One evening of the season, in date order (``number``: 1 = the first evening)."""

    number: int
    evening: Evening
    confirmed: bool  # every session drawn, every round confirmed
    players: int  # players ranked that evening


@dataclass(frozen=True)
class SeasonRanking:
    """The season ranking of :func:`season_ranking`.

    ``lines``: :class:`scoring.domain.season.SeasonLine` with ``player`` a
    :class:`~scoring.models.Player`, ranked ones first, then those below the minimum (no place);
    ``cells`` are keyed by evening index (``evenings[i]``). ``final``: every planned evening
    exists and is confirmed (:func:`scoring.domain.season.season_is_final`).
    """

    season: Season
    rules: season_domain.SeasonRules
    evenings: tuple[SeasonEvening, ...]
    lines: tuple[season_domain.SeasonLine, ...]
    final: bool

    @property
    def ranked(self) -> list[season_domain.SeasonLine]:
        return [line for line in self.lines if line.ranked]

    @property
    def unranked(self) -> list[season_domain.SeasonLine]:
        return [line for line in self.lines if not line.ranked]

    @property
    def any_dropped(self) -> bool:
        return any(cell.dropped for line in self.lines for cell in line.cells.values())


def season_rules(season: Season) -> season_domain.SeasonRules:
    """The season's settings for :mod:`scoring.domain.season`."""
    return season_domain.SeasonRules(
        scoring=season.scoring,
        placement_points=tuple(season.placement_points or season_domain.DEFAULT_PLACEMENT_POINTS),
        best_of=season.best_of,
        min_evenings=season.min_evenings,
    )


def season_evenings(season: Season) -> list[Evening]:
    """The season's evenings in date order (1 query)."""
    return list(Evening.objects.filter(season_link__season=season).order_by("date", "id"))


def season_ranking(season: Season) -> SeasonRanking:
    """The season ranking (7 queries, whatever the number of evenings and players).

    Each evening is ranked exactly as its own ranking page ranks it (matchsticks with sit-out
    credit, stand-ins not ranked, equal totals share a place); a player counts as having played
    an evening when they were drawn in it (seated or sitting out in a session). Evenings without
    a drawn session have no results yet.
    """
    evenings = season_evenings(season)
    histories = evening_histories(evenings)
    scores = {e.pk: _session_scores(e, histories[e.pk])[0] for e in evenings}
    stand_ins: dict[int, set[int]] = defaultdict(set)
    ranked_ids: dict[int, set[int]] = defaultdict(set)
    for evening_id, player_id, is_stand_in in Participant.objects.filter(evening__in=evenings).values_list(
        "evening_id", "player_id", "is_stand_in"
    ):
        (stand_ins if is_stand_in else ranked_ids)[evening_id].add(player_id)
    for evening in evenings:  # drawn players who were checked out later still rank
        ranked_ids[evening.pk] |= set(scores[evening.pk]) - stand_ins[evening.pk]
    wanted = set().union(*ranked_ids.values()) if ranked_ids else set()
    players = {p.pk: p for p in Player.objects.filter(pk__in=wanted)} if wanted else {}

    def name_key(pid) -> tuple:
        return person_key(players[pid].name, players[pid].club, pid)

    results: dict[int, dict[int, season_domain.EveningResult]] = defaultdict(dict)
    infos = []
    for index, evening in enumerate(evenings):
        evening_scores = scores[evening.pk]
        drawn = set(evening_scores)
        lines = rank(
            [
                PlayerScore(pid, tuple(evening_scores.get(pid, ())) or (Fraction(0),))
                for pid in ranked_ids[evening.pk]
                if pid in players
            ],
            name_key=lambda s: name_key(s.player),
        )
        for line in lines:
            if line.score.player in drawn:
                results[line.score.player][index] = season_domain.EveningResult(
                    total=line.score.total, place=line.place, shared=line.shared
                )
        infos.append(
            SeasonEvening(
                number=index + 1,
                evening=evening,
                confirmed=_confirmed(evening, histories[evening.pk]),
                players=len(lines),
            )
        )
    rules = season_rules(season)
    lines = season_domain.season_ranking(
        results,
        rules,
        name_key=name_key,
    )
    return SeasonRanking(
        season=season,
        rules=rules,
        evenings=tuple(infos),
        lines=tuple(_with_player(line, players) for line in lines),
        final=season_domain.season_is_final(season.planned_evenings, [i.confirmed for i in infos]),
    )


def _with_player(line: season_domain.SeasonLine, players: dict[int, Player]) -> season_domain.SeasonLine:
    return replace(line, player=players[line.player])


def _confirmed(evening: Evening, history: EveningHistory) -> bool:
    """:func:`scoring.selectors.ranking.evening_is_confirmed` from the loaded history (no query)."""
    tables = [t for r in history.rounds for t in r.tables]
    return len(history.sessions) >= evening.sessions_count and all(t.confirmed for t in tables)
