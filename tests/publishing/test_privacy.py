"""Privacy on the hall (docs/results-online.md, "Privacy"): what a player may not show never
leaves the laptop; initials built here; the hidden ranking; the snapshot's shape and queries."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.models import Player
from scoring.publishing import privacy, queue
from scoring.publishing import services as publishing
from scoring.publishing.models import PublishMode
from scoring.publishing.snapshot import evening_snapshot, sticks
from tests.publishing.conftest import play_round, small_evening


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Hans Jürgen", "H. J."),
        ("Hans-Jürgen Petersen", "H.-J. P."),
        ("Petersen, Anna", "A. P."),
        ("Øle  Ærø", "Ø. Æ."),
        ("", ""),
    ],
)
def test_initials(name, shown):
    assert privacy.initials(name) == shown


def test_player_keys_are_stable_opaque_and_differ_by_hall():
    key = privacy.player_key("secret-a", 17)
    assert key == privacy.player_key("secret-a", 17) and key.startswith("p-") and len(key) == 12
    assert key != privacy.player_key("secret-b", 17) and key != privacy.player_key("secret-a", 18)
    assert "17" not in key[2:] or key != "p-17"


def test_the_club_default_counts_for_players_without_a_choice():
    assert privacy.effective_choice("default", "initials") == "initials"
    assert privacy.effective_choice(None, "full") == "full"
    assert privacy.effective_choice("hidden", "full") == "hidden"
    assert privacy.effective_choice("nonsense", "full") == "hidden"


def test_sticks_are_strings_with_a_dot():
    from fractions import Fraction

    assert sticks(Fraction(54)) == "54" and sticks(Fraction(273, 5)) == "54.6" and sticks(Fraction(57, 4)) == "14.3"


@pytest.mark.django_db
def test_a_not_online_players_name_and_key_are_in_no_request_body(hub, sender):
    evening = small_evening(player_name="Geheim Spielerin {n}")
    secret = Player.objects.get(name="Geheim Spielerin 3")
    publishing.set_online_name(player_id=secret.pk, choice="hidden")
    publishing.set_club_default(choice="full")
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    play_round(evening, 1)
    sender.send_waiting()
    play_round(evening, 2)
    sender.send_waiting()
    key = privacy.player_key(queue.config().secret, secret.pk)
    assert len(hub.snapshots()) == 2
    for body in hub.bodies:
        assert "Geheim Spielerin 3" not in body and key not in body
        assert "Geheim Spielerin 4" in body  # the others go online by the club default (full names)
    final = hub.snapshots()[-1]
    assert sum(row["player"] is None for row in final["ranking"]) == 1
    seated = [p for r in final["rounds"] for t in r["tables"] for p in (*t["team_a"], *t["team_b"])]
    assert None in seated and len(final["players"]) == 7


@pytest.mark.django_db
def test_a_published_player_set_not_online_is_withdrawn_and_blanked(hub, sender):
    evening = small_evening()
    publishing.set_club_default(choice="full")
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    sender.send_waiting()
    player = Player.objects.get(name="Spieler 5")
    key = privacy.player_key(queue.config().secret, player.pk)
    assert "Spieler 5" in hub.bodies[-1]
    publishing.set_online_name(player_id=player.pk, choice="hidden")
    done = sender.send_waiting()
    assert done.withdrawals == 1 and len(done.sent) == 1
    withdrawal, snapshot = (json.loads(body) for body in hub.bodies[-2:])
    assert withdrawal == {"format": "bruus-withdraw", "format_version": 1, "players": [key], "evenings": []}
    assert "Spieler 5" not in hub.bodies[-1] and key not in hub.bodies[-1]


@pytest.mark.django_db
def test_initials_are_made_on_the_hall_by_default(hub, sender):
    evening = small_evening(player_name="Hans Jürgen {n}")
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    sender.send_waiting()
    body = hub.bodies[-1]
    assert "Hans" not in body and "Jürgen" not in body
    assert {p["name"] for p in hub.snapshots()[-1]["players"]} == {
        "H. J. 1.",
        "H. J. 2.",
        "H. J. 3.",
        "H. J. 4.",
        "H. J. 5.",
        "H. J. 6.",
        "H. J. 7.",
        "H. J. 8.",
    }


@pytest.mark.django_db
def test_a_hidden_ranking_sends_no_ranking_and_no_rounds(hub, sender):
    evening = small_evening()
    play_round(evening, 1)
    services.set_ranking_hidden(evening_id=evening.pk, hidden=True)
    snapshot = evening_snapshot(evening.pk, queue.config())
    assert snapshot["evening"]["ranking_hidden"] is True
    assert snapshot["ranking"] == [] and snapshot["rounds"] == [] and snapshot["players"] == []


@pytest.mark.django_db
def test_the_snapshot_shows_what_the_public_ranking_shows():
    from scoring.selectors.ranking import evening_ranking

    evening = small_evening()
    publishing.set_club_default(choice="full")
    play_round(evening, 1)
    snapshot = evening_snapshot(evening.pk, queue.config())
    names = {p["key"]: p["name"] for p in snapshot["players"]}
    shown = [(row["place"], names[row["player"]], row["total"]) for row in snapshot["ranking"]]
    assert shown == [(r.place, r.player.name, sticks(r.total)) for r in evening_ranking(evening)]
    (round_,) = snapshot["rounds"]
    assert {t["points_a"] + t["points_b"] for t in round_["tables"]} <= {1, 2, 3, 4, 5}
    assert all(len(t["deals"]) == 1 for t in round_["tables"])
    assert snapshot["evening"]["state"] == "live" and snapshot["evening"]["uid"].endswith(f"-{evening.pk}")
    json.dumps(snapshot)  # JSON-ready


@pytest.mark.django_db
@pytest.mark.parametrize("players", [8, 24])
def test_the_snapshot_takes_the_same_queries_for_any_field(django_assert_num_queries, players):
    from scoring.setup import builders

    evening = builders.evening_with_players(players, sessions_count=1, rounds_per_session=2, deals_per_round=1)
    services.draw_session(evening=evening, seed=3)
    play_round(evening, 1)
    config = queue.config()
    with django_assert_num_queries(8):  # evening, history (4), ranked players, deals, online names
        evening_snapshot(evening.pk, config)


@pytest.mark.django_db
def test_merging_two_entries_keeps_the_more_private_name_and_withdraws_the_removed_key(hub, sender):
    evening = small_evening()
    publishing.set_club_default(choice="full")
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    sender.send_waiting()
    keep, _ = services.add_player(name="Anke Hansen", club="Schwesing")
    remove = Player.objects.get(name="Spieler 3")
    publishing.set_online_name(player_id=keep.pk, choice="initials")
    publishing.set_online_name(player_id=remove.pk, choice="hidden")
    removed_key = privacy.player_key(queue.config().secret, remove.pk)
    services.merge_players(keep_id=keep.pk, remove_id=remove.pk)
    assert keep.publishing.__class__.objects.get(player=keep).online_name == "hidden"
    sender.send_waiting()
    withdrawn = [json.loads(b) for b in hub.bodies if json.loads(b)["format"] == "bruus-withdraw"]
    assert [removed_key] in [w["players"] for w in withdrawn]
    assert "Anke Hansen" not in hub.bodies[-1] and "A. H." not in hub.bodies[-1]
