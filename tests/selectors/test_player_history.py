"""A register player's evenings (scoring.selectors.player_history): places, totals, partners, average, best evening."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import selectors, services
from scoring.models import Seating
from tests import factories
from tests.services.test_player_merge import small_evening

pytestmark = pytest.mark.django_db


@pytest.fixture
def anke_evenings():
    """Anke plays three evenings with the same three others (deals 2, 3, 4; team A wins every
    deal, 1 matchstick each); on the third the first deal has a successful dare for team A."""
    anke, *others = roster("Anke Hansen", "Bernd Jensen", "Carla Lorenzen", "Dirk Petersen")
    evenings = [small_evening(f"Abend {n}", n, [anke, *others], deals=n + 1) for n in (1, 2, 3)]
    _, _, seating = team_of(evenings[2], anke)
    factories.enter_deal(seating, bonus_a=1, table=None, reason="Wagen vergessen")
    return anke, evenings


def expected(anke, evenings):
    """(place, total, partner) per evening, worked out from the seatings: team A has one
    matchstick per deal (+1 for the dare on evening 3) and shares place 1; team B has 0, place 3."""
    out = []
    for index, evening in enumerate(evenings):
        letter, partner, _ = team_of(evening, anke)
        total = evening.deals_per_round + (1 if index == 2 else 0)
        out.append((1, total, partner) if letter == "A" else (3, 0, partner))
    return out


def test_history_figures(anke_evenings):
    anke, evenings = anke_evenings
    history = selectors.player_history(anke)
    wanted = expected(anke, evenings)
    assert [e.evening.name for e in history.evenings] == ["Abend 1", "Abend 2", "Abend 3"]
    assert [(e.place, e.total, e.partners[0][1]) for e in history.evenings] == wanted
    assert all(e.ranked == 4 and e.sessions_played == 1 for e in history.evenings)
    assert history.average == Fraction(sum(total for _, total, _ in wanted), 3)
    team_a_third = wanted[2][0] == 1
    assert history.bonus == (1 if team_a_third else 0)
    best = min(range(3), key=lambda i: (wanted[i][0], -wanted[i][1], i))
    assert history.best.evening == evenings[best]
    partners = {p.name: n for p, n in history.partners}
    assert sum(partners.values()) == 3


def roster(*names):
    return [services.add_player(name=n, club="Schwesing")[0] for n in names]


def team_of(evening, player):
    seating = Seating.objects.select_related(*selectors.PARTNERSHIP_PLAYERS).get(round__session__evening=evening)
    for letter, team in (("A", seating.team_a), ("B", seating.team_b)):
        if player in team.players:
            partner = next(p for p in team.players if p != player)
            return letter, partner, seating
    raise AssertionError("not seated")
