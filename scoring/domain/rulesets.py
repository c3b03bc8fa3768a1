"""The rule sets an evening can be played by: Schwesing (the default), Treia, Danish Brus, Danish
Brus as played in Ringkøbing, and Bräus for four players.

Sources (as docs/rules.md, "The sources", names them):

* Schwesing: McLeod, *Bruus*, "Scoring" and "Daring and Striking".
* Treia: McLeod, *Bruus*, "Treia Variant" (32 cards, 8 tricks, 4:4 is a *Bock*).
* Danish Brus: *Brus* (encyclopedia), "Chancing and smacking" and "Scoring".
* Ringkøbing: *Brus* (encyclopedia), "Ringkøbing variant" (hawking a Seven with ♣K, *jan*).
* Bräus: *Bräus* (Gotland) and *Bräus* (encyclopedia) ("Playing", "Scoring").

A :class:`RuleSet` is a value: what a deal's result consists of (a winning team, "to nil", a
bonus per team, or for some rule sets no winner: a Treia *Bock* or a Bräus draw), which results
are legal, and their matchsticks. Each rule set with bonuses derives its possible bonus pairs
from a model of its own rules (``tests/domain/test_rulesets.py`` and
``tests/domain/test_danish_brus.py`` prove each set against a derivation of their own); the
texts of a rule set (names, tablet labels, legends, refusals) are English msgids, German in the
catalogue: each rule set speaks of its own bonuses (Schwesing and Treia daring and striking,
the Danish rule sets chancing and smacking).

Decisions where the sources are silent (ours, see the help page): fixed deals for every rule set
(no "game to N", no rubber rules, no Treia double game); a Treia Bock carries its matchstick to the
winner of the next deal at the same table in the same round (several add up; a Bock on the round's
last deal lapses) and counts as one of the round's deals; a drawn Bräus deal is recorded but does
not use up one of the round's deals (the table deals again).

Standard library only: no Django import.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scoring.domain.errors import gettext_noop
from scoring.domain.rules import (
    SEATS_PER_TRICK,
    TEAM_A,
    TEAM_B,
    TEAMS,
    DealResult,
    DealScore,
    ImpossibleResult,
    Matador,
    Play,
    TrickBonus,
    check_trick,
    enumerate_deals,
    other_team,
)

#: ``DealResult.winner`` of a Treia deal the teams split 4:4: nobody wins it (a *Bock*).
BOCK: Final = "bock"
#: ``DealResult.winner`` of a Bräus deal nobody could decide: recorded, then dealt again.
DRAW: Final = "draw"

SCHWESING: Final = "schwesing"
TREIA: Final = "treia"
DANISH: Final = "danish"
RINGKOBING: Final = "ringkobing"
BRAEUS: Final = "braeus"
BRAEUS6: Final = "braeus6"

NO_BONUS: Final[frozenset[tuple[int, int]]] = frozenset({(0, 0)})


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


# Schwesing (and Treia): the result of scoring.domain.rules.derive_bonus_pairs(), written out
# (tests/domain/test_rulesets.py proves them equal). Every score of 2 or more
# needs the Bruus, which is played once, so only one trick in a deal can give 2 or more. How each
# pair arises (shown for team A first; the mirror is the same):
SCHWESING_BONUS_PAIRS: Final[frozenset[tuple[int, int]]] = frozenset(
    {
        (0, 0),  # no dare, or none that counts
        (1, 0), (0, 1),  # one successful dare of ♠8 or of ♥K
        (2, 0), (0, 2),  # a strike of ♠8 or of ♥K; a dare of both in one trick;
        #                  or a dare of ♠8 and, in a later trick, a dare of ♥K by the same team
        (1, 1),  # A dares ♠8, and in a later trick B dares ♥K
        (3, 0), (0, 3),  # a strike of ♠8 with an onward dare of ♥K; a strike by ♣J after a dare
        #                  of both; or A dares ♠8, then in a later trick strikes B's ♥K by ♣J
        (1, 2), (2, 1),  # A dares ♠8, then in a later trick dares ♥K and B strikes it by ♣J
        (4, 0), (0, 4),  # counterstrike (Generalschlag)
    }
)  # fmt: skip
# Danish Brus and Ringkøbing: derived from the model of chancing and smacking above, never written
# out, the first time they are needed (a tenth of a second; an evening of Schwesing never pays
# it): RuleSet.bonus_pairs, or the module attributes DANISH_BONUS_PAIRS and RINGKOBING_BONUS_PAIRS
# (see __getattr__ below). Beside Schwesing's pairs they hold (2, 2): an unlawful chance is
# automatically smacked, so both teams can score 2 in one deal (e.g. A's chanced ♥K smacked by
# B's ♣J, B 2; later, the talon exhausted, B chances the ♠8: A 2). Ringkøbing: each Danish pair,
# plus one hawk for either team.
_DERIVED: Final = {"DANISH_BONUS_PAIRS": derive_danish_pairs, "RINGKOBING_BONUS_PAIRS": derive_ringkobing_pairs}


def __getattr__(name: str) -> frozenset[tuple[int, int]]:
    """``DANISH_BONUS_PAIRS`` and ``RINGKOBING_BONUS_PAIRS``, derived on first use (PEP 562)."""
    if name in _DERIVED:
        return _DERIVED[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _schwesing_pairs() -> frozenset[tuple[int, int]]:
    return SCHWESING_BONUS_PAIRS


def _no_bonus() -> frozenset[tuple[int, int]]:
    return NO_BONUS


# --------------------------------------------------------------------------------------------
# The bonuses of one result, against the pairs of a rule set
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BonusMessages:
    """The refusals of a bonus, in the words of a rule set's bonuses (English msgids; each takes
    the parameters :func:`check_bonuses` names)."""

    not_whole_number: str
    negative: str
    too_high: str
    impossible_pair: str


#: Schwesing and Treia: daring and striking.
DARING_MESSAGES: Final = BonusMessages(
    not_whole_number=gettext_noop(
        "Team %(team)s: please enter the matchsticks for daring and striking as a whole number."
    ),
    negative=gettext_noop("Team %(team)s: the matchsticks for daring and striking cannot be less than 0."),
    too_high=gettext_noop(
        "Team %(team)s: at most %(max_bonus)s matchsticks for daring and striking are possible in one deal."
    ),
    impossible_pair=gettext_noop(
        "Team A %(bonus_a)s and team B %(bonus_b)s matchsticks for daring and striking "
        "cannot both happen in one deal: if team %(team)s gets %(bonus)s, team %(other)s "
        "gets at most %(other_max)s."
    ),
)
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


def check_bonuses(
    bonus_a: object,
    bonus_b: object,
    pairs: frozenset[tuple[int, int]],
    messages: BonusMessages = DARING_MESSAGES,
) -> None:
    """Check the two teams' bonuses (matchsticks) against the possible ``pairs`` of a rule set.

    ``messages``: the refusals in the words of the rule set's bonuses (:attr:`Wording.bonus_messages`).

    Raises:
        ImpossibleResult: a bonus is not a whole number (``int``, not ``bool``), is negative or
            is above the largest in ``pairs``; or the pair is not in ``pairs``. Parameters:
            ``team``; ``max_bonus``; ``bonus_a``, ``bonus_b``, ``team``, ``bonus``, ``other``,
            ``other_max``.
    """
    max_bonus = max(max(pair) for pair in pairs)
    bonuses = {TEAM_A: bonus_a, TEAM_B: bonus_b}
    for team, bonus in bonuses.items():
        if not isinstance(bonus, int) or isinstance(bonus, bool):
            raise ImpossibleResult(messages.not_whole_number, code="bonus_not_whole_number", team=team)
        if bonus < 0:
            raise ImpossibleResult(messages.negative, code="bonus_negative", team=team)
        if bonus > max_bonus:
            raise ImpossibleResult(messages.too_high, code="bonus_too_high", team=team, max_bonus=max_bonus)
    if (bonus_a, bonus_b) not in pairs:
        # Explain from the team with more, as the scorer is surest about the bigger event. For
        # each bonus of one team, the other team's possible bonuses run from 0 to a maximum.
        a, b = int(bonus_a), int(bonus_b)  # type: ignore[call-overload]
        team = TEAM_A if a >= b else TEAM_B
        other = other_team(team)
        bonus = a if team == TEAM_A else b
        raise ImpossibleResult(
            messages.impossible_pair,
            code="impossible_bonus_pair",
            bonus_a=a,
            bonus_b=b,
            team=team,
            bonus=bonus,
            other=other,
            other_max=_max_other_bonus(team, bonus, pairs),
        )


def _max_other_bonus(team: str, bonus: int, pairs: frozenset[tuple[int, int]]) -> int:
    """The largest bonus the opponents of ``team`` can win in a deal in which ``team`` wins
    ``bonus`` (0 to the largest in ``pairs``), from ``pairs``."""
    if team == TEAM_A:
        return max((b for a, b in pairs if a == bonus), default=0)
    return max((a for a, b in pairs if b == bonus), default=0)


# --------------------------------------------------------------------------------------------
# The rule set value
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Wording:
    """What the tablet and the printouts call the parts of a result (English msgids).

    Attributes:
        winner_question: the question above the team buttons.
        won_column: the heading of the column naming the winning team.
        to_nil: the "opponents took no trick" box (zu Null, 5:0, jan, Jan).
        to_nil_short: the same in a table cell.
        bonus: the bonus of one team, or "" for a rule set without bonuses.
        no_winner: the button for a deal nobody wins (Bock, draw), or "".
        no_winner_short: the same in a table cell, or "".
        legend: the rules in one paragraph, for the foot of the paper score sheet.
        bonus_note: what the bonuses are worth and why an unusual pair is possible, under the
            tablet's bonus buttons, or "".
        bonus_messages: the refusals of a bonus in the words of this rule set's bonuses.
    """

    winner_question: str
    won_column: str
    to_nil: str
    to_nil_short: str
    bonus: str = ""
    no_winner: str = ""
    no_winner_short: str = ""
    legend: str = ""
    bonus_note: str = ""
    bonus_messages: BonusMessages = DARING_MESSAGES


@dataclass(frozen=True)
class RuleSet:
    """The rules an evening's deals are entered and scored by.

    Attributes:
        code: stored with the evening (``"schwesing"``, ``"treia"``, ...).
        name: the rule set's name (English msgid).
        source: the source text and section the rules come from, as docs/rules.md names them.
        cards: cards in the pack.
        tricks_to_win: tricks a team needs to win a deal (5, or 6 in Bräus).
        tricks_in_deal: tricks dealt (9; 8 in Treia; Bräus has no fixed number: players pass).
        players_per_team: 2, or 3 for six-handed Bräus (two teams of three at a table of six,
            partners alternating round the table; *Bräus* (Gotland)).
        derive_pairs: gives :attr:`bonus_pairs` (cached: the Danish rule sets derive them on
            first use).
        bonus_pairs (property): every ``(bonus_a, bonus_b)`` of one deal, in matchsticks;
            ``{(0, 0)}`` when the rule set has no bonuses.
        no_winner: :data:`BOCK`, :data:`DRAW` or ``""``: what a deal nobody wins is.
        wording: the names of the parts of a result.
    """

    code: str
    name: str
    source: str
    cards: int
    tricks_to_win: int
    tricks_in_deal: int | None
    wording: Wording
    players_per_team: int = 2
    derive_pairs: Callable[[], frozenset[tuple[int, int]]] = _no_bonus
    no_winner: str = ""

    @property
    def players_per_table(self) -> int:
        """Players at one table: two teams."""
        return 2 * self.players_per_team

    @property
    def bonus_pairs(self) -> frozenset[tuple[int, int]]:
        """Every ``(bonus_a, bonus_b)`` of one deal, in matchsticks (``{(0, 0)}`` without bonuses)."""
        return self.derive_pairs()

    @property
    def has_bonus(self) -> bool:
        """The rule set scores bonuses (daring and striking, chancing and smacking)."""
        return self.bonus_pairs != NO_BONUS

    @property
    def max_bonus(self) -> int:
        """The largest bonus one team can win in one deal (0 without bonuses)."""
        return max(max(pair) for pair in self.bonus_pairs)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The values ``DealResult.winner`` may take: the teams, then :attr:`no_winner` if any."""
        return TEAMS + ((self.no_winner,) if self.no_winner else ())

    def uses_deal(self, result: DealResult) -> bool:
        """Whether the result is one of the round's deals (a Bräus draw is not: dealt again)."""
        return result.winner != DRAW

    def check_result(self, result: DealResult) -> None:
        """Check that ``result`` can happen in one deal under this rule set.

        Raises:
            ImpossibleResult: the winner is not one of :attr:`outcomes` (``invalid_winner``);
                ``to_nil`` is not a bool, or set for a deal nobody won (``invalid_to_nil``); a
                bonus in a rule set without bonuses or in a draw (``no_bonus``); a bonus or pair
                of bonuses :func:`check_bonuses` refuses.
        """
        if result.winner not in self.outcomes:
            if self.no_winner == BOCK:
                message = gettext_noop("Please choose the team that won the deal (A or B), or Bock.")
            elif self.no_winner == DRAW:
                message = gettext_noop("Please choose the team that won the deal (A or B), or draw.")
            else:
                message = gettext_noop("Please choose the team that won the deal: A or B.")
            raise ImpossibleResult(message, code="invalid_winner")
        if not isinstance(result.to_nil, bool):
            raise ImpossibleResult(
                gettext_noop("Please say whether the losing team took no trick at all: yes or no."),
                code="invalid_to_nil",
            )
        if result.to_nil and result.winner not in TEAMS:
            raise ImpossibleResult(
                gettext_noop("Nobody won this deal, so it cannot be won to nil."), code="invalid_to_nil"
            )
        if (not self.has_bonus or result.winner == DRAW) and (result.bonus_a, result.bonus_b) != (0, 0):
            raise ImpossibleResult(
                gettext_noop("These rules have no bonus matchsticks: please enter 0 for both teams."),
                code="no_bonus",
            )
        check_bonuses(result.bonus_a, result.bonus_b, self.bonus_pairs, self.wording.bonus_messages)

    def score_deal(self, result: DealResult, carried: int = 0) -> DealScore:
        """The matchsticks of one deal: the winner 1, or 2 to nil, plus ``carried`` (Bocks before
        it); each team adds its bonus. A Bock or a draw gives no team the trick points.

        Raises:
            ImpossibleResult: see :meth:`check_result`.
        """
        self.check_result(result)
        return self._points(result, carried)

    def score_accepted(self, result: DealResult, carried: int = 0) -> DealScore:
        """Score a result the organiser accepted although :meth:`check_result` calls its
        bonuses impossible (a local custom, with a written reason): trick points as
        :meth:`score_deal`, each bonus as entered.

        Raises:
            ImpossibleResult: the winner or "to nil" is not valid (never accepted).
        """
        self.check_result(DealResult(result.winner, result.to_nil, 0, 0))
        return self._points(result, carried)

    def _points(self, result: DealResult, carried: int) -> DealScore:
        tricks = (2 if result.to_nil else 1) + carried
        return DealScore(
            a=result.bonus_a + (tricks if result.winner == TEAM_A else 0),
            b=result.bonus_b + (tricks if result.winner == TEAM_B else 0),
        )

    def carry_after(self, result: DealResult, carried: int) -> int:
        """The matchsticks carried into the next deal: ``carried + 1`` after a Bock, else 0."""
        return carried + 1 if result.winner == BOCK else 0

    def score_round(
        self, results: Mapping[int, DealResult], deals: int, accepted: Iterable[int] = ()
    ) -> dict[int, DealScore]:
        """Score the entered deals of one round at one table, carrying Bocks.

        Args:
            results: deal number (1..``deals``) -> result; deals not entered yet are missing.
            deals: the round's deals (the evening's deals per round).
            accepted: deal numbers the organiser accepted although impossible.

        Returns:
            Deal number -> matchsticks. A Bock's matchstick goes to the winner of the next
            deal (several Bocks add up); one on the round's last deal lapses; a deal not
            entered yet keeps what is carried to it (later deals get nothing from before it).

        Raises:
            ImpossibleResult: a result the rules refuse that is not in ``accepted``.
        """
        accepted = frozenset(accepted)
        scores: dict[int, DealScore] = {}
        carried = 0
        for number in range(1, deals + 1):
            result = results.get(number)
            if result is None:
                carried = 0
                continue
            score = self.score_accepted if number in accepted else self.score_deal
            scores[number] = score(result, carried)
            carried = self.carry_after(result, carried)
        return scores

    def carried_into(self, results: Mapping[int, DealResult], number: int) -> int:
        """Matchsticks carried into deal ``number`` by Bocks just before it (0 in most rule sets)."""
        carried = 0
        for n in range(1, number):
            result = results.get(n)
            carried = 0 if result is None else self.carry_after(result, carried)
        return carried

    def legal_results(self) -> list[DealResult]:
        """Every result :meth:`check_result` accepts, in a fixed order (winner, to nil, bonuses)."""
        results = []
        for winner in self.outcomes:
            for to_nil in (False, True) if winner in TEAMS else (False,):
                pairs = sorted(self.bonus_pairs) if winner != DRAW else [(0, 0)]
                results += [DealResult(winner, to_nil, a, b) for a, b in pairs]
        return results

    def points_table(self, max_carried: int) -> dict[str, list[int]]:
        """For the tablet's preview of entries kept offline: ``"winner|to_nil|bonus_a|bonus_b|
        carried"`` -> ``[points_a, points_b, carried_after, uses_deal]`` for every legal result
        and ``carried`` in 0..``max_carried`` (``to_nil`` as 0/1). The page looks numbers up here
        instead of knowing the rules."""
        carries = range(max_carried + 1) if self.no_winner == BOCK else range(1)
        table = {}
        for result, carried in itertools.product(self.legal_results(), carries):
            score = self._points(result, carried)
            key = f"{result.winner}|{int(result.to_nil)}|{result.bonus_a}|{result.bonus_b}|{carried}"
            table[key] = [score.a, score.b, self.carry_after(result, carried), int(self.uses_deal(result))]
        return table


