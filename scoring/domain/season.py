"""Season maths (Jahreswertung): evenings scored together, best N, minimum attendance.

Source: docs/rules.md, "The season (Jahreswertung)" (our decision): a season groups evenings and
is scored by the sum of the evening totals, by placement points per evening (an editable table) or
by the average per evening played; optionally only the best N evenings count (Streichergebnisse:
the worst are dropped) and a minimum number of evenings is needed to be ranked. Our decisions
where the sources are silent:

- An evening a player did not play counts nothing and is never "dropped": only evenings played
  take part in best N.
- Placement points: a place beyond the table gets 0; players sharing a place on an evening get
  the points of that place each (1, 2, 2, 4: both second places get the points of place 2).
- The values dropped are the lowest; among equal values the earlier evening is dropped.
- Average: the counted values (best N, or all played) divided by their number.
- Players below the minimum are listed under the ranked ones, in the same order, without a place.
- Equal season values share a place (1, 2, 2, 4) unless the season has a tie-break chain
  (:mod:`scoring.domain.tiebreaks`, the same criteria as an evening's): then the criteria, summed
  over the evenings that count (best single session: the best of them; rounds sat out: fewest
  wins), separate them in the organiser's order; only equal values are compared.
- The season is final when every planned evening exists and is confirmed
  (:func:`season_is_final`); until then its ranking is provisional.

Amounts are matchsticks (or placement points) as :class:`fractions.Fraction`, exact.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Generic, TypeVar

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.tiebreaks import Criterion, RankedRow, Row, rank_rows

SUM, POINTS, AVERAGE = "sum", "points", "average"
SCORINGS = (SUM, POINTS, AVERAGE)

#: The placement points offered for a new season (place 1 first); editable per season.
DEFAULT_PLACEMENT_POINTS: tuple[int, ...] = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)

#: Longest placement table accepted (places beyond it get 0).
MAX_PLACES = 200


class SeasonRuleError(DomainError):
    """Season settings that cannot be used (message is a msgid)."""


@dataclass(frozen=True)
class SeasonRules:
    """How a season is scored.

    Attributes:
        scoring: :data:`SUM`, :data:`POINTS` or :data:`AVERAGE`.
        placement_points: points for place 1, 2, ... (only for POINTS).
        best_of: only the best N evenings played count; None: all.
        min_evenings: evenings needed to be ranked (1: everybody who played).
    """

    scoring: str = SUM
    placement_points: tuple[int, ...] = DEFAULT_PLACEMENT_POINTS
    best_of: int | None = None
    min_evenings: int = 1


@dataclass(frozen=True)
class EveningResult:
    """A player's result on one evening: matchsticks and place (``shared``: place shared)."""

    total: Fraction
    place: int
    shared: bool = False
    tiebreaks: Mapping[Criterion, int | Fraction] = field(default_factory=dict)


@dataclass(frozen=True)
class SeasonCell:
    """One evening of one player in the season: the evening's result, the value it has in the
    season (matchsticks, or placement points) and whether it is dropped (not among the best N)."""

    result: EveningResult
    value: Fraction
    dropped: bool = False


P = TypeVar("P", bound=Hashable)  # a player: whatever the caller keys players by (an id in the app)


@dataclass(frozen=True)
class SeasonLine(Generic[P]):
    """One player's line of the season ranking.

    Attributes:
        player: the key given in (e.g. a player id).
        cells: evening index (0 = the season's first evening) -> SeasonCell, for evenings played.
        total: the season value: counted sum, or counted average.
        counted: number of evenings that count (best N or all played).
        ranked: played at least the minimum number of evenings.
        place: place among the ranked (None when unranked); shared by equal values.
        shared: the place is shared.
        tiebreaks: the tie-break criteria over the evenings that count (:func:`season_tiebreaks`).
        ahead_by: the criterion of the chain that put this line ahead of the next one although
            their season values are equal (None otherwise).
    """

    player: P
    cells: Mapping[int, SeasonCell]
    total: Fraction
    counted: int
    ranked: bool
    place: int | None = None
    shared: bool = False
    tiebreaks: Mapping[Criterion, int | Fraction] = field(default_factory=dict, compare=False)
    ahead_by: Criterion | None = None

    @property
    def played(self) -> int:
        return len(self.cells)


def parse_placement_points(text: str) -> tuple[int, ...]:
    """A placement table typed by the organiser ("25, 20, 16" or one per line) -> points.

    Raises:
        SeasonRuleError: empty, a gap (an empty entry between two values), something that is not
            a whole number, a negative value, more points for a worse place, or too many places.
    """
    raw = text.replace(";", ",").replace("\n", ",").replace("\r", "").strip().strip(",").strip()
    if not raw:
        raise SeasonRuleError(gettext_noop("Please enter the points for at least place 1."), code="points_empty")
    parts = [p.strip() for p in raw.split(",")]
    points = []
    for index, part in enumerate(parts, start=1):
        if not part:
            raise SeasonRuleError(
                gettext_noop("The points for place %(place)s are missing: a placement table must have no gaps."),
                code="points_gap",
                place=index,
            )
        digits = part[1:] if part.startswith("-") else part
        if not (digits.isascii() and digits.isdigit()):
            raise SeasonRuleError(
                gettext_noop("“%(value)s” (place %(place)s) is not a whole number."),
                code="points_not_number",
                value=part[:20],
                place=index,
            )
        points.append(int(part))
    return check_placement_points(points)


