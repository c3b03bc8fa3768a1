"""The played evening of the backup tests, entered through the services as the tablets and the
organiser would (tests/backup/conftest.py builds it once per test process)."""

from __future__ import annotations

import random
import uuid

from scoring import services
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.models import DealChange, Evening, Participant, Round, Seating, Session
from tests import factories
from tests.conftest import make_roster_evening

POSSIBLE = [(0, 0), (1, 0), (0, 1), (2, 0), (0, 2), (1, 1), (3, 0), (0, 3), (2, 1), (1, 2), (4, 0), (0, 4)]


def play_session(evening, user, seed: int, rng: random.Random, complete: bool = True, deals: int | None = None):
    """Draw a session and enter its deals through the services, like the tablets do."""
    session = services.draw_session(evening=evening, user=user, seed=seed)
    for seating in Seating.objects.filter(round__session=session).order_by("round__number", "table__number"):
        for number in range(1, (deals or evening.deals_per_round) + 1):
            a, b = rng.choice(POSSIBLE)
            result = DealResult(rng.choice("AB"), rng.random() < 0.15, a, b)
            factories.enter_deal(
                seating, number, result=result, table=None, origin=Origin.table_link(seating.table.number)
            )
        if complete:
            services.enter_and_confirm_seating(seating_id=seating.pk)
    return session


def build_played_evening(organiser) -> Evening:
    """The Schwesing roster: session 1 complete, with an organiser's correction and an accepted
    "impossible" result; session 2 drawn and half entered; fields beyond the defaults set, so that
    a round trip has something to lose."""
    evening = make_roster_evening()
    rng = random.Random(11)
    play_session(evening, organiser, seed=5, rng=rng)
    seating = Seating.objects.filter(round__session__evening=evening).order_by("pk").first()
    factories.enter_deal(seating, 2, "B", to_nil=True, bonus_b=1, user=organiser, reason="Zählfehler")
    factories.enter_deal(seating, 3, bonus_a=3, bonus_b=3, user=organiser, reason="Hausregel", accept_impossible=True)
    play_session(evening, organiser, seed=6, rng=rng, complete=False, deals=2)
    Participant.objects.filter(evening=evening, player__name="Tom Whitfield").update(checked_in=False)
    Evening.objects.filter(pk=evening.pk).update(ranking_hidden=True)
    Session.objects.filter(evening=evening, number=1).update(closed=True)
    Round.objects.filter(session__evening=evening, session__number=1, number=4).update(locked=True)
    Seating.objects.filter(pk=seating.pk).update(
        confirmed_by=organiser, **Origin.organiser(organiser).fields("confirmed_"), entered_by="B"
    )
    DealChange.objects.filter(deal__seating=seating).update(client="192.168.178.23")
    DealChange.objects.filter(pk=DealChange.objects.filter(deal__seating=seating).first().pk).update(
        submission=uuid.UUID("5b1c0d6e-8f43-4f0a-9a57-0b3c2f1e7d42")
    )
    return Evening.objects.get(pk=evening.pk)
