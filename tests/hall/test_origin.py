"""Where a change came from is data (scoring.hall.origin), shown in the reader's
language with nothing parsed back; the sentences earlier versions stored are read into it once
(migration 0018, and the restore of older backups)."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring import services
from scoring.hall.origin import Origin, OriginRole, Source, describe, origin_from_text
from scoring.models import DealChange, DrawnDeal, Seating
from tests import factories

LEADER, HELPER = OriginRole.LEADER, OriginRole.HELPER

#: Every text earlier versions wrote, in German and English, and what it holds.
OLD_TEXTS = {
    "Tisch 3 (Tisch-Link)": Origin(Source.TABLE, table=3),
    "Table 3 (table link)": Origin(Source.TABLE, table=3),
    "Tisch 12 (Tisch-Link), Team B": Origin(Source.TABLE, table=12, team="B"),
    "Table 12 (table link), team A": Origin(Source.TABLE, table=12, team="A"),
    "Tisch 4 (Tablet)": Origin(Source.TABLE, table=4),  # before "Tisch-Link"
    "Turnierleitung Anna Jensen": Origin(Source.ORGANISER, role=LEADER, name="Anna Jensen"),
    "Organiser Anna Jensen": Origin(Source.ORGANISER, role=LEADER, name="Anna Jensen"),
    "Turnierleitung Anna Jensen für Team A": Origin(Source.ORGANISER, team="A", role=LEADER, name="Anna Jensen"),
    "Organiser Anna Jensen for team A": Origin(Source.ORGANISER, team="A", role=LEADER, name="Anna Jensen"),
    "Helfer kasse": Origin(Source.ORGANISER, role=HELPER, name="kasse"),
    "Helfer (kasse) für Team A": Origin(Source.ORGANISER, team="A", role=HELPER, name="kasse"),
    "Organiser (Anna Jensen)": Origin(Source.ORGANISER, role=LEADER, name="Anna Jensen"),
    "Helper kasse": Origin(Source.ORGANISER, role=HELPER, name="kasse"),
    "Helfer kasse für Team B": Origin(Source.ORGANISER, team="B", role=HELPER, name="kasse"),
    "Helper kasse for team B": Origin(Source.ORGANISER, team="B", role=HELPER, name="kasse"),
    "Turnierleitung": Origin(Source.ORGANISER, role=LEADER),  # early confirmations
    "Demo": Origin(Source.DEMO),
    "something else": Origin(Source.OTHER, name="something else"),
}

#: How each origin reads in German and in English.
READS = [
    (Origin.table_link(3), "Tisch 3 (Tisch-Link)", "Table 3 (table link)"),
    (Origin.table_link(3, "B"), "Tisch 3 (Tisch-Link), Team B", "Table 3 (table link), team B"),
    (
        Origin(Source.ORGANISER, role=LEADER, name="Anna Jensen"),
        "Turnierleitung (Anna Jensen)",
        "Organiser (Anna Jensen)",
    ),
    (
        Origin(Source.ORGANISER, team="B", role=HELPER, name="kasse"),
        "Helfer (kasse) für Team B",
        "Helper (kasse) for team B",
    ),
    (Origin(Source.ORGANISER, role=LEADER), "Turnierleitung", "Organiser"),
    (Origin(Source.ORGANISER, team="A", role=HELPER), "Helfer für Team A", "Helper for team A"),
    (Origin.demo(), "Demo", "Demo"),
    (Origin.other("Test"), "Test", "Test"),
]


@pytest.mark.parametrize("text", OLD_TEXTS)
def test_every_old_text_is_read_into_data(text):
    assert origin_from_text(text) == OLD_TEXTS[text]


@pytest.mark.parametrize(("origin", "german", "english"), READS)
def test_an_origin_reads_in_the_readers_language(origin, german, english):
    with translation.override("de"):
        assert describe(origin) == german
    with translation.override("en"):
        assert describe(origin) == english


def test_an_origin_is_its_fields():
    origin = Origin(Source.ORGANISER, team="B", role=HELPER, name="kasse")
    fields = origin.fields("confirmed_")
    assert fields == {
        "confirmed_source": "organiser",
        "confirmed_table_number": None,
        "confirmed_team": "B",
        "confirmed_role": "helper",
        "confirmed_name": "kasse",
    }
    assert Origin.of(Seating(**fields), "confirmed_") == origin


@pytest.mark.django_db
@pytest.mark.parametrize(("written", "read"), [("de", "en"), ("en", "de"), ("de", "da"), ("da", "en")])
def test_a_history_written_in_one_language_reads_in_the_other(written, read, roster_evening, organiser):
    """Nothing of the page's language is stored: the reader's language alone decides."""
    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.filter(round__session__evening=roster_evening).order_by("pk").first()
    number = seating.table.number
    with translation.override(written):
        factories.enter_deal(seating, origin=Origin.table_link(number))
        factories.enter_deal(seating, 1, "B", user=organiser)
    changes = list(DealChange.objects.filter(deal__seating=seating).order_by("pk"))
    expected = {
        "de": [f"Tisch {number} (Tisch-Link)", "Turnierleitung (leitung)"],
        "en": [f"Table {number} (table link)", "Organiser (leitung)"],
        "da": [f"Bord {number} (bordlink)", "Turneringsleder (leitung)"],
    }
    with translation.override(read):
        assert [describe(Origin.of(c)) for c in changes] == expected[read]


@pytest.mark.django_db(transaction=True)
def test_the_migration_reads_every_old_text(roster_evening):
    """A database of an earlier version (0017: the sentences) comes out of migrations 0018 and
    0019 with the origin as data, for deal changes, drawn deals and confirmations."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    services.draw_session(evening=roster_evening, seed=1)
    seating = Seating.objects.filter(round__session__evening=roster_evening).order_by("pk").first()
    texts = list(OLD_TEXTS)
    for number, text in enumerate(texts[: roster_evening.deals_per_round], start=1):
        factories.enter_deal(seating, number, table=None, origin=Origin.other(text))
    executor = MigrationExecutor(connection)
    executor.migrate([("scoring", "0017_roles_decide_not_superuser")])
    old = executor.loader.project_state(("scoring", "0017_roles_decide_not_superuser")).apps
    OldChange = old.get_model("scoring", "DealChange")
    OldSeating = old.get_model("scoring", "Seating")
    OldDrawn = old.get_model("scoring", "DrawnDeal")
    pks = list(
        OldChange.objects.filter(deal__seating_id=seating.pk).order_by("deal__number").values_list("pk", flat=True)
    )
    # Going back wrote the sentences again (the site's language).
    assert (
        list(OldChange.objects.filter(pk__in=pks).order_by("deal__number").values_list("via", flat=True))
        == (texts[: len(pks)])
    )
    for pk, text in zip(pks, texts, strict=False):
        OldChange.objects.filter(pk=pk).update(via=text)
    # Every old text once more, on drawn deals; a confirmation in German for team B.
    for text in texts:
        OldDrawn.objects.create(seating_id=seating.pk, number=1, via=text)
    OldSeating.objects.filter(pk=seating.pk).update(confirmed_via="Helfer kasse für Team B")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    changes = DealChange.objects.filter(deal__seating=seating).order_by("deal__number")
    assert [Origin.of(c) for c in changes] == [OLD_TEXTS[text] for text in texts[: len(pks)]]
    assert [Origin.of(d) for d in DrawnDeal.objects.order_by("pk")] == list(OLD_TEXTS.values())
    seating.refresh_from_db()
    assert Origin.of(seating, "confirmed_") == Origin(Source.ORGANISER, team="B", role=HELPER, name="kasse")
    with translation.override("en"):
        assert describe(Origin.of(seating, "confirmed_")) == "Helper (kasse) for team B"
