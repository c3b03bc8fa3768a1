"""Ranking maths: individual totals, sit-out credit and shared places.

Source: ``shared/DOMAIN.md``, "The Schwesing tournament format" (every matchstick a team wins is
credited to both partners; a player's evening score is the sum, e.g. 18 + 23 + 33 = 74) and
"Decisions where the sources are silent" (sit-out credit = average matchsticks of the teams that
played in that round, exact; equal totals share a place: 1, 2, 2, 4).

All amounts are matchsticks as :class:`fractions.Fraction`, so averages stay exact.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TypeVar

from scoring.domain.tiebreaks import Row, rank_rows

K = TypeVar("K", bound=Hashable)


def one_decimal(value: int | Fraction | Decimal | float) -> Decimal:
    """A matchstick value rounded half up to one decimal, as German lists do (57/4 = 14.25 -> 14.3).

    Rounds the exact value in integer arithmetic (no intermediate rounding; halves go away from
    zero, like Decimal's ROUND_HALF_UP); a float is taken as its shortest decimal text
    ("14.25"), not as its binary value. Source: DOMAIN.md ("shown with one decimal, rounded
    half up").
    """
    if isinstance(value, float):
        value = Decimal(repr(value))
    value = Fraction(value)
    tenths = value * 10
    whole, rest = divmod(abs(tenths.numerator), tenths.denominator)
    if 2 * rest >= tenths.denominator:
        whole += 1
    return Decimal(-whole if tenths < 0 else whole).scaleb(-1)


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


#: Printed after a value that includes a provisional sit-out credit (explained by a legend).
PROVISIONAL_MARK = "°"


@dataclass(frozen=True)
class TableResult:
    """One table in one round: the matchsticks of its two teams so far.

    Attributes:
        team_a, team_b: matchsticks entered so far.
        entered: the table has played the round (every deal entered, or finished by its scorer,
            or confirmed): only such a table counts towards a sit-out's credit.
        confirmed: the other team (or the organiser) has confirmed the round: final.
    """

    team_a: int
    team_b: int
    entered: bool
    confirmed: bool = False


@dataclass(frozen=True)
class SitoutCredit:
    """What a player who sits out a round is credited, and whether it may still change.

    ``value`` is the average of the teams at the tables that have finished the round (0 while
    none has: no credit yet, like the players at the tables); ``provisional`` is True from the
    first finished table until every table of the round is confirmed.
    """

    value: Fraction
    provisional: bool
    tables_counted: int


def round_sitout_credit(tables: Sequence[TableResult]) -> SitoutCredit:
    """The sit-out credit of a round while it runs and after (DOMAIN.md, "Sit-out credit while a
    round runs"): the exact average of the teams at the tables that have finished the round; a
    table that has not finished never counts (not even as 0). Provisional while some tables have
    finished and not every table is confirmed; a round no table has finished gives no credit yet
    (value 0, not provisional).

    Args:
        tables: every table of the round.

    Returns:
        :class:`SitoutCredit` in matchsticks (Fraction).
    """
    done = [t for t in tables if t.entered or t.confirmed]
    value = sitout_credit([points for t in done for points in (t.team_a, t.team_b)])
    provisional = bool(done) and not all(t.confirmed for t in tables)
    return SitoutCredit(value=value, provisional=provisional, tables_counted=len(done))


@dataclass(frozen=True)
class PlayerScore:
    """A player's matchsticks per session (index 0 = session 1), partner credit and sit-outs
    included; ``provisional`` holds the indexes of sessions whose value includes a provisional
    sit-out credit (:func:`round_sitout_credit`)."""

    player: Hashable
    sessions: tuple[Fraction, ...]
    provisional: frozenset[int] = frozenset()

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
        A tie-break chain: :func:`scoring.domain.tiebreaks.rank_rows`, which this calls without one.
    """
    by_index: dict[Hashable, PlayerScore] = dict(enumerate(scores))
    rows = [Row(key=index, total=score.total) for index, score in by_index.items()]
    lines = rank_rows(rows, (), name_key=(lambda row: name_key(by_index[row.key])) if name_key else None)
    return [RankedScore(place=line.place, shared=line.shared, score=by_index[line.row.key]) for line in lines]


def played_evening(drawn: Iterable[K], stand_ins: Iterable[K]) -> frozenset[K]:
    """Who counts as having played an evening (the season counts the evening for them, their own
    page lists it): every player drawn into one of its sessions, seated at a table or sitting out
    in a round (the draw takes exactly the players checked in when it is made, so "checked in when
    a session was drawn" and "drawn" are the same players; a replacement counts from the round
    they took over), except stand-ins (Ersatzspieler), who play but are never ranked.

    A player checked out before the first draw is in no session and has not played; one who
    leaves after being drawn has played (and keeps what they scored).

    Args:
        drawn: ids of the players seated or sitting out in a round of a drawn session.
        stand_ins: ids of the evening's stand-ins.

    Returns:
        The ids of the players who played the evening.
    """
    return frozenset(drawn) - frozenset(stand_ins)


def ranked_in_evening(
    *, drawn: Iterable[K], checked_in: Iterable[K], stand_ins: Iterable[K], any_session_drawn: bool
) -> frozenset[K]:
    """Who the evening's ranking lists (page, projector, PDFs, CSV, Excel, the website's file):
    once a session is drawn, exactly the players of :func:`played_evening`, whether or not they
    are still checked in (who leaves after being drawn keeps what they played); before the first
    draw, the players checked in now (all at 0: a preview of the field), stand-ins never.

    A player checked in after a draw (a late arrival) is listed from the draw that takes them in.

    Args:
        drawn: ids of the players seated or sitting out in a round of a drawn session.
        checked_in: ids of the players checked in now.
        stand_ins: ids of the evening's stand-ins.
        any_session_drawn: whether the evening has a drawn session.

    Returns:
        The ids of the ranked players.
    """
    if any_session_drawn:
        return played_evening(drawn, stand_ins)
    return frozenset(checked_in) - frozenset(stand_ins)
