"""Bräus, the Gotland game, for four players and for six (two teams of three): six tricks (or
five and the ♣K) win, no bonuses, a deal nobody decides is a draw and dealt again.

Sources (as docs/rules.md, "The sources", names them): *Bräus* (Gotland) and *Bräus*
(encyclopedia) ("Playing", "Scoring", "Rules").

Decision where the sources are silent (ours, see the help page): a drawn Bräus deal is recorded
but does not use up one of the round's deals (the table deals again).

Standard library only: no Django import.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from scoring.domain.errors import gettext_noop
from scoring.domain.rulesets.base import DRAW, RuleSet, Wording

BRAEUS: Final = "braeus"
BRAEUS6: Final = "braeus6"

BRAEUS_RULES: Final = RuleSet(
    code=BRAEUS,
    name=gettext_noop("Bräus, four players"),
    source='*Bräus* (Gotland); *Bräus* (encyclopedia), "Playing"; "Scoring"',
    cards=36,
    tricks_to_win=6,
    tricks_in_deal=None,
    no_winner=DRAW,
    language="sv",
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
)
# Six-handed Bräus: the same deal and scoring, two teams of three at a table of six, partners
# alternating round the table (*Bräus* (Gotland); *Bräus* (encyclopedia), "Rules").
BRAEUS6_RULES: Final = dataclasses.replace(
    BRAEUS_RULES, code=BRAEUS6, name=gettext_noop("Bräus, six players"), players_per_team=3
)

#: This module's rule sets, in the order the organiser's list shows them.
RULES: Final = (BRAEUS_RULES, BRAEUS6_RULES)
