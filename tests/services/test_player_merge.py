"""Merging two register entries of the same person: the preview, the merge in
one transaction, and every refusal with nothing changed."""

from __future__ import annotations

from datetime import date

import pytest

from scoring import selectors, services
from scoring.domain.rules import DealResult
from scoring.models import Deal, Participant, PartnerExclusion, Partnership, Player, Seating
from tests import factories

pytestmark = pytest.mark.django_db


def small_evening(name: str, day: int, players: list[Player], deals: int = 2):
    """One session of one round of ``deals`` deals (4 players: one table), played and confirmed:
    team A wins every deal at every table (1 matchstick each)."""
    evening = services.create_evening(
        name=name, date=date(2026, 3, day), sessions_count=1, rounds_per_session=1, deals_per_round=deals
    )
    for player in players:
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    session = services.draw_session(evening=evening, seed=day)
    for seating in Seating.objects.filter(round__session=session):
        for number in range(1, deals + 1):
            result = DealResult("A", False, 0, 0)
            factories.enter_deal(seating, number, result=result, table=None)
        services.enter_and_confirm_seating(seating_id=seating.pk)
    return evening


@pytest.fixture
def twice():
    """Jens Carstensen entered twice: once without club (played on 1 March), once with club
    (played on 8 March, with a wish "not together" with Anke). Returns (without, with, others, evenings)."""
    without, _ = services.add_player(name="Jens Carstensen")
    with_club, _ = services.add_player(name="Jens Carstensen", club="Schwesing")
    others = [services.add_player(name=n, club="Treia")[0] for n in ("Anke Hansen", "Bernd Jensen", "Carla Lorenzen")]
    first = small_evening("März I", 1, [without, *others])
    second = small_evening("März II", 8, [with_club, *others], deals=3)
    services.add_partner_exclusion(evening=second, player_a_id=with_club.pk, player_b_id=others[0].pk)
    return without, with_club, others, (first, second)


def state():
    """Everything a merge could change, to compare before and after a refusal."""
    return (
        sorted(Player.objects.values_list("pk", "name", "club")),
        sorted(Participant.objects.values_list("evening_id", "player_id", "checked_in", "is_stand_in")),
        sorted(Partnership.objects.values_list("pk", "player_1_id", "player_2_id")),
        sorted(PartnerExclusion.objects.values_list("evening_id", "player_a_id", "player_b_id")),
        Deal.objects.count(),
    )


def test_preview_says_what_moves(twice):
    without, with_club, _, (first, second) = twice
    preview = selectors.merge_preview(keep_id=without.pk, remove_id=with_club.pk)
    assert preview.allowed and preview.conflicts == ()
    assert [e.name for e in preview.evenings] == ["März II"]
    assert preview.participations == 1 and preview.partnerships == 1 and preview.deals == 3


def test_merge_moves_every_result_and_removes_the_second_entry(twice):
    without, with_club, others, (first, second) = twice
    before = {row.player.pk: row.total for row in selectors.evening_ranking(second)}
    services.merge_players(keep_id=without.pk, remove_id=with_club.pk)
    assert not Player.objects.filter(pk=with_club.pk).exists()
    after = {row.player.pk: row.total for row in selectors.evening_ranking(second)}
    assert after[without.pk] == before[with_club.pk]  # the result moved with the person
    assert {pid: total for pid, total in after.items() if pid != without.pk} == {
        pid: total for pid, total in before.items() if pid != with_club.pk
    }
    assert set(Participant.objects.filter(player=without).values_list("evening__name", flat=True)) == {
        "März I",
        "März II",
    }
    wish = PartnerExclusion.objects.get(evening=second)
    assert {wish.player_a_id, wish.player_b_id} == {without.pk, others[0].pk} and wish.player_a_id < wish.player_b_id
    history = selectors.player_history(without)
    assert [e.evening.name for e in history.evenings] == ["März I", "März II"]


def test_merge_is_refused_when_both_played_the_same_evening(twice):
    without, with_club, others, (first, second) = twice
    before = state()
    with pytest.raises(services.ServiceError) as error:
        services.merge_players(keep_id=without.pk, remove_id=others[0].pk)  # both played on 1 March
    assert error.value.code == "same_evening" and "März I (01.03.2026)" in str(error.value)
    assert state() == before


def test_merge_into_themselves_or_an_unknown_entry_is_refused(twice):
    without, _, _, _ = twice
    before = state()
    for keep, remove, code in ((without.pk, without.pk, "same_player"), (without.pk, 99999, "unknown_player")):
        with pytest.raises(services.ServiceError) as error:
            services.merge_players(keep_id=keep, remove_id=remove)
        assert error.value.code == code
    assert state() == before


def test_a_checked_in_stand_in_counts_as_taking_part(twice):
    without, with_club, _, (first, _) = twice
    services.set_stand_in(evening=first, player=with_club, stand_in=True)  # on the list of 1 March too
    with pytest.raises(services.ServiceError):
        services.merge_players(keep_id=without.pk, remove_id=with_club.pk)
