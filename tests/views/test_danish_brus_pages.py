"""Danish Brus and Ringkøbing at the table and on the organiser's pages, in their own words
(source *Brus* (encyclopedia), "Chancing and smacking"):

- the scorer enters 2:2 in Danish Brus (an unlawful chance is automatically smacked) and 2:3 in
  Ringkøbing; the tablet explains why 2:2 is possible; what is still impossible is refused in
  words of chancing and smacking, never the German game's Wagen und Schlagen;
- the round page, the deal list and the score sheet speak each rule set's words: Bräus six
  tricks, never "Fünf Stiche"; Danish Brus chancing and smacking.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.domain.rulesets import BRAEUS, DANISH, RINGKOBING, SCHWESING
from scoring.models import Deal, Evening, Seating
from tests.conftest import make_evening
from tests.tracing import pdf_texts

pytestmark = pytest.mark.django_db


def first_seating(rule_set: str) -> Seating:
    evening = make_evening(8, rule_set=rule_set, name=f"Abend {rule_set} {Evening.objects.count() + 1}")
    session = services.draw_session(evening=evening, seed=1)
    return Seating.objects.filter(round__session=session).order_by("round__number", "table__number").first()


def post_deal(client, seating: Seating, winner: str, bonus_a: int, bonus_b: int, to_nil: bool = False):
    data = {"seating": seating.pk, "winner": winner, "bonus_a": bonus_a, "bonus_b": bonus_b, "version": 0}
    if to_nil:
        data["to_nil"] = "on"
    return client.post(reverse("scorer:deal", args=[seating.table.token, 1]), data)


@pytest.mark.parametrize("winner", ["A", "B"])
@pytest.mark.parametrize("five_nil", [False, True])
def test_the_scorer_enters_2_to_2_in_danish_brus(client, winner, five_nil):
    seating = first_seating(DANISH)
    page = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    # The explanation under the bonus buttons says why 2:2 is possible, in Danish Brus's words.
    assert 'data-testid="bonus-note"' in page
    assert "Eine unerlaubte Chance" in page and "automatisch gesmækt" in page and "z. B. 2:2" in page
    assert "Chancen und Smækken, Team A" in page and "Wagen" not in page and "Schlagen" not in page
    response = post_deal(client, seating, winner, 2, 2, five_nil)
    assert response.status_code == 302, response.content.decode()[:400]
    deal = Deal.objects.get(seating=seating, number=1)
    trick = 2 if five_nil else 1
    assert (deal.bonus_a, deal.bonus_b) == (2, 2)
    assert (deal.points_a, deal.points_b) == (2 + trick * (winner == "A"), 2 + trick * (winner == "B"))


@pytest.mark.parametrize(("bonus_a", "bonus_b"), [(2, 3), (3, 2)])
def test_the_scorer_enters_2_to_3_in_ringkobing(client, bonus_a, bonus_b):
    seating = first_seating(RINGKOBING)
    page = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    assert "Chancen, Smækken und Høgen, Team B" in page and "Bunken aufgebraucht" in page and "2:3" in page
    assert post_deal(client, seating, "A", bonus_a, bonus_b).status_code == 302
    assert Deal.objects.get(seating=seating).points_a == bonus_a + 1


def test_an_impossible_danish_pair_is_refused_in_chancing_words(client):
    seating = first_seating(DANISH)
    page = post_deal(client, seating, "A", 3, 2).content.decode()
    assert not Deal.objects.filter(seating=seating).exists()
    assert (
        "Team A 3 und Team B 2 Streichhölzer für Chancen und Smækken kann es nicht im selben Spiel geben: "
        "Bekommt Team A 3, bekommt Team B höchstens 0."
    ) in page
    assert "Wagen" not in page


def test_schwesing_still_refuses_2_to_2_in_its_own_words(client):
    seating = first_seating(SCHWESING)
    page = client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()
    assert 'data-testid="bonus-note"' not in page
    page = post_deal(client, seating, "A", 2, 2).content.decode()
    assert not Deal.objects.filter(seating=seating).exists()
    assert "Streichhölzer für Wagen und Schlagen kann es nicht im selben Spiel geben" in page


def column_heads(page: str) -> str:
    return page[page.index('<table class="list deals">') : page.index("</thead>")]


def test_the_round_page_heads_its_columns_in_each_rule_sets_words(organiser_client):
    heads = {}
    for code in (SCHWESING, DANISH, BRAEUS):
        seating = first_seating(code)
        url = reverse("organiser:seating_detail", args=[seating.pk])
        heads[code] = column_heads(organiser_client.get(url).content.decode())
    assert "Fünf Stiche" in heads[SCHWESING] and "Wagen und Schlagen A:B" in heads[SCHWESING]
    assert "Meiste Stiche" in heads[DANISH] and "Chancen und Smækken A:B" in heads[DANISH]
    assert "5:0" in heads[DANISH] and "Wagen" not in heads[DANISH]
    assert "Sechs Stiche" in heads[BRAEUS] and "Fünf" not in heads[BRAEUS] and "Wagen" not in heads[BRAEUS]


def test_the_round_page_history_speaks_danish_words(organiser_client, client):
    seating = first_seating(DANISH)
    assert post_deal(client, seating, "B", 2, 2, to_nil=True).status_code == 302
    page = organiser_client.get(reverse("organiser:seating_detail", args=[seating.pk])).content.decode()
    assert "Team B · 5:0 · Chancen und Smækken 2:2 = <strong>2:4</strong>" in page
    assert "Wagen" not in page and "zu Null" not in page


def test_the_deal_list_heads_its_columns_in_each_rule_sets_words(organiser_client):
    for code, expected, absent in (
        (DANISH, ["Meiste Stiche", "5:0", "Chancen und Smækken A", "Chancen und Smækken B"], ["Wagen"]),
        (BRAEUS, ["Sechs Stiche", "Jan"], ["Fünf Stiche", "Wagen"]),
        (SCHWESING, ["Fünf Stiche", "Zu Null", "Wagen und Schlagen A"], []),
    ):
        evening = first_seating(code).round.session.evening
        response = organiser_client.get(reverse("organiser:deal_results", args=[evening.pk]) + "?_export=csv")
        content = b"".join(response.streaming_content if response.streaming else [response.content])
        header = content.decode("utf-8-sig").splitlines()[0].split(";")  # German Excel's CSV
        assert all(head in header for head in expected), header
        assert not any(word in ",".join(header) for word in absent), header


def test_the_results_file_for_the_website_speaks_each_rule_sets_words(organiser_client, client):
    """The club website's results file heads its deal list as the deal list page does."""
    seating = first_seating(DANISH)
    assert post_deal(client, seating, "A", 2, 2).status_code == 302
    evening = seating.round.session.evening
    Evening.objects.filter(pk=evening.pk).update(language="de")
    html = organiser_client.get(reverse("organiser:results_html", args=[evening.pk])).content.decode()
    assert "Chancen und Smækken A" in html and "Meiste Stiche" in html and "Wagen" not in html


