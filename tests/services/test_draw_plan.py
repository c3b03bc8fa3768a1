"""The draw plans the evening in the app: the plan's figures are stored with the session and
shown on the table list, the next draw resumes the plan, the search runs before the write
transaction and the write draws again if the players changed meanwhile. Tiny budgets
(tests/settings.py): the quality is measured by bench/bench_draw.py."""

from __future__ import annotations

import pytest
from django.db import connection

from scoring import services
from scoring.domain import draw as draw_domain
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.models import Participant, Partnership, Player
from scoring.setup import builders
from tests.conftest import make_evening


def _play_session(session) -> None:
    builders.play_session(
        session, result=DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0), origin=Origin.other("t")
    )


@pytest.mark.django_db
def test_the_next_draw_resumes_the_plan(monkeypatch):
    evening = make_evening(14)
    first = services.draw_session(evening=evening, seed=8)
    _play_session(first)
    starts = []
    real = draw_domain.plan_evening

    def spy(*args, **kwargs):
        starts.append(kwargs.get("start"))
        return real(*args, **kwargs)

    monkeypatch.setattr(draw_domain, "plan_evening", spy)
    second = services.draw_session(evening=evening, seed=9)
    assert starts[0] == draw_domain.plan_from_json(first.plan)
    assert len(draw_domain.plan_from_json(second.plan)) == 1
    assert second.plan_repeats is not None


@pytest.mark.django_db(transaction=True)
def test_the_search_runs_before_the_write_transaction_and_the_write_sees_a_late_arrival(monkeypatch):
    """A player checked in while the search runs is in the session: the write notices that the
    players changed and draws again (inside the transaction, with a short budget)."""
    evening = make_evening(12)
    late = Player.objects.create(name="Zu Spät")
    Participant.objects.create(evening=evening, player=late, checked_in=False)
    calls = []
    real = draw_domain.plan_evening

    def spy(*args, **kwargs):
        calls.append(connection.in_atomic_block)
        if len(calls) == 1:
            Participant.objects.filter(evening=evening, player=late).update(checked_in=True)
        return real(*args, **kwargs)

    monkeypatch.setattr(draw_domain, "plan_evening", spy)
    session = services.draw_session(evening=evening, seed=3)
    assert calls == [False, True]
    seated = {p for team in Partnership.objects.filter(session=session) for p in team.player_ids}
    assert late.pk in seated or session.sitout_player_id == late.pk


@pytest.mark.django_db
def test_draw_again_makes_a_new_plan():
    evening = make_evening(18)
    session = services.draw_session(evening=evening, seed=1)
    again = services.redraw_session(session_id=session.pk, seed=2)
    assert again.seed == 2 and again.plan_repeats is not None and len(draw_domain.plan_from_json(again.plan)) == 2


@pytest.mark.django_db
def test_six_handed_braeus_plans_the_evening_in_teams_of_three():
    evening = make_evening(26, rule_set="braeus6")
    session = services.draw_session(evening=evening, seed=4)
    assert session.plan_bound == 107  # 26 players in teams of three, 3 sessions of 4 rounds
    assert session.plan_repeats <= session.plan_baseline
    rest = draw_domain.plan_from_json(session.plan)
    assert len(rest) == 2 and all(len(team) == 3 for draw in rest for team in draw.partnerships)
    assert all(p.player_3_id for p in session.partnerships.all())


@pytest.mark.django_db
def test_a_club_evening_of_26_is_drawn_from_the_stored_plan_to_its_end():
    """The first draw starts from the stored plan (scoring.domain.draw.stored), the later draws
    resume it: the evening as played has at most the stored plan's repeated opponents, with the
    tests' budget of 300 moves a draw (which alone finds nothing like it)."""
    from scoring.domain.draw.stored import stored_repeats
    from scoring.selectors.history import evening_history

    evening = make_evening(26)
    assert (evening.sessions_count, evening.rounds_per_session) == (3, 4)
    for number, seed in enumerate((11, 12, 13), start=1):
        session = services.draw_session(evening=evening, seed=seed)
        assert session.number == number and session.plan_repeats <= stored_repeats(26)
        _play_session(session)
    played = evening_history(evening).for_draw()
    assert sum(played.opponents.values()) == 3 * 4 * 6 * 4  # every round of every session played
    assert draw_domain.evening_repeats(played, []) <= stored_repeats(26)
