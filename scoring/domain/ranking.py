"""Ranking maths: individual totals, sit-out credit and shared places.

Source: ``shared/DOMAIN.md``, "The Schwesing tournament format" (every matchstick a team wins is
credited to both partners; a player's evening score is the sum, e.g. 18 + 23 + 33 = 74) and
"Decisions where the sources are silent" (sit-out credit = average matchsticks of the teams that
played in that round, exact; equal totals share a place: 1, 2, 2, 4).

All amounts are matchsticks as :class:`fractions.Fraction`, so averages stay exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction


def sitout_credit(team_totals: Sequence[int | Fraction]) -> Fraction:
    """Matchsticks credited to each player who sits out a round.

    Args:
        team_totals: the round's matchsticks of every team that played in it (two per table).

    Returns:
        Their exact average as a Fraction; ``Fraction(0)`` when no team has played (yet).
    """
    if not team_totals:
        return Fraction(0)
    return Fraction(sum(team_totals)) / len(team_totals)


@dataclass(frozen=True)
class PlayerScore:
    """A player's matchsticks per session (index 0 = session 1), partner credit and sit-outs included."""

    player: Hashable
    sessions: tuple[Fraction, ...]

    @property
    def total(self) -> Fraction:
        return sum(self.sessions, Fraction(0))


@dataclass(frozen=True)
class RankedScore:
    """One line of the ranking: ``place`` is shared by equal totals (1, 2, 2, 4)."""

    place: int
    shared: bool
    score: PlayerScore


def rank(scores: Sequence[PlayerScore], name_key=None) -> list[RankedScore]:
    """Order players by total, highest first, with shared places on equal totals.

    Args:
        scores: one PlayerScore per player.
        name_key: optional function PlayerScore -> sort key to order tied players (e.g. by name);
            it never changes a place.

    Returns:
        RankedScore lines in ranking order. Place n+1 follows n tied players at place 1 (1, 2, 2, 4).
    """
    totals = {id(s): s.total for s in scores}
    ordered = sorted(scores, key=lambda s: (-totals[id(s)], name_key(s) if name_key else 0))
    how_many = Counter(totals.values())
    lines = []
    place, previous = 0, None
    for index, score in enumerate(ordered):
        total = totals[id(score)]
        if total != previous:
            place, previous = index + 1, total
        lines.append(RankedScore(place=place, shared=how_many[total] > 1, score=score))
    return lines
