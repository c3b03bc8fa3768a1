"""Fixtures of the publishing tests: a fake hub (a transport that records every body it is given)
and a small evening played through the services."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.models import Seating, Session
from scoring.publishing.sender import Sender
from scoring.publishing.transport import Answer
from scoring.setup import builders


class FakeHub:
    """A transport answering as the contract says: ``state`` "up" (applied, or unchanged for a
    version it holds), "down" (connection refused) or "refuse" (400 with a reason). ``bodies``:
    every request body sent, serialized as the real transport would."""

    def __init__(self):
        self.state = "up"
        self.bodies: list[str] = []
        self.held: dict[str, int] = {}

    def send(self, payload):
        self.bodies.append(json.dumps(payload, ensure_ascii=False))
        if self.state == "down":
            return Answer("unreachable", reason="[Errno 111] Connection refused")
        if self.state == "refuse":
            return Answer("refused", reason="HTTP 400: evening.name: too long")
        if payload["format"] != "bruus-snapshot":
            return Answer("applied")
        uid, version = payload["evening"]["uid"], payload["evening"]["version"]
        if self.held.get(uid, -1) >= version:
            return Answer("unchanged", version=self.held[uid])
        self.held[uid] = version
        return Answer("applied", version=version)

    def snapshots(self) -> list[dict]:
        return [json.loads(b) for b in self.bodies if json.loads(b)["format"] == "bruus-snapshot"]


class Clock:
    """The sender's clock, moved by the tests."""

    def __init__(self):
        self.at = timezone.now()

    def __call__(self):
        return self.at

    def move(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
def hub():
    return FakeHub()


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def sender(hub, clock):
    return Sender(hub, holder="test-sender", now=clock)


def small_evening(**kwargs):
    """Eight players, one session of two rounds of one deal, drawn (nothing played yet)."""
    evening = builders.evening_with_players(
        8, sessions_count=1, rounds_per_session=2, deals_per_round=1, on=timezone.localdate(), **kwargs
    )
    services.draw_session(evening=evening, seed=3)
    return evening


def play_round(evening, number: int) -> None:
    """Play round ``number`` of the evening's session at every table, finished and confirmed."""
    builders.play_round(Session.objects.get(evening=evening), number)


def seatings(evening, number: int):
    return Seating.objects.filter(round__session__evening=evening, round__number=number).select_related("table")


@pytest.fixture
def evening(db):
    return small_evening()
