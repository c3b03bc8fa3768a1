"""The rule sets an evening can be played by: Schwesing (the default), Treia, Danish Brus,
Danish Brus as played in Ringkøbing, and Bräus for four and for six players.

One module per game or family, each holding its rules, points and words:

* :mod:`.schwesing`: Schwesing and Treia (daring and striking);
* :mod:`.danish`: Danish Brus and Ringkøbing (chancing and smacking, hawking);
* :mod:`.braeus`: Bräus for four and for six (no bonuses, draws dealt again);
* :mod:`.base`: what every rule set is made of (:class:`RuleSet`, :class:`Wording`).

A :class:`RuleSet` is a value: what a deal's result consists of (a winning team, "to nil", a
bonus per team, or for some rule sets no winner: a Treia *Bock* or a Bräus draw), which results
are legal, and their matchsticks. Each rule set with bonuses derives its possible bonus pairs
from a model of its own rules (``tests/domain/test_rulesets.py`` and
``tests/domain/test_danish_brus.py`` prove each set against a derivation of their own); the
texts of a rule set (names, tablet labels, legends, refusals) are English msgids, German in the
catalogue: each rule set speaks of its own bonuses (Schwesing and Treia daring and striking,
the Danish rule sets chancing and smacking).

Decisions where the sources are silent (ours, see the help page): fixed deals for every rule set
(no "game to N", no rubber rules, no Treia double game); the others are named in each game's
module.

Every name this package had as a single module is still importable from here.

Standard library only: no Django import.
"""

from __future__ import annotations

from typing import Final

from scoring.domain.rulesets import braeus, danish, schwesing
from scoring.domain.rulesets.base import (
    BOCK,
    DARING_MESSAGES,
    DRAW,
    NO_BONUS,
    BonusMessages,
    RuleSet,
    Wording,
    check_bonuses,
)
from scoring.domain.rulesets.braeus import BRAEUS, BRAEUS6
from scoring.domain.rulesets.danish import (
    CHANCEABLE,
    CHANCING_MESSAGES,
    DANISH,
    DANISH_BONUSES,
    HAWKING_MESSAGES,
    RINGKOBING,
    DanishBonuses,
    MatadorPlay,
    chance_is_lawful,
    danish_events,
    danish_trick,
    danish_trick_scorer,
    derive_danish_pairs,
    derive_ringkobing_pairs,
    score_danish_trick,
)
from scoring.domain.rulesets.schwesing import SCHWESING, SCHWESING_BONUS_PAIRS, TREIA

__all__ = [
    "BOCK",
    "BRAEUS",
    "BRAEUS6",
    "CHANCEABLE",
    "CHANCING_MESSAGES",
    "DANISH",
    "DANISH_BONUSES",
    "DARING_MESSAGES",
    "DEFAULT",
    "DRAW",
    "HAWKING_MESSAGES",
    "NO_BONUS",
    "RINGKOBING",
    "RULE_SETS",
    "SCHWESING",
    "SCHWESING_BONUS_PAIRS",
    "TREIA",
    "BonusMessages",
    "DanishBonuses",
    "MatadorPlay",
    "RuleSet",
    "Wording",
    "chance_is_lawful",
    "check_bonuses",
    "danish_events",
    "danish_trick",
    "danish_trick_scorer",
    "derive_danish_pairs",
    "derive_ringkobing_pairs",
    "rule_set",
    "score_danish_trick",
]

#: Every rule set by its stored code, in the order the organiser's list shows them.
RULE_SETS: Final[dict[str, RuleSet]] = {rules.code: rules for rules in (*schwesing.RULES, *danish.RULES, *braeus.RULES)}

#: The code of the rule set an evening has unless the organiser chooses another (its ``is_default``).
DEFAULT: Final = next(code for code, rules in RULE_SETS.items() if rules.is_default)


def rule_set(code: str) -> RuleSet:
    """The rule set stored as ``code``; Schwesing for an empty code.

    Raises:
        KeyError: unknown code.
    """
    return RULE_SETS[code or DEFAULT]


def __getattr__(name: str) -> frozenset[tuple[int, int]]:
    """``DANISH_BONUS_PAIRS`` and ``RINGKOBING_BONUS_PAIRS``, derived on first use (PEP 562;
    :mod:`.danish`)."""
    if name in danish.DERIVED:
        return danish.DERIVED[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