RULE_SETS: Final[dict[str, RuleSet]] = {
    SCHWESING: RuleSet(
        code=SCHWESING,
        name=gettext_noop("Schwesing"),
        source='McLeod, *Bruus*, "Scoring"; "Daring and Striking"',
        cards=36,
        tricks_to_win=5,
        tricks_in_deal=9,
        derive_pairs=_schwesing_pairs,
        wording=Wording(
            won_column=gettext_noop("Five tricks"),
            winner_question=gettext_noop("Who reached five tricks?"),
            to_nil=gettext_noop("To nil (opponents took no trick)"),
            to_nil_short=gettext_noop("to nil"),
            bonus=gettext_noop("Daring and striking"),
            legend=gettext_noop(
                "Five tricks: tick the team that reached five tricks first (1 matchstick, 2 to nil). "
                "Daring and striking with ♠8 Toller Hund, ♥K Bruus, ♣J Spitz: successful dare 1, "
                "strike 2, strike and dare onwards 3, counterstrike 4; both dared by one team 2, struck 3."
            ),
        ),
    ),
    TREIA: RuleSet(
        code=TREIA,
        name=gettext_noop("Treia"),
        source='McLeod, *Bruus*, "Treia Variant"',
        cards=32,
        tricks_to_win=5,
        tricks_in_deal=8,
        # The matadors ♣J, ♥K and ♠8 are all in the 32-card pack: daring and striking as Schwesing.
        derive_pairs=_schwesing_pairs,
        no_winner=BOCK,
        wording=Wording(
            won_column=gettext_noop("Five tricks"),
            winner_question=gettext_noop("Who reached five tricks?"),
            to_nil=gettext_noop("To nil (opponents took no trick)"),
            to_nil_short=gettext_noop("to nil"),
            bonus=gettext_noop("Daring and striking"),
            no_winner=gettext_noop("Bock (4:4)"),
            no_winner_short=gettext_noop("Bock"),
            legend=gettext_noop(
                "Five tricks of eight: tick the team that reached five tricks first (1 matchstick, 2 to "
                "nil). 4:4 is a Bock: write 4:4; its matchstick goes to the winner of the next deal (on the "
                "round's last deal it lapses). Daring and striking as in Schwesing: dare 1, strike 2, "
                "strike and dare onwards 3, counterstrike 4; both dared by one team 2, struck 3."
            ),
        ),
    ),
    DANISH: RuleSet(
        code=DANISH,
        name=gettext_noop("Danish Brus"),
        source='*Brus* (encyclopedia), "Chancing and smacking"; "Scoring"',
        cards=36,
        tricks_to_win=5,
        tricks_in_deal=9,
        derive_pairs=derive_danish_pairs,
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
        ),
    ),
    RINGKOBING: RuleSet(
        code=RINGKOBING,
        name=gettext_noop("Danish Brus, Ringkøbing"),
        source='*Brus* (encyclopedia), "Ringkøbing variant"',
        cards=36,
        tricks_to_win=5,
        tricks_in_deal=9,
        derive_pairs=derive_ringkobing_pairs,
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
        ),
    ),
    BRAEUS: RuleSet(
        code=BRAEUS,
        name=gettext_noop("Bräus, four players"),
        source='*Bräus* (Gotland); *Bräus* (encyclopedia), "Playing"; "Scoring"',
        cards=36,
        tricks_to_win=6,
        tricks_in_deal=None,
        no_winner=DRAW,
        wording=Wording(
            won_column=gettext_noop("Six tricks"),
            winner_question=gettext_noop("Who reached six tricks (or five and ♣K)?"),
            to_nil=gettext_noop("Jan (6:0)"),
            to_nil_short=gettext_noop("Jan"),
            no_winner=gettext_noop("Draw, deal again"),
            no_winner_short=gettext_noop("Draw"),
            legend=gettext_noop(
                "Six tricks: tick the team that took six tricks, or five and holds the ♣K (1 matchstick, "
                "Jan 6:0 2). No bonuses. A draw scores nothing and is not a deal here: the same dealer "
                "deals again."
            ),
        ),
    ),
}
# Six-handed Bräus: the same deal and scoring, two teams of three at a table of six, partners
# alternating round the table (*Bräus* (Gotland); *Bräus* (encyclopedia), "Rules").
RULE_SETS[BRAEUS6] = dataclasses.replace(
    RULE_SETS[BRAEUS], code=BRAEUS6, name=gettext_noop("Bräus, six players"), players_per_team=3
)

DEFAULT: Final = SCHWESING


def rule_set(code: str) -> RuleSet:
    """The rule set stored as ``code``; Schwesing for an empty code.

    Raises:
        KeyError: unknown code.
    """
    return RULE_SETS[code or DEFAULT]
