"""The fairness page (and its CSV) of a six-handed Bräus evening: teams of three, tables of six.

Each player has two partners a session, meets three opponents a round, and the two players left
over by the teams sit out every round. The session is written straight into the database
(``tests/six_handed.py``); the expected figures are counted here from the seatings.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest
from django.urls import reverse

from scoring.models import Round, Seating
from tests.conftest import make_evening
from tests.six_handed import draw_six_handed, session_sitters, team_names


@pytest.mark.django_db
def test_fairness_of_teams_of_three(organiser_client):
    evening = make_evening(23, rule_set="braeus6")  # seven teams of three, two players left over
    session = draw_six_handed(evening, seed=5)
    sitters = {p.name for p in session_sitters(session)}
    assert len(sitters) == 2

    partners: dict[str, set[str]] = {}
    met: dict[str, Counter] = defaultdict(Counter)
    played: Counter = Counter()
    sat_out: Counter = Counter({name: 4 for name in sitters})
    for seating in Seating.objects.filter(round__session=session).select_related(
        *(f"team_{t}__player_{n}" for t in "ab" for n in (1, 2, 3))
    ):
        a, b = team_names(seating.team_a), team_names(seating.team_b)
        for team, other in ((a, b), (b, a)):
            for name in team:
                partners[name] = set(team) - {name}
                played[name] += 1
                met[name].update(other)
    for round_ in Round.objects.filter(session=session).exclude(sitout_partnership=None):
        for name in team_names(round_.sitout_partnership):
            sat_out[name] += 1

    url = reverse("organiser:fairness", args=[evening.pk])
    response = organiser_client.get(url)
    assert response.status_code == 200
    report = response.context["report"]
    rows = {row.player.name: row for row in report.rows}
    assert set(rows) == set(partners) | sitters and len(rows) == 23
    repeats = 0
    for name, row in rows.items():
        assert row.rounds_sat_out == sat_out[name], name
        assert row.rounds_played == played[name], name
        if name in sitters:
            assert row.partners == () and row.opponents == 0
            continue
        assert sorted(row.partners) == sorted((1, p) for p in partners[name])  # both teammates
        assert row.opponents == len(met[name])
        assert row.repeats == sum(c - 1 for c in met[name].values())
        repeats += row.repeats
    assert report.repeated_opponents * 2 == repeats
    assert report.repeated_opponents >= report.lower_bound

    text = organiser_client.get(url + "?_export=csv").content.decode("utf-8-sig")
    someone = next(name for name in sorted(partners) if name not in sitters)
    line = next(line for line in text.splitlines() if line.startswith(someone + ";"))
    for partner in partners[someone]:
        assert f"1: {partner}" in line
