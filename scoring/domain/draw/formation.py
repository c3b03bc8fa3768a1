"""The teams of one session, as far as both draws form them alike: the sit-out rotation
(:func:`sitout_groups`), the numbered teams and sit-out cycle (:class:`Formation`), the error
that names the players when the wishes "not together" leave no draw (:func:`partnering_error`),
and who met whom as opponents before (:func:`opponents_seen`). How the teams are chosen is each
draw's own: :mod:`scoring.domain.draw.pairs` and :mod:`scoring.domain.draw.threes`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.domain.draw.input import DrawError, Pair, PlayerId, Team
from scoring.domain.errors import gettext_noop

PLAN_OPPONENTS_MAX_PLAYERS = 120
"""Largest group of players whose partner draw also looks at the opponents met before.

Above it the local search would have to weigh every pair (1000 players: about 7 s instead of
0.02 s), and with that many players repeated opponents hardly occur.
"""


@dataclass(frozen=True)
class Formation:
    """Partnerships (teams) of one session, in player indices.

    ``sitters`` sit out the whole session. ``teams`` are sorted index tuples (pairs, or
    triples for teams of three), sorted. ``cycle`` is a permutation of the team indices:
    with ``byes`` the team ``cycle[r % len(cycle)]`` sits out round ``r`` (0-based), and the
    teams with the fewest sit-outs come first; it also numbers the round-robin candidate.
    """

    sitters: tuple[int, ...]
    teams: Sequence[Team]
    cycle: list[int]
    byes: bool


def _rank_by_sitouts(players: Sequence[int], sitouts: Sequence[int], rng: random.Random) -> list[int]:
    """Players ordered by rounds sat out, fewest first; ties in random order."""
    ranking = list(players)
    rng.shuffle(ranking)
    ranking.sort(key=lambda p: sitouts[p])  # stable: keeps the random order within ties
    return ranking


@dataclass(frozen=True)
class SitoutGroups:
    """Who sits out the session, and the two groups that are formed into teams among themselves.

    ``sitters`` sit out the whole session; ``extra`` are the players of the teams that sit out
    ``repeat + 1`` rounds this session, ``other`` those of the teams that sit out ``repeat``
    rounds (0 without byes).
    """

    sitters: tuple[int, ...]
    extra: list[int]
    other: list[int]
    byes: bool
    repeat: int


def sitout_groups(
    size: int, sitouts: Sequence[int], rounds: int, rng: random.Random, team_size: int = 2
) -> SitoutGroups:
    """Apply the sit-out rotation: the fewest rounds sat out sit out first, ties at random.

    ``size % team_size`` players sit out the whole session; with an odd number of teams one
    team sits out each round (``byes``).
    """
    ranking = _rank_by_sitouts(range(size), sitouts, rng)
    spare = size % team_size
    playing = ranking[spare:]
    team_count = len(playing) // team_size
    byes = team_count % 2 == 1
    # With byes every team sits out rounds // team_count times and rounds % team_count
    # teams once more; those are formed from the players with the fewest sit-outs.
    repeat, extra = divmod(rounds, team_count) if byes else (0, 0)
    cut = team_size * extra
    return SitoutGroups(tuple(ranking[:spare]), playing[:cut], playing[cut:], byes, repeat)


def numbered_formation(
    sitters: tuple[int, ...],
    extra_teams: Sequence[Team],
    other_teams: Sequence[Team],
    byes: bool,
    rng: random.Random,
) -> Formation:
    """The formation of these teams: sorted, with the ``extra_teams`` first in the sit-out
    cycle (each group in random order)."""
    teams = sorted([*extra_teams, *other_teams])
    position = {team: i for i, team in enumerate(teams)}
    first = [position[team] for team in extra_teams]
    rest = [position[team] for team in other_teams]
    rng.shuffle(first)
    rng.shuffle(rest)
    return Formation(sitters=sitters, teams=teams, cycle=first + rest, byes=byes)


def partnering_error(present: Sequence[PlayerId], barred: set[Pair], team_size: int = 2) -> DrawError:
    """Why the forbidden pairs leave no draw, naming the players concerned.

    Looks for the simplest reason first: a player nobody may partner; then a group of players
    who may only partner a smaller group (with an odd number, one of them could sit out; with
    teams of three every team of such a player takes two of the smaller group, and ``n % 3``
    could sit out); otherwise names every player with a wish.
    """
    size = len(present)
    allowed = {i: set(range(size)) - {i} for i in range(size)}
    for a, b in barred:
        allowed[a].discard(b)
        allowed[b].discard(a)
    spare = size % team_size  # with an odd number one player sits out anyway
    lonely = [i for i in range(size) if not allowed[i]]
    if len(lonely) > spare:
        return DrawError(
            gettext_noop(
                'Nobody may partner %(players)s: the wishes "not together" exclude every '
                "other player present. Please remove a wish or check in more players."
            ),
            code="partner_impossible",
            player_ids={"players": [present[i] for i in lonely]},
        )
    for i in sorted(range(size), key=lambda k: (len(allowed[k]), k)):
        partners = allowed[i]
        group = [k for k in range(size) if k not in partners and allowed[k] <= partners]
        if len(group) > len(partners) // (team_size - 1) + spare:
            return DrawError(
                gettext_noop(
                    '%(players)s may only partner %(partners)s: the wishes "not together" '
                    "leave too few partners for them. Please remove a wish or check in more "
                    "players."
                ),
                code="partners_too_few",
                player_ids={
                    "players": [present[k] for k in group],
                    "partners": [present[k] for k in sorted(partners)],
                },
            )
    wished = sorted({i for pair in barred for i in pair})
    return DrawError(
        gettext_noop(
            'The wishes "not together" leave no way to give every player a partner '
            "(players with a wish: %(players)s). Please remove a wish or check in more players."
        ),
        code="wishes_impossible",
        player_ids={"players": [present[i] for i in wished]},
    )


def opponents_seen(size: int, met: Mapping[Pair, int]) -> list[set[int]]:
    """For each player (index), the players met as opponents earlier in the evening."""
    seen: list[set[int]] = [set() for _ in range(size)]
    for a, b in met:
        seen[a].add(b)
        seen[b].add(a)
    return seen
