"""The draw's pages: stand-ins and wishes on the check-in page, replace, redraw and swap, the
fairness report, the help, the plan against its bound."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from scoring import selectors, services
from scoring.domain import draw as draw_domain
from scoring.domain.draw import DrawError
from scoring.models import (
    Participant,
    PartnerExclusion,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Substitution,
    Table,
)
from tests.conftest import make_evening
from tests.services.test_draw_wishes import play_round, play_session, player


@pytest.mark.django_db
def test_stand_ins_fill_the_tables_and_are_not_ranked(organiser_client):
    evening = make_evening(26)
    for n in (1, 2):
        stand_in, _ = services.add_player(name=f"Ersatz {n}", club="")
        services.set_stand_in(evening=evening, player=stand_in, stand_in=True)
    assert Participant.objects.filter(evening=evening, checked_in=True).count() == 28
    session = services.draw_session(evening=evening, seed=3)
    assert session.sitout_player_id is None
    assert not Round.objects.filter(session=session, sitout_partnership__isnull=False).exists()
    assert Seating.objects.filter(round__session=session, round__number=1).count() == 7
    play_round(session, 1)
    ranked = [row.player.name for row in selectors.evening_ranking(evening)]
    assert len(ranked) == 26 and not any(name.startswith("Ersatz") for name in ranked)
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert 'Ersatz 1 <small class="stand-in">(Ersatz)</small>' in page
    csv = organiser_client.get(reverse("organiser:ranking", args=[evening.pk]) + "?_export=csv")
    assert "Ersatz 1" not in csv.content.decode("utf-8-sig")


@pytest.mark.django_db
def test_stand_in_toggle_and_new_stand_in_on_the_check_in_page(organiser_client):
    evening = make_evening(5)
    url = reverse("organiser:evening_players", args=[evening.pk])
    organiser_client.post(url, {"name": "Hauke Ersatz", "club": "", "stand_in": "1"})
    participant = Participant.objects.get(evening=evening, player__name="Hauke Ersatz")
    assert participant.checked_in and participant.is_stand_in
    toggle = reverse("organiser:stand_in", args=[evening.pk, participant.player_id])
    organiser_client.post(toggle, {"stand_in": "0"})
    participant.refresh_from_db()
    assert not participant.is_stand_in
    organiser_client.post(toggle, {"stand_in": "1"})
    participant.refresh_from_db()
    assert participant.is_stand_in
    page = organiser_client.get(url).content.decode()
    assert "Ersatzspieler" in page and "(Ersatz)" in page
    # 6 present: the page says who sits out and how many stand-ins fill the tables.
    assert "2 Ersatzspielern" in page


@pytest.mark.django_db
def test_impossible_wishes_name_the_player_and_save_nothing(organiser_client):
    evening = make_evening(4)
    one = player("Spieler 1")
    for n in (2, 3, 4):
        services.add_partner_exclusion(evening=evening, player_a_id=one.pk, player_b_id=player(f"Spieler {n}").pk)
    with pytest.raises(DrawError) as error:
        services.draw_session(evening=evening, seed=1)
    assert error.value.code == "partner_impossible"
    assert error.value.params["players"] == "Spieler 1"
    assert not Session.objects.exists() and not Partnership.objects.exists() and not Table.objects.exists()
    response = organiser_client.post(reverse("organiser:session_draw", args=[evening.pk]), {"number": "1"}, follow=True)
    text = [str(m) for m in response.context["messages"]]
    assert text == [
        "Niemand darf Partner von Spieler 1 sein: Die Wünsche „nicht zusammen“ schließen alle anderen "
        "anwesenden Spieler aus. Bitte löschen Sie einen Wunsch oder tragen Sie mehr Spieler als anwesend "
        "ein."
    ]
    assert not Session.objects.exists()


@pytest.mark.django_db
def test_wishes_on_the_check_in_page(organiser_client):
    evening = make_evening(6)
    a, b = player("Spieler 1"), player("Spieler 2")
    page = organiser_client.get(reverse("organiser:evening_players", args=[evening.pk])).content.decode()
    assert "Wünsche für die Auslosung" in page and "Nicht zusammen" in page
    response = organiser_client.post(
        reverse("organiser:exclusion_add", args=[evening.pk]), {"player_a": a.pk, "player_b": b.pk}, follow=True
    )
    assert "Spieler 1 und Spieler 2 werden nicht als Partner ausgelost." in [
        str(m) for m in response.context["messages"]
    ]
    wish = PartnerExclusion.objects.get()
    assert "Spieler 1 – Spieler 2" in response.content.decode()
    response = organiser_client.post(
        reverse("organiser:exclusion_add", args=[evening.pk]), {"player_a": a.pk, "player_b": a.pk}, follow=True
    )
    assert "Bitte wählen Sie zwei verschiedene Spieler." in [str(m) for m in response.context["messages"]]
    organiser_client.post(reverse("organiser:exclusion_remove", args=[evening.pk, wish.pk]))
    assert not PartnerExclusion.objects.exists()


@pytest.mark.django_db
def test_mix_clubs_gives_partners_from_different_clubs(organiser_client):
    evening = make_evening(20)  # clubs "Verein 0" .. "Verein 4", four players each
    response = organiser_client.post(reverse("organiser:mix_clubs", args=[evening.pk]), {"mix": "1"})
    assert response.status_code == 302
    evening.refresh_from_db()
    assert evening.mix_clubs
    session = services.draw_session(evening=evening, seed=4)
    clubs = dict(Player.objects.values_list("pk", "club"))
    assert all(clubs[p.player_1_id] != clubs[p.player_2_id] for p in session.partnerships.all())
    organiser_client.post(reverse("organiser:mix_clubs", args=[evening.pk]), {"mix": "0"})
    evening.refresh_from_db()
    assert not evening.mix_clubs


@pytest.mark.django_db
def test_replace_page(organiser_client):
    evening = make_evening(16)
    late, _ = services.add_player(name="Ersatz Momme")
    services.set_stand_in(evening=evening, player=late, stand_in=True)
    services.set_checked_in(evening=evening, player=late, checked_in=False)
    session = services.draw_session(evening=evening, seed=9)
    services.set_checked_in(evening=evening, player=late, checked_in=True)  # arrives after the draw
    play_round(session, 1)
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert "Ein Spieler muss gehen" in page and "Ersatz Momme" in page
    leaver = session.partnerships.first().player_1
    url = reverse("organiser:session_replace", args=[evening.pk, 1])
    response = organiser_client.post(url, {"leaving": leaver.pk, "replacement": late.pk}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        f"Ersatz Momme spielt ab Runde 2 für {leaver.name}. Die Runden davor bleiben bei {leaver.name}; "
        f"{leaver.name} ist jetzt als nicht anwesend eingetragen."
    ]
    assert f"Ersatz Momme spielt ab Runde 2 für {leaver.name}." in response.content.decode()
    response = organiser_client.post(url, {"leaving": leaver.pk, "replacement": late.pk}, follow=True)
    assert response.status_code == 200 and Substitution.objects.count() == 1


@pytest.mark.django_db
def test_redraw_and_swap_pages(organiser_client):
    evening = make_evening(16)
    session = services.draw_session(evening=evening, seed=18)
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert "Durchgang 1 neu auslosen" in page and "Zwei Spieler tauschen" in page
    url = reverse("organiser:session_redraw", args=[evening.pk, 1])
    response = organiser_client.post(url, follow=True)  # box not ticked
    assert [str(m) for m in response.context["messages"]] == [
        "Bitte kreuzen Sie das Kästchen an, um das neue Auslosen zu bestätigen."
    ]
    assert Session.objects.get(pk=session.pk).seed == 18
    response = organiser_client.post(url, {"confirm": "1"}, follow=True)
    session.refresh_from_db()
    assert session.seed != 18
    assert f"Durchgang 1 neu ausgelost (Zufallszahl {session.seed})" in str(list(response.context["messages"])[0])
    first, second = session.partnerships.order_by("number")[:2]
    response = organiser_client.post(
        reverse("organiser:session_swap", args=[evening.pk, 1]),
        {"player_a": first.player_1_id, "player_b": second.player_1_id},
        follow=True,
    )
    assert [str(m) for m in response.context["messages"]] == [
        "Spieler getauscht. Bitte drucken Sie die neue Tischliste."
    ]
    play_round(session, 1)
    response = organiser_client.post(url, {"confirm": "1"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Für Durchgang 1 sind schon Spiele eingetragen: Er kann nicht mehr neu ausgelost werden. Ein Spieler, "
        "der gehen muss, kann für die restlichen Runden ersetzt werden."
    ]
    page = response.content.decode()
    assert "Ein Spieler muss gehen" in page and "neu auslosen</button>" not in page


@pytest.mark.django_db
def test_fairness_page_and_csv(organiser_client, roster_evening):
    session = services.draw_session(evening=roster_evening, seed=19)
    play_session(session)
    services.draw_session(evening=roster_evening, seed=20)
    url = reverse("organiser:fairness", args=[roster_evening.pk])
    response = organiser_client.get(url)
    page = response.content.decode()
    report = response.context["report"]
    assert len(report.rows) == 26 and report.sessions_drawn == 2
    assert report.repeated_opponents >= report.lower_bound
    assert f"Wiederholte Gegner: {report.repeated_opponents} (untere Schranke: {report.lower_bound})." in page
    assert "Fairness der Auslosung" in page and "Tom Whitfield" in page
    csv = organiser_client.get(url + "?_export=csv")
    assert csv["Content-Type"].startswith("text/csv")
    text = csv.content.decode("utf-8-sig")
    assert text.count("\n") >= 27 and "Partner (Durchgang: Name)" in text
    for row in report.rows:
        assert len(row.partners) == 2 and row.rounds_played + row.rounds_sat_out == 8


@pytest.mark.django_db
def test_fairness_explains_unavoidable_repeats(organiser_client):
    evening = make_evening(8)  # 4 partnerships over 4 rounds: they must meet again
    services.draw_session(evening=evening, seed=21)
    page = organiser_client.get(reverse("organiser:fairness", args=[evening.pk])).content.decode()
    assert "Durchgang 1: Nur 4 Partnerschaften spielen 4 Runden" in page
    empty = make_evening(4, name="Leer")
    page = organiser_client.get(reverse("organiser:fairness", args=[empty.pk])).content.decode()
    assert "Es ist noch kein Durchgang ausgelost." in page


@pytest.mark.django_db
@pytest.mark.no_cover  # the pages' code at two field sizes: measured by the pages' own tests (tests/conftest.py)
def test_fairness_query_count_does_not_grow_with_players(organiser_client):
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (24, 60):
        evening = make_evening(players, name=f"Abend {players}")
        session = services.draw_session(evening=evening, seed=1)
        play_round(session, 1)
        with CaptureQueriesContext(connection) as context:
            assert organiser_client.get(reverse("organiser:fairness", args=[evening.pk])).status_code == 200
        counts.append(len(context.captured_queries))
    assert counts[0] == counts[1]


@pytest.mark.django_db
def test_help_explains_the_draw(client):
    page = client.get(reverse("public:help")).content.decode()
    assert "Die Auslosung" in page
    assert "Wünsche „nicht zusammen“ (z. B. ein Ehepaar) werden immer eingehalten" in page
    assert "Ersatzspielern" in page and "„Fairness der Auslosung“" in page


@pytest.mark.django_db
def test_the_first_draw_stores_the_plan_and_the_page_shows_it_against_the_bound(organiser_client):
    evening = make_evening(16)
    session = services.draw_session(evening=evening, seed=5)
    assert session.plan_bound == 72  # 16 players, 3 sessions of 4 rounds
    assert session.plan_bound <= session.plan_repeats <= session.plan_baseline
    rest = draw_domain.plan_from_json(session.plan)
    assert len(rest) == 2 and all(len(draw.partnerships) == 8 for draw in rest)
    page = organiser_client.get(reverse("organiser:session_detail", args=[evening.pk, 1])).content.decode()
    assert (
        f"{session.plan_repeats} wiederholte Gegner über den Abend, wenn er wie geplant gespielt wird "
        f"(untere Schranke: 72; Durchgang für Durchgang ausgelost: {session.plan_baseline})"
    ) in page
    assert "Nicht zufrieden? Vor dem ersten eingetragenen Spiel neu auslosen." in page
