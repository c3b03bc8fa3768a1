"""Restore fuzzed with whole crafted backups: Hypothesis builds documents record by
record (players, an evening, its tables, sessions, partnerships, rounds, seatings and deals, with
references that may point anywhere and values from the odd corners of each type), seals them with
a matching checksum and restores them. Whatever the file, restore either refuses it with a
BackupError and changes nothing, or restores an evening whose pages all answer (never 500).

A second strategy changes single fields of a real evening's backup to odd JSON values."""

from __future__ import annotations

import json

import hypothesis
import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import strategies as st

from scoring import backup
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.domain.rulesets import rule_set
from scoring.models import Evening, Table
from tests.backup.test_backup import reseal, row_counts

pytestmark = pytest.mark.django_db

FUZZ = hypothesis.settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture, hypothesis.HealthCheck.too_slow],
    derandomize=True,  # the same examples in every run and every test process
)

#: Texts from the odd corners: direction and invisible characters, line separators, long ones.
odd_text = st.one_of(
    st.text(min_size=1, max_size=12),
    st.sampled_from(["Anna", "Boy Jensen", "x\u202ey", "a\u2028b", "\u200b", "A" * 121, "<b>&amp;</b>", ""]),
)
moments = st.one_of(
    st.just("2026-11-21T19:30:00+00:00"),
    st.sampled_from(["9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+00:00", "2026-11-21", "gestern"]),
    st.datetimes().map(lambda d: d.isoformat()),
)
counters = st.one_of(st.integers(min_value=0, max_value=10), st.sampled_from([-1, 2**31, 2**63 - 1, 2**64]))


#: What :func:`documents` gets wrong, one in each document (its value may still be a good one).
FAULTS = (
    "player_name",
    "player_time",
    "evening_name",
    "evening_date",
    "clock",
    "session_number",
    "round_number",
    "partnerships",
    "seatings",
    "confirmed_at",
    "deal_values",
)


@st.composite
def documents(draw) -> dict:
    """A whole backup of one evening, every record drawn: sound except for one fault
    (:data:`FAULTS`: one at a time finds more than several, which hide each other), drawn from
    the odd corners of its type; sealed with its checksum."""
    faults = draw(st.sets(st.sampled_from(FAULTS), min_size=1, max_size=1))

    def pick(fault: str, good, odd: st.SearchStrategy):
        return draw(odd) if fault in faults else good

    players = [
        {"id": i, "name": pick("player_name", f"Spieler {i}", odd_text) if i == 1 else f"Spieler {i}"}
        | {"club": "", "match_key": "", "created_at": pick("player_time", "2026-11-21T18:00:00+00:00", moments)}
        for i in range(1, 9)
    ]
    sessions_count, rounds_count, deals_count = (draw(st.integers(1, 3)) for _ in range(3))
    evening = {
        "id": 1,
        "name": pick("evening_name", "Fuzzabend", odd_text),
        "date": pick("evening_date", "2026-11-21", st.sampled_from(["9999-12-31", "1900-01-01", "21.11.2026"])),
        "sessions_count": sessions_count,
        "rounds_per_session": rounds_count,
        "deals_per_round": deals_count,
        "clock_kind": pick("clock", "", st.sampled_from(["round", "xyz"])),
        "clock_version": pick("clock", 1, counters),
        "version": pick("clock", 1, counters),
    }
    participants = [{"id": i, "evening": 1, "player": i} for i in range(1, 9)]
    tables = [{"id": 1, "evening": 1, "number": 1}, {"id": 2, "evening": 1, "number": 2}]
    sessions = [{"id": 1, "evening": 1, "number": pick("session_number", 1, st.integers(0, 4)), "seed": 1}]
    pairs = [(1, 2), (3, 4), (5, 6), (7, 8)]
    if "partnerships" in faults:
        pairs = [(draw(st.integers(1, 9)), draw(st.integers(1, 8))) for _ in pairs]
    teams = [
        {"id": n, "session": 1, "number": n, "player_1": one, "player_2": two} for n, (one, two) in enumerate(pairs, 1)
    ]
    rounds = [{"id": 1, "session": 1, "number": pick("round_number", 1, st.integers(0, 4)), "locked": False}]
    games = [(1, 2), (3, 4)]
    if "seatings" in faults:
        games = [(draw(st.integers(1, 5)), draw(st.integers(1, 4))) for _ in games]
    seatings = [
        {"id": n, "round": 1, "table": n, "team_a": a, "team_b": b}
        | {"confirmed_at": pick("confirmed_at", None, moments)}
        for n, (a, b) in enumerate(games, 1)
    ]
    deals = []
    for seating in seatings:
        for number in range(1, deals_count + 1):
            result = DealResult(draw(st.sampled_from("AB")), draw(st.booleans()), draw(st.integers(0, 2)), 0)
            try:
                score = rule_set("").score_deal(result, 0)
                points = (score.a, score.b)
            except ImpossibleResult:
                points = (0, 0)
            deals.append(
                {"id": len(deals) + 1, "seating": seating["id"], "number": number, "winner": result.winner}
                | {"to_nil": result.to_nil, "bonus_a": result.bonus_a, "bonus_b": result.bonus_b}
                | {"points_a": points[0], "points_b": points[1], "version": pick("deal_values", 1, counters)}
                | {"override_reason": pick("deal_values", "", st.sampled_from(["Hausregel", "x" * 3000, "\u202e"]))}
                | {"updated_at": pick("deal_values", "2026-11-21T19:30:00+00:00", moments)}
            )
    data = {key: [] for key, _, _ in backup.MODELS}
    data |= {"players": players, "evenings": [evening], "participants": participants, "tables": tables}
    data |= {"sessions": sessions, "partnerships": teams, "rounds": rounds, "seatings": seatings, "deals": deals}
    document = {"format": "bruus-turnier-backup", "version": 1, "scope": "evening", "data": data}
    return reseal(document)


