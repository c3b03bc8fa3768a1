"""How fair a drawn evening is: partners, repeated opponents, sit-outs, and lower bounds.

Pure Python, no Django. The input is what was played: for every round the tables (two
partnerships each, of two players, or of three in six-handed Bräus) and who sat out. With
teams of three, *partners* are any two players of one team (three pairs a team), and two
teams at a table make nine pairs of opponents; the measures and bounds below count those
(:func:`opponent_repeat_lower_bound` takes ``team_size=3``). The app builds it from the database (with players who
replaced a leaver in the rounds they played); :func:`rounds_of` builds it from a
:class:`~scoring.domain.draw.SessionDraw`.

**The measure.** Two players *meet* when they sit at one table as opponents in a round. If a
pair of players meets ``c`` times in the evening, ``c - 1`` of those meetings are *repeats*;
the evening's number of repeated opponents is the sum of ``max(0, c - 1)`` over all pairs.
Per player it is the sum over their opponents, so the per-player figures add up to twice the
evening's number.

**Lower bound, a priori** (:func:`opponent_repeat_lower_bound`). Take ``n`` players present
all evening, ``S`` sessions of ``R`` rounds. In every round exactly ``4 * (n // 4)`` players
sit at tables (``4k+1``: one sits out; ``4k+2``: a partnership sits out; ``4k+3``: one player
sits out and a partnership of the other ``4k+2``). Each of them meets two opponents, so the
players' rounds at tables add up to ``G = S * R * 4 * (n // 4)`` and their meetings to
``2G``. A player ``p`` who plays ``g_p`` rounds has ``2 g_p`` meetings but at most ``m``
different opponents: ``m = n - 1``, or ``n - 2`` with a single session (the partner is never
an opponent in the same session). So ``p`` has at least ``max(0, 2 g_p - m)`` repeats and the
evening at least half their sum. Since ``sum(max(0, x_p)) >= max(0, sum(x_p))``, that is at
least ``A = max(0, 2G - n m) / 2`` (a whole number: ``2G`` and ``n m`` are even).

A second argument works on partnerships within one session: with ``Q`` partnerships of which
``P`` play each round, a partnership meets ``R`` (or fewer, with byes) partnerships among
``Q - 1``, so the pairs of partnerships meet again at least ``ceil(max(0, R P - Q (Q - 1)) / 2)``
times, and each such meeting repeats four pairs of players: ``B = S * 4 * ceil(...)``. A
repeat within a session is also a repeat in the evening, so ``max(A, B)`` is a lower bound for
any draw of ``n`` players.

**Lower bound for the draw made** (:func:`lower_bound`): the same two arguments with the
actual figures: ``g_p`` is the rounds ``p`` actually played and ``m_p`` the number of players
``p`` *could* have met, i.e. who played, not as ``p``'s partner, in some round in which ``p``
played; and per session the partnerships actually formed and the rounds each played. It bounds
every seating of the same partnerships and sit-outs, so the gap to it is what the table plan
could at most have saved.

What the bounds do not say: they ignore that partners share their opponents, the order of the
sessions and the rule that partners and sit-outs come first, so they are not always
reachable; a draw above the bound is not proven improvable. With 26 players (3 sessions of 4
rounds) both bounds are 0 because each player meets 22 opponents among 25; the draw, which plans
the evening (:mod:`scoring.domain.draw.evening`), stays a little above it (measured by
``bench/bench_draw.py``, figures in docs/performance.md).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from scoring.domain.draw import EXACT_MATCHING_MAX_NODES, SessionDraw, pairs_within
from scoring.domain.draw.input import PlayerId as DrawPlayerId
from scoring.domain.errors import gettext_noop

__all__ = [
    "EveningFairness",
    "PlayedRound",
    "PlayerFairness",
    "Reason",
    "evening_fairness",
    "lower_bound",
    "opponent_counts",
    "opponent_repeat_lower_bound",
    "repeated_opponents",
    "rounds_of",
]

P = TypeVar("P", bound=Hashable)  # a player: whatever the caller identifies players by (an id in the app)
_Key = TypeVar("_Key", bound=Hashable)  # a player or a partnership
Team = tuple[P, ...]  # a partnership (two or three players), or a player sitting out alone


@dataclass(frozen=True)
class PlayedRound(Generic[P]):
    """One round as played.

    Attributes:
        session: session number (1-based).
        number: round number within the session (1-based).
        tables: per table the two partnerships (each a tuple of two player ids, or three for
            six-handed Bräus).
        sitting_out: who sat out: partnerships (two or three ids) or single players (one id).
    """

    session: int
    number: int
    tables: tuple[tuple[Team[P], Team[P]], ...]
    sitting_out: tuple[Team[P], ...] = ()


def rounds_of(draw: SessionDraw, session: int) -> list[PlayedRound[DrawPlayerId]]:
    """The rounds of a drawn session as :class:`PlayedRound` values."""
    played = []
    for round_draw in draw.rounds:
        sitting: list[Team[DrawPlayerId]] = []
        if round_draw.sitout_partnership is not None:
            sitting.append(tuple(draw.partnerships[round_draw.sitout_partnership]))
        sitting.extend((player,) for player in draw.sitout_players)
        played.append(
            PlayedRound(
                session=session,
                number=round_draw.number,
                tables=tuple(
                    (tuple(draw.partnerships[t.team_a]), tuple(draw.partnerships[t.team_b])) for t in round_draw.tables
                ),
                sitting_out=tuple(sitting),
            )
        )
    return played


# --- the measure ---------------------------------------------------------------------------------


def opponent_counts(rounds: Iterable[PlayedRound[P]]) -> dict[frozenset[P], int]:
    """Pair of players -> number of rounds in which they sat at one table as opponents."""
    counts: Counter[frozenset[P]] = Counter()
    for played in rounds:
        for team_a, team_b in played.tables:
            for a in team_a:
                for b in team_b:
                    counts[frozenset((a, b))] += 1
    return dict(counts)


def repeated_opponents(counts: Mapping[frozenset, int]) -> int:
    """The evening's repeated opponents: the sum of ``max(0, c - 1)`` over pairs meeting ``c`` times."""
    return sum(max(0, c - 1) for c in counts.values())


