"""The queue and the sender (docs/publishing.md): marking, "at the end", coalescing, order,
backoff while the hub is down, the hub back, refusals and "Erneut senden", withdrawals, the lease."""

from __future__ import annotations

import json

import pytest

from scoring import services
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.models import Evening
from scoring.publishing import queue
from scoring.publishing import services as publishing
from scoring.publishing.models import EveningPublishing, PublishMode, Withdrawal
from scoring.publishing.sender import Sender
from scoring.publishing.status import evening_status
from tests.publishing.conftest import play_round, seatings

pytestmark = pytest.mark.django_db


def _deal(evening, table_index: int = 0, winner: str = "A"):
    seating = list(seatings(evening, 1))[table_index]
    services.enter_deal(
        seating_id=seating.pk,
        number=1,
        result=DealResult(winner=winner, to_nil=False, bonus_a=0, bonus_b=0),
        origin=Origin.demo(),
        table=seating.table,
    )


def test_an_evening_at_the_end_by_default_goes_online_only_once_its_last_round_is_confirmed(evening, hub, sender):
    play_round(evening, 1)
    assert sender.send_waiting().sent == []  # played, but not over
    assert hub.bodies == []
    play_round(evening, 2)
    done = sender.send_waiting()
    evening.refresh_from_db()
    assert done.sent == [(evening.pk, evening.version)]
    (snapshot,) = hub.snapshots()
    assert snapshot["evening"]["state"] == "final" and len(snapshot["rounds"]) == 2
    assert evening_status(evening).kind == "current"


def test_at_the_end_evening_with_a_row_is_marked_in_the_confirmations_transaction(evening, hub, sender):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.END)
    play_round(evening, 1)
    assert EveningPublishing.objects.get(evening=evening).waiting_version is None
    play_round(evening, 2)
    evening.refresh_from_db()
    assert EveningPublishing.objects.get(evening=evening).waiting_version == evening.version


def test_a_not_online_evening_is_never_sent(evening, hub, sender):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.OFF)
    play_round(evening, 1)
    play_round(evening, 2)
    sender.send_waiting()
    assert hub.bodies == []


def test_many_changes_of_a_live_evening_go_out_as_one_send_of_the_newest_version(evening, hub, sender):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    for index in range(2):
        _deal(evening, index)
    services.set_ranking_hidden(evening_id=evening.pk, hidden=False)
    evening.refresh_from_db()
    assert evening_status(evening).waiting == 4  # the mode, two deals, the screen setting
    done = sender.send_waiting()
    assert done.sent == [(evening.pk, evening.version)] and len(hub.bodies) == 1
    assert sender.send_waiting().sent == [] and len(hub.bodies) == 1  # nothing left


def test_versions_sent_only_go_up(evening, hub, sender):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    versions = []
    for index in range(2):
        _deal(evening, index)
        sender.send_waiting()
        versions.append(hub.snapshots()[-1]["evening"]["version"])
    play_round(evening, 1)
    sender.send_waiting()
    versions.append(hub.snapshots()[-1]["evening"]["version"])
    assert versions == sorted(set(versions))


def test_offline_retries_with_backoff_then_the_hub_back_is_sent_at_the_next_attempt(evening, hub, sender, clock):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    hub.state = "down"
    assert sender.send_waiting().failed == 1
    failed_at = clock()
    row = EveningPublishing.objects.get(evening=evening)
    waits = []
    for _ in range(8):
        waits.append(round((row.next_attempt_at - clock()).total_seconds()))
        clock.move(1)
        assert sender.send_waiting().failed == 0  # not due yet: no send
        clock.at = row.next_attempt_at
        assert sender.send_waiting().failed == 1
        row.refresh_from_db()
    assert waits == [5, 10, 20, 30, 30, 30, 30, 30]  # 5 s doubling to 30 s
    assert max(waits) <= 60  # the hub is current within a minute of its return
    evening.refresh_from_db()
    status = evening_status(evening)
    assert status.kind == "offline" and status.since == failed_at
    _deal(evening)  # a change meanwhile: still one send once the hub is back
    hub.state = "up"
    calls = len(hub.bodies)
    clock.at = row.next_attempt_at
    done = sender.send_waiting()
    evening.refresh_from_db()
    assert done.sent == [(evening.pk, evening.version)] and len(hub.bodies) == calls + 1
    assert evening_status(evening).kind == "current"


