"""Snapshots of one club arriving at once (two evenings, new players, replays out of order): every
answer 200, and the hub holds the newest version of each evening (on PostgreSQL: row locks and
the players' unique key under real concurrency)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from scoring.hub.models import HubEvening, HubPlayer
from tests.hub.conftest import evening_snapshot, post


@pytest.mark.django_db(transaction=True)
def test_snapshots_at_once_end_with_the_newest(hub_role, club_key):
    if connection.vendor != "postgresql":  # the suite's SQLite is in memory: one writer thread at a time
        pytest.skip("concurrent writers: PostgreSQL (make test's second run)")
    _, key = club_key
    jobs = [(uid, version) for version in range(100, 106) for uid in ("a", "b")]
    jobs.reverse()  # the newest first: the older ones after it change nothing

    def send(job: tuple[str, int]) -> int:
        uid, version = job
        try:
            return post(Client(), evening_snapshot(uid, version, count=8 + version - 100), key).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(send, jobs))
    assert answers == [200] * len(jobs)
    assert {e.uid: e.version for e in HubEvening.objects.all()} == {"a": 105, "b": 105}
    assert HubPlayer.objects.count() == 12  # 13 players of the largest, one of them not published
