"""The fairness page (Fairness der Auslosung) after a drawn evening: its repeated opponents against
the bound of the partnerships drawn and against the bound the draw planned towards."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.setup import builders
from tests.conftest import make_evening


def _play_session(session) -> None:
    builders.play_session(
        session, result=DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0), origin=Origin.other("t")
    )


@pytest.mark.django_db
def test_the_fairness_page_shows_the_evening_against_the_bound_the_draw_planned_towards(organiser_client):
    evening = make_evening(22)
    for number, seed in enumerate((3, 4, 5), start=1):
        session = services.draw_session(evening=evening, seed=seed)
        if number < 3:
            _play_session(session)
    assert session.plan_bound == 9  # 22 players, 3 sessions of 4 rounds
    response = organiser_client.get(reverse("organiser:fairness", args=[evening.pk]))
    report = response.context["report"]
    assert report.sessions_drawn == 3 and report.planned_bound == 9
    page = response.content.decode()
    assert f"Wiederholte Gegner: {report.repeated_opponents} (untere Schranke: {report.lower_bound})." in page
    assert (
        "Die Auslosung hat den Abend auf die wenigsten wiederholten Gegner hin geplant, "
        "die eine Auslosung so vieler Spieler haben kann: 9."
    ) in page
