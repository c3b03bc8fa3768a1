"""The publishing queue's reads and writes (docs/publishing.md, "The queue").

:func:`mark_changed` runs inside every service's transaction (from
``scoring.services.base.evening_changed``): one UPDATE, no network, no snapshot. Everything else
here is the sender's bookkeeping, each write one short statement or transaction, never while the
sender talks to the hub.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Greatest

from scoring.models import Evening, Seating, Session
from scoring.publishing import privacy
from scoring.publishing.models import (
    EveningPublishing,
    OnlineName,
    PlayerPublishing,
    PublishingConfig,
    PublishMode,
    Withdrawal,
)

#: Backoff while the hub cannot be reached: 5 s, doubling, at most 30 s, so that the hub is current
#: within a minute of its return (the sender also looks every 2 s) at the cost of one small request
#: every 30 s per waiting evening while the hall has no internet.
BACKOFF_FIRST = 5
BACKOFF_MAX = 30
#: How long the sender's lease lasts unless renewed (seconds).
LEASE_SECONDS = 60
CONFIG_PK = 1


def backoff(attempts: int) -> timedelta:
    """The wait after ``attempts`` failed attempts in a row (1 -> 5 s, 2 -> 10 s, … at most 30 s)."""
    return timedelta(seconds=min(BACKOFF_FIRST * 2 ** max(attempts - 1, 0), BACKOFF_MAX))


def config() -> PublishingConfig:
    """The hall's publishing row, created on first use (installation id and secret made then)."""
    found = PublishingConfig.objects.filter(pk=CONFIG_PK).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return PublishingConfig.objects.create(pk=CONFIG_PK)
    except IntegrityError:  # another process made it first
        return PublishingConfig.objects.get(pk=CONFIG_PK)


def club_default() -> str:
    """The club default of the online names, read only (1 query; initials until set)."""
    found = PublishingConfig.objects.filter(pk=CONFIG_PK).values_list("club_default", flat=True).first()
    return found or OnlineName.INITIALS


def _over(evening: str) -> Q:
    """The evening (``"evening_id"`` of a queue row or ``"pk"`` of an evening) is over: its last planned session
    drawn and no table of any round unconfirmed (``scoring.domain.evening.evening_is_over``)."""
    planned = "evening__sessions_count" if evening == "evening_id" else "sessions_count"
    drawn = Session.objects.filter(evening_id=OuterRef(evening), number__gte=OuterRef(planned))
    open_tables = Seating.objects.filter(round__session__evening_id=OuterRef(evening), confirmed_at__isnull=True)
    return Q(Exists(drawn)) & ~Q(Exists(open_tables))


def mark_changed(rows: QuerySet[EveningPublishing]) -> int:
    """Mark the evenings of ``rows`` waiting at their (already bumped) version: live evenings
    always, "at the end" evenings only once over, "not online" never. One UPDATE; returns the
    number of evenings marked."""
    version = Subquery(Evening.objects.filter(pk=OuterRef("evening_id")).values("version")[:1])
    due = Q(mode=PublishMode.LIVE) | (Q(mode=PublishMode.END) & _over("evening_id"))
    return rows.filter(due).update(waiting_version=version, changes=F("changes") + 1)


def adopt_finished_evenings(since) -> int:
    """Give a queue row, waiting, to every evening without one (so "at the end", the default) that
    is over and dated on or after ``since`` (1 query, 2 when there are some). Returns how many."""
    unset = Evening.objects.filter(publishing__isnull=True, date__gte=since)
    found = list(unset.filter(_over("pk")).values_list("pk", "version"))
    EveningPublishing.objects.bulk_create(
        [EveningPublishing(evening_id=pk, waiting_version=version, changes=1) for pk, version in found],
        ignore_conflicts=True,
    )
    return len(found)


def take_lease(holder: str, now: datetime, seconds: int = LEASE_SECONDS) -> bool:
    """Take or renew the sender's lease (a read, then one conditional UPDATE when it looks free):
    True when ``holder`` is the one sender working now (the lease was free, expired, or its own)."""
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now) | Q(lease_holder=holder)
    if not PublishingConfig.objects.filter(free, pk=CONFIG_PK).exists():
        return False  # another process sends: a read, no write (no write lock taken every pass)
    taken = PublishingConfig.objects.filter(free, pk=CONFIG_PK).update(
        lease_holder=holder, lease_until=now + timedelta(seconds=seconds)
    )
    return taken == 1


