"""The draw of one session (Durchgang): partnerships, sit-outs and the tables of every round.

Source: docs/rules.md, "The evening: the Schwesing format" and "Partners and opponents" (after
McLeod, *Bruus*, "Tournament Scoring"). At the start of each session the present players are drawn into new random
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
  all avoids them, :class:`~scoring.domain.draw.DrawError` names the players.
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
  players: 1.8 repeated opponents per player on average against a bound of 0). The app
  therefore draws through :func:`scoring.domain.draw.plan_evening`
  (:mod:`scoring.domain.draw.evening`), which plans the sessions left together, starting from
  this draw, session by session; this function is its start and its fallback.
- Session 1 of a seed is drawn exactly as before the wishes and the opponent planning were
  added; later sessions of an old seed may differ (the partner draw changed).

Teams of three (six-handed Bräus) are drawn by :mod:`scoring.domain.draw.threes`, which
shares with this draw the input checks (:mod:`scoring.domain.draw.input`), the sit-out ranking
(:func:`sitout_groups` with ``team_size=3``, :mod:`scoring.domain.draw.formation`), the
matching (:mod:`scoring.domain.draw.matching`), the table schedule (:func:`schedule_rounds`,
which takes teams of any size, :mod:`scoring.domain.draw.schedule`) and the result
(:class:`SessionDraw`, :func:`scoring.domain.draw.result.history_after`).

Determinism: all randomness comes from the ``random.Random`` passed in, players are processed
in sorted order, and nothing depends on the iteration order of sets or on string hashing, so
a stored seed reproduces a draw exactly on every Python run, whatever ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence

import networkx as nx

from scoring.domain.draw.formation import (
    PLAN_OPPONENTS_MAX_PLAYERS,
    Formation,
    SitoutGroups,
    numbered_formation,
    opponents_seen,
    partnering_error,
    sitout_groups,
)
from scoring.domain.draw.input import History, Pair, PlayerId, indexed_input, same_club, sorted_pair
from scoring.domain.draw.matching import EXACT_MATCHING_MAX_NODES, min_cost_matching
from scoring.domain.draw.result import SessionDraw, session_draw
from scoring.domain.draw.schedule import schedule_rounds

# Randomised attempts at the partnerships (stops at the first attempt without any defect).
_PARTNER_ATTEMPTS_EXACT = 24
_PARTNER_ATTEMPTS_LOCAL = 4
# Random tie orders tried when looking one session ahead.
_LOOKAHEAD_TRIES = 8


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
            error's :attr:`scoring.domain.draw.DrawError.player_ids` names the players concerned).

    See the module documentation for the rules and how they are met.
    """
    given = indexed_input(players, history, rounds, 4, forbidden=forbidden, clubs=clubs, stand_ins=stand_ins)
    present, sitouts, partnered = given.present, given.sitouts, given.partnered
    met, barred, club = given.met, given.barred, given.club

    seen = opponents_seen(len(present), met) if met else None
    formation = _form_partnerships(len(present), sitouts, partnered, rounds, rng, barred, club, seen)
    if formation is None:
        raise partnering_error(present, barred)
    schedule = schedule_rounds(formation.teams, formation.cycle, formation.byes, rounds, met, rng, club)
    return session_draw(present, formation, schedule)


def _form_partnerships(
    size: int,
    sitouts: Sequence[int],
    partnered: set[Pair],
    rounds: int,
    rng: random.Random,
    barred: set[Pair] | None = None,
    club: Sequence[str] | None = None,
    seen: Sequence[set[int]] | None = None,
) -> Formation | None:
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
    best: tuple[tuple[int, ...], SitoutGroups, list[Pair], list[Pair]] | None = None
    for _ in range(attempts):
        groups = sitout_groups(size, sitouts, rounds, rng)
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
            score += (sum(same_club(club, a, b) for a, b in extra_teams + other_teams),)
        if best is None or score < best[0]:
            best = (score, groups, extra_teams, other_teams)
        if not any(score):
            break
    if best is None:
        return _bent_formation(size, sitouts, partnered, rounds, rng, barred, club)
    _, groups, extra_teams, other_teams = best
    return numbered_formation(groups.sitters, extra_teams, other_teams, groups.byes, rng)


def _bent_formation(
    size: int,
    sitouts: Sequence[int],
    partnered: set[Pair],
    rounds: int,
    rng: random.Random,
    barred: set[Pair],
    club: Sequence[str] | None,
) -> Formation | None:
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
            c = c * club_scale + same_club(club, i, j)
        return c

    matching = min_cost_matching(nodes, cost, rng)
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
    return Formation(sitters=() if sitter is None else (sitter,), teams=teams, cycle=first + rest, byes=byes)


def _sitouts_after(sitouts: Sequence[int], groups: SitoutGroups, rounds: int) -> list[int]:
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


def _next_session_possible(size: int, sitouts: Sequence[int], used: set[Pair], rounds: int, rng: random.Random) -> bool:
    """Whether another session of the same players can avoid all partners in ``used``.

    Tries a few random tie orders of the sit-out rotation; a heuristic look-ahead of one
    session (it may miss a possible draw, never claims an impossible one).
    """
    for _ in range(_LOOKAHEAD_TRIES):
        groups = sitout_groups(size, sitouts, rounds, rng)
        if _has_partnering(groups.extra, used) and _has_partnering(groups.other, used):
            return True
    return False


def _pair_up(
    players: Sequence[int],
    partnered: set[Pair],
    rng: random.Random,
    barred: set[Pair] | None = None,
    club: Sequence[str] | None = None,
    seen: Sequence[set[int]] | None = None,
) -> list[Pair] | None:
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
        pair = sorted_pair(a, b)
        if barred and pair in barred:
            return None
        c = int(pair in partnered)
        if club is not None:
            c = c * club_scale + same_club(club, a, b)
        if seen is not None:
            c = c * seen_scale + len((seen[a] | seen[b]) - {a, b})
        return c

    matching = min_cost_matching(len(players), cost, rng)
    if matching is None:
        return None
    return [sorted_pair(players[i], players[j]) for i, j in matching]


def _has_partnering(players: Sequence[int], used: set[Pair]) -> bool:
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
