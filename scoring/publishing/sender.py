"""The sender: takes the waiting evenings, sends the newest snapshot of each, records the answer
(docs/publishing.md, "The sender").

Entry points:

- :func:`start_background_sender`: a daemon thread in each app process of ``bruus-turnier run``
  and ``serve`` (started by ``bruus_tournament/wsgi.py`` when ``PUBLISH_URL`` is set); of all
  processes only the holder of the lease (:func:`scoring.publishing.queue.take_lease`) sends;
- ``bruus-turnier publish`` (the ``publish`` management command): :meth:`Sender.loop` in the
  foreground, or ``--once``: :meth:`Sender.send_waiting` until nothing is due, then stop.

The sender writes only in short statements of its own (never while it waits for the network) and
the services never wait for it: a deal's answer does not depend on the hub.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from scoring.models import SeasonEvening
from scoring.publishing import queue
from scoring.publishing.snapshot import evening_snapshot, season_snapshot, withdrawal_snapshot
from scoring.publishing.transport import HttpTransport, Transport

log = logging.getLogger("bruus_tournament.publishing")

#: Seconds between two looks at the queue.
POLL_SECONDS = 2.0


@dataclass
class Pass:
    """What one pass of the sender did (for ``publish --once`` and the tests)."""

    sent: list[tuple[int, int]] = field(default_factory=list)  # (evening id, version) the hub holds
    failed: int = 0
    refused: int = 0
    seasons: int = 0
    withdrawals: int = 0
    leased: bool = True


class Sender:
    """Sends what waits, through ``transport``. ``now``: the clock (the tests move it)."""

    def __init__(self, transport: Transport, *, holder: str | None = None, now: Callable[[], datetime] = timezone.now):
        self.transport = transport
        self.holder = holder or f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.now = now

    def send_waiting(self) -> Pass:
        """One pass: the lease taken (else nothing), finished "at the end" evenings adopted,
        withdrawals sent, then every due evening's newest snapshot, then the seasons of the
        evenings the hub took."""
        done = Pass()
        now = self.now()
        config = queue.config()
        if not queue.take_lease(self.holder, now):
            done.leased = False
            return done
        if config.since is None:
            config.since = timezone.localdate(now)
            type(config).objects.filter(pk=config.pk, since__isnull=True).update(since=config.since)
        queue.adopt_finished_evenings(config.since)
        for withdrawal in queue.due_withdrawals(now):
            queue.take_lease(self.holder, self.now())
            answer = self.transport.send(withdrawal_snapshot(withdrawal.players, withdrawal.evenings))
            self._withdrawal_answer(withdrawal, answer, done)
        seasons: set[int] = set()
        for row in queue.due_evenings(now):
            if not queue.take_lease(self.holder, self.now()):
                done.leased = False
                break
            payload = evening_snapshot(row.evening_id, config)
            if payload is None:  # deleted meanwhile (its row went with it)
                continue
            version = payload["evening"]["version"]
            answer = self.transport.send(payload)
            at = self.now()
            if answer.held:
                queue.record_sent(row, version, at)
                done.sent.append((row.evening_id, version))
                links = SeasonEvening.objects.filter(evening_id=row.evening_id)
                seasons.update(links.values_list("season_id", flat=True))
            elif answer.kind == "refused":
                queue.record_refused(row, version, answer.reason)
                done.refused += 1
                log.warning("The results site refused evening %s: %s", row.evening_id, answer.reason)
            else:
                queue.record_unreachable(row, answer.reason, at)
                done.failed += 1
        for season_id in sorted(seasons):
            payload = season_snapshot(season_id, config)
            if payload is not None and self.transport.send(payload).held:
                done.seasons += 1
        if done.sent or done.withdrawals:
            queue.retry_now_after_success(self.now())
        return done

    def _withdrawal_answer(self, withdrawal, answer, done: Pass) -> None:
        if answer.held:
            withdrawal.delete()
            done.withdrawals += 1
            return
        withdrawal.last_error = answer.reason[:1000]
        if answer.kind == "refused":
            withdrawal.refused = True
        else:
            withdrawal.attempts += 1
            withdrawal.next_attempt_at = self.now() + queue.backoff(withdrawal.attempts)
        withdrawal.save(update_fields=["last_error", "refused", "attempts", "next_attempt_at"])

    def loop(self, stop: threading.Event, poll: float = POLL_SECONDS) -> None:
        """Pass after pass until ``stop`` is set; an error in a pass is logged, never ends the loop."""
        try:
            while not stop.is_set():
                try:
                    self.send_waiting()
                except Exception:  # a database hiccup: the next pass tries again
                    log.exception("Publishing pass failed")
                finally:
                    close_old_connections()
                stop.wait(poll)
        finally:
            with contextlib.suppress(Exception):  # the database may be gone at exit
                queue.release_lease(self.holder)
            close_old_connections()


def configured_transport() -> HttpTransport | None:
    """The transport of the settings (``PUBLISH_URL``, ``PUBLISH_KEY``, ``PUBLISH_ALLOW_HTTP``), or
    None when ``PUBLISH_URL`` is not set."""
    if not settings.PUBLISH_URL:
        return None
    return HttpTransport(settings.PUBLISH_URL, settings.PUBLISH_KEY, allow_http=settings.PUBLISH_ALLOW_HTTP)


_started: threading.Thread | None = None
_start_lock = threading.Lock()


def start_background_sender() -> threading.Thread | None:
    """Start the sender as a daemon thread of this process, once (None when ``PUBLISH_URL`` is not
    set). Every app process may call it; the lease lets one of them send at a time."""
    global _started
    transport = configured_transport()
    if transport is None:
        return None
    with _start_lock:
        if _started is None or not _started.is_alive():
            sender = Sender(transport)
            _started = threading.Thread(
                target=sender.loop, args=(threading.Event(),), name="bruus-publisher", daemon=True
            )
            _started.start()
    return _started