# --- lower bounds --------------------------------------------------------------------------------


def _half_up(value: int) -> int:
    return -(-max(0, value) // 2)


def opponent_repeat_lower_bound(n_players: int, sessions: int, rounds: int, team_size: int = 2) -> int:
    """Fewest repeated opponents any draw can have: ``n_players`` present for ``sessions``
    sessions of ``rounds`` rounds (the derivation is in the module documentation).

    ``team_size`` is 2, or 3 for six-handed Bräus: then ``n % 3`` players sit out, ``6 * (T //
    2)`` of the ``T = n // 3`` teams' players sit at tables, each meets 3 opponents a round, a
    meeting of two teams repeats 9 pairs of players, and a single session's teammates are two.
    Returns 0 with fewer players than one table or no rounds.
    """
    n, s, r, k = n_players, sessions, rounds, team_size
    if n < 2 * k or s < 1 or r < 1:
        return 0
    teams = n // k
    seated = 2 * k * (teams // 2)
    games = s * r * seated
    possible = n - 1 if s > 1 else n - k
    by_players = _half_up(k * games - n * possible)
    playing_teams = seated // k
    by_teams = s * k * k * _half_up(r * playing_teams - teams * (teams - 1))
    return max(by_players, by_teams)


def _meeting_bound(meetings: Mapping[_Key, int], possible: Mapping[_Key, int]) -> int:
    """Half the sum of ``max(0, meetings - possible)``, rounded up."""
    return _half_up(sum(max(0, meetings[x] - possible.get(x, 0)) for x in meetings))


def lower_bound(rounds: Sequence[PlayedRound[P]]) -> int:
    """Fewest repeated opponents any seating of these partnerships and sit-outs could have.

    The two arguments of the module documentation with the actual figures; the larger wins.
    """
    meetings: Counter[P] = Counter()
    could_meet: dict[P, set[P]] = defaultdict(set)
    by_session: dict[int, list[PlayedRound[P]]] = defaultdict(list)
    for played in rounds:
        by_session[played.session].append(played)
        seated = [p for table in played.tables for team in table for p in team]
        for team_a, team_b in played.tables:
            for team, other in ((team_a, team_b), (team_b, team_a)):
                for p in team:
                    meetings[p] += len(other)
                    could_meet[p].update(q for q in seated if q not in team)
    by_players = _meeting_bound(dict(meetings), {p: len(q) for p, q in could_meet.items()})
    by_teams = sum(_table_pairs(r) * _session_team_bound(r) for r in by_session.values())
    return max(by_players, by_teams)


def _table_pairs(session_rounds: Sequence[PlayedRound[P]]) -> int:
    """Pairs of opponents at one of the session's tables: 4 (teams of two) or 9 (of three)."""
    for played in session_rounds:
        for team_a, team_b in played.tables:
            return len(team_a) * len(team_b)
    return 0


def _session_team_bound(session_rounds: Iterable[PlayedRound[P]]) -> int:
    """Fewest repeated meetings of partnerships within one session (second argument)."""
    team_games: Counter[frozenset[P]] = Counter()
    team_could: dict[frozenset[P], set[frozenset[P]]] = defaultdict(set)
    for played in session_rounds:
        teams = [frozenset(team) for table in played.tables for team in table]
        for team in teams:
            team_games[team] += 1
            team_could[team].update(t for t in teams if t != team)
    return _meeting_bound(dict(team_games), {t: len(others) for t, others in team_could.items()})


# --- the report ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """One line of explanation: an English msgid with ``%(name)s`` placeholders, and values."""

    code: str
    message: str
    params: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class PlayerFairness(Generic[P]):
    """One player's evening.

    Attributes:
        partners: ``(session, partner)`` in session order; two entries for a session in which
            a partner was replaced, or in a team of three (both teammates are partners).
        rounds_played: rounds at a table.
        rounds_sat_out: rounds sat out (a whole-session sit-out counts all its rounds).
        opponents: different opponents met.
        repeated: ``(opponent, times met)`` for every opponent met more than once, most first.
    """

    player: P
    partners: tuple[tuple[int, P], ...]
    rounds_played: int
    rounds_sat_out: int
    opponents: int
    repeated: tuple[tuple[P, int], ...]

    @property
    def repeats(self) -> int:
        """This player's repeated opponents: the sum of ``times met - 1``."""
        return sum(count - 1 for _, count in self.repeated)


@dataclass(frozen=True)
class EveningFairness(Generic[P]):
    """The fairness report of an evening (see :func:`evening_fairness`)."""

    players: dict[P, PlayerFairness[P]]
    repeated_opponents: int
    lower_bound: int
    repeated_partners: tuple[tuple[frozenset[P], int], ...]
    reasons: tuple[Reason, ...]


def evening_fairness(rounds: Sequence[PlayedRound[P]]) -> EveningFairness[P]:
    """Per player and for the evening: partners, opponents, repeats, sit-outs, and why.

    The reasons say whether the repeats reach the lower bound (then every repeat was
    unavoidable with these partnerships and sit-outs), name the sessions in which too few
    partnerships play for new opponents every round, and otherwise say why the draw can stay
    above the bound.
    """
    counts = opponent_counts(rounds)
    partners: dict[P, list[tuple[int, P]]] = defaultdict(list)
    played: Counter[P] = Counter()
    sat_out: Counter[P] = Counter()
    partnerships: dict[frozenset[P], set[int]] = defaultdict(set)
    everyone: set[P] = set()

    def note_team(session: int, team: Team[P]) -> None:
        everyone.update(team)
        # Every two players of a team (one pair, or three in a team of three) are partners.
        for a, b in pairs_within(team):
            partnerships[frozenset((a, b))].add(session)
            for me, other in ((a, b), (b, a)):
                if (session, other) not in partners[me]:
                    partners[me].append((session, other))

    ordered = sorted(rounds, key=lambda r: (r.session, r.number))
    for one in ordered:
        for table in one.tables:
            for team in table:
                note_team(one.session, team)
                for p in team:
                    played[p] += 1
        for team in one.sitting_out:
            note_team(one.session, team)
            for p in team:
                sat_out[p] += 1

    met = _opponents_met(counts)
    players = {
        p: PlayerFairness(
            player=p,
            partners=tuple(partners[p]),
            rounds_played=played[p],
            rounds_sat_out=sat_out[p],
            opponents=len(met[p]),
            repeated=_repeated(met[p]),
        )
        for p in everyone
    }
    total = repeated_opponents(counts)
    bound = lower_bound(ordered)
    repeated_partners = _repeated_partners(partnerships)
    return EveningFairness(
        players=players,
        repeated_opponents=total,
        lower_bound=bound,
        repeated_partners=repeated_partners,
        reasons=tuple(_reasons(ordered, total, bound, repeated_partners)),
    )


def _repeated(met: Counter[P]) -> tuple[tuple[P, int], ...]:
    """The opponents met more than once and how often, the most often first."""
    return tuple(sorted(((q, c) for q, c in met.items() if c > 1), key=lambda item: (-item[1], str(item[0]))))


def _repeated_partners(partnerships: Mapping[frozenset[P], set[int]]) -> tuple[tuple[frozenset[P], int], ...]:
    """The partnerships formed in more than one session and in how many, in the order of their
    players' names."""
    return tuple(
        sorted(
            ((pair, len(sessions)) for pair, sessions in partnerships.items() if len(sessions) > 1),
            key=lambda item: sorted(map(str, item[0])),
        )
    )


def _opponents_met(counts: Mapping[frozenset[P], int]) -> dict[P, Counter[P]]:
    """Per player: how many times they met each opponent (from the pair counts)."""
    met: dict[P, Counter[P]] = defaultdict(Counter)
    for pair, count in counts.items():
        a, b = tuple(pair)
        met[a][b] += count
        met[b][a] += count
    return met


def _reasons(
    rounds: Sequence[PlayedRound[P]],
    total: int,
    bound: int,
    repeated_partners: Sequence[tuple[frozenset[P], int]],
) -> list[Reason]:
    """Why the evening has the repeats it has: sessions whose partnerships must meet again, the
    repeats against the lower bound, and partnerships formed more than once."""
    if not rounds:
        return []
    reasons = _few_partnerships(rounds) + _against_bound(rounds, total, bound)
    if repeated_partners:
        reasons.append(
            Reason(
                "repeated_partners",
                gettext_noop(
                    "%(count)s partnerships were formed more than once: the sit-out rotation and "
                    'the wishes "not together" left no other choice for the draw, or players '
                    "were swapped or replaced by hand."
                ),
                {"count": len(repeated_partners)},
            )
        )
    return reasons


def _few_partnerships(rounds: Sequence[PlayedRound[P]]) -> list[Reason]:
    """A reason for each session whose partnerships are too few for its rounds to avoid meeting
    twice (:func:`_session_team_bound`)."""
    reasons: list[Reason] = []
    by_session: dict[int, list[PlayedRound]] = defaultdict(list)
    for one in rounds:
        by_session[one.session].append(one)
    for session, session_rounds in sorted(by_session.items()):
        teams = {frozenset(t) for one in session_rounds for table in one.tables for t in table}
        if _session_team_bound(session_rounds):
            reasons.append(
                Reason(
                    "few_partnerships",
                    gettext_noop(
                        "Session %(session)s: only %(teams)s partnerships play %(rounds)s rounds, "
                        "so some partnerships must meet twice: these repeats are unavoidable."
                    ),
                    {"session": session, "teams": len(teams), "rounds": len(session_rounds)},
                )
            )
    return reasons


def _against_bound(rounds: Sequence[PlayedRound[P]], total: int, bound: int) -> list[Reason]:
    """The ``total`` repeated opponents against the lower ``bound``: none, the bound reached, or
    above it (and why, with a heuristic draw of the tables)."""
    reasons: list[Reason] = []
    if total == 0:
        reasons.append(Reason("no_repeats", gettext_noop("Nobody met the same opponent twice."), {}))
    elif total <= bound:
        reasons.append(
            Reason(
                "bound_reached",
                gettext_noop(
                    "The lower bound is reached: with these players, partnerships and sit-outs "
                    "at least %(bound)s repeated opponents are unavoidable."
                ),
                {"bound": bound},
            )
        )
    else:
        widest = max(len(one.tables) * 2 for one in rounds)
        if widest > EXACT_MATCHING_MAX_NODES:
            reasons.append(
                Reason(
                    "heuristic",
                    gettext_noop(
                        "Bound not reached: with more than %(limit)s partnerships at the tables "
                        "the draw of the tables is a heuristic (local search)."
                    ),
                    {"limit": EXACT_MATCHING_MAX_NODES},
                )
            )
        reasons.append(
            Reason(
                "above_bound",
                gettext_noop(
                    "%(gap)s repeats above the lower bound of %(bound)s. The draw plans the sessions "
                    "left at every draw, but new partners and fair sit-outs come first, its search "
                    "is limited in time, and changes to the players change the plan. The bound "
                    "ignores these rules, so it is not always reachable."
                ),
                {"gap": total - bound, "bound": bound},
            )
        )
    return reasons
