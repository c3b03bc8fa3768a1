"""The draw of one session (Durchgang): partnerships, sit-outs and the tables of every round.

Source: DOMAIN.md, "The Schwesing tournament format" and "Decisions where the sources are
silent". At the start of each session the present players are drawn into new random
partnerships of two that stay together for the session; in every round the partnerships are
matched in pairs at tables (two partnerships, four players); opponents change from round to
round.

What the draw guarantees, in this order of priority:

1. **Sit-outs rotate.** With an odd number of players one player sits out the whole session;
   if the players left are ``4k + 2``, one partnership sits out each round. Sit-outs are
   counted in rounds (a whole-session sit-out counts as ``rounds`` rounds) and are always
   given to the present players with the fewest rounds sat out so far, ties drawn at random.
   So nobody sits out a second time while another present player has not sat out at all. The
   partnerships that sit out in this session are formed from those players among themselves,
   and each of them sits out once per session (when there are fewer partnerships than rounds,
   every partnership sits out ``rounds // partnerships`` times and the ones with the fewest
   sit-outs once more).
2. **No repeated partner** within the evening whenever the players allow it. The partnerships
   are a minimum-cost perfect matching in which a repeated partner costs heavily; among
   equally good matchings the random source decides. Of the possible draws, one is preferred
   that leaves a repeat-free draw (under the same sit-out rules) for one further session of
   the same players, so that a greedy choice does not paint later sessions into a corner.
   Among repeat-free partnerships (up to :data:`PLAN_OPPONENTS_MAX_PLAYERS` players) those
   are preferred whose two players have met few different opponents between them, so that
   each partnership has many fresh opponents left: this plans ahead for the tables (measured
   over 200 evenings of 26 players, 3 sessions of 4 rounds: 1.8 instead of 3.0 repeated
   opponents per player; 32 players 0.8 instead of 2.2; 40 players 0.1 instead of 1.0).
3. **No repeated opponents within the session**: two partnerships never meet twice in one
   session when the number of rounds allows it (always with at least five playing
   partnerships and the default four rounds). When repeats are unavoidable (for example four
   partnerships over four rounds) they are spread evenly: the draw keeps the sum over pairs
   of partnerships of ``meetings * (meetings - 1) / 2`` small.
4. **Few repeated opponents over the evening**: then repeated meetings of individual players
   as opponents (counting the earlier sessions of the evening) are kept few. A meeting of two
   players who met ``c`` times before costs ``c * c``, so a third meeting is avoided much more
   strongly than a second one (measured: no pair meets three times in three sessions from
   about 24 players on; from about 48 players nobody meets an opponent twice). How far this
   is from the fewest possible, and why, is reported by :mod:`scoring.domain.fairness`.

The organiser's wishes, all optional (keyword arguments of :func:`draw_session`):

- **Not together** (``forbidden``): pairs of players who must never be partners, e.g. a
  married couple. A hard constraint: those pairs are left out of the matching. If they make
  the usual sit-out order impossible (say the two players who must sit out together are such
  a pair), the order is bent as little as possible (:func:`_bent_formation`); if no draw at
  all avoids them, :class:`DrawError` names the players.
- **Mix clubs** (``clubs``): partners from the same club cost more than nothing but less than
  a repeated partner; opponents from the same club at a table cost less than any repeated
  opponent. With three clubs of equal size every table then has one same-club pair of
  opponents, the least possible (two partnerships of two clubs each always share a club).
- **Stand-ins** (``stand_ins``, Ersatzspieler): play but are not ranked; they sit out before
  any ranked player, so that a stand-in never takes a ranked player's seat.

How: each round is a minimum-cost perfect matching of the playing partnerships. Up to
:data:`EXACT_MATCHING_MAX_NODES` nodes it is solved exactly with networkx's
``max_weight_matching`` (weights: a large constant minus the cost, plus a random jitter that
is smaller than one unit of cost, so the jitter only breaks ties). Above that the blossom
algorithm is too slow (about 1.3 s for 200 nodes), so a random perfect matching is improved by
exchanging partners between pairs of pairs until no exchange lowers the cost (2-opt local
search). With many players almost every pairing is free of repeats, so this reaches cost zero.
Because a greedy round-by-round choice can get stuck in a late round, several randomised
schedules are built and the best is kept; in addition a classic round-robin schedule (circle
method) with randomly numbered partnerships is always a candidate, so a session without
repeated meetings is found whenever one exists for the drawn sit-out order.

Limitations (measured while writing this module):

- Sit-out rotation comes before new partners. In long evenings with an odd number of players
  or ``4k + 2`` players, the players who must sit out together may already have been partners:
  measured over 40 seeds, 10 players repeat a partner in the 5th session in 4 seeds, 6 players
  in 2 seeds; 7 players in 6 seeds by the 6th. With ``4k`` players, ``n - 1`` sessions give
  every player each other player as partner exactly once (8, 12 and 16 players: 40 of 40
  seeds). With the default three sessions no partner was repeated in any measured case (4 to
  60 players with 30 seeds each, and the random cases of the property tests up to 120).
- Above :data:`EXACT_MATCHING_MAX_NODES` players (partnerships) the matching is a local
  optimum, not proven optimal. It only matters where repeats of individual opponents are
  unavoidable, which with that many players they are not in a normal evening.
- The partner draw looks at who met as opponents before only up to
  :data:`PLAN_OPPONENTS_MAX_PLAYERS` players (above, repeats are rare anyway and the local
  search must stay fast). It plans one session ahead at most: the draw is greedy over the
  sessions, so it can stay above the lower bound of :mod:`scoring.domain.fairness` (26
  players: 1.8 repeated opponents per player on average against a bound of 0).
- Session 1 of a seed is drawn exactly as before the wishes and the opponent planning were
  added; later sessions of an old seed may differ (the partner draw changed).

Determinism: all randomness comes from the ``random.Random`` passed in, players are processed
in sorted order, and nothing depends on the iteration order of sets or on string hashing, so
a stored seed reproduces a draw exactly on every Python run, whatever ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, TypeVar

import networkx as nx

from scoring.domain.errors import DomainError, gettext_noop

__all__ = [
    "EXACT_MATCHING_MAX_NODES",
    "PLAN_OPPONENTS_MAX_PLAYERS",
    "DrawError",
    "History",
    "PlayerId",
    "RoundDraw",
    "SessionDraw",
    "TableDraw",
    "DrawWishes",
    "draw_session",
    "history_after",
    "pairs_within",
]

PlayerId = int
"""A player's id. The app passes database ids; any hashable, mutually sortable value works."""