def check_placement_points(points: Sequence[int]) -> tuple[int, ...]:
    """The placement table as a tuple, or SeasonRuleError (empty, negative, rising, too long)."""
    if not points:
        raise SeasonRuleError(gettext_noop("Please enter the points for at least place 1."), code="points_empty")
    if len(points) > MAX_PLACES:
        raise SeasonRuleError(
            gettext_noop("A placement table has at most %(count)s places."), code="points_too_long", count=MAX_PLACES
        )
    for index, value in enumerate(points, start=1):
        if value < 0:
            raise SeasonRuleError(
                gettext_noop("Place %(place)s has negative points (%(value)s); points must be 0 or more."),
                code="points_negative",
                place=index,
                value=value,
            )
        if index > 1 and value > points[index - 2]:
            raise SeasonRuleError(
                gettext_noop(
                    "Place %(place)s gets more points than place %(better)s; a better place must never get fewer."
                ),
                code="points_rising",
                place=index,
                better=index - 1,
            )
    return tuple(points)


def check_rules(rules: SeasonRules, planned_evenings: int) -> None:
    """Refuse settings that cannot work for a season of ``planned_evenings`` evenings.

    Raises:
        SeasonRuleError: unknown scoring, a bad placement table (POINTS), best N below 1 or above
            the planned evenings, a minimum below 1 or above the planned evenings.
    """
    if rules.scoring not in SCORINGS:
        raise SeasonRuleError(gettext_noop("Please choose how the season is scored."), code="scoring")
    if rules.scoring == POINTS:
        check_placement_points(rules.placement_points)
    if rules.best_of is not None and not 1 <= rules.best_of <= planned_evenings:
        raise SeasonRuleError(
            gettext_noop(
                "“Best evenings that count” must be between 1 and the %(planned)s evenings planned "
                "(empty: every evening counts)."
            ),
            code="best_of",
            planned=planned_evenings,
        )
    if not 1 <= rules.min_evenings <= planned_evenings:
        raise SeasonRuleError(
            gettext_noop("The minimum number of evenings must be between 1 and the %(planned)s evenings planned."),
            code="min_evenings",
            planned=planned_evenings,
        )


def evening_value(result: EveningResult, rules: SeasonRules) -> Fraction:
    """What one evening is worth in the season: its matchsticks, or the points of its place."""
    if rules.scoring == POINTS:
        table = rules.placement_points
        return Fraction(table[result.place - 1]) if 1 <= result.place <= len(table) else Fraction(0)
    return Fraction(result.total)


def season_line(player: P, results: Mapping[int, EveningResult], rules: SeasonRules) -> SeasonLine[P]:
    """One player's evenings scored: values, drops (best N), the season value (unranked, no place)."""
    values = {index: evening_value(result, rules) for index, result in results.items()}
    dropped: set[int] = set()
    if rules.best_of is not None and len(values) > rules.best_of:
        # Lowest first; among equal values the earlier evening first (it is the one dropped).
        worst_first = sorted(values, key=lambda index: (values[index], index))
        dropped = set(worst_first[: len(values) - rules.best_of])
    counted = [value for index, value in values.items() if index not in dropped]
    total = sum(counted, Fraction(0))
    if rules.scoring == AVERAGE and counted:
        total /= len(counted)
    cells = {
        index: SeasonCell(result=results[index], value=values[index], dropped=index in dropped)
        for index in sorted(results)
    }
    return SeasonLine(
        player=player,
        cells=cells,
        total=total,
        counted=len(counted),
        ranked=len(cells) >= rules.min_evenings,
        tiebreaks=season_tiebreaks([cell.result for cell in cells.values() if not cell.dropped]),
    )


def season_tiebreaks(results: Sequence[EveningResult]) -> dict[Criterion, int | Fraction]:
    """The tie-break criteria of a player over the evenings that count: the best single session
    of any of them, and the sums of deals won, matchsticks from daring and striking and rounds
    sat out. A criterion an evening did not report counts 0 there."""
    values: dict[Criterion, int | Fraction] = {}
    for criterion in Criterion:
        figures = [result.tiebreaks.get(criterion, 0) for result in results]
        if criterion is Criterion.BEST_SESSION:
            values[criterion] = max(figures, default=0)
        else:
            values[criterion] = sum(figures, 0)
    return values


def season_ranking(
    results: Mapping[P, Mapping[int, EveningResult]],
    rules: SeasonRules,
    *,
    name_key: Callable[[P], object] | None = None,
    chain: Sequence[Criterion] = (),
) -> list[SeasonLine[P]]:
    """The season ranking: ranked players first (by season value, highest first, places shared
    on equal values: 1, 2, 2, 4, unless ``chain`` separates them), then the players below the
    minimum (no place), in the same order.

    Args:
        results: player -> evening index -> that evening's result (evenings played only).
        rules: :class:`SeasonRules`.
        name_key: orders players who still share a place (e.g. by name); never changes a place.
        chain: tie-break criteria in the organiser's order (:func:`scoring.domain.tiebreaks.rank_rows`
            on :func:`season_tiebreaks`); empty: equal values share a place.

    Returns:
        :class:`SeasonLine` objects in ranking order.
    """
    lines = {player: season_line(player, by_evening, rules) for player, by_evening in results.items() if by_evening}

    def ordered(ranked: bool) -> list[RankedRow[P]]:
        rows = [Row(p, line.total, line.tiebreaks) for p, line in lines.items() if line.ranked == ranked]
        return rank_rows(rows, chain, name_key=(lambda row: name_key(row.key)) if name_key else None)

    placed = [
        replace(lines[row.key], place=row.place, shared=row.shared, ahead_by=row.below_by) for row in ordered(True)
    ]
    return placed + [lines[row.key] for row in ordered(False)]


def season_is_final(planned_evenings: int, evenings_confirmed: Sequence[bool]) -> bool:
    """True when all ``planned_evenings`` evenings belong to the season and every one is
    confirmed (every session drawn, every round confirmed); otherwise the ranking is provisional."""
    return len(evenings_confirmed) >= planned_evenings and all(evenings_confirmed)
