"""A realistic evening for the layout check (tests/browser/test_layout.py): the Schwesing demo roster
(26 players: six tables and two sit-outs a round), session 1 drawn, round 1 played and confirmed at
every table, and in round 2 one table in each state the tablet can show.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from scoring import services
from scoring.models import Evening, Seating, Table
from scoring.setup.builders import play_round, play_seating, random_result
from scoring.setup.demo import DEMO_SEED
from scoring.transfer.player_files import parse_player_file
from tests import factories
from tests.conftest import ROSTER

#: 30 characters, as in the issue that asked for this check.
EVENING_NAME = "Schwesinger Bruus-Abend Herbst"


@dataclass
class LayoutEvening:
    evening: Evening
    entering: Table  # round 2: two deals entered, the form for deal 3
    finished: Table  # round 2: every deal entered, "Runde abschließen" tapped by team A
    all_entered: Table  # round 2: every deal entered, not finished yet (the two finish buttons)
    confirmed: Table  # round 1 confirmed, round 2 not begun: where everyone sits next + the form
    entering_seating: Seating


def build_layout_evening(language: str = "de") -> LayoutEvening:
    """Create the evening (needs a database); see the module docstring."""
    evening = services.create_evening(name=EVENING_NAME, date=date(2026, 11, 21), venue="Dörpshus Schwesing")
    if language != "de":
        Evening.objects.filter(pk=evening.pk).update(language=language)
        evening.refresh_from_db()
    parsed = parse_player_file(ROSTER.read_bytes(), ROSTER.name)
    services.import_players(parsed.players, check_in_to=evening)
    session = services.draw_session(evening=evening, seed=DEMO_SEED)
    rng = random.Random(DEMO_SEED)
    seatings = Seating.objects.filter(round__session=session).select_related("table", "round__session__evening")
    play_round(session, 1, rng)
    second = {s.table.number: s for s in seatings.filter(round__number=2)}
    entering, finished, all_entered = second[1], second[2], second[4]
    for number in (1, 2):
        factories.enter_deal(entering, number, result=random_result(rng))
    for seating in (finished, all_entered):
        play_seating(seating, rng, complete=False)
    services.mark_seating_entered(seating_id=finished.pk, table=finished.table, team="A")
    # The round clock runs for round 2: every page that shows it is looked at with it.
    services.start_round_clock(evening_id=evening.pk, round_id=entering.round_id)
    return LayoutEvening(
        evening=evening,
        entering=entering.table,
        finished=finished.table,
        all_entered=all_entered.table,
        confirmed=second[3].table,
        entering_seating=entering,
    )
