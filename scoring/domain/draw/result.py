"""What a draw gives: the partnerships, sit-outs and tables of one session
(:class:`SessionDraw`), the same for teams of two and of three, and how a played session is
folded into the evening's :class:`~scoring.domain.draw.input.History` (:func:`history_after`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from scoring.domain.draw.formation import Formation
from scoring.domain.draw.input import History, PlayerId
from scoring.domain.draw.schedule import Schedule

_T = TypeVar("_T")


@dataclass(frozen=True)
class TableDraw:
    """One table in one round.

    Attributes:
        number: 1-based table number, 1..T within the round.
        team_a: index into :attr:`SessionDraw.partnerships` (``team_a < team_b``).
        team_b: index into :attr:`SessionDraw.partnerships`.
    """

    number: int
    team_a: int
    team_b: int


@dataclass(frozen=True)
class RoundDraw:
    """The seating of one round.

    Attributes:
        number: 1-based round number within the session.
        tables: the tables, numbered 1..T in this order.
        sitout_partnership: index into :attr:`SessionDraw.partnerships` of the partnership
            that sits out this round, or ``None``.
    """

    number: int
    tables: tuple[TableDraw, ...]
    sitout_partnership: int | None


@dataclass(frozen=True)
class SessionDraw:
    """The draw of one session.

    The same shape serves teams of two (:func:`scoring.domain.draw.draw_session`) and teams of
    three (:func:`scoring.domain.draw.draw_session_threes`, six-handed Bräus).

    Attributes:
        partnerships: the partnerships (teams), each a sorted tuple of player ids: 2 players,
            or 3 for teams of three; partnership number ``i + 1`` is ``partnerships[i]``.
            Sorted by player ids.
        sitout_players: the players who sit out the whole session, sorted: 0 or 1 with teams
            of two (odd number of players), 0, 1 or 2 with teams of three (``n % 3``).
        rounds: the rounds of the session, in order.
    """

    partnerships: tuple[tuple[PlayerId, ...], ...]
    sitout_players: tuple[PlayerId, ...]
    rounds: tuple[RoundDraw, ...]

    @property
    def sitout_player(self) -> PlayerId | None:
        """The first (with teams of two: the only) whole-session sit-out player, or ``None``."""
        return self.sitout_players[0] if self.sitout_players else None


def session_draw(present: Sequence[PlayerId], formation: Formation, schedule: Schedule) -> SessionDraw:
    """The :class:`SessionDraw` of a formation and its table schedule (indices into ``present``)."""
    round_draws = []
    for number, tables in enumerate(schedule, start=1):
        sitout = formation.cycle[(number - 1) % len(formation.cycle)] if formation.byes else None
        round_draws.append(
            RoundDraw(
                number=number,
                tables=tuple(
                    TableDraw(number=t, team_a=a, team_b=b) for t, (a, b) in enumerate(sorted(tables), start=1)
                ),
                sitout_partnership=sitout,
            )
        )
    return SessionDraw(
        partnerships=tuple(tuple(present[i] for i in team) for team in formation.teams),
        sitout_players=tuple(present[i] for i in formation.sitters),
        rounds=tuple(round_draws),
    )


def pairs_within(team: Sequence[_T]) -> list[tuple[_T, _T]]:
    """Every two players of a team, in team order: one pair for two players, three for three."""
    return [(a, b) for k, a in enumerate(team) for b in team[k + 1 :]]


def history_after(history: History, draw: SessionDraw) -> History:
    """Fold a drawn (and played) session into the evening's history.

    Works for teams of two and of three. Adds every pair of players within one of the
    session's partnerships to ``partners`` (one pair for a team of two, three for a team of
    three); for every round and table adds 1 to ``opponents`` for each pair of players in
    opposite teams (4 pairs at a table of four, 9 at a table of six); adds the number of rounds
    to each whole-session sit-out player's ``sitouts`` and 1 per round to every player of the
    round's sit-out partnership. Returns a new :class:`History`; the input is not changed.
    """
    partners = set(history.partners)
    for team in draw.partnerships:
        partners.update(frozenset(pair) for pair in pairs_within(team))
    opponents = dict(history.opponents)
    sitouts = dict(history.sitouts)
    for round_draw in draw.rounds:
        for table in round_draw.tables:
            for a in draw.partnerships[table.team_a]:
                for b in draw.partnerships[table.team_b]:
                    key = frozenset((a, b))
                    opponents[key] = opponents.get(key, 0) + 1
        if round_draw.sitout_partnership is not None:
            for player in draw.partnerships[round_draw.sitout_partnership]:
                sitouts[player] = sitouts.get(player, 0) + 1
    for player in draw.sitout_players:
        sitouts[player] = sitouts.get(player, 0) + len(draw.rounds)
    return History(partners=frozenset(partners), opponents=opponents, sitouts=sitouts)
