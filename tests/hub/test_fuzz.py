"""Hypothesis mutates valid snapshots (a value replaced, a field removed): the hub answers 200 or
400, never a server error; a refused snapshot changes nothing, an applied one has a page."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.hub.models import HubEvening, HubPlayer, HubResult
from tests.hub.conftest import evening_snapshot, post, season_snapshot

pytestmark = [pytest.mark.django_db, pytest.mark.no_cover]  # a sweep: the same code over generated input

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**64), 2**64) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*path, index))
    return found


def _mutate(snapshot: dict, path: tuple, new: Any, remove: bool) -> dict:
    if not path:
        return new
    target = snapshot
    for step in path[:-1]:
        target = target[step]
    if remove:
        del target[path[-1]]
    else:
        target[path[-1]] = new
    return snapshot


COUNTER = itertools.count(1000)


def _held() -> str:
    return json.dumps(
        [list(m.objects.order_by("pk").values()) for m in (HubEvening, HubPlayer, HubResult)], default=str
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture], derandomize=True)
@given(data=st.data())
def test_mutated_snapshots_are_refused_or_applied_never_a_server_error(hub, data):
    client, club, key = hub
    version = next(COUNTER)
    base = evening_snapshot(version=version) if data.draw(st.booleans()) else season_snapshot(version=version)
    path = data.draw(st.sampled_from(_paths(base)))
    remove = bool(path) and data.draw(st.booleans())
    snapshot = _mutate(base, path, data.draw(VALUES), remove)
    before = _held()
    answer = post(client, snapshot, key)
    assert answer.status_code in (200, 400), answer.content
    if answer.status_code == 400:
        assert answer.json()["errors"] and _held() == before
    elif isinstance(snapshot, dict) and snapshot.get("format") == "bruus-snapshot":
        uid = snapshot["evening"]["uid"]
        assert client.get(f"/verein/{club.slug}/abend/{uid}/").status_code == 200
