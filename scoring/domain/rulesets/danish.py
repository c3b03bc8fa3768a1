"""Danish Brus and Danish Brus as played in Ringkøbing: chancing and smacking (and, in
Ringkøbing, hawking a Seven with the ♣K).

Sources (as docs/rules.md, "The sources", names them):

* Danish Brus: *Brus* (encyclopedia), "Chancing and smacking" and "Scoring".
* Ringkøbing: *Brus* (encyclopedia), "Ringkøbing variant" (hawking a Seven with ♣K, *jan*).

The bonus pairs are derived from a model of the rules below (``tests/domain/test_danish_brus.py``
proves them against a derivation of its own).

Standard library only: no Django import.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from scoring.domain.errors import gettext_noop
from scoring.domain.rules import (
    SEATS_PER_TRICK,
    TEAM_A,
    TEAM_B,
    Matador,
    Play,
    TrickBonus,
    check_trick,
    enumerate_deals,
    other_team,
)
from scoring.domain.rulesets.base import BonusMessages, RuleSet, Wording

DANISH: Final = "danish"
RINGKOBING: Final = "ringkobing"


# --------------------------------------------------------------------------------------------
# Danish Brus: chancing and smacking (*Brus* (encyclopedia), "Chancing and smacking")
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DanishBonuses:
    """The matchsticks of Danish Brus's bonuses, named as the source names them.

    Source: *Brus* (encyclopedia), "Chancing and smacking": "The chancer scores a point
    unless the matador is 'smacked' by a higher card played by an opponent in which case the
    opposing side score two points. If the ♠8 is chanced and smacked by the ♥K, but beaten in
    turn by the ♣J, it is an 'oversmack' and worth 3 points, unless the ♥K was also chanced in
    which case it is worth 4 points." And "Ringkøbing variant": "If a 7 is played, an opponent
    with the ♣K can beat it, saying 'I'll hawk it', and score a bonus point."

    Attributes:
        chance: a chanced matador that is not smacked, for the chancer's team.
        smack: a chanced matador smacked by a higher matador an opponent plays after it, or
            chanced unlawfully (automatically smacked), for the opponents of the chancer.
        oversmack: a chanced ♠8 smacked by the ♥K, which the ♣J of the chancer's team beats in
            turn, for the chancer's team (instead of the chance and the smack).
        oversmack_chanced: the same when the ♥K was chanced too.
        hawk: a Seven beaten with the ♣K (Ringkøbing only).
    """

    chance: int
    smack: int
    oversmack: int
    oversmack_chanced: int
    hawk: int


#: Danish Brus's (and Ringkøbing's) bonus points (Schwesing's: the table of ``rules.score_trick``).
DANISH_BONUSES: Final = DanishBonuses(chance=1, smack=2, oversmack=3, oversmack_chanced=4, hawk=1)


#: The matadors a player may chance: the Galhund (♠8) and the Brus (♥K). Nothing is above the Spids.
CHANCEABLE: Final = frozenset({Matador.TOLLER_HUND, Matador.BRUUS})


def chance_is_lawful(seat: int, matador: Matador, play: Play, seen: set[Matador], bunk_exhausted: bool) -> bool:
    """May the player in ``seat`` (0 leads, 3 is last) chance ``matador``, played in ``play``?

    Source: *Brus* (encyclopedia), "Chancing and smacking": "This is only permitted,
    however, if a higher matador is still in play and not held by the chancer, if the talon is not
    exhausted, if another player has yet to play to the trick and if winning the bonus would not
    result in winning the rubber." A higher matador is *any* matador above the chanced one (for the
    Galhund the Brus or the Spids) that has not been played (``seen``: in earlier tricks or earlier
    in this one) and is not in the chancer's hand nor played by the chancer in this play. The rubber
    condition does not apply: our evenings play fixed deals, not games to 9 or 13.
    """
    return (
        matador in CHANCEABLE
        and any(higher not in seen and higher not in play.matadors | play.holding for higher in _higher(matador))
        and seat != SEATS_PER_TRICK - 1
        and not bunk_exhausted
    )


def _higher(matador: Matador) -> tuple[Matador, ...]:
    """The matadors above ``matador`` (for the Galhund: the Brus and the Spids)."""
    return tuple(m for m in Matador if m > matador)


@dataclass(frozen=True)
class MatadorPlay:
    """One matador played in a trick of Danish Brus, in playing order.

    Attributes:
        matador: the card.
        team: the team of its player.
        lawful: whether chancing it would be lawful (:func:`chance_is_lawful`); always ``False``
            for the Spids, which cannot be chanced.
    """

    matador: Matador
    team: str
    lawful: bool


def danish_trick(
    plays: Sequence[Play],
    *,
    leader_team: str = TEAM_A,
    played_before: frozenset[Matador] = frozenset(),
    bunk_exhausted: bool = False,
) -> frozenset[TrickBonus]:
    """Every bonus one trick of Danish Brus can give, over the players' choices to chance.

    Source: *Brus* (encyclopedia), "Chancing and smacking". A player who plays the Galhund
    or the Brus "may say 'I'll chance it'": every such card is chanced or not, as its player
    chooses, lawfully or not (:func:`chance_is_lawful`). Each choice is scored by
    :func:`score_danish_trick`.

    Args and errors as :func:`scoring.domain.rules.score_trick`.

    Returns:
        The set of bonuses, one per choice of which of the trick's Galhund and Brus are chanced.
    """
    events = danish_events(plays, leader_team=leader_team, played_before=played_before, bunk_exhausted=bunk_exhausted)
    chanceable = [i for i, event in enumerate(events) if event.matador in CHANCEABLE]
    choices = (c for size in range(len(chanceable) + 1) for c in itertools.combinations(chanceable, size))
    return frozenset(score_danish_trick(events, frozenset(chanced)) for chanced in choices)


def danish_events(
    plays: Sequence[Play], *, leader_team: str, played_before: frozenset[Matador], bunk_exhausted: bool
) -> tuple[MatadorPlay, ...]:
    """The matadors of one trick in playing order (several of one player's play: lower first),
    each with its team and whether it may lawfully be chanced.

    Raises:
        ValueError: as :func:`scoring.domain.rules.check_trick`.
    """
    check_trick(plays, leader_team, played_before)
    events: list[MatadorPlay] = []
    seen = set(played_before)
    for seat, play in enumerate(plays):
        team = leader_team if seat % 2 == 0 else other_team(leader_team)
        for matador in sorted(play.matadors):
            events.append(MatadorPlay(matador, team, chance_is_lawful(seat, matador, play, seen, bunk_exhausted)))
        seen |= play.matadors
    return tuple(events)


def score_danish_trick(events: Sequence[MatadorPlay], chanced: frozenset[int]) -> TrickBonus:
    """Score one trick's matador plays (``events``, from :func:`danish_events`) when the plays at
    the indexes ``chanced`` (Galhund or Brus) were chanced.

    Source: *Brus* (encyclopedia), "Chancing and smacking", sentence by sentence:

    * "The chancer scores a point unless the matador is 'smacked' by a higher card played by an
      opponent in which case the opposing side score two points": a lawfully chanced matador is
      smacked when *any* higher matador is played after it in the trick by an opponent (not only
      the next higher one, and also after a partner's higher card): 2 for the opponents;
      otherwise 1 for the chancer's team. Who wins the trick does not matter.
    * "If the ♠8 is chanced and smacked by the ♥K, but beaten in turn by the ♣J, it is an
      'oversmack' and worth 3 points, unless the ♥K was also chanced in which case it is worth 4
      points": a chanced Galhund smacked by an opponent's Brus, after which the chancer's team
      plays the Spids: 3 for the chancer's team, 4 if that Brus was chanced; this replaces the
      smack of the Galhund and the smack of the Brus by the Spids (who plays the Spids and who
      scores is our reading: the source does not say).
    * "If a card is found to be unlawfully chanced, it is automatically smacked": a chance that
      breaks a condition of :func:`chance_is_lawful` gives the opponents 2, whatever else is
      played to the trick.

    Our reading (docs/rules.md, "Danish Brus: our readings"): the scores of one trick add up, so
    both teams may score in it.
    """
    points = {TEAM_A: 0, TEAM_B: 0}
    settled: set[int] = set()
    for i in sorted(chanced):
        if i in settled:
            continue
        event = events[i]
        opponents = other_team(event.team)
        if not event.lawful:
            points[opponents] += DANISH_BONUSES.smack  # automatically smacked
            continue
        later = range(i + 1, len(events))
        smackers = [j for j in later if events[j].matador > event.matador and events[j].team == opponents]
        if not smackers:
            points[event.team] += DANISH_BONUSES.chance
            continue
        brus = next((j for j in smackers if events[j].matador == Matador.BRUUS), None)
        over = brus is not None and any(
            events[k].matador == Matador.SPITZ and events[k].team == event.team for k in range(brus + 1, len(events))
        )
        if event.matador == Matador.TOLLER_HUND and over:
            assert brus is not None
            points[event.team] += DANISH_BONUSES.oversmack_chanced if brus in chanced else DANISH_BONUSES.oversmack
            settled.add(brus)
        else:
            points[opponents] += DANISH_BONUSES.smack
    return TrickBonus(points[TEAM_A], points[TEAM_B])


def danish_trick_scorer(
    plays: Sequence[Play], *, leader_team: str, played_before: frozenset[Matador], bunk_exhausted: bool
) -> frozenset[TrickBonus]:
    """:func:`danish_trick` as a :data:`scoring.domain.rules.TrickScorer`."""
    return danish_trick(plays, leader_team=leader_team, played_before=played_before, bunk_exhausted=bunk_exhausted)


@functools.cache
def derive_danish_pairs() -> frozenset[tuple[int, int]]:
    """Every ``(bonus_a, bonus_b)`` chancing and smacking can give in one deal of Danish Brus.

    Source: *Brus* (encyclopedia), "Chancing and smacking"; the same model of a deal as
    Schwesing (:func:`scoring.domain.rules.enumerate_deals`: the three matadors, each played
    once, in any tricks, seats and holdings), each trick scored by :func:`danish_trick`: every
    Galhund and Brus chanced or not, lawfully or not.
    """
    return enumerate_deals(danish_trick_scorer)


@functools.cache
def derive_ringkobing_pairs() -> frozenset[tuple[int, int]]:
    """Danish Brus pairs plus the Ringkøbing hawk.

    Source: *Brus* (encyclopedia), "Ringkøbing variant": "If a 7 is played, an opponent
    with the ♣K can beat it, saying 'I'll hawk it', and score a bonus point." The ♣K is one card,
    played once, and it is not a matador, so a deal has no hawk or one hawk for either team, on
    top of whatever chancing and smacking gave.
    """
    hawk = DANISH_BONUSES.hawk
    hawks = ((0, 0), (hawk, 0), (0, hawk))
    return frozenset((a + ha, b + hb) for (a, b), (ha, hb) in itertools.product(derive_danish_pairs(), hawks))


# Danish Brus and Ringkøbing: derived from the model of chancing and smacking above, never written
# out, the first time they are needed (a tenth of a second; an evening of Schwesing never pays
# it): RuleSet.bonus_pairs, or the module attributes DANISH_BONUS_PAIRS and RINGKOBING_BONUS_PAIRS
# (see __getattr__ below). Beside Schwesing's pairs they hold (2, 2): an unlawful chance is
# automatically smacked, so both teams can score 2 in one deal (e.g. A's chanced ♥K smacked by
# B's ♣J, B 2; later, the talon exhausted, B chances the ♠8: A 2). Ringkøbing: each Danish pair,
# plus one hawk for either team.
DERIVED: Final = {"DANISH_BONUS_PAIRS": derive_danish_pairs, "RINGKOBING_BONUS_PAIRS": derive_ringkobing_pairs}


def __getattr__(name: str) -> frozenset[tuple[int, int]]:
    """``DANISH_BONUS_PAIRS`` and ``RINGKOBING_BONUS_PAIRS``, derived on first use (PEP 562)."""
    if name in DERIVED:
        return DERIVED[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Danish Brus: chancing and smacking (*Brus* (encyclopedia)).
CHANCING_MESSAGES: Final = BonusMessages(
    not_whole_number=gettext_noop(
        "Team %(team)s: please enter the matchsticks for chancing and smacking as a whole number."
    ),
    negative=gettext_noop("Team %(team)s: the matchsticks for chancing and smacking cannot be less than 0."),
    too_high=gettext_noop(
        "Team %(team)s: at most %(max_bonus)s matchsticks for chancing and smacking are possible in one deal."
    ),
    impossible_pair=gettext_noop(
        "Team A %(bonus_a)s and team B %(bonus_b)s matchsticks for chancing and smacking "
        "cannot both happen in one deal: if team %(team)s gets %(bonus)s, team %(other)s "
        "gets at most %(other_max)s."
    ),
)
#: Ringkøbing: chancing, smacking and hawking (*Brus* (encyclopedia), "Ringkøbing variant").
HAWKING_MESSAGES: Final = BonusMessages(
    not_whole_number=gettext_noop(
        "Team %(team)s: please enter the matchsticks for chancing, smacking and hawking as a whole number."
    ),
    negative=gettext_noop("Team %(team)s: the matchsticks for chancing, smacking and hawking cannot be less than 0."),
    too_high=gettext_noop(
        "Team %(team)s: at most %(max_bonus)s matchsticks for chancing, smacking and hawking are possible in one deal."
    ),
    impossible_pair=gettext_noop(
        "Team A %(bonus_a)s and team B %(bonus_b)s matchsticks for chancing, smacking and hawking "
        "cannot both happen in one deal: if team %(team)s gets %(bonus)s, team %(other)s "
        "gets at most %(other_max)s."
    ),
)


DANISH_RULES: Final = RuleSet(
    code=DANISH,
    name=gettext_noop("Danish Brus"),
    source='*Brus* (encyclopedia), "Chancing and smacking"; "Scoring"',
    cards=36,
    tricks_to_win=5,
    tricks_in_deal=9,
    derive_pairs=derive_danish_pairs,
    language="da",
    wording=Wording(
        won_column=gettext_noop("Most tricks"),
        winner_question=gettext_noop("Who won most tricks?"),
        to_nil=gettext_noop("5:0 (the first five tricks)"),
        to_nil_short=gettext_noop("5:0"),
        bonus=gettext_noop("Chancing and smacking"),
        legend=gettext_noop(
            "Most tricks: tick the team that won five tricks (1 matchstick, 2 for 5:0). Chancing and "
            "smacking with ♠8 Galhund, ♥K Brus, ♣J Spids: a chance not smacked 1; a chanced card "
            "followed by any higher matador of the opponents is smacked: 2 for them; oversmack 3, or 4 "
            "if the Brus was chanced. An unlawful chance is automatically smacked, so 2:2 can happen."
        ),
        bonus_note=gettext_noop(
            "Chance 1. Smacked by any higher matador of an opponent: 2 for them; oversmack 3, or 4 if the "
            "Brus was chanced. An unlawful chance (talon exhausted, last to the trick, or no higher matador "
            "left but in one's own hand) is automatically smacked: 2 for the opponents. So 2:2 can happen."
        ),
        bonus_messages=CHANCING_MESSAGES,
        tiebreak_label=gettext_noop("most matchsticks from chancing and smacking"),
        tiebreak_column=gettext_noop("Chancing and smacking"),
        tiebreak_ahead=gettext_noop("ahead of %(name)s by more matchsticks from chancing and smacking"),
        tiebreak_help=gettext_noop(
            "Only equal totals are compared; the ranking says which rule separated two players. Deals won: deals "
            "the player's team won. Chancing and smacking: the bonus matchsticks of the player's teams. Best "
            "session: sit-out credit included."
        ),
    ),
)

RINGKOBING_RULES: Final = RuleSet(
    code=RINGKOBING,
    name=gettext_noop("Danish Brus, Ringkøbing"),
    source='*Brus* (encyclopedia), "Ringkøbing variant"',
    cards=36,
    tricks_to_win=5,
    tricks_in_deal=9,
    derive_pairs=derive_ringkobing_pairs,
    language="da",
    wording=Wording(
        won_column=gettext_noop("Most tricks"),
        winner_question=gettext_noop("Who won most tricks?"),
        to_nil=gettext_noop("Jan (5:0)"),
        to_nil_short=gettext_noop("jan"),
        bonus=gettext_noop("Chancing, smacking and hawking"),
        legend=gettext_noop(
            "Most tricks: tick the team that won five tricks (1 matchstick, jan 5:0 2). Chancing and "
            "smacking with ♠8 Galhund, ♥K Brus, ♣J Spids: a chance not smacked 1; smacked by any higher "
            "matador of the opponents 2 for them; oversmack 3, or 4 if the Brus was chanced; an unlawful "
            "chance is automatically smacked. Hawking a Seven with the ♣K 1."
        ),
        bonus_note=gettext_noop(
            "Chance 1. Smacked by any higher matador of an opponent: 2 for them; oversmack 3, or 4 if the "
            "Brus was chanced. An unlawful chance (bunken exhausted, last to the trick, or no higher matador "
            "left but in one's own hand) is automatically smacked: 2 for the opponents. Hawk 1, once a deal. "
            "So 2:2 or 2:3 can happen."
        ),
        bonus_messages=HAWKING_MESSAGES,
        tiebreak_label=gettext_noop("most matchsticks from chancing, smacking and hawking"),
        tiebreak_column=gettext_noop("Chancing, smacking and hawking"),
        tiebreak_ahead=gettext_noop("ahead of %(name)s by more matchsticks from chancing, smacking and hawking"),
        tiebreak_help=gettext_noop(
            "Only equal totals are compared; the ranking says which rule separated two players. Deals won: deals "
            "the player's team won. Chancing, smacking and hawking: the bonus matchsticks of the player's teams. "
            "Best session: sit-out credit included."
        ),
    ),
)

#: This module's rule sets, in the order the organiser's list shows them.
RULES: Final = (DANISH_RULES, RINGKOBING_RULES)
