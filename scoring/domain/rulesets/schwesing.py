"""Schwesing (the default rule set) and Treia, the German game of North Frisia, with daring and
striking.

Sources (as docs/rules.md, "The sources", names them):

* Schwesing: McLeod, *Bruus*, "Scoring" and "Daring and Striking".
* Treia: McLeod, *Bruus*, "Treia Variant" (32 cards, 8 tricks, 4:4 is a *Bock*).

Decisions where the sources are silent (ours, see the help page): a Treia Bock carries its
matchstick to the winner of the next deal at the same table in the same round (several add up; a
Bock on the round's last deal lapses) and counts as one of the round's deals.

Standard library only: no Django import.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from scoring.domain.errors import gettext_noop
from scoring.domain.rulesets.base import BOCK, RuleSet, Wording

SCHWESING: Final = "schwesing"
TREIA: Final = "treia"


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


def _schwesing_pairs() -> frozenset[tuple[int, int]]:
    return SCHWESING_BONUS_PAIRS


SCHWESING_RULES: Final = RuleSet(
    code=SCHWESING,
    is_default=True,
    name=gettext_noop("Schwesing"),
    source='McLeod, *Bruus*, "Scoring"; "Daring and Striking"',
    cards=36,
    tricks_to_win=5,
    tricks_in_deal=9,
    derive_pairs=_schwesing_pairs,
    language="de",
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
)

TREIA_RULES: Final = RuleSet(
    code=TREIA,
    name=gettext_noop("Treia"),
    source='McLeod, *Bruus*, "Treia Variant"',
    cards=32,
    tricks_to_win=5,
    tricks_in_deal=8,
    # The matadors ♣J, ♥K and ♠8 are all in the 32-card pack: daring and striking as Schwesing.
    derive_pairs=_schwesing_pairs,
    language="de",
    no_winner=BOCK,
    # Schwesing's words; 4:4 and the legend are Treia's own.
    wording=replace(
        SCHWESING_RULES.wording,
        no_winner=gettext_noop("Bock (4:4)"),
        no_winner_short=gettext_noop("Bock"),
        legend=gettext_noop(
            "Five tricks of eight: tick the team that reached five tricks first (1 matchstick, 2 to "
            "nil). 4:4 is a Bock: write 4:4; its matchstick goes to the winner of the next deal (on the "
            "round's last deal it lapses). Daring and striking as in Schwesing: dare 1, strike 2, "
            "strike and dare onwards 3, counterstrike 4; both dared by one team 2, struck 3."
        ),
    ),
)

#: This module's rule sets, in the order the organiser's list shows them.
RULES: Final = (SCHWESING_RULES, TREIA_RULES)
