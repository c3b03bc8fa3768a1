"""The draw's input: the players present, what happened earlier in the evening
(:class:`History`) and the organiser's wishes (:class:`DrawWishes`); checked
(:class:`DrawError`) and translated to player indices (:func:`indexed_input`) for both draws of
:mod:`scoring.domain.draw`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from scoring.domain.errors import DomainError, gettext_noop

PlayerId = int
"""A player's id. The app passes database ids; any hashable, mutually sortable value works."""

# Subtracted from a stand-in's rounds sat out: stand-ins sit out before any ranked player.
_STAND_IN_FIRST = 1 << 20

Pair = tuple[int, int]  # two players (indices), the smaller first: see sorted_pair
Team = tuple[int, ...]  # a team of two or three players (indices)


class DrawError(DomainError):
    """The draw cannot be made with the given input (too few players, duplicate ids, ...).

    Attributes:
        player_ids: for errors about particular players, placeholder name -> the player ids
            it stands for (e.g. ``{"players": (3, 7), "partners": (5,)}``). The message's
            placeholders hold the ids joined by ", "; the app replaces them by names.
    """

    def __init__(
        self,
        message: str,
        code: str = "invalid",
        player_ids: Mapping[str, Sequence[PlayerId]] | None = None,
        **params: object,
    ) -> None:
        self.player_ids = dict(player_ids or {})
        for key, ids in self.player_ids.items():
            params.setdefault(key, ", ".join(str(p) for p in ids))
        super().__init__(message, code=code, **params)


@dataclass(frozen=True)
class History:
    """What happened earlier this evening, as far as the draw cares.

    Attributes:
        partners: every pair of players who have been partners (a set of 2-element sets);
            with teams of three, every two players who were in one team.
        opponents: pair of players -> number of rounds in which they sat at one table as
            opponents.
        sitouts: player -> rounds sat out so far; a whole-session sit-out counts as all rounds
            of that session.

    Players missing from a mapping count as 0; entries for players who are not present are
    ignored. Build it with :func:`scoring.domain.draw.history_after`; treat the mappings as
    read-only.
    """

    partners: frozenset[frozenset[PlayerId]] = frozenset()
    opponents: Mapping[frozenset[PlayerId], int] = field(default_factory=dict)
    sitouts: Mapping[PlayerId, int] = field(default_factory=dict)


class DrawWishes(TypedDict, total=False):
    """The organiser's optional wishes, as keyword arguments of a draw (see
    :func:`scoring.domain.draw.draw_session`)."""

    forbidden: Iterable[Collection[PlayerId]]
    clubs: Mapping[PlayerId, str] | None
    stand_ins: Collection[PlayerId]


@dataclass(frozen=True)
class DrawInput:
    """A draw's input in player indices (``present`` sorted; index ``i`` is ``present[i]``).

    ``sitouts`` are the rounds sat out, lowered by :data:`_STAND_IN_FIRST` for stand-ins;
    ``partnered`` and ``barred`` are index pairs; ``met`` counts meetings as opponents;
    ``club`` is each player's club key, or ``None`` without "mix clubs".
    """

    present: list[PlayerId]
    sitouts: list[int]
    partnered: set[Pair]
    met: dict[Pair, int]
    barred: set[Pair]
    club: list[str] | None


def indexed_input(
    players: Sequence[PlayerId],
    history: History,
    rounds: int,
    table_size: int,
    *,
    forbidden: Iterable[Collection[PlayerId]] = (),
    clubs: Mapping[PlayerId, str] | None = None,
    stand_ins: Collection[PlayerId] = (),
) -> DrawInput:
    """Validate the input (:func:`_validated_players`) and translate it to player indices."""
    present = _validated_players(players, rounds, table_size)
    index = {player: i for i, player in enumerate(present)}
    standing_in = set(stand_ins)
    return DrawInput(
        present=present,
        sitouts=[history.sitouts.get(p, 0) - (_STAND_IN_FIRST if p in standing_in else 0) for p in present],
        partnered=_index_pairs(history.partners, index),
        met=_index_pair_counts(history.opponents, index),
        barred=_index_pairs(frozenset(frozenset(pair) for pair in forbidden), index),
        club=None if clubs is None else [_club_key(clubs.get(player, "")) for player in present],
    )


_TOO_FEW_PLAYERS = {
    4: gettext_noop("At least 4 players are needed for one table; %(count)s are checked in."),
    6: gettext_noop("At least 6 players are needed for one table of six; %(count)s are checked in."),
}


def _validated_players(players: Sequence[PlayerId], rounds: int, table_size: int = 4) -> list[PlayerId]:
    """Check the input and return the players sorted (``table_size``: 4, or 6 for teams of three)."""
    counts = Counter(players)
    duplicates = sorted(player for player, count in counts.items() if count > 1)
    if duplicates:
        raise DrawError(
            gettext_noop("Player %(player)s is checked in more than once."),
            code="duplicate_player",
            player=duplicates[0],
        )
    if len(counts) < table_size:
        raise DrawError(
            _TOO_FEW_PLAYERS[table_size],
            code="too_few_players",
            count=len(counts),
        )
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise DrawError(
            gettext_noop("A session needs at least 1 round, not %(rounds)s."),
            code="invalid_rounds",
            rounds=rounds,
        )
    return sorted(counts)


def sorted_pair(a: int, b: int) -> Pair:
    """Two players (indices) as a :data:`Pair`, the smaller first."""
    return (a, b) if a < b else (b, a)


def _index_pairs(pairs: frozenset[frozenset[PlayerId]], index: Mapping[PlayerId, int]) -> set[Pair]:
    """The pairs among present players, as sorted index pairs (order-independent)."""
    result = set()
    for pair in pairs:
        members = [index[p] for p in pair if p in index]
        if len(members) == 2 and len(pair) == 2:
            result.add(sorted_pair(members[0], members[1]))
    return result


def _index_pair_counts(counts: Mapping[frozenset[PlayerId], int], index: Mapping[PlayerId, int]) -> dict[Pair, int]:
    """The counts among present players, keyed by sorted index pairs (order-independent)."""
    result: dict[Pair, int] = {}
    for pair, count in counts.items():
        members = [index[p] for p in pair if p in index]
        if len(members) == 2 and len(pair) == 2 and count > 0:
            key = sorted_pair(members[0], members[1])
            result[key] = result.get(key, 0) + count
    return result


def _club_key(name: str) -> str:
    """Club names compare ignoring case and spacing."""
    return " ".join(str(name).split()).casefold()


def same_club(club: Sequence[str], a: int, b: int) -> int:
    """1 if players ``a`` and ``b`` (indices) belong to the same known club, else 0."""
    return int(bool(club[a]) and club[a] == club[b])
