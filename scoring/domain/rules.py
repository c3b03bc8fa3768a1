"""What one Bruus deal's result is made of, and the model of Schwesing's daring and striking.

Source: McLeod, *Bruus* (pagat.com), sections "Daring and Striking" and "Scoring"; see also
docs/rules.md, "Schwesing (the default)". All points are
matchsticks (whole numbers).

The module has two parts:

* The result of a deal, shared by every rule set: the teams, :class:`DealResult` (what the
  table scorer enters), :class:`DealScore` (its matchsticks) and :class:`ImpossibleResult`.
  Results are checked and scored by the evening's rule set
  (:class:`scoring.domain.rulesets.RuleSet`), the only scorer.
* A small model of daring and striking: :func:`score_trick` scores the matador plays of one
  trick, and :func:`derive_bonus_pairs` enumerates every abstract deal to find which pairs
  (bonus team A, bonus team B) can occur in one deal (:func:`enumerate_deals`, which Danish
  Brus uses with its own trick scorer). The Schwesing rule set's bonus pairs are that set
  written out (:data:`scoring.domain.rulesets.SCHWESING_BONUS_PAIRS`); a test proves that the
  two agree.

Standard library only: no Django import.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from scoring.domain.errors import DomainError

TEAM_A: Final = "A"
TEAM_B: Final = "B"
TEAMS: Final = (TEAM_A, TEAM_B)

#: Plays to one trick: the leader (seat 0) and then the other three players clockwise.
SEATS_PER_TRICK: Final = 4


def other_team(team: str) -> str:
    """Return the opposing team: ``"A"`` for ``"B"`` and ``"B"`` for ``"A"``."""
    return TEAM_B if team == TEAM_A else TEAM_A


# --------------------------------------------------------------------------------------------
# The model of daring and striking (source: "Daring and Striking" and "Scoring")
# --------------------------------------------------------------------------------------------


class Matador(enum.IntEnum):
    """The three matadors, valued by rank (higher beats lower). Each exists once per deal."""

    TOLLER_HUND = 1  # ♠8
    BRUUS = 2  # ♥K
    SPITZ = 3  # ♣J

    @property
    def next_higher(self) -> Matador | None:
        """The matador that strikes this one, or ``None`` for the Spitz."""
        return Matador(self + 1) if self < Matador.SPITZ else None

    @property
    def next_lower(self) -> Matador | None:
        """The matador this one strikes, or ``None`` for the Toller Hund."""
        return Matador(self - 1) if self > Matador.TOLLER_HUND else None


@dataclass(frozen=True)
class Play:
    """One player's play to a trick, as far as the matadors matter.

    Attributes:
        matadors: the matadors this player plays to the trick. Usually none or one; several
            only when following to a double or triple trick, where the cards need not be of
            equal rank. The leader never plays two matadors at once, because a double or triple
            lead needs cards of equal rank and the matadors are a Jack, a King and an Eight.
        holding: the matadors left in this player's hand after the play (condition 2 of a
            dare: "the darer does not hold the next higher card").

    A player who plays two matadors at once (say ♠8 and ♥K) held the higher one at the moment
    of playing the lower one, so by condition 2 the lower one is no dare. Nor is the higher
    one a strike of the lower: a strike needs an opponent of the darer.
    """

    matadors: frozenset[Matador] = frozenset()
    holding: frozenset[Matador] = frozenset()


@dataclass(frozen=True)
class TrickBonus:
    """Matchsticks for the bonuses of one trick (in Schwesing at most one of ``a``, ``b`` is not 0;
    in Danish Brus both teams may score in one trick).

    Attributes:
        a: matchsticks team A wins in the trick.
        b: matchsticks team B wins in the trick.
    """

    a: int
    b: int


# Points for one trick, keyed by what happened to the Toller Hund and the Bruus in it:
# (Hund dared, Hund struck by ♥K, Bruus dared, Bruus struck by ♣J).
# Source: the list under "Scoring"; only one team scores per trick ("Daring and Striking").
_TRICK_POINTS: Final[dict[tuple[bool, bool, bool, bool], int]] = {
    (False, False, False, False): 0,  # no dare
    (True, False, False, False): 1,  # successful dare of ♠8
    (False, False, True, False): 1,  # successful dare of ♥K
    (True, True, False, False): 2,  # strike of ♠8 by ♥K
    (False, False, True, True): 2,  # strike of ♥K by ♣J
    (True, True, True, False): 3,  # strike of ♠8 by ♥K and successful onward dare of ♥K
    (True, True, True, True): 4,  # counterstrike (Generalschlag) of the onward-dared ♥K by ♣J
    (True, False, True, False): 2,  # successful dare of both ♠8 and ♥K by one team
    (True, False, True, True): 3,  # strike of ♥K by ♣J after the opponents dared ♠8 and ♥K
}


def score_trick(
    plays: Sequence[Play],
    *,
    leader_team: str = TEAM_A,
    played_before: frozenset[Matador] = frozenset(),
    bunk_exhausted: bool = False,
) -> TrickBonus:
    """Score daring and striking in one trick.

    Source: McLeod, *Bruus*, sections "Daring and Striking" and
    "Scoring". Playing the Bruus or the Toller Hund is a dare when (1) the next higher matador
    has not been played yet, in the deal or earlier in this trick, (2) the player does not hold
    it, (3) the player is not the last to the trick and (4) the bunk is not exhausted. A dared
    matador is struck when the next higher matador is played to the same trick, later, by an
    opponent of the darer. Who wins the trick does not matter.

    Args:
        plays: exactly four plays in playing order; seat 0 is the leader, seats 0 and 2 are the
            leader's team, seats 1 and 3 the other team, seat 3 is the last player.
        leader_team: ``"A"`` or ``"B"``, the team of the leader.
        played_before: matadors already played in earlier tricks of the deal.
        bunk_exhausted: the bunk (stock) was empty when this trick was played.

    Returns:
        The matchsticks each team wins for daring and striking in this trick (0 to 4, at most
        one team scores).

    Raises:
        ValueError: the plays cannot happen: not four plays, an unknown team, a matador played
            or held twice, or two matadors led at once.
    """
    check_trick(plays, leader_team, played_before)
    darer_team, struck = _dares_and_strikes(plays, leader_team, played_before, bunk_exhausted)
    hund, bruus = Matador.TOLLER_HUND, Matador.BRUUS
    points = _TRICK_POINTS[(hund in darer_team, hund in struck, bruus in darer_team, bruus in struck)]
    if points == 0:
        return TrickBonus(0, 0)
    scorer = _scoring_team(darer_team, struck)
    return TrickBonus(points, 0) if scorer == TEAM_A else TrickBonus(0, points)


def _dares_and_strikes(
    plays: Sequence[Play], leader_team: str, played_before: frozenset[Matador], bunk_exhausted: bool
) -> tuple[dict[Matador, str], set[Matador]]:
    """The matadors dared in the trick with the team that dared each (conditions 1 to 4 of
    :func:`score_trick`), and those of them struck by an opponent later in the trick."""
    seen = set(played_before)
    darer_team: dict[Matador, str] = {}
    struck: set[Matador] = set()
    for seat, play in enumerate(plays):
        team = leader_team if seat % 2 == 0 else other_team(leader_team)
        for matador in sorted(play.matadors):
            lower = matador.next_lower
            if lower in darer_team and darer_team[lower] != team:
                struck.add(lower)
            higher = matador.next_higher
            if (
                higher is not None
                and higher not in seen  # condition 1
                and higher not in play.matadors | play.holding  # condition 2
                and seat != SEATS_PER_TRICK - 1  # condition 3
                and not bunk_exhausted  # condition 4
            ):
                darer_team[matador] = team
        seen |= play.matadors
    return darer_team, struck


def _scoring_team(darer_team: dict[Matador, str], struck: set[Matador]) -> str:
    """The team that scores the trick's daring and striking: the last event decides, the strike
    of the Bruus, else the (onward) dare of the Bruus or the strike of the Hund, else the dare of
    the Hund."""
    hund, bruus = Matador.TOLLER_HUND, Matador.BRUUS
    if bruus in struck:
        return other_team(darer_team[bruus])
    if bruus in darer_team:
        return darer_team[bruus]
    if hund in struck:
        return other_team(darer_team[hund])
    return darer_team[hund]


def check_trick(plays: Sequence[Play], leader_team: str, played_before: frozenset[Matador]) -> None:
    """Raise ``ValueError`` if ``plays`` cannot be one trick of a deal (see :func:`score_trick`)."""
    if len(plays) != SEATS_PER_TRICK:
        raise ValueError(f"a trick has {SEATS_PER_TRICK} plays, got {len(plays)}")
    if leader_team not in TEAMS:
        raise ValueError(f"unknown team {leader_team!r}")
    if len(plays[0].matadors) > 1:
        raise ValueError("the leader cannot lead two matadors at once: they differ in rank")
    played = list(played_before) + [m for play in plays for m in play.matadors]
    if len(played) != len(set(played)):
        raise ValueError("each matador can be played only once in a deal")
    held = [m for play in plays for m in play.holding]
    if len(held) != len(set(held)) or set(held) & set(played):
        raise ValueError("a matador can be in one hand only, and not once it is played")


# --------------------------------------------------------------------------------------------
# The model of a deal: every abstract deal, enumerated
# --------------------------------------------------------------------------------------------
#
# A deal is a sequence of tricks. Only the tricks in which a matador is played matter; there
# are at most three of them, in any order, because each matador is played at most once (or
# never: play stops as soon as a team has five tricks). Players are numbered 0 to 3 clockwise;
# players 0 and 2 are team A, players 1 and 3 team B. For each trick with matadors the model
# chooses:
#   * which of the matadors not yet played are played in it,
#   * the leader (any player can win the previous trick),
#   * the seat of each of these matadors (several may fall to one follower; see Play),
#   * whether the bunk is exhausted (once exhausted it stays so),
#   * for each matador not played yet, whether one of the players who play a lower matador in
#     this trick still holds it (Schwesing's dare asks about the next higher matador, Danish
#     Brus's chance about any higher one), where that is consistent with what is known: not if
#     it is known to be in another hand; surely if the player is known to hold it. A player
#     holding a matador keeps it until playing it, so it can then only be played by that player.
# A trick without matadors scores nothing, so it is left out.

# Who is known to hold a matador not yet played: (matador, player) pairs.
_Owners = frozenset[tuple[Matador, int]]

#: Scores one trick's matador plays: every bonus the trick can give (one value when the rules
#: leave no choice; several when a player may choose, as in Danish chancing). Called with the
#: arguments of :func:`score_trick`.
TrickScorer = Callable[..., Iterable[TrickBonus]]


def schwesing_trick(
    plays: Sequence[Play], *, leader_team: str, played_before: frozenset[Matador], bunk_exhausted: bool
) -> tuple[TrickBonus]:
    """:func:`score_trick` as a :data:`TrickScorer` (daring is automatic: one bonus per trick)."""
    return (score_trick(plays, leader_team=leader_team, played_before=played_before, bunk_exhausted=bunk_exhausted),)


def _team_of_player(player: int) -> str:
    """The team of player 0 to 3 (clockwise): A for 0 and 2, B for 1 and 3."""
    return TEAM_A if player % 2 == 0 else TEAM_B


def _next_tricks(
    played: frozenset[Matador], bunk_exhausted: bool, owners: _Owners, trick_scorer: TrickScorer
) -> Iterator[tuple[TrickBonus, frozenset[Matador], bool, _Owners]]:
    """Yield every next trick with matadors: its bonus and the state after it."""
    owner_of = dict(owners)
    unplayed = [m for m in Matador if m not in played]
    subsets = (s for size in range(1, len(unplayed) + 1) for s in itertools.combinations(unplayed, size))
    for matadors in subsets:
        now_played = played | frozenset(matadors)
        for leader, seats in itertools.product(
            range(SEATS_PER_TRICK), itertools.product(range(SEATS_PER_TRICK), repeat=len(matadors))
        ):
            seat_of = dict(zip(matadors, seats, strict=True))
            player_of = {m: (leader + seat) % SEATS_PER_TRICK for m, seat in seat_of.items()}
            if seats.count(0) > 1 or any(owner_of.get(m, p) != p for m, p in player_of.items()):
                continue
            # Who holds each matador not played yet, as far as it matters: one of the players who
            # play a lower matador in this trick (the Danish chance asks about any higher matador,
            # Schwesing's dare about the next higher), or nobody of them.
            holder_options = [
                (higher, _holder_choices(higher, matadors, player_of, owner_of))
                for higher in Matador
                if higher not in now_played and any(m < higher for m in matadors)
            ]
            for exhausted in sorted({bunk_exhausted, True}):
                for holds in itertools.product(*(options for _, options in holder_options)):
                    holders = {
                        (higher, player)
                        for (higher, _), player in zip(holder_options, holds, strict=True)
                        if player is not None
                    }
                    plays = [
                        Play(
                            matadors=frozenset(m for m in matadors if seat_of[m] == seat),
                            holding=frozenset(n for n, p in holders if p == (leader + seat) % SEATS_PER_TRICK),
                        )
                        for seat in range(SEATS_PER_TRICK)
                    ]
                    bonuses = trick_scorer(
                        plays,
                        leader_team=_team_of_player(leader),
                        played_before=played,
                        bunk_exhausted=exhausted,
                    )
                    now_owners = frozenset((m, p) for m, p in owners | holders if m not in now_played)
                    for bonus in bonuses:
                        yield bonus, now_played, exhausted, now_owners


def _holder_choices(
    higher: Matador, matadors: Sequence[Matador], player_of: dict[Matador, int], owner_of: dict[Matador, int]
) -> tuple[int | None, ...]:
    """Who may hold ``higher`` (not played yet, not played in this trick) after this trick's plays:
    ``None`` (none of the players of a lower matador in it) or one of those players. A matador
    known to be in a hand stays there until it is played."""
    candidates = sorted({player_of[m] for m in matadors if m < higher})
    if higher in owner_of:
        return (owner_of[higher] if owner_of[higher] in candidates else None,)
    return (None, *candidates)


@functools.cache
def _bonuses_from(
    played: frozenset[Matador], bunk_exhausted: bool, owners: _Owners, trick_scorer: TrickScorer
) -> frozenset[tuple[int, int]]:
    """Every (bonus A, bonus B) the rest of a deal can add, from the given state."""
    totals = {(0, 0)}  # no more matador is played
    for bonus, *state in _next_tricks(played, bunk_exhausted, owners, trick_scorer):
        totals.update((bonus.a + a, bonus.b + b) for a, b in _bonuses_from(*state, trick_scorer))
    return frozenset(totals)


def enumerate_deals(trick_scorer: TrickScorer) -> frozenset[tuple[int, int]]:
    """Every ``(bonus_a, bonus_b)`` one deal can give, by enumerating every abstract deal of the
    model above (which matadors fall in which trick, to which seat, who holds what, whether the
    bunk is exhausted) and scoring each trick with ``trick_scorer``. Cached per scorer."""
    return _bonuses_from(frozenset(), False, frozenset(), trick_scorer)


@functools.cache
def derive_bonus_pairs() -> frozenset[tuple[int, int]]:
    """Enumerate every abstract deal of the model and collect the bonus pairs that occur.

    Source: McLeod, *Bruus*, sections "Daring and Striking" and
    "Scoring"; the model is described in the comment above this function.

    Returns:
        The set of ``(bonus_a, bonus_b)`` pairs, in matchsticks, that daring and striking can
        give teams A and B together in one deal. Cached; raises nothing.
    """
    return enumerate_deals(schwesing_trick)


# --------------------------------------------------------------------------------------------
# One deal as the table scorer enters it
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealResult:
    """What the table scorer enters for one deal.

    Attributes:
        winner: ``"A"`` or ``"B"``, the team that reached five tricks.
        to_nil: the opponents took no trick ("zu Null").
        bonus_a: matchsticks team A won by daring and striking in this deal.
        bonus_b: matchsticks team B won by daring and striking in this deal.
    """

    winner: str
    to_nil: bool
    bonus_a: int
    bonus_b: int


@dataclass(frozen=True)
class DealScore:
    """Matchsticks each team won in one deal (five tricks plus daring and striking).

    Attributes:
        a: matchsticks of team A.
        b: matchsticks of team B.
    """

    a: int
    b: int


class ImpossibleResult(DomainError):
    """A deal result that cannot happen under the rules; ``code`` says why.

    Raised by :meth:`scoring.domain.rulesets.RuleSet.check_result`. Codes: ``invalid_winner``,
    ``invalid_to_nil``, ``no_bonus``, ``bonus_not_whole_number``, ``bonus_negative``,
    ``bonus_too_high``, ``impossible_bonus_pair``. The message is an English msgid for the
    scorer's tablet; the organiser may still accept such a result with a reason.
    """