def test_the_danish_score_sheet_legend_speaks_of_chancing_and_smacking(organiser_client):
    from tests.documents.test_documents import get_pdf, squeeze

    evening = first_seating(DANISH).round.session.evening
    _, _, blank, _ = get_pdf(organiser_client, "score_sheets_pdf", evening.pk, 1, query="?leer=1")
    text = squeeze(blank[0])
    assert "ChancenundSmækkenmit♠8Galhund" in text and "automatischgesmækt,daherist2:2" in text
    assert "Wagen" not in blank[0]


def test_the_ranking_names_the_bonus_tie_break_in_danish_words(organiser_client, client):
    """A Danish evening whose tie-break is the bonus: the ranking page, its export, the screen and
    the printout speak of chancing and smacking."""

    from scoring import selectors
    from tests import factories

    evening = make_evening(8, rule_set=DANISH, sessions_count=1, rounds_per_session=1)
    session = services.draw_session(evening=evening, seed=3)
    first, second = Seating.objects.filter(round__session=session).order_by("table__number")
    factories.enter_deals(first, [factories.A_WINS] * 4, table=None)
    factories.enter_deals(
        second, [("A", False, 1, 0), ("A", False, 1, 0), ("B", False, 0, 0), ("B", False, 0, 0)], table=None
    )
    for seating in (first, second):
        services.enter_and_confirm_seating(seating_id=seating.pk)
    services.set_evening_tiebreaks(evening_id=evening.pk, criteria=["bonus_sticks"])
    rows = selectors.evening_ranking(Evening.objects.get(pk=evening.pk))
    note = f"vor {rows[2].player.name} durch mehr Streichhölzer aus Chancen und Smækken"

    ranking = reverse("organiser:ranking", args=[evening.pk])
    page = organiser_client.get(ranking, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert note in page and "meiste Streichhölzer aus Chancen und Smækken" in page and "Wagen" not in page
    header = organiser_client.get(ranking + "?_export=csv").content.decode("utf-8-sig").splitlines()[0]
    assert "Chancen und Smækken" in header and "Wagen" not in header
    screen = client.get(reverse("public:ranking_screen", args=[evening.pk])).content.decode()
    assert note in screen and "Wagen" not in screen
    response = organiser_client.get(reverse("organiser:ranking_pdf", args=[evening.pk]))
    pdf = " ".join(" ".join(text.split()) for text in pdf_texts(b"".join(response.streaming_content)))
    assert "Chancen und Smækken" in pdf and "Wagen" not in pdf


def test_the_evening_page_offers_the_bonus_tie_break_in_danish_words(organiser_client):
    evening = first_seating(RINGKOBING).round.session.evening
    page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert "meiste Streichhölzer aus Chancen, Smækken und Høgen" in page
    assert "Chancen, Smækken und Høgen: die Streichhölzer aus Chancen, Smækken und Høgen" in page
    assert "Wagen" not in page


def test_the_help_explains_unlawful_chances_and_our_readings(client):
    page = client.get(reverse("public:help"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Eine unerlaubte Chance (Talon aufgebraucht" in page and "z. B. 2:2" in page
    assert "der Talon heißt Bunken, 5:0 heißt Jan" in page and "so ist z. B. 2:3 möglich" in page
    assert "Nur Galhund und Brus können mit Chance gespielt werden" in page
    assert "Wagen und Schlagen (vove og smække)" not in page
