"""Where a player sits, on the pages: the seat finder and the route card of a replacement, the
seat page's queries at six-handed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import selectors, services
from scoring.models import Seating
from tests.conftest import make_evening
from tests.selectors.test_seats import replaced_evening
from tests.services.test_draw_wishes import play_round


@pytest.mark.django_db
def test_a_replacements_route_card_pdf(organiser_client):
    from tests.documents.test_documents import get_pdf

    evening, session, sitter, leaver, partner = replaced_evening()
    _, _, pages, _ = get_pdf(organiser_client, "route_cards_pdf", evening.pk, 1)
    text = "\n".join(pages)
    # The replacement's own card (the name also stands on the partner's card, as "Partner: …").
    card = next(card for card in text.split("Laufzettel") if card.splitlines()[2:3] == [sitter.name])
    assert f"Partner: {partner.name}" in card
    assert "Sie setzen den ganzen Durchgang aus" not in card
    assert card.count("Runde 2") == 1 and "setzt aus" in card  # round 1 sat out, round 2 at a table


@pytest.mark.django_db
def test_the_seat_page_of_a_replacement(client):
    evening, session, sitter, leaver, partner = replaced_evening()
    seats = selectors.player_seats(session, sitter)
    assert seats.current.round == 2 and not seats.current.sits_out
    assert seats.current.partner == partner
    seating = Seating.objects.get(round__session=session, round__number=2, table__number=seats.current.table)
    opponents = (
        seating.team_b if partner.pk in (seating.team_a.player_1_id, seating.team_a.player_2_id) else seating.team_a
    )
    assert set(seats.current.opponents) == {opponents.player_1, opponents.player_2}
    # The leaver has finished: their only round is confirmed.
    assert selectors.player_seats(session, leaver).session_done


@pytest.mark.django_db
@pytest.mark.parametrize("players", [13, 62])
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_sixhanded_seat_queries_do_not_grow_with_players(django_assert_num_queries, client, players):
    """Six-handed Bräus (teams of three): the seat page and "where everyone sits next" name two
    partners and three opponents, with as many queries as with four players a table."""
    evening = make_evening(players, name=f"Bräus {players}", rule_set="braeus6")
    session = services.draw_session(evening=evening, seed=1)
    play_round(session, 1)
    seating = Seating.objects.select_related(
        "round__session__evening", *(f"team_{t}__player_{n}" for t in "ab" for n in (1, 2, 3))
    ).filter(round__session=session, round__number=1)[0]
    player = seating.team_a.player_1
    session = selectors.latest_session(evening)
    session.evening  # noqa: B018 (loaded by the view already)
    with django_assert_num_queries(5):
        seats = selectors.player_seats(session, player)
    assert len(seats.current.partners) == 2 and len(seats.current.opponents) == 3
    with django_assert_num_queries(6):
        following = selectors.next_seats(seating)
    assert len(following) == 6 and all(len(seat.partners) == 2 for seat in following if seat.table)
    page = client.get(reverse("public:seat", args=[evening.pk, player.pk])).content.decode()
    assert "Partner:" in page and " &amp; ".join(p.name for p in seats.current.opponents) in page
