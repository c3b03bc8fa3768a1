"""The evening version: every service that changes something a page of the evening shows bumps it
in its own transaction (the ETags and the shared cache of the screens depend on it)."""

from __future__ import annotations

import inspect
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.domain.player_import import ParsedPlayer
from scoring.domain.rules import ImpossibleResult
from scoring.hall.origin import Origin
from scoring.models import Evening, Partnership, Seating
from tests import factories
from tests.conftest import make_evening
from tests.factories import A_WINS

#: Services that change no evening's pages: a new evening starts with its own version, a new
#: player in the register is on no evening yet; the drawability check only reads.
NO_EVENING_WRITE = {
    "create_evening",
    "add_player",
    "check_next_session_drawable",
    # The evening is gone; the other evenings of its season are bumped (tests/views/test_housekeeping.py).
    "delete_evening",
}


def players_ids(evening) -> list[int]:
    return list(evening.participants.filter(checked_in=True).values_list("player_id", flat=True))


def _version(evening) -> int:
    return Evening.objects.values_list("version", flat=True).get(pk=evening.pk)


class Walk:
    """Calls services one by one and records, per service, whether the evening's version grew."""

    def __init__(self, evening) -> None:
        self.evening = evening
        self.bumped: dict[str, list[bool]] = {}

    def __call__(self, service: str, **kwargs):
        before = _version(self.evening)
        result = getattr(services, service)(**kwargs)
        self.bumped.setdefault(service, []).append(_version(self.evening) > before)
        return result