def test_a_refusal_is_kept_with_its_reason_and_not_retried_until_the_evening_changes(evening, hub, sender, clock):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    hub.state = "refuse"
    assert sender.send_waiting().refused == 1
    evening.refresh_from_db()
    status = evening_status(evening)
    assert status.kind == "refused" and "too long" in status.reason
    clock.move(3600)
    sender.send_waiting()
    assert len(hub.bodies) == 1  # not retried
    _deal(evening)  # the evening changes: sent again
    hub.state = "up"
    assert len(sender.send_waiting().sent) == 1


def test_send_again_sends_a_refused_snapshot_once_more(evening, hub, sender):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    hub.state = "refuse"
    sender.send_waiting()
    hub.state = "up"
    publishing.send_again(evening_id=evening.pk)
    evening.refresh_from_db()
    assert sender.send_waiting().sent == [(evening.pk, evening.version)]


def test_send_again_of_an_evening_not_due_says_why(evening):
    from scoring.services.base import ServiceError

    with pytest.raises(ServiceError) as refused:
        publishing.send_again(evening_id=evening.pk)
    assert refused.value.code == "not_due"


def test_setting_a_published_evening_not_online_and_deleting_one_withdraws_it(evening, hub, sender, admin_user):
    from scoring.services.housekeeping import delete_evening

    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    sender.send_waiting()
    uid = hub.snapshots()[0]["evening"]["uid"]
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.OFF)
    _deal(evening)
    sender.send_waiting()
    withdrawal = {"format": "bruus-withdraw", "format_version": 1, "players": [], "evenings": [uid]}
    assert json.loads(hub.bodies[-1]) == withdrawal
    assert len(hub.snapshots()) == 1 and not Withdrawal.objects.exists()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    sender.send_waiting()
    evening.refresh_from_db()
    delete_evening(evening_id=evening.pk, user=admin_user, seen_version=evening.version)
    assert sender.send_waiting().withdrawals == 1
    assert '"evenings": ["' + uid + '"]' in hub.bodies[-1]


def test_a_withdrawal_waits_while_the_hub_is_down(evening, hub, sender, clock):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    sender.send_waiting()
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.OFF)
    hub.state = "down"
    sender.send_waiting()
    assert Withdrawal.objects.get().attempts == 1
    hub.state = "up"
    clock.move(5)
    assert sender.send_waiting().withdrawals == 1


def test_only_one_sender_holds_the_lease(evening, hub, clock):
    publishing.set_publish_mode(evening_id=evening.pk, mode=PublishMode.LIVE)
    first, second = Sender(hub, holder="one", now=clock), Sender(hub, holder="two", now=clock)
    assert first.send_waiting().leased
    _deal(evening)
    assert not second.send_waiting().leased and len(hub.bodies) == 1
    clock.move(queue.LEASE_SECONDS + 1)  # the first one died: the lease runs out
    assert second.send_waiting().leased and len(hub.bodies) == 2


def test_a_season_goes_online_after_its_evening(evening, hub, sender):
    from scoring.publishing import privacy

    services.save_season(name="Winter", year=2026, scoring="sum", planned_evenings=2, evening_ids=[evening.pk])
    publishing.set_club_default(choice="full")
    play_round(evening, 1)
    play_round(evening, 2)
    done = sender.send_waiting()
    assert done.seasons == 1
    season = json.loads(hub.bodies[-1])
    uid = privacy.evening_uid(queue.config().installation_id, evening.pk)
    assert season["format"] == "bruus-season" and season["evenings"] == [uid]
    assert season["season"]["version"] == Evening.objects.get(pk=evening.pk).version
    names = {p["key"]: p["name"] for p in season["players"]}
    assert len(season["ranking"]) == 8 and all(row["player"] in names for row in season["ranking"])


def test_a_season_waits_while_an_evening_of_it_is_played_at_the_end(evening, hub, sender):
    from tests.publishing.conftest import small_evening

    other = small_evening(name="Zweiter Abend")
    both = [evening.pk, other.pk]
    services.save_season(name="Winter", year=2026, scoring="sum", planned_evenings=2, evening_ids=both)
    play_round(evening, 1)
    play_round(evening, 2)
    play_round(other, 1)  # the other evening, at the end by default, is still being played
    done = sender.send_waiting()
    assert done.sent and done.seasons == 0
    assert all(json.loads(body)["format"] != "bruus-season" for body in hub.bodies)