def _restored_or_refused(document: dict, client) -> None:
    """Restore ``document``: a refusal changes nothing; a restored evening's pages answer."""
    counts = row_counts()
    try:
        outcome = backup.restore(json.loads(json.dumps(document)), allow_duplicates=True)
    except backup.BackupError as error:
        hypothesis.event(f"refused: {error.code}")
        assert row_counts() == counts
        return
    hypothesis.event("restored")
    for evening in outcome.evenings:
        urls = [reverse(name, args=[evening.pk]) for name in ("organiser:evening_detail", "organiser:fairness")]
        urls += [reverse("scorer:table", args=[t.token]) for t in Table.objects.filter(evening=evening)]
        for url in urls:
            assert client.get(url).status_code < 500, url


@hypothesis.settings(FUZZ, max_examples=60)
@hypothesis.given(document=documents())
def test_a_crafted_whole_backup_is_refused_or_restores_an_evening_whose_pages_answer(organiser_client, document):
    with transaction.atomic():
        _restored_or_refused(document, organiser_client)
        transaction.set_rollback(True)


odd_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**63 - 1, -(2**63), 2**64, 0, -1]),
    st.floats(allow_nan=False),
    odd_text,
    moments,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@FUZZ
@hypothesis.given(data=st.data())
def test_a_real_backup_with_odd_values_is_refused_or_restores_an_evening_whose_pages_answer(
    played_evening, organiser_client, data
):
    good = backup.export_evening(played_evening)
    document = json.loads(json.dumps(good))
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from([k for k, records in document["data"].items() if records]))
        record = data.draw(st.sampled_from(document["data"][key]))
        field = data.draw(st.sampled_from(sorted(record)))
        record[field] = data.draw(odd_values)
    with transaction.atomic():
        Evening.objects.filter(pk=played_evening.pk).update(name="Original")  # the restore is no copy
        _restored_or_refused(reseal(document), organiser_client)
        transaction.set_rollback(True)
