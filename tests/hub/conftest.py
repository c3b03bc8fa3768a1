"""The results site's fixtures: the hub role, a club with its key, snapshots as a hall sends them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client

from scoring.hub import services

API = "/api/v1/snapshots/"


def players(count: int) -> list[dict[str, str]]:
    """``count`` published players, keys ``p-0001``…, full names but every fifth by initials."""
    return [{"key": f"p-{n:04d}", "name": _name(n)} for n in range(1, count + 1)]


def _name(n: int) -> str:
    return f"{chr(65 + n % 26)}. {chr(66 + n % 20)}." if n % 5 == 4 else f"Spieler {n:04d} Hansen"


def evening_snapshot(
    uid: str = "hall-1-17", version: int = 100, *, count: int = 8, hidden: bool = False, state: str = "live", **head
) -> dict[str, Any]:
    """A valid evening snapshot (format 1): ``count`` players, one of them not published (null),
    one session of one round with ``count // 4`` tables, one deal each."""
    published = players(count - 1)
    keys: list[str | None] = [p["key"] for p in published] + [None]
    ranking = [
        {"place": n + 1, "player": key, "total": str(max(0, 60 - n)), "sessions": [str(max(0, 60 - n))]}
        for n, key in enumerate(keys)
    ]
    tables = [
        {
            "table": t + 1,
            "team_a": [keys[4 * t], keys[4 * t + 1]],
            "team_b": [keys[4 * t + 2], keys[4 * t + 3]],
            "points_a": 14,
            "points_b": 9,
            "deals": [{"number": 1, "points_a": 5, "points_b": 0}],
        }
        for t in range(count // 4)
    ]
    evening = {
        "uid": uid,
        "version": version,
        "name": "Bruus-Abend November",
        "date": "2026-11-27",
        "venue": "Dörpshus Schwesing",
        "rule_set": "schwesing",
        "language": "de",
        "sessions_count": 3,
        "rounds_per_session": 4,
        "deals_per_round": 4,
        "state": state,
        "ranking_hidden": hidden,
        "sent_at": "2026-11-27T20:14:03Z",
        **head,
    }
    return {
        "format": "bruus-snapshot",
        "format_version": 1,
        "evening": evening,
        "players": published,
        "ranking": [] if hidden else ranking,
        "rounds": [] if hidden else [{"session": 1, "round": 1, "tables": tables}],
    }


def season_snapshot(uid: str = "hall-1-s3", version: int = 100, evenings: tuple[str, ...] = ("hall-1-17",)) -> dict:
    published = players(3)
    return {
        "format": "bruus-season",
        "format_version": 1,
        "season": {"uid": uid, "version": version, "name": "Winter 2026/27"},
        "evenings": list(evenings),
        "players": published,
        "ranking": [
            {"place": 1, "player": "p-0001", "total": "153", "evenings": 3},
            {"place": 2, "player": None, "total": "140.5", "evenings": 3},
            {"place": 3, "player": "p-0002", "total": "99", "evenings": 2},
        ],
    }


def post(client: Client, body: Any, key: str | None, **extra: Any):
    """POST ``body`` (a value as JSON, or bytes as they are) to the API with ``key`` as bearer."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"} if key is not None else {}
    return client.generic("POST", API, data, content_type="application/json", **headers, **extra)


@pytest.fixture
def hub_role(settings):
    """The hub role for this test: the hub's URLconf and middleware (as ``BRUUS_ROLE=hub``)."""
    settings.BRUUS_ROLE = "hub"
    settings.ROOT_URLCONF = "scoring.hub.urls"
    settings.MIDDLEWARE = settings.HUB_MIDDLEWARE
    return settings


@pytest.fixture
def club_key(db) -> tuple[Any, str]:
    """A club on the hub and its key."""
    return services.create_club("Bruus-Club Schwesing")


@pytest.fixture
def hub(hub_role, club_key):
    """(client, club, key) in the hub role."""
    club, key = club_key
    return Client(), club, key


def mutated(value: Any) -> Any:
    return copy.deepcopy(value)
