"""What every service shares: the error a service raises, and small helpers."""

from __future__ import annotations

from django.db.models import F

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.numbers import ascii_int
from scoring.models import Evening
from scoring.publishing.models import EveningPublishing
from scoring.publishing.queue import mark_changed


class ServiceError(DomainError):
    """A request the current state of the evening does not allow (message is a msgid)."""


def two_players(first, second) -> tuple[int, int]:
    """Two different player ids from a form (ASCII digits only), or ServiceError."""
    first, second = ascii_int(first), ascii_int(second)
    if first is None or second is None:
        raise ServiceError(gettext_noop("Please choose two players."), code="players_missing")
    if first == second:
        raise ServiceError(gettext_noop("Please choose two different players."), code="same_player")
    return first, second


def set_flag(model, pk: int, field: str, value: bool):
    """Set one boolean field of one row, locked for the transaction; saved only if it changes."""
    row = model.objects.select_for_update().get(pk=pk)
    if getattr(row, field) != value:
        setattr(row, field, value)
        row.save(update_fields=[field])
    return row


def evening_changed(evening_id: int | None = None, *, seats: bool = True, **lookup) -> None:
    """Bump the version of an evening (or of every evening matching ``lookup``, e.g.
    ``sessions__rounds=round_id``) in the current transaction.

    Every service that changes something a page of an evening shows calls this, as the last
    statement of its transaction (PostgreSQL holds the evening's row lock only from here to the
    commit). The version feeds the ETags of the screens and the keys of their shared cache
    (``scoring.web.screen_cache``): a write that does not bump it leaves stale screens.

    ``seats=False``: the write changes nothing a seat page ("Wo sitze ich?") shows (a deal,
    finishing a round at the table), so ``Evening.seating_version``, on which those pages'
    ETags rest, stays as it is. When in doubt, leave it True.

    It also marks the evening waiting for the results site when it is published (live, or at
    the end and over): :func:`scoring.publishing.queue.mark_changed`, one UPDATE, no network.
    """
    evenings = Evening.objects.filter(pk=evening_id) if evening_id is not None else Evening.objects.filter(**lookup)
    if seats:
        evenings.update(version=F("version") + 1, seating_version=F("seating_version") + 1)
    else:
        evenings.update(version=F("version") + 1)
    # The results site: a published evening waits for the sender (one UPDATE, no network).
    queued = EveningPublishing.objects
    rows = queued.filter(evening_id=evening_id) if evening_id is not None else queued.filter(evening__in=evenings)
    mark_changed(rows)