def release_lease(holder: str) -> None:
    """Give the lease up (a sender that stops)."""
    PublishingConfig.objects.filter(pk=CONFIG_PK, lease_holder=holder).update(lease_holder="", lease_until=None)


def due_evenings(now: datetime) -> list[EveningPublishing]:
    """The queue rows to send now: waiting, not "not online", their next attempt due, not refused
    at this version (1 query)."""
    return list(
        EveningPublishing.objects.filter(waiting_version__isnull=False)
        .exclude(mode=PublishMode.OFF)
        .filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        .filter(Q(refused_version__isnull=True) | Q(waiting_version__gt=F("refused_version")))
        .order_by("next_attempt_at", "pk")
    )


def record_sent(row: EveningPublishing, version: int, now: datetime) -> None:
    """The hub holds ``version`` (applied, or it had it already): the row's failures are cleared,
    and it stops waiting unless a newer change arrived meanwhile."""
    with transaction.atomic():
        rows = EveningPublishing.objects.filter(pk=row.pk)
        rows.update(
            sent_version=Greatest(Coalesce("sent_version", Value(0)), Value(version)),
            changes=Greatest(F("changes") - row.changes, Value(0)),
            attempts=0,
            next_attempt_at=None,
            failing_since=None,
            refused_version=None,
            last_error="",
            last_success_at=now,
        )
        rows.filter(waiting_version__lte=version).update(waiting_version=None, changes=0)


def record_unreachable(row: EveningPublishing, reason: str, now: datetime) -> None:
    """The hub could not be reached (or answered with a server error): try again after the backoff."""
    attempts = row.attempts + 1
    EveningPublishing.objects.filter(pk=row.pk).update(
        attempts=attempts,
        next_attempt_at=now + backoff(attempts),
        failing_since=Coalesce("failing_since", Value(now)),
        last_error=reason[:1000],
    )


def record_refused(row: EveningPublishing, version: int, reason: str) -> None:
    """The hub refused ``version`` (400, 401, 413): kept with the hub's reason, not sent again until
    the evening changes or the organiser sends it again."""
    EveningPublishing.objects.filter(pk=row.pk).update(
        refused_version=version, attempts=0, next_attempt_at=None, failing_since=None, last_error=reason[:1000]
    )


def retry_now_after_success(now: datetime) -> None:
    """The hub answered: the rows waiting for their backoff are tried on the next pass."""
    EveningPublishing.objects.filter(next_attempt_at__gt=now).update(next_attempt_at=now)
    Withdrawal.objects.filter(next_attempt_at__gt=now, refused=False).update(next_attempt_at=now)


def anything_sent() -> bool:
    """Whether the hall has ever had an evening acknowledged by the hub (1 query)."""
    return EveningPublishing.objects.filter(sent_version__isnull=False).exists()


def queue_withdrawal(*, players: Sequence[str] = (), evenings: Sequence[str] = ()) -> Withdrawal | None:
    """Queue a withdrawal of player keys and evening uids (None when both are empty)."""
    if not players and not evenings:
        return None
    return Withdrawal.objects.create(players=list(players), evenings=list(evenings))


def due_withdrawals(now: datetime) -> list[Withdrawal]:
    """Withdrawals to send now, oldest first (1 query)."""
    return list(
        Withdrawal.objects.filter(refused=False).filter(Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
    )


def evening_deleted(evening_id: int) -> None:
    """Called in the transaction that deletes an evening: its withdrawal is queued when the hub
    holds it (1 query, 3 when it does)."""
    if EveningPublishing.objects.filter(evening_id=evening_id, sent_version__isnull=False).exists():
        queue_withdrawal(evenings=[privacy.evening_uid(config().installation_id, evening_id)])


def players_merged(keep_id: int, remove_id: int) -> None:
    """Called in the transaction that merges two register entries, before the references move:
    the entry kept takes the more private online name of the two (the person asked for it under
    one of them), the removed entry's choice goes, and its key is withdrawn from the results site
    when anything was published (its pages there belong to a key that no longer exists)."""
    own = dict(PlayerPublishing.objects.filter(player__in=[keep_id, remove_id]).values_list("player_id", "online_name"))
    default = club_default()
    kept, removed = own.get(keep_id, OnlineName.DEFAULT), own.get(remove_id, OnlineName.DEFAULT)
    if privacy.more_private(kept, removed, default) != kept:
        PlayerPublishing.objects.update_or_create(player_id=keep_id, defaults={"online_name": removed})
    PlayerPublishing.objects.filter(player_id=remove_id).delete()
    if anything_sent():
        queue_withdrawal(players=[privacy.player_key(config().secret, remove_id)])
