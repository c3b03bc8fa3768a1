"""Tie-breaks: equal totals, then a chain of criteria the organiser orders.

Source: docs/rules.md, "Equal totals", our decision: equal totals share a place (1, 2, 2, 4)
unless the organiser chooses a tie-break chain, ordered from: best single session, most deals
won, most matchsticks from daring and striking, fewest rounds sat out.

Pure Python, no Django. The criteria's values are passed in per row, so an evening ranking and a
season ranking can both use :func:`rank_rows` with their own figures. What each criterion means
for an evening (the Django layer computes it, ``scoring/selectors/ranking.py``):

- ``best_session``: the player's highest session total in matchsticks (sit-out credit included,
  by the same rule as the total; a Fraction). Higher is better.
- ``deals_won``: the number of deals the player's team won (reached five tricks). Higher is better.
- ``bonus_sticks``: the matchsticks from daring and striking of the player's teams (the bonus part
  of every deal the player played, credited to both partners; no sit-out credit). Higher is better.
- ``fewest_sitouts``: the number of rounds the player sat out. Lower is better.

The default chain is empty: equal totals share a place, as before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Generic, TypeVar

from scoring.domain.errors import DomainError, gettext_noop

__all__ = [
    "CHAIN_SEPARATOR",
    "Criterion",
    "RankedRow",
    "Row",
    "chain_text",
    "criteria_used",
    "parse_chain",
    "rank_rows",
]

#: Stored form of a chain: the criteria's values joined by this, e.g. ``"best_session,deals_won"``.
CHAIN_SEPARATOR = ","

Number = int | Fraction


class Criterion(Enum):
    """One tie-break criterion; the value is stable (stored in the database and in exports)."""

    BEST_SESSION = "best_session"
    DEALS_WON = "deals_won"
    BONUS_STICKS = "bonus_sticks"
    FEWEST_SITOUTS = "fewest_sitouts"

    @property
    def lower_is_better(self) -> bool:
        """True for ``fewest_sitouts``: the smaller value ranks first."""
        return self is Criterion.FEWEST_SITOUTS

    @property
    def label(self) -> str:
        """English name of the criterion (the Django layer translates, see ``scoring/web/tiebreak_labels.py``)."""
        return _LABELS[self]

    @property
    def column(self) -> str:
        """English short column heading for rankings and exports."""
        return _COLUMNS[self]

    def sort_key(self, value: Number) -> Number:
        """A key that sorts the better value first (ascending)."""
        return value if self.lower_is_better else -value


_LABELS = {
    Criterion.BEST_SESSION: "best single session",
    Criterion.DEALS_WON: "most deals won",
    Criterion.BONUS_STICKS: "most matchsticks from daring and striking",
    Criterion.FEWEST_SITOUTS: "fewest rounds sat out",
}
_COLUMNS = {
    Criterion.BEST_SESSION: "Best session",
    Criterion.DEALS_WON: "Deals won",
    Criterion.BONUS_STICKS: "Daring and striking",
    Criterion.FEWEST_SITOUTS: "Sat out",
}


def parse_chain(text: str | None) -> tuple[Criterion, ...]:
    """The chain stored as text (``"best_session,deals_won"``), in order; ``""``/None is no chain.

    Raises:
        DomainError: code ``unknown_criterion`` for a value that is no criterion, code
            ``repeated_criterion`` for a criterion named twice.
    """
    chain: list[Criterion] = []
    for part in (text or "").split(CHAIN_SEPARATOR):
        part = part.strip()
        if not part:
            continue
        try:
            criterion = Criterion(part)
        except ValueError:
            raise DomainError(
                gettext_noop("Please choose the tie-breaks from the list."), code="unknown_criterion"
            ) from None
        if criterion in chain:
            raise DomainError(gettext_noop("Each tie-break can be chosen only once."), code="repeated_criterion")
        chain.append(criterion)
    return tuple(chain)


def chain_text(chain: Iterable[Criterion]) -> str:
    """The stored text of a chain (inverse of :func:`parse_chain`)."""
    return CHAIN_SEPARATOR.join(criterion.value for criterion in chain)


K = TypeVar("K", bound=Hashable)  # what identifies a row: a player id, a name, an index


@dataclass(frozen=True)
class Row(Generic[K]):
    """One player to rank.

    Attributes:
        key: anything that identifies the player (a player id, a score object).
        total: matchsticks (or season points), higher is better.
        values: the value of each criterion of the chain (ints or Fractions); criteria not in the
            chain may be missing.
    """

    key: K
    total: Number
    values: Mapping[Criterion, Number] = field(default_factory=dict)


@dataclass(frozen=True)
class RankedRow(Generic[K]):
    """One line of the ranking.

    Attributes:
        row: the input row.
        place: 1-based; rows equal on the total and every criterion of the chain share it (1, 2, 2, 4).
        shared: another row has the same place.
        above_by: the criterion that put the previous line ahead of this one although their totals
            are equal; None when the totals differ, the place is shared, or this is the first line.
        below_by: the criterion by which this line is ahead of the next one with an equal total
            (the next line's ``above_by``); None otherwise.
    """

    row: Row[K]
    place: int
    shared: bool
    above_by: Criterion | None = None
    below_by: Criterion | None = None

    @property
    def key(self) -> K:
        return self.row.key


def _separating(chain: Sequence[Criterion], upper: Row, lower: Row) -> Criterion | None:
    """The first criterion of the chain on which two rows with equal totals differ."""
    for criterion in chain:
        if upper.values[criterion] != lower.values[criterion]:
            return criterion
    return None


def rank_rows(
    rows: Sequence[Row[K]], chain: Sequence[Criterion] = (), name_key: Callable[[Row[K]], object] | None = None
) -> list[RankedRow[K]]:
    """Order rows by total (highest first), then by the chain, and give places.

    Args:
        rows: the players to rank.
        chain: criteria in the organiser's order; empty (the default) means equal totals share a
            place.
        name_key: optional function Row -> sort key for rows that still share a place (e.g. the
            name); it never changes a place.

    Returns:
        One :class:`RankedRow` per row, in ranking order. Rows separated by the chain get
        consecutive places and say which criterion separated them; rows equal on the total and on
        every criterion share a place, and the next place skips (1, 2, 2, 4).

    Raises:
        DomainError: code ``missing_value`` when a row lacks the value of a chain criterion.
    """
    chain = tuple(chain)
    for row in rows:
        for criterion in chain:
            if criterion not in row.values:
                raise DomainError("No value for the tie-break %(value)s.", code="missing_value", value=criterion.label)

    def rank_key(row: Row) -> tuple:
        return (-Fraction(row.total), *(c.sort_key(Fraction(row.values[c])) for c in chain))

    ordered = sorted(rows, key=lambda row: (rank_key(row), name_key(row) if name_key else 0))
    keys = [rank_key(row) for row in ordered]
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    how_many = Counter(places)
    lines = []
    for index, row in enumerate(ordered):
        above = below = None
        if index and places[index] != places[index - 1] and ordered[index - 1].total == row.total:
            above = _separating(chain, ordered[index - 1], row)
        nxt = index + 1
        if nxt < len(ordered) and places[nxt] != places[index] and ordered[nxt].total == row.total:
            below = _separating(chain, row, ordered[nxt])
        shared = how_many[places[index]] > 1
        lines.append(RankedRow(row=row, place=places[index], shared=shared, above_by=above, below_by=below))
    return lines


def criteria_used(lines: Sequence[RankedRow], chain: Sequence[Criterion]) -> tuple[Criterion, ...]:
    """The part of the chain that was looked at: for every two neighbours with equal totals the
    criteria up to the one that separated them (all of the chain when none did). A ranking shows
    these columns; none when no two totals are equal (the chain decided nothing).

    Args:
        lines: :func:`rank_rows` output, in ranking order.
        chain: the chain it was ranked with.
    """
    depth = 0
    for upper, lower in zip(lines, lines[1:], strict=False):
        if upper.row.total != lower.row.total:
            continue
        by = upper.below_by
        depth = max(depth, chain.index(by) + 1 if by is not None else len(chain))
    return tuple(chain[:depth])
