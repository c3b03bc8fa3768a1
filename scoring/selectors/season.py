"""The season ranking (Jahreswertung): every evening of a season ranked as the evening ranking
ranks it, then scored together by :mod:`scoring.domain.season`.

The evenings are read at once (:func:`scoring.selectors.history.evening_histories`) and ranked
by the evening ranking's own code, so the number of queries does not grow with the number of
evenings or players.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import get_language

from scoring.domain import season as season_domain
from scoring.domain.errors import DomainError
from scoring.domain.evening import evening_is_over
from scoring.domain.names import person_key
from scoring.domain.tiebreaks import Criterion, parse_chain
from scoring.models import Evening, Player, Season
from scoring.selectors.history import EveningHistory, evening_histories
from scoring.selectors.ranking import ranked_evenings


@dataclass(frozen=True)
class SeasonColumn:
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
    evenings: tuple[SeasonColumn, ...]
    lines: tuple[season_domain.SeasonLine[Player], ...]
    final: bool

    @property
    def ranked(self) -> list[season_domain.SeasonLine[Player]]:
        return [line for line in self.lines if line.ranked]

    @property
    def unranked(self) -> list[season_domain.SeasonLine[Player]]:
        return [line for line in self.lines if not line.ranked]

    def row(self, line: season_domain.SeasonLine[Player]) -> list[season_domain.SeasonCell | None]:
        """The line's cell for every evening of the season, in order (None: not played)."""
        return [line.cells.get(index) for index in range(len(self.evenings))]

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
    """The season ranking (6 queries, 7 when a drawn player was taken off an evening's list;
    whatever the number of evenings and players).

    Each evening is ranked exactly as its own ranking page ranks it (matchsticks with sit-out
    credit, stand-ins not ranked, its own tie-break chain; the same code:
    :func:`scoring.selectors.ranking.evening_rankings`); a player counts as having played an
    evening when they were drawn in it (seated or sitting out in a session;
    :func:`scoring.domain.ranking.played_evening`), not when they were only checked in. Evenings
    without a drawn session have no results yet. Season ties: the season's own chain (``Season.tie_break``)
    over the evenings that count.
    """
    evenings = season_evenings(season)
    histories = evening_histories(evenings)
    ranked = ranked_evenings(evenings, histories)
    people = ranked.people
    # One Player object per player, whichever evenings they played: the season ranks by it.
    players = {pid: p for ranked in people.values() for pid, p in ranked.items()}

    def name_key(player: Player) -> tuple:
        return person_key(player.name, player.club, player.pk, get_language())

    results: dict[Player, dict[int, season_domain.EveningResult]] = defaultdict(dict)
    infos = []
    for index, evening in enumerate(evenings):
        rows = ranked.rankings[evening.pk]
        played = ranked.played[evening.pk]
        for row in rows:
            if row.player.pk in played:
                results[players[row.player.pk]][index] = season_domain.EveningResult(
                    total=row.total, place=row.place, shared=row.shared, tiebreaks=row.tiebreaks
                )
        infos.append(
            SeasonColumn(
                number=index + 1,
                evening=evening,
                confirmed=_confirmed(evening, histories[evening.pk]),
                players=len(played),
            )
        )
    rules = season_rules(season)
    lines = season_domain.season_ranking(results, rules, name_key=name_key, chain=season_chain(season))
    return SeasonRanking(
        season=season,
        rules=rules,
        evenings=tuple(infos),
        lines=tuple(lines),
        final=season_domain.season_is_final(season.planned_evenings, [i.confirmed for i in infos]),
    )


def season_chain(season: Season) -> tuple[Criterion, ...]:
    """The season's tie-break chain (empty: equal values share a place); a stored value that is
    no longer valid counts as no chain (never an error page)."""
    try:
        return parse_chain(season.tie_break)
    except DomainError:
        return ()


def _confirmed(evening: Evening, history: EveningHistory) -> bool:
    """:func:`scoring.selectors.ranking.evening_is_confirmed` from the loaded history (no query)."""
    return evening_is_over(
        sessions_planned=evening.sessions_count,
        sessions_drawn=len(history.sessions),
        tables_confirmed=(t.confirmed for r in history.rounds for t in r.tables),
    )