@pytest.mark.django_db
def test_every_service_write_bumps_the_evening_version(organiser):
    evening = make_evening(9)
    walk = Walk(evening)
    players = list(evening.players.order_by("pk"))
    extra = services.add_player(name="Spät Gekommen", club="X")[0]
    walk("set_checked_in", evening=evening, player=extra, checked_in=True)
    walk("set_stand_in", evening=evening, player=extra, stand_in=True)
    walk("set_stand_in", evening=evening, player=extra, stand_in=False)
    walk("set_checked_in", evening=evening, player=extra, checked_in=False)
    walk("set_mix_clubs", evening_id=evening.pk, mix=True)
    wish, _ = walk("add_partner_exclusion", evening=evening, player_a_id=players[0].pk, player_b_id=players[1].pk)
    walk("remove_partner_exclusion", evening=evening, exclusion_id=wish.pk)
    session = walk("draw_session", evening=evening, user=organiser, seed=1)
    walk("redraw_session", session_id=session.pk, user=organiser, seed=2)
    first, second = Partnership.objects.filter(session=session).order_by("number")[:2]
    walk("swap_players", session_id=session.pk, player_a_id=first.player_1_id, player_b_id=second.player_1_id)
    seating = Seating.objects.filter(round__session=session, round__number=1).select_related("table").first()
    table = seating.table
    walk("set_clock_lengths", evening_id=evening.pk, round_minutes=25, break_minutes=5, locks_round=True)
    walk("start_round_clock", evening_id=evening.pk, round_id=seating.round_id, user=organiser)
    walk("pause_round_clock", evening_id=evening.pk)
    walk("resume_round_clock", evening_id=evening.pk)
    walk("extend_round_clock", evening_id=evening.pk, minutes=5)
    walk("restart_round_clock", evening_id=evening.pk)
    walk("start_break_clock", evening_id=evening.pk)
    walk("stop_round_clock", evening_id=evening.pk)
    walk("start_round_clock", evening_id=evening.pk, round_id=seating.round_id)
    Evening.objects.filter(pk=evening.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    walk("settle_round_clock", evening_id=evening.pk)  # locks round 1 (the lock at zero)
    walk("set_round_locked", round_id=seating.round_id, locked=False)
    walk("start_round_clock", evening_id=evening.pk, round_id=seating.round_id)
    Evening.objects.filter(pk=evening.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    walk("settle_due_clock", evening=Evening.objects.get(pk=evening.pk))  # what a page calls before reading
    walk("set_round_locked", round_id=seating.round_id, locked=False)
    walk("regenerate_table_link", table_id=table.pk)
    for number in range(1, evening.deals_per_round + 1):
        walk(
            "enter_deal",
            seating_id=seating.pk,
            number=number,
            result=A_WINS,
            origin=Origin.other("Tisch"),
            table=table,
            key=uuid.uuid4(),
            based_on_version=0,
        )
    walk("mark_seating_entered", seating_id=seating.pk, table=table, team="A")
    walk("reopen_seating", seating_id=seating.pk, table=table)
    walk("mark_seating_entered", seating_id=seating.pk, table=table, team="A")
    walk("confirm_seating", seating_id=seating.pk, team="B", table=table)
    other = Seating.objects.filter(round__session=session, round__number=1).exclude(pk=seating.pk).first()
    for number in range(1, evening.deals_per_round + 1):
        walk(
            "enter_deal", seating_id=other.pk, number=number, result=A_WINS, origin=Origin.other("org"), user=organiser
        )
    walk("enter_and_confirm_seating", seating_id=other.pk)
    walk("set_checked_in", evening=evening, player=extra, checked_in=True)
    leaving = seating.team_a.player_1_id
    walk("replace_player", session_id=session.pk, leaving_id=leaving, replacement_id=extra.pk, user=organiser)
    round_1 = seating.round
    walk("set_round_locked", round_id=round_1.pk, locked=True)
    walk("set_round_locked", round_id=round_1.pk, locked=False)
    walk("set_session_closed", session_id=session.pk, closed=True)
    walk("set_ranking_hidden", evening_id=evening.pk, hidden=True)
    walk("set_projector_mode", evening_id=evening.pk, mode="rotation", user=organiser)
    walk("set_evening_language", evening_id=evening.pk, language="en")
    walk("update_player", player_id=players[2].pk, name="Neuer Name")
    walk("import_players", players=[ParsedPlayer(line=2, name="Importiert", club="")], check_in_to=evening)
    walk("set_evening_tiebreaks", evening_id=evening.pk, criteria=["best_session", "deals_won"])
    season = walk(
        "save_season", name="Jahreswertung", year=2026, scoring="sum", planned_evenings=3, evening_ids=[evening.pk]
    )
    twin = services.add_player(name="Spieler Eins Doppelt", club="")[0]  # the same person entered twice
    walk("merge_players", keep_id=players[3].pk, remove_id=twin.pk)

    # Many checked in at once, and undone: a fresh evening of the same register.
    walk.evening = services.create_evening(name="Danach", date=evening.date)
    walk("check_in_like_last_evening", evening_id=walk.evening.pk)
    ids = walk("undo_check_in", evening_id=walk.evening.pk, player_ids=players_ids(walk.evening))
    assert ids
    walk("check_in_everyone", evening_id=walk.evening.pk)

    # A Bräus evening of its own: its rule set chosen, a draw recorded at a table.
    braeus = make_evening(4, name="Bräus")
    walk.evening = braeus
    walk("set_evening_rule_set", evening_id=braeus.pk, rule_set="braeus")
    walk("add_evening_to_season", season=season, evening=braeus)
    drawn = services.draw_session(evening=braeus, user=organiser, seed=3)
    at = Seating.objects.filter(round__session=drawn).select_related("table").first()
    walk("record_draw", seating_id=at.pk, number=1, origin=Origin.other("Tisch"), table=at.table, key=uuid.uuid4())
    walk("rename_evening", evening_id=braeus.pk, name="Bräus im Januar", user=organiser)
    walk("set_evening_archived", evening_id=braeus.pk, archived=True, user=organiser)
    walk("set_evening_archived", evening_id=braeus.pk, archived=False, user=organiser)

    not_bumped = {name for name, bumps in walk.bumped.items() if not all(bumps)}
    assert not_bumped == set()
    functions = {name for name in services.__all__ if inspect.isfunction(getattr(services, name))}
    assert functions - NO_EVENING_WRITE - set(walk.bumped) == set(), "a service the walk does not call"


@pytest.mark.django_db
def test_nothing_saved_nothing_bumped():
    """A refused entry, a replayed form and an unchanged entry leave the version as it was."""
    evening = make_evening(8)
    session = services.draw_session(evening=evening, seed=1)
    seating = Seating.objects.filter(round__session=session).select_related("table").first()
    key = uuid.uuid4()
    factories.enter_deal(seating, key=key)
    before = _version(evening)
    with pytest.raises(ImpossibleResult):
        factories.enter_deal(seating, 2, bonus_a=9, bonus_b=9)
    replay = factories.enter_deal(seating, key=key)
    same = factories.enter_deal(seating)
    assert (replay.outcome, same.outcome) == ("replayed", "unchanged")
    assert _version(evening) == before


@pytest.mark.django_db
def test_renaming_a_player_bumps_only_their_evenings():
    mine, theirs = make_evening(4, name="A"), make_evening(0, name="B")
    before = _version(theirs)
    player = mine.players.first()
    services.update_player(player_id=player.pk, name="Umbenannt")
    assert _version(theirs) == before


def _seating_version(evening) -> int:
    return Evening.objects.values_list("seating_version", flat=True).get(pk=evening.pk)


@pytest.mark.django_db
def test_deals_and_finishing_leave_the_seating_version_confirming_moves_it():
    """The seat pages ("Wo sitze ich?") rest on the seating version: a deal, finishing and
    reopening a round at the table move nobody; a confirmation moves the table's players on."""
    evening = make_evening(8)
    session = services.draw_session(evening=evening, seed=1)
    seating = Seating.objects.filter(round__session=session, round__number=1).select_related("table").first()
    before = _seating_version(evening)
    for number in range(1, evening.deals_per_round + 1):
        factories.enter_deal(seating, number)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    services.reopen_seating(seating_id=seating.pk, table=seating.table)
    services.mark_seating_entered(seating_id=seating.pk, table=seating.table, team="A")
    assert _seating_version(evening) == before
    services.confirm_seating(seating_id=seating.pk, team="B", table=seating.table)
    assert _seating_version(evening) > before
