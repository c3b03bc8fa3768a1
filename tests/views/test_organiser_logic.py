"""What the organiser pages decide lives in services, selectors and forms (views parse and
render): whether the next session may be drawn, which deal is chosen, a round's totals, the
import preview."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from scoring import selectors, services
from scoring.forms import DealNumberForm
from scoring.models import Seating
from scoring.transfer.player_files import parse_player_file
from tests import factories
from tests.conftest import make_evening
from tests.services.test_draw_wishes import play_session


@pytest.mark.django_db
def test_the_draw_button_and_the_service_agree(organiser_client):
    evening = make_evening(8, sessions_count=2)
    page = reverse("organiser:evening_detail", args=[evening.pk])
    assert selectors.next_session_blocker(evening, []) is None
    assert organiser_client.get(page).context["can_draw"]
    first = services.draw_session(evening=evening, seed=1)
    assert selectors.next_session_blocker(evening, [first]).code == "previous_incomplete"
    assert not organiser_client.get(page).context["can_draw"]
    with pytest.raises(services.ServiceError) as refused:
        services.check_next_session_drawable(evening, [first])
    assert refused.value.code == "previous_incomplete"
    play_session(first)
    assert organiser_client.get(page).context["can_draw"]
    second = services.draw_session(evening=evening, seed=2)
    play_session(second)
    assert not organiser_client.get(page).context["can_draw"]
    with pytest.raises(services.ServiceError) as refused:
        services.check_next_session_drawable(evening, [first, second])
    assert refused.value.code == "all_drawn"


@pytest.mark.parametrize(
    ("post", "get", "valid", "deal"),
    [
        ({}, {}, True, 0),
        ({"number": "3"}, {}, True, 3),
        ({}, {"deal": "4"}, True, 4),
        ({"number": "2"}, {"deal": "4"}, True, 2),
        ({"number": "0"}, {}, False, 0),
        ({"number": "5"}, {}, False, 0),
        ({}, {"deal": "²"}, False, 0),
        ({}, {"deal": "-1"}, False, 0),
    ],
)
def test_the_deal_number_form(post, get, valid, deal):
    request = RequestFactory().post("/?" + "&".join(f"{k}={v}" for k, v in get.items()), post)
    form = DealNumberForm(request, deals_per_round=4)
    assert form.is_valid() == valid
    assert form.deal == deal
    if not valid:
        assert "a round has deals 1 to 4" in form.errors["number"][0] or "Spiele 1 bis 4" in form.errors["number"][0]


@pytest.mark.django_db
def test_seating_sheet_totals_and_rows():
    evening = make_evening(4)
    services.draw_session(evening=evening, seed=1)
    seating = Seating.objects.select_related("table").get(round__number=1)
    factories.enter_deal(seating, to_nil=True)
    factories.enter_deal(seating, 3, "B")
    sheet = selectors.seating_sheet(seating, evening.deals_per_round)
    assert (sheet.total_a, sheet.total_b) == (2, 1)
    assert [r.number for r in sheet.rows] == [1, 2, 3, 4]
    assert [r.deal is not None for r in sheet.rows] == [True, False, True, False]
    assert sheet.state == selectors.IN_PROGRESS and not sheet.all_entered


@pytest.mark.django_db
def test_import_preview_marks_known_players_and_translates_problems():
    services.add_player(name="Sönke Petersen", club="Schwesing")
    parsed = parse_player_file(b"Name;Verein\nS\xc3\xb6nke Petersen;Schwesing\nHauke Hansen;Treia\n;Husum\n", "l.csv")
    preview = selectors.import_preview(parsed)
    assert [(p.name, known) for p, known in preview.rows] == [("Sönke Petersen", True), ("Hauke Hansen", False)]
    assert preview.new_count == 1
    assert [line for line, _ in preview.problems] == [4]
    assert "4" in preview.problems[0][1]
