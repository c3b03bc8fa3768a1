"""Table-side entry you can trust: nothing lost, nothing twice (idempotency keys), no silent
overwrite (deal versions), the other team confirms, corrections keep a trail, bad input changes
nothing and says why (in German, the tablets' language)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import selectors, services
from scoring.hall.origin import Origin, describe
from scoring.models import Deal, DealChange, Evening, Seating, Session
from tests import factories


@pytest.fixture
def drawn(drawn_roster_evening):
    """The roster evening with session 1 drawn (seed 1)."""
    return drawn_roster_evening


@pytest.fixture
def seating(drawn) -> Seating:
    """Table 1, session 1, round 1."""
    return Seating.objects.select_related("table", "round__session").get(
        table__evening=drawn, table__number=1, round__number=1
    )


def post_deal(client, seating, number, *, winner="A", key=None, version=None, htmx=False, **extra):
    data = {"seating": seating.pk, "winner": winner, "bonus_a": 0, "bonus_b": 0}
    if key is not None:
        data["key"] = str(key)
    if version is not None:
        data["version"] = version
    data.update(extra)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("scorer:deal", args=[seating.table.token, number]), data, **headers)


def page_of(client, seating) -> str:
    return client.get(reverse("scorer:table", args=[seating.table.token])).content.decode()


def messages_in(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- Nothing twice, nothing lost ---------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_the_same_form_sent_twice_is_saved_once(client, seating, htmx):
    key = uuid.uuid4()
    first = post_deal(client, seating, 1, key=key, version=0, htmx=htmx)
    again = post_deal(client, seating, 1, key=key, version=0, htmx=htmx)
    assert first.status_code == again.status_code == (200 if htmx else 302)
    assert Deal.objects.filter(seating=seating).count() == 1
    change = DealChange.objects.get()
    assert change.submission == key and change.previous is None
    assert Deal.objects.get().version == 1


@pytest.mark.django_db
def test_a_key_used_for_another_deal_is_refused(client, seating):
    key = uuid.uuid4()
    post_deal(client, seating, 1, key=key, version=0)
    response = post_deal(client, seating, 2, key=key, version=0, htmx=True)
    assert "Spiel 1" in response.content.decode()  # "already sent for deal 1"
    assert not Deal.objects.filter(number=2).exists()
    assert DealChange.objects.count() == 1


@pytest.mark.django_db
def test_every_form_shown_has_a_fresh_key_and_the_deal_version(client, seating):
    import re

    first = re.search(r'name="key" value="([0-9a-f-]{36})"', page_of(client, seating)).group(1)
    second = re.search(r'name="key" value="([0-9a-f-]{36})"', page_of(client, seating)).group(1)
    assert first != second
    factories.enter_deal(seating)
    factories.enter_deal(seating, 1, "B")
    page = client.get(reverse("scorer:table", args=[seating.table.token]) + "?deal=1").content.decode()
    assert 'name="version" value="2"' in page
    assert 'data-deal="1" data-entered="1" data-version="2"' in page


@pytest.mark.django_db
def test_entries_without_key_still_work_but_the_version_is_required(client, seating):
    """A form without a key is entered (the version still guards it); without a version it is
    refused: it could overwrite a deal entered meanwhile."""
    assert post_deal(client, seating, 1, version=0).status_code == 302
    assert post_deal(client, seating, 1, winner="B", version=1).status_code == 302
    assert Deal.objects.get().winner == "B" and DealChange.objects.count() == 2
    for version in (None, ""):
        response = post_deal(client, seating, 1, winner="A", version=version, htmx=True)
        assert response.status_code == 422
        assert "Bitte laden Sie die Seite neu" in response.content.decode()
    assert Deal.objects.get().winner == "B" and DealChange.objects.count() == 2


# --- No silent overwrite -----------------------------------------------------------------------


@pytest.mark.django_db
def test_conflict_on_the_tablet_page_says_so_and_changes_nothing(client, seating):
    other_tablet = Client()
    assert post_deal(other_tablet, seating, 2, winner="A", key=uuid.uuid4(), version=0).status_code == 302
    response = post_deal(client, seating, 2, winner="B", key=uuid.uuid4(), version=0, htmx=True)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Spiel 2 wurde inzwischen an einem anderen Gerät geändert" in page
    assert "1:0" in page  # the current value
    assert Deal.objects.get(number=2).winner == "A"
    # Without JavaScript: the same message after the redirect.
    response = post_deal(client, seating, 2, winner="B", key=uuid.uuid4(), version=0)
    assert response.status_code == 302
    follow = client.get(response["Location"])
    assert any("anderen Gerät" in m for m in messages_in(follow))
    assert Deal.objects.get(number=2).winner == "A" and DealChange.objects.count() == 1


@pytest.mark.django_db
def test_the_organiser_form_also_refuses_a_stale_version(organiser_client, seating):
    factories.enter_deal(seating)
    url = reverse("organiser:seating_detail", args=[seating.pk])
    data = {
        "number": 1,
        "seating": seating.pk,
        "winner": "B",
        "bonus_a": 0,
        "bonus_b": 0,
        "version": 1,
        "key": str(uuid.uuid4()),
        "reason": "",
    }
    factories.enter_deal(seating, to_nil=True)  # the table corrects meanwhile: version 2
    response = organiser_client.post(url, data)
    assert response.status_code == 200 and "anderen Gerät" in response.content.decode()
    assert Deal.objects.get().to_nil is True


# --- Confirmed by the other team ---------------------------------------------------------------


@pytest.mark.django_db
def test_finish_then_the_other_team_confirms(client, seating):
    token = seating.table.token
    factories.enter_round(seating)
    response = client.post(
        reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"}, HTTP_HX_REQUEST="true"
    )
    page = response.content.decode()
    assert response.status_code == 200 and 'data-testid="confirm-button"' in page
    assert 'name="team" value="B"' in page  # team B is asked to confirm
    seating.refresh_from_db()
    assert seating.entered_by == "A" and seating.entered_at and seating.confirmed_at is None
    # Not final yet: the next session cannot be drawn, the table still shows this round.
    assert not selectors.session_is_confirmed(seating.round.session)
    assert selectors.current_seating(seating.table).pk == seating.pk
    response = client.post(reverse("scorer:confirm", args=[token]), {"seating": seating.pk, "team": "B"})
    assert response.status_code == 302
    seating.refresh_from_db()
    assert seating.confirmed_at is not None
    assert Origin.of(seating, "confirmed_") == Origin.table_link(1, "B")
    assert selectors.current_seating(seating.table).round.number == 2


@pytest.mark.django_db
def test_the_team_that_entered_cannot_confirm(client, seating):
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    response = client.post(
        reverse("scorer:confirm", args=[seating.table.token]), {"seating": seating.pk, "team": "A"}, follow=True
    )
    assert any("Team A hat diese Runde eingetragen" in m for m in messages_in(response))
    seating.refresh_from_db()
    assert seating.confirmed_at is None and seating.entered_by == "A"


@pytest.mark.django_db
def test_confirming_needs_a_finished_round_and_finishing_needs_every_deal(client, seating):
    token = seating.table.token
    factories.enter_deal(seating)
    response = client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"}, follow=True)
    assert any("3 von 4 Spielen fehlen noch" in m for m in messages_in(response))
    factories.enter_round(seating)
    response = client.post(reverse("scorer:confirm", args=[token]), {"seating": seating.pk, "team": "B"}, follow=True)
    assert any("abschließen" in m for m in messages_in(response))
    response = client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": ""}, follow=True)
    assert any("Team" in m for m in messages_in(response))
    seating.refresh_from_db()
    assert seating.entered_at is None and seating.confirmed_at is None


@pytest.mark.django_db
def test_a_correction_after_finishing_reopens_the_round(client, seating):
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="B")
    response = post_deal(client, seating, 3, winner="B", key=uuid.uuid4(), version=1)
    assert response.status_code == 302
    seating.refresh_from_db()
    assert seating.entered_at is None and seating.entered_by == ""
    assert Deal.objects.get(seating=seating, number=3).winner == "B"


@pytest.mark.django_db
def test_the_other_team_can_send_the_round_back(client, seating):
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    response = client.post(
        reverse("scorer:reopen", args=[seating.table.token]), {"seating": seating.pk}, HTTP_HX_REQUEST="true"
    )
    assert 'data-testid="finish"' in response.content.decode()
    seating.refresh_from_db()
    assert seating.entered_at is None


@pytest.mark.django_db
def test_finish_and_confirm_sent_twice_change_nothing_more(client, seating):
    token = seating.table.token
    factories.enter_round(seating)
    for _ in range(2):
        client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"})
    seating.refresh_from_db()
    entered_at = seating.entered_at
    for _ in range(2):
        client.post(reverse("scorer:confirm", args=[token]), {"seating": seating.pk, "team": "B"})
    seating.refresh_from_db()
    assert seating.entered_at == entered_at and seating.entered_by == "A" and seating.confirmed_at


@pytest.mark.django_db
def test_organiser_confirms_on_a_teams_behalf(organiser_client, seating):
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="B")
    page = organiser_client.get(reverse("organiser:seating_detail", args=[seating.pk])).content.decode()
    assert 'data-testid="organiser-confirm-a"' in page and 'data-testid="organiser-confirm-b"' not in page
    url = reverse("organiser:seating_confirm", args=[seating.pk])
    response = organiser_client.post(url, {"team": "B"}, follow=True)
    assert any("Team B hat diese Runde eingetragen" in m for m in messages_in(response))
    seating.refresh_from_db()
    assert seating.confirmed_at is None
    organiser_client.post(url, {"team": "A"})
    seating.refresh_from_db()
    assert seating.confirmed_at is not None and seating.confirmed_by is not None
    assert seating.confirmed_source == "organiser" and seating.confirmed_name == "leitung"


@pytest.mark.django_db
def test_the_next_session_waits_for_every_confirmation(organiser_client, drawn):
    session = Session.objects.get(evening=drawn)
    seatings = list(Seating.objects.filter(round__session=session).select_related("table", "round__session__evening"))
    for s in seatings:
        factories.enter_round(s)
        if s != seatings[-1]:
            services.enter_and_confirm_seating(seating_id=s.pk)
    last = seatings[-1]
    services.mark_seating_entered(seating_id=last.pk, table=last.table, team="A") if selectors.current_seating(
        last.table
    ).pk == last.pk else None
    assert not selectors.session_is_confirmed(session)
    organiser_client.post(reverse("organiser:session_draw", args=[drawn.pk]))
    assert Session.objects.filter(evening=drawn).count() == 1
    services.confirm_seating(seating_id=last.pk, team="B", user=None, origin=Origin.other("test"))
    organiser_client.post(reverse("organiser:session_draw", args=[drawn.pk]))
    assert Session.objects.filter(evening=drawn).count() == 2


# --- Corrections with a trail ------------------------------------------------------------------


@pytest.mark.django_db
def test_after_confirmation_only_the_organiser_corrects_with_a_reason(client, organiser_client, organiser, seating):
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.confirm_seating(seating_id=seating.pk, table=seating.table, team="B")
    # The tablet cannot change it any more.
    response = post_deal(client, seating, 2, winner="B", key=uuid.uuid4(), version=1, htmx=True)
    assert "kann am Tisch nicht mehr geändert werden" in response.content.decode()
    assert Deal.objects.get(seating=seating, number=2).winner == "A"
    # The organiser needs a reason.
    url = reverse("organiser:seating_detail", args=[seating.pk])
    page = organiser_client.get(url + "?deal=2").content.decode()
    assert 'name="reason"' in page and "required" in page.split('name="reason"')[1].split(">")[0]
    data = {
        "number": 2,
        "seating": seating.pk,
        "winner": "B",
        "bonus_a": 0,
        "bonus_b": 0,
        "version": 1,
        "key": str(uuid.uuid4()),
    }
    response = organiser_client.post(url, {**data, "reason": ""})
    assert response.status_code == 200 and response.context["form"].errors
    with pytest.raises(services.ServiceError) as refused:
        factories.enter_deal(seating, 2, "B", user=organiser, reason="")
    assert refused.value.code == "reason_required"
    assert Deal.objects.get(seating=seating, number=2).winner == "A"
    response = organiser_client.post(url, {**data, "reason": "Team B hat nachgezählt"}, REMOTE_ADDR="192.0.2.9")
    assert response.status_code == 302
    change = DealChange.objects.filter(deal__seating=seating, deal__number=2).latest("id")
    assert change.previous["winner"] == "A" and change.new["winner"] == "B"
    assert change.reason == "Team B hat nachgezählt" and change.changed_by.username == "leitung"
    assert change.client == "192.0.2.9"
    # The history on the organiser's page: before, after, who, from which device, why.
    page = organiser_client.get(url).content.decode()
    history = page.split('id="history"')[1]
    assert history.count('data-testid="history-row"') == 5  # 4 entries + 1 correction
    assert "Team B hat nachgezählt" in history and "192.0.2.9" in history and "leitung" in history
    assert "Turnierleitung (leitung)" in history and "eingegeben" in history
    assert "leitung · leitung" not in history  # the login named once, readably
    # In time order (as the page says): the correction of deal 2 comes after the entry of deal 4.
    deals = [row.split('data-deal="')[1].split('"')[0] for row in history.split('data-testid="history-row"')[:-1]]
    assert deals == ["1", "2", "3", "4", "2"]


@pytest.mark.django_db
def test_every_change_records_table_link_and_device(client, seating):
    post_deal(client, seating, 1, key=uuid.uuid4(), version=0, REMOTE_ADDR="198.51.100.7")
    change = DealChange.objects.get()
    assert Origin.of(change) == Origin.table_link(1) and change.client == "127.0.0.1"
    with translation.override("de"):
        assert describe(Origin.of(change)) == "Tisch 1 (Tisch-Link)"
    other = Client(REMOTE_ADDR="198.51.100.7")
    post_deal(other, seating, 1, winner="B", key=uuid.uuid4(), version=1)
    assert DealChange.objects.latest("id").client == "198.51.100.7"


# --- Locks from the organiser ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_locked_round_takes_no_entries_but_can_be_finished(client, seating):
    token = seating.table.token
    factories.enter_deal(seating)
    services.set_round_locked(round_id=seating.round_id, locked=True)
    response = post_deal(client, seating, 2, key=uuid.uuid4(), version=0, htmx=True)
    page = response.content.decode()
    assert "gesperrt" in page and 'class="deal-form"' not in page
    assert not Deal.objects.filter(number=2).exists()
    services.set_round_locked(round_id=seating.round_id, locked=False)
    factories.enter_round(seating)
    services.set_round_locked(round_id=seating.round_id, locked=True)
    client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"})
    client.post(reverse("scorer:confirm", args=[token]), {"seating": seating.pk, "team": "B"})
    seating.refresh_from_db()
    assert seating.confirmed_at is not None


@pytest.mark.django_db
def test_a_closed_session_takes_nothing_from_the_tables(client, organiser, seating):
    factories.enter_round(seating)
    services.set_session_closed(session_id=seating.round.session_id, closed=True)
    token = seating.table.token
    page = page_of(client, seating)
    assert 'data-testid="closed"' in page and 'class="deal-form"' not in page and 'data-testid="finish"' not in page
    post_deal(client, seating, 1, winner="B", key=uuid.uuid4(), version=1)
    response = client.post(reverse("scorer:finish", args=[token]), {"seating": seating.pk, "team": "A"}, follow=True)
    assert any("geschlossen" in m for m in messages_in(response))
    seating.refresh_from_db()
    assert seating.entered_at is None and Deal.objects.get(seating=seating, number=1).winner == "A"
    # The organiser still corrects and confirms.
    factories.enter_deal(seating, 1, "B", user=organiser)
    services.confirm_seating(seating_id=seating.pk, team="B", user=organiser, origin=Origin.other("org"))
    seating.refresh_from_db()
    assert seating.confirmed_at is not None


# --- Bad input: foreign, tampered, finished ----------------------------------------------------


@pytest.mark.django_db
def test_foreign_and_tampered_table_links_change_nothing(client, drawn, seating):
    other = Seating.objects.select_related("table").filter(round__number=1).exclude(table=seating.table).first()
    factories.enter_round(other)
    key = uuid.uuid4()
    # Table 1's link, the other table's round: refused with a message.
    response = client.post(
        reverse("scorer:deal", args=[seating.table.token, 1]),
        {"seating": other.pk, "winner": "B", "bonus_a": 0, "bonus_b": 0, "key": key, "version": 0},
        follow=True,
    )
    assert any("gehört zu einem anderen Tisch" in m for m in messages_in(response))
    for name in ("finish", "confirm", "reopen"):
        response = client.post(
            reverse(f"scorer:{name}", args=[seating.table.token]), {"seating": other.pk, "team": "A"}, follow=True
        )
        assert any("anderen Tisch" in m for m in messages_in(response)), name
    # A tampered link: the friendly 404, nothing saved.
    for name, args in (
        ("deal", [seating.table.token + "x", 1]),
        ("finish", ["gibt-es-nicht"]),
        ("confirm", [seating.table.token[:-1]]),
        ("reopen", ["0" + seating.table.token]),
    ):
        response = client.post(reverse(f"scorer:{name}", args=args), {"seating": seating.pk, "team": "B"})
        assert response.status_code == 404
    # Garbage in the hidden fields: the form says so.
    for extra in ({"key": "kein-uuid", "version": 0}, {"version": "-1"}):
        assert post_deal(client, seating, 1, **extra).status_code == 422
    for seating_id in ("x", "", str(10**12)):
        response = client.post(
            reverse("scorer:deal", args=[seating.table.token, 1]),
            {"seating": seating_id, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0},
            HTTP_HX_REQUEST="true",
        )
        page = response.content.decode()
        assert 'class="msg error"' in page or 'class="errorlist' in page, seating_id
    assert not Deal.objects.filter(seating=seating).exists()
    assert Deal.objects.filter(seating=other, winner="B").count() == 0
    other.refresh_from_db()
    assert other.entered_at is None


@pytest.mark.django_db
def test_a_deal_of_a_finished_round_or_a_later_round_is_refused(client, seating):
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.confirm_seating(seating_id=seating.pk, table=seating.table, team="B")
    response = post_deal(client, seating, 1, winner="B", key=uuid.uuid4(), version=1, htmx=True)
    assert "kann am Tisch nicht mehr geändert werden" in response.content.decode()
    later = Seating.objects.get(table=seating.table, round__number=3)
    response = client.post(
        reverse("scorer:deal", args=[seating.table.token, 1]),
        {"seating": later.pk, "winner": "A", "bonus_a": 0, "bonus_b": 0, "version": 0},
        follow=True,
    )
    assert any("nicht die laufende Runde" in m for m in messages_in(response))
    assert not Deal.objects.filter(seating=later).exists()
    assert not Deal.objects.filter(seating=seating, winner="B").exists()


@pytest.mark.django_db
def test_polling_answers_204_until_something_changes(client, seating):
    import re

    page = page_of(client, seating)
    signature = re.search(r"/stand/\?s=([0-9a-f]+)", page).group(1)
    poll = reverse("scorer:poll", args=[seating.table.token])
    assert client.get(poll, {"s": signature}, HTTP_HX_REQUEST="true").status_code == 204
    factories.enter_deal(seating, origin=Origin.other("other tablet"))
    response = client.get(poll, {"s": signature}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'data-testid="total-a">1<' in response.content.decode()
    assert "<html" not in response.content.decode()  # only the changing part


@pytest.mark.django_db
def test_every_change_the_tablet_shows_ends_the_204s(client, seating):
    """The poll's fingerprint (scoring.selectors.table_signature) changes with every change the
    tablet page shows, whoever makes it; the redrawn part carries the new fingerprint, which
    then answers 204 again."""
    import re

    poll = reverse("scorer:poll", args=[seating.table.token])
    signature = re.search(r"/stand/\?s=([0-9a-f]+)", page_of(client, seating)).group(1)
    evening = seating.round.session.evening

    def redrawn(change: str) -> None:
        nonlocal signature
        answer = client.get(poll, {"s": signature}, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200, change
        signature = re.search(r"/stand/\?s=([0-9a-f]+)", answer.content.decode()).group(1)
        assert client.get(poll, {"s": signature}, HTTP_HX_REQUEST="true").status_code == 204, change

    table = seating.table
    services.set_evening_rule_set(evening_id=evening.pk, rule_set="braeus")
    redrawn("rule set changed")
    services.record_draw(seating_id=seating.pk, number=1, origin=Origin.other("t"), table=table)
    redrawn("a draw recorded")
    factories.enter_deal(seating, table=table, origin=Origin.other("other tablet"))
    redrawn("deal entered")
    factories.enter_deal(seating, 1, "B", table=None, based_on_version=1)
    redrawn("deal corrected")
    services.set_round_locked(round_id=seating.round_id, locked=True)
    redrawn("round locked")
    services.set_round_locked(round_id=seating.round_id, locked=False)
    redrawn("round open again")
    for n in range(2, evening.deals_per_round + 1):
        factories.enter_deal(seating, n, table=table)
    redrawn("every deal entered")
    services.mark_seating_entered(seating_id=seating.pk, table=table, team="A")
    redrawn("round finished")
    services.confirm_seating(seating_id=seating.pk, team="B", table=table)
    redrawn("round confirmed: the next round")
    services.set_session_closed(session_id=seating.round.session_id, closed=True)
    redrawn("session closed")
    services.set_session_closed(session_id=seating.round.session_id, closed=False)
    redrawn("session open again")


@pytest.mark.django_db
def test_the_tablet_page_works_in_english_too(seating):
    """In the evening's language: an English evening's tablet is English even in a
    German browser, a German evening's tablet German even in an English one."""
    factories.enter_round(seating)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    german = page_of(Client(HTTP_ACCEPT_LANGUAGE="en"), seating)
    assert "Team B: bitte prüfen und bestätigen" in german and "Team B bestätigt" in german
    Evening.objects.filter(pk=seating.round.session.evening_id).update(language="en")
    page = page_of(Client(HTTP_ACCEPT_LANGUAGE="de"), seating)
    assert "Team B: please check and confirm" in page and "Team B confirms" in page


