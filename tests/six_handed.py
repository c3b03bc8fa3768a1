"""A six-handed Bräus session (teams of three, tables of six) for the tests of what reads one
(documents, exports, fairness page, backup): drawn by the draw service
(:func:`scoring.services.draw_session`, teams of three for the rule set ``braeus6``), and the
helpers that read it back by names.
"""

from __future__ import annotations

from scoring import services
from scoring.models import Evening, Partnership, Player, Session


def draw_six_handed(evening: Evening, *, seed: int = 1) -> Session:
    """The evening's next session drawn in teams of three (the evening plays ``braeus6``)."""
    assert evening.rules.players_per_team == 3, evening.rule_set
    session = services.draw_session(evening=evening, seed=seed)
    assert all(p.player_3_id for p in session.partnerships.all())
    return session


def team_names(partnership: Partnership) -> list[str]:
    """The team's names in seat order (two or three)."""
    return [p.name for p in partnership.players]


def session_sitters(session: Session) -> list[Player]:
    """The players sitting out the whole session (0 to 2)."""
    return [p for p in (session.sitout_player, session.sitout_player_2) if p is not None]