EXACT_MATCHING_MAX_NODES = 48
"""Largest matching (in nodes: players or partnerships) solved exactly with networkx.

Measured with networkx 3.6.1: a complete graph of 50 nodes takes about 0.03 s, 100 nodes
0.24 s, 200 nodes 1.3 s. Larger matchings use the local search described in the module text.
"""

PLAN_OPPONENTS_MAX_PLAYERS = 120
"""Largest group of players whose partner draw also looks at the opponents met before.

Above it the local search would have to weigh every pair (1000 players: about 7 s instead of
0.02 s), and with that many players repeated opponents hardly occur.
"""

# Random jitter added to exact matching weights; one unit of cost outweighs all jitter.
_JITTER = 1024
# Randomised attempts at the partnerships (stops at the first attempt without any defect).
_PARTNER_ATTEMPTS_EXACT = 24
_PARTNER_ATTEMPTS_LOCAL = 4
# Random tie orders tried when looking one session ahead.
_LOOKAHEAD_TRIES = 8
# Upper limit of improvement passes of the local search.
_LOCAL_SEARCH_MAX_PASSES = 100
# Subtracted from a stand-in's rounds sat out: stand-ins sit out before any ranked player.
_STAND_IN_FIRST = 1 << 20
# Cost of a forbidden pair in the local search (an exact matching leaves the edge out).
_FORBIDDEN = 1 << 60