# --- What a tablet costs the server ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("players", [24, 120])
def test_a_tablets_deal_and_poll_take_the_same_queries_for_any_field(client, django_assert_num_queries, players):
    """The htmx POST a tablet sends for a deal, and its poll, do not grow with the field (issue
    15: 250 tablets at 1,000 players). The deal: table with its evening (1, read once by the
    middleware for the language and the view; a valid link reads no attempt counter),
    the service's transaction (begin, seating, key, current round, deal, insert deal, history,
    version, the results site's queue mark, commit: 10), then the tablet's new state
    (fingerprint 1, seatings, deals, names: 4); the poll: the table (1) + its fingerprint (1) and 204."""
    import re

    from tests.conftest import make_evening

    evening = make_evening(players)
    services.draw_session(evening=evening, seed=1)
    table = evening.tables.get(number=2)
    page = client.get(reverse("scorer:table", args=[table.token])).content.decode()
    data = {
        name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1)
        for name in ("csrfmiddlewaretoken", "seating", "key", "version")
    }
    with django_assert_num_queries(15):
        answer = client.post(
            reverse("scorer:deal", args=[table.token, 1]),
            {**data, "winner": "A", "bonus_a": 0, "bonus_b": 0},
            HTTP_HX_REQUEST="true",
        )
    assert 'data-deal="1" data-entered="1"' in answer.content.decode()
    assert Deal.objects.get(seating__table=table).winner == "A"
    signature = re.search(r"\?s=([0-9a-f]{16})", answer.content.decode()).group(1)
    with django_assert_num_queries(2):
        poll = client.get(reverse("scorer:poll", args=[table.token]) + f"?s={signature}")
    assert poll.status_code == 204