_T = TypeVar("_T")
_Pair = tuple[int, int]
_Team = tuple[int, ...]  # a team of two or three players (indices)
_Schedule = list[list[_Pair]]


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
        partners: every pair of players who have been partners (a set of 2-element sets).
        opponents: pair of players -> number of rounds in which they sat at one table as
            opponents.
        sitouts: player -> rounds sat out so far; a whole-session sit-out counts as all rounds
            of that session.

    Players missing from a mapping count as 0; entries for players who are not present are
    ignored. Build it with :func:`history_after`; treat the mappings as read-only.
    """

    partners: frozenset[frozenset[PlayerId]] = frozenset()
    opponents: Mapping[frozenset[PlayerId], int] = field(default_factory=dict)
    sitouts: Mapping[PlayerId, int] = field(default_factory=dict)


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

    The same shape serves teams of two (:func:`draw_session`) and teams of three
    (:func:`scoring.domain.draw_threes.draw_session_threes`, six-handed Bräus).

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


def draw_session(
    players: Sequence[PlayerId],
    history: History,
    rounds: int,
    rng: random.Random,
    *,
    forbidden: Iterable[Collection[PlayerId]] = (),
    clubs: Mapping[PlayerId, str] | None = None,
    stand_ins: Collection[PlayerId] = (),
) -> SessionDraw:
    """Draw partnerships, sit-outs and tables of one session.

    Args:
        players: the players present for this session, in any order (the order does not
            change the draw).
        history: what happened earlier this evening (:class:`History()` for the first session).
        rounds: number of rounds in the session, at least 1 (default format: 4).
        rng: the only random source used; the same seed and input give the same draw.
        forbidden: pairs of players who must never be partners (the organiser's wish "not
            together", e.g. a married couple). A hard constraint; pairs with an absent player
            are ignored.
        clubs: player -> club. When given, the draw mixes clubs: partners from the same club
            cost extra (after repeated partners), and so do opponents from the same club at a
            table (after every repeated opponent). Empty club names never match.
        stand_ins: players who fill a table but are not ranked (Ersatzspieler). They are drawn
            like everybody else, except that they sit out before any ranked player.

    Returns:
        The :class:`SessionDraw`. Every player appears exactly once per round: at a table, in
        the round's sit-out partnership, or as the session's sit-out player.

    Raises:
        DrawError: ``duplicate_player`` if an id occurs twice, ``too_few_players`` with fewer
            than 4 players, ``invalid_rounds`` if ``rounds`` is not a whole number >= 1,
            ``partner_impossible`` or ``partners_too_few`` or ``wishes_impossible`` if the
            ``forbidden`` pairs leave no way to give every playing player a partner (the
            error's :attr:`DrawError.player_ids` names the players concerned).

    See the module documentation for the rules and how they are met.
    """
    given = _indexed_input(players, history, rounds, 4, forbidden=forbidden, clubs=clubs, stand_ins=stand_ins)
    present, sitouts, partnered = given.present, given.sitouts, given.partnered
    met, barred, club = given.met, given.barred, given.club

    seen = _opponents_seen(len(present), met) if met else None
    formation = _form_partnerships(len(present), sitouts, partnered, rounds, rng, barred, club, seen)
    if formation is None:
        raise _partnering_error(present, barred)
    schedule = _schedule_rounds(formation.teams, formation.cycle, formation.byes, rounds, met, rng, club)
    return _session_draw(present, formation, schedule)


def _session_draw(present: Sequence[PlayerId], formation: _Formation, schedule: _Schedule) -> SessionDraw:
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


# --- input ---------------------------------------------------------------------------------------


class DrawWishes(TypedDict, total=False):
    """The organiser's optional wishes, as keyword arguments of a draw (see :func:`draw_session`)."""

    forbidden: Iterable[Collection[PlayerId]]
    clubs: Mapping[PlayerId, str] | None
    stand_ins: Collection[PlayerId]


@dataclass(frozen=True)
class _Input:
    """A draw's input in player indices (``present`` sorted; index ``i`` is ``present[i]``).

    ``sitouts`` are the rounds sat out, lowered by :data:`_STAND_IN_FIRST` for stand-ins;
    ``partnered`` and ``barred`` are index pairs; ``met`` counts meetings as opponents;
    ``club`` is each player's club key, or ``None`` without "mix clubs".
    """

    present: list[PlayerId]
    sitouts: list[int]
    partnered: set[_Pair]
    met: dict[_Pair, int]
    barred: set[_Pair]
    club: list[str] | None


def _indexed_input(
    players: Sequence[PlayerId],
    history: History,
    rounds: int,
    table_size: int,
    *,
    forbidden: Iterable[Collection[PlayerId]] = (),
    clubs: Mapping[PlayerId, str] | None = None,
    stand_ins: Collection[PlayerId] = (),
) -> _Input:
    """Validate the input (:func:`_validated_players`) and translate it to player indices."""
    present = _validated_players(players, rounds, table_size)
    index = {player: i for i, player in enumerate(present)}
    standing_in = set(stand_ins)
    return _Input(
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


def _pair(a: int, b: int) -> _Pair:
    return (a, b) if a < b else (b, a)


def _index_pairs(pairs: frozenset[frozenset[PlayerId]], index: Mapping[PlayerId, int]) -> set[_Pair]:
    """The pairs among present players, as sorted index pairs (order-independent)."""
    result = set()
    for pair in pairs:
        members = [index[p] for p in pair if p in index]
        if len(members) == 2 and len(pair) == 2:
            result.add(_pair(members[0], members[1]))
    return result


def _index_pair_counts(counts: Mapping[frozenset[PlayerId], int], index: Mapping[PlayerId, int]) -> dict[_Pair, int]:
    """The counts among present players, keyed by sorted index pairs (order-independent)."""
    result: dict[_Pair, int] = {}
    for pair, count in counts.items():
        members = [index[p] for p in pair if p in index]
        if len(members) == 2 and len(pair) == 2 and count > 0:
            key = _pair(members[0], members[1])
            result[key] = result.get(key, 0) + count
    return result


# --- minimum-cost perfect matching ---------------------------------------------------------------


def _min_cost_matching(size: int, cost: Callable[[int, int], int | None], rng: random.Random) -> list[_Pair] | None:
    """A perfect matching of the nodes ``0..size-1`` (``size`` even) with small total cost.

    ``cost(i, j)`` (for ``i < j``) is a non-negative int, or ``None`` for a pair that must not
    be matched. Exact (networkx blossom) up to :data:`EXACT_MATCHING_MAX_NODES` nodes, 2-opt
    local search above; if the local search is left with a forbidden pair (only with many
    forbidden pairs), the exact algorithm decides. Ties between equally cheap matchings are
    broken by ``rng``. Returns sorted pairs ``(i, j)`` with ``i < j``, or ``None`` when the
    forbidden pairs leave no perfect matching.
    """
    if size <= EXACT_MATCHING_MAX_NODES:
        return _exact_matching(size, cost, rng)
    pairs = _local_search_matching(size, cost, rng)
    if pairs is None:
        return _exact_matching(size, cost, rng)
    return pairs


def _exact_matching(size: int, cost: Callable[[int, int], int | None], rng: random.Random) -> list[_Pair] | None:
    costs = {(i, j): cost(i, j) for i in range(size) for j in range(i + 1, size)}
    top = max((c for c in costs.values() if c is not None), default=0)
    # One unit of cost is worth more than the jitter of a whole matching.
    scale = _JITTER * (size // 2 + 1)
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    for (i, j), c in costs.items():
        if c is not None:
            graph.add_edge(i, j, weight=(top - c) * scale + 1 + rng.randrange(_JITTER))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = sorted(_pair(i, j) for i, j in matching)
    if len(pairs) * 2 != size:
        return None  # only possible with forbidden pairs
    return pairs


def _local_search_matching(size: int, cost: Callable[[int, int], int | None], rng: random.Random) -> list[_Pair] | None:
    def price(i: int, j: int) -> int:
        c = cost(i, j)
        return _FORBIDDEN if c is None else c

    order = list(range(size))
    rng.shuffle(order)
    pairs = [_pair(order[k], order[k + 1]) for k in range(0, size, 2)]
    costs = [price(a, b) for a, b in pairs]
    count = len(pairs)
    for _ in range(_LOCAL_SEARCH_MAX_PASSES):
        improved = False
        for i in range(count):
            if costs[i] == 0:
                continue
            start = rng.randrange(count)
            for offset in range(count):
                j = (start + offset) % count
                if j == i:
                    continue
                (a, b), (c, d) = pairs[i], pairs[j]
                before = costs[i] + costs[j]
                first = (_pair(a, c), _pair(b, d))
                second = (_pair(a, d), _pair(b, c))
                first_costs = (price(*first[0]), price(*first[1]))
                second_costs = (price(*second[0]), price(*second[1]))
                if sum(second_costs) < sum(first_costs):
                    first, first_costs = second, second_costs
                if sum(first_costs) < before:
                    pairs[i], pairs[j] = first
                    costs[i], costs[j] = first_costs
                    improved = True
                    if costs[i] == 0:
                        break
        if not improved:
            break
    if max(costs, default=0) >= _FORBIDDEN:
        return None
    return sorted(pairs)


# --- partnerships and sit-outs -------------------------------------------------------------------


@dataclass(frozen=True)
class _Formation:
    """Partnerships (teams) of one session, in player indices.

    ``sitters`` sit out the whole session. ``teams`` are sorted index tuples (pairs, or
    triples for teams of three), sorted. ``cycle`` is a permutation of the team indices:
    with ``byes`` the team ``cycle[r % len(cycle)]`` sits out round ``r`` (0-based), and the
    teams with the fewest sit-outs come first; it also numbers the round-robin candidate.
    """

    sitters: tuple[int, ...]
    teams: Sequence[_Team]
    cycle: list[int]
    byes: bool


def _rank_by_sitouts(players: Sequence[int], sitouts: Sequence[int], rng: random.Random) -> list[int]:
    """Players ordered by rounds sat out, fewest first; ties in random order."""
    ranking = list(players)
    rng.shuffle(ranking)
    ranking.sort(key=lambda p: sitouts[p])  # stable: keeps the random order within ties
    return ranking


@dataclass(frozen=True)
class _Groups:
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


def _sitout_groups(size: int, sitouts: Sequence[int], rounds: int, rng: random.Random, team_size: int = 2) -> _Groups:
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
    return _Groups(tuple(ranking[:spare]), playing[:cut], playing[cut:], byes, repeat)


def _form_partnerships(
    size: int,
    sitouts: Sequence[int],
    partnered: set[_Pair],
    rounds: int,
    rng: random.Random,
    barred: set[_Pair] | None = None,
    club: Sequence[str] | None = None,
    seen: Sequence[set[int]] | None = None,
) -> _Formation | None:
    """Choose the session's sit-out player, partnerships and sit-out partnerships.

    Several randomised attempts (ties in the sit-out ranking and the matching are drawn
    anew) until one has no repeated partner and leaves a repeat-free draw, under the same
    sit-out rules, for a further session of the same players; otherwise the best attempt is
    kept (fewest repeated partners first; with ``club``, fewest same-club partners last).

    ``barred`` pairs are never partners. If they make every attempt under the usual sit-out
    order impossible, :func:`_bent_formation` bends the order; ``None`` when no draw at all
    avoids them.
    """
    barred = barred or set()
    exact = size <= EXACT_MATCHING_MAX_NODES
    attempts = _PARTNER_ATTEMPTS_EXACT if exact else _PARTNER_ATTEMPTS_LOCAL
    probe_rng = random.Random(rng.getrandbits(64))
    blocked = partnered | barred
    best: tuple[tuple[int, ...], _Groups, list[_Pair], list[_Pair]] | None = None
    for _ in range(attempts):
        groups = _sitout_groups(size, sitouts, rounds, rng)
        extra_teams = _pair_up(groups.extra, partnered, rng, barred, club, seen)
        if extra_teams is None:
            continue
        other_teams = _pair_up(groups.other, partnered, rng, barred, club, seen)
        if other_teams is None:
            continue
        repeats = sum(team in partnered for team in extra_teams + other_teams)
        cornered = not _next_session_possible(
            size,
            _sitouts_after(sitouts, groups, rounds),
            blocked.union(extra_teams, other_teams),
            rounds,
            probe_rng,
        )
        score: tuple[int, ...] = (repeats, int(cornered))
        if club is not None:
            score += (sum(_same_club(club, a, b) for a, b in extra_teams + other_teams),)
        if best is None or score < best[0]:
            best = (score, groups, extra_teams, other_teams)
        if not any(score):
            break
    if best is None:
        return _bent_formation(size, sitouts, partnered, rounds, rng, barred, club)
    _, groups, extra_teams, other_teams = best
    return _numbered_formation(groups.sitters, extra_teams, other_teams, groups.byes, rng)


def _numbered_formation(
    sitters: tuple[int, ...],
    extra_teams: Sequence[_Team],
    other_teams: Sequence[_Team],
    byes: bool,
    rng: random.Random,
) -> _Formation:
    """The formation of these teams: sorted, with the ``extra_teams`` first in the sit-out
    cycle (each group in random order)."""
    teams = sorted([*extra_teams, *other_teams])
    position = {team: i for i, team in enumerate(teams)}
    first = [position[team] for team in extra_teams]
    rest = [position[team] for team in other_teams]
    rng.shuffle(first)
    rng.shuffle(rest)
    return _Formation(sitters=sitters, teams=teams, cycle=first + rest, byes=byes)


def _bent_formation(
    size: int,
    sitouts: Sequence[int],
    partnered: set[_Pair],
    rounds: int,
    rng: random.Random,
    barred: set[_Pair],
    club: Sequence[str] | None,
) -> _Formation | None:
    """Partnerships when the forbidden pairs rule out the usual sit-out order.

    One matching of all players (and, with an odd number, a "sit-out seat" node) without the
    ``barred`` pairs: the sit-out seat goes to a player with as few rounds sat out as the
    wishes allow (that outweighs everything else), then repeated partners, then same-club
    partners are kept few. With byes, the partnerships with the fewest rounds sat out sit out
    first. Returns ``None`` when no matching avoids the barred pairs.
    """
    odd = size % 2
    nodes = size + odd
    seat = size  # the sit-out seat, only with an odd number of players
    levels = {value: rank for rank, value in enumerate(sorted(set(sitouts)))}
    club_scale = nodes // 2 + 1
    pair_top = club_scale + 1 if club is not None else 1
    seat_scale = (nodes // 2) * pair_top + 1

    def cost(i: int, j: int) -> int | None:
        if j == seat:
            return levels[sitouts[i]] * seat_scale
        pair = (i, j)
        if pair in barred:
            return None
        c = int(pair in partnered)
        if club is not None:
            c = c * club_scale + _same_club(club, i, j)
        return c

    matching = _min_cost_matching(nodes, cost, rng)
    if matching is None:
        return None
    sitter = next((i for i, j in matching if j == seat), None)
    teams = sorted(pair for pair in matching if seat not in pair)
    team_count = len(teams)
    byes = (2 * team_count) % 4 == 2
    order = list(range(team_count))
    rng.shuffle(order)
    order.sort(key=lambda t: (max(sitouts[p] for p in teams[t]), sum(sitouts[p] for p in teams[t])))
    extra = divmod(rounds, team_count)[1] if byes else 0
    first, rest = order[:extra], order[extra:]
    rng.shuffle(first)
    rng.shuffle(rest)
    return _Formation(sitters=() if sitter is None else (sitter,), teams=teams, cycle=first + rest, byes=byes)


def _partnering_error(present: Sequence[PlayerId], barred: set[_Pair], team_size: int = 2) -> DrawError:
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


def _opponents_seen(size: int, met: Mapping[_Pair, int]) -> list[set[int]]:
    """For each player (index), the players met as opponents earlier in the evening."""
    seen: list[set[int]] = [set() for _ in range(size)]
    for a, b in met:
        seen[a].add(b)
        seen[b].add(a)
    return seen


def _club_key(name: str) -> str:
    """Club names compare ignoring case and spacing."""
    return " ".join(str(name).split()).casefold()


def _same_club(club: Sequence[str], a: int, b: int) -> int:
    """1 if players ``a`` and ``b`` (indices) belong to the same known club, else 0."""
    return int(bool(club[a]) and club[a] == club[b])


def _sitouts_after(sitouts: Sequence[int], groups: _Groups, rounds: int) -> list[int]:
    """Rounds sat out by each player after a session drawn with ``groups``."""
    after = list(sitouts)
    for sitter in groups.sitters:
        after[sitter] += rounds
    if groups.byes:
        for player in groups.extra:
            after[player] += groups.repeat + 1
        for player in groups.other:
            after[player] += groups.repeat
    return after


def _next_session_possible(
    size: int, sitouts: Sequence[int], used: set[_Pair], rounds: int, rng: random.Random
) -> bool:
    """Whether another session of the same players can avoid all partners in ``used``.

    Tries a few random tie orders of the sit-out rotation; a heuristic look-ahead of one
    session (it may miss a possible draw, never claims an impossible one).
    """
    for _ in range(_LOOKAHEAD_TRIES):
        groups = _sitout_groups(size, sitouts, rounds, rng)
        if _has_partnering(groups.extra, used) and _has_partnering(groups.other, used):
            return True
    return False


def _pair_up(
    players: Sequence[int],
    partnered: set[_Pair],
    rng: random.Random,
    barred: set[_Pair] | None = None,
    club: Sequence[str] | None = None,
    seen: Sequence[set[int]] | None = None,
) -> list[_Pair] | None:
    """Pair ``players`` (even count) avoiding earlier partners; returns sorted index pairs.

    ``barred`` pairs are never partners (``None`` if that leaves no pairing); with ``club``,
    same-club partners cost less than a repeated partner but more than nothing.
    """
    if not players:
        return []
    club_scale = len(players) // 2 + 1
    if len(players) > PLAN_OPPONENTS_MAX_PLAYERS:
        seen = None  # with that many players repeats are rare; keep the local search fast
    seen_scale = (len(players) // 2) * (len(seen) if seen else 0) + 1

    def cost(i: int, j: int) -> int | None:
        a, b = players[i], players[j]
        pair = _pair(a, b)
        if barred and pair in barred:
            return None
        c = int(pair in partnered)
        if club is not None:
            c = c * club_scale + _same_club(club, a, b)
        if seen is not None:
            c = c * seen_scale + len((seen[a] | seen[b]) - {a, b})
        return c

    matching = _min_cost_matching(len(players), cost, rng)
    if matching is None:
        return None
    return [_pair(players[i], players[j]) for i, j in matching]


def _has_partnering(players: Sequence[int], used: set[_Pair]) -> bool:
    """Whether ``players`` (even count) can be paired without any pair from ``used``."""
    size = len(players)
    if size == 0:
        return True
    ordered = sorted(players)
    members = set(ordered)
    degree = dict.fromkeys(ordered, size - 1)
    for a, b in used:
        if a in members and b in members:
            degree[a] -= 1
            degree[b] -= 1
    if min(degree.values()) * 2 >= size:
        return True  # Dirac: a Hamilton cycle, hence a perfect matching, exists
    graph = nx.Graph()
    graph.add_nodes_from(ordered)
    graph.add_edges_from((a, b) for k, a in enumerate(ordered) for b in ordered[k + 1 :] if (a, b) not in used)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == size


# --- tables --------------------------------------------------------------------------------------


def _greedy_attempts(playing_teams: int) -> int:
    """How many randomised round-by-round schedules to build (cost grows with size)."""
    if playing_teams <= 16:
        return 12
    if playing_teams <= EXACT_MATCHING_MAX_NODES:
        return 3
    return 2


def _schedule_rounds(
    teams: Sequence[_Team],
    cycle: Sequence[int],
    byes: bool,
    rounds: int,
    met: Mapping[_Pair, int],
    rng: random.Random,
    club: Sequence[str] | None = None,
) -> _Schedule:
    """The tables (pairs of team indices) of every round: the best of several candidates."""
    team_count = len(teams)
    playing = [[t for t in range(team_count) if not byes or t != cycle[r % team_count]] for r in range(rounds)]
    best: tuple[tuple[int, ...], _Schedule] | None = None
    for _ in range(_greedy_attempts(len(playing[0]))):
        schedule = _greedy_schedule(teams, playing, met, rng, club)
        score = _schedule_score(schedule, teams, met, club)
        if best is None or score < best[0]:
            best = (score, schedule)
        if not any(score):
            return schedule
    schedule = _round_robin_schedule(cycle, byes, rounds)
    score = _schedule_score(schedule, teams, met, club)
    assert best is not None
    if score < best[0]:
        best = (score, schedule)
    return best[1]


def _greedy_schedule(
    teams: Sequence[_Team],
    playing: Sequence[Sequence[int]],
    met: Mapping[_Pair, int],
    rng: random.Random,
    club: Sequence[str] | None = None,
) -> _Schedule:
    """Round by round: a minimum-cost matching given the meetings of the rounds before.

    With ``club``, every unit of the cost above outweighs all same-club opponents of the
    round, which come last.
    """
    meetings: dict[_Pair, int] = {}
    local: dict[_Pair, int] = {}
    top_met = max(met.values(), default=0)
    table_pairs = len(teams[0]) ** 2  # pairs of opponents at a table: 4, or 9 for teams of three
    schedule: _Schedule = []
    for round_index, nodes in enumerate(playing):
        # A session meeting outweighs all individual repeats of a round.
        session_weight = 1 + table_pairs * (len(nodes) // 2) * _repeat_cost(top_met + round_index)
        club_scale = 1 + table_pairs * (len(nodes) // 2)

        def cost(
            i: int,
            j: int,
            nodes: Sequence[int] = nodes,
            weight: int = session_weight,
            club_scale: int = club_scale,
        ) -> int:
            a, b = nodes[i], nodes[j]
            total = weight * meetings.get((a, b), 0)
            for x in teams[a]:
                for y in teams[b]:
                    key = _pair(x, y)
                    total += _repeat_cost(met.get(key, 0) + local.get(key, 0))
            if club is not None:
                total = total * club_scale + _table_clubs(club, teams[a], teams[b])
            return total

        matching = _min_cost_matching(len(nodes), cost, rng)
        assert matching is not None  # every pair of partnerships may meet
        tables = [(nodes[i], nodes[j]) for i, j in matching]
        for a, b in tables:
            meetings[(a, b)] = meetings.get((a, b), 0) + 1
            for x in teams[a]:
                for y in teams[b]:
                    key = _pair(x, y)
                    local[key] = local.get(key, 0) + 1
        schedule.append(tables)
    return schedule


def _round_robin_schedule(cycle: Sequence[int], byes: bool, rounds: int) -> _Schedule:
    """The circle-method round robin, teams numbered by ``cycle``.

    With byes a dummy team is added; in round ``r`` it meets ``cycle[r % len(cycle)]``, which
    is exactly the team that sits out. No two teams meet twice in the first ``nodes - 1``
    rounds; later rounds repeat the cycle, which spreads unavoidable repeats evenly.
    """
    team_count = len(cycle)
    nodes = team_count + 1 if byes else team_count
    period = nodes - 1
    schedule: _Schedule = []
    for r in range(rounds):
        k = r % period
        circle = [(k, nodes - 1)]
        circle += [((k + i) % period, (k - i) % period) for i in range(1, nodes // 2)]
        tables = [_pair(cycle[a], cycle[b]) for a, b in circle if a < team_count and b < team_count]
        schedule.append(sorted(tables))
    return schedule


def _repeat_cost(earlier: int) -> int:
    """Cost of one more meeting of two players who have met ``earlier`` times as opponents."""
    return earlier * earlier


def _table_clubs(club: Sequence[str], team_a: _Team, team_b: _Team) -> int:
    """Opponents from the same club at a table of ``team_a`` and ``team_b`` (0 to 4, or 9)."""
    return sum(_same_club(club, x, y) for x in team_a for y in team_b)


def _schedule_score(
    schedule: _Schedule,
    teams: Sequence[_Team],
    met: Mapping[_Pair, int],
    club: Sequence[str] | None = None,
) -> tuple[int, ...]:
    """(repeated meetings of partnerships in the session, repeated meetings of individuals).

    The first is the sum over pairs of partnerships of ``m * (m - 1) / 2`` for their ``m``
    meetings in the session; the second adds :func:`_repeat_cost` for every meeting of two
    players at a table, counting their meetings earlier in the evening. With ``club`` a third
    element counts same-club opponents. Lower is better, compared as a tuple (the session
    comes first).
    """
    meetings: dict[_Pair, int] = {}
    local: dict[_Pair, int] = {}
    session_cost = individual_cost = club_cost = 0
    for tables in schedule:
        for a, b in tables:
            if club is not None:
                club_cost += _table_clubs(club, teams[a], teams[b])
            session_cost += meetings.get((a, b), 0)
            meetings[(a, b)] = meetings.get((a, b), 0) + 1
            for x in teams[a]:
                for y in teams[b]:
                    key = _pair(x, y)
                    individual_cost += _repeat_cost(met.get(key, 0) + local.get(key, 0))
                    local[key] = local.get(key, 0) + 1
    if club is not None:
        return session_cost, individual_cost, club_cost
    return session_cost, individual_cost
