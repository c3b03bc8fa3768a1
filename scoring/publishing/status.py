"""What the organiser's pages show about an evening online (a selector: 1 query)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from django.conf import settings
from django.utils.translation import gettext

from scoring.models import Evening
from scoring.publishing.models import EveningPublishing, PublishMode


@dataclass(frozen=True)
class EveningStatus:
    """An evening's line "Online: …".

    ``kind``: ``"off"`` (not online), ``"at_end"`` (goes online at its end, nothing sent yet),
    ``"current"`` (the hub holds the newest version), ``"waiting"`` (``waiting`` changes wait),
    ``"offline"`` (the hub has not been reached since ``since``; ``reason``), ``"refused"`` (the
    hub refused the newest snapshot: ``reason``, the hub's words). ``mode``: the publish mode;
    ``configured``: ``PUBLISH_URL`` is set (else the page offers no status, only the choice).
    """

    kind: str
    mode: str
    configured: bool
    waiting: int = 0
    since: datetime | None = None
    reason: str = ""
    last_success: datetime | None = None

    @property
    def can_send_again(self) -> bool:
        return self.configured and self.kind in ("refused", "offline", "waiting", "current")


def _reason(text: str) -> str:
    """A recorded reason: ours (a msgid of :mod:`scoring.publishing.transport`) translated, the
    hub's and the network's as they came."""
    return gettext(text) if text else ""


def evening_status(evening: Evening, row: EveningPublishing | None | bool = True) -> EveningStatus:
    """The evening's publishing status (1 query; none when its queue ``row`` is given, or None
    for an evening known to have none)."""
    if row is True:
        row = EveningPublishing.objects.filter(evening_id=evening.pk).first()
    configured = bool(settings.PUBLISH_URL)
    if not isinstance(row, EveningPublishing):
        return EveningStatus("at_end", PublishMode.END, configured)
    base = EveningStatus("current", row.mode, configured, last_success=row.last_success_at)
    if row.mode == PublishMode.OFF:
        return replace(base, kind="off")
    if row.refused_version is not None and (row.waiting_version or 0) <= row.refused_version:
        return replace(base, kind="refused", reason=_reason(row.last_error))
    if row.failing_since is not None and row.waiting_version is not None:
        return replace(
            base, kind="offline", waiting=row.changes, since=row.failing_since, reason=gettext(row.last_error)
        )
    if row.waiting_version is not None:
        return replace(base, kind="waiting", waiting=max(row.changes, 1))
    if row.sent_version is None and row.mode == PublishMode.END:
        return replace(base, kind="at_end")
    return base


def status_part(evening: Evening) -> tuple:
    """What of the queue row the evening's page shows, for its ETag (1 query): the sender's
    answers change the status line without changing the evening's version."""
    row = EveningPublishing.objects.filter(evening_id=evening.pk).values_list(
        "mode", "waiting_version", "changes", "refused_version", "failing_since", "sent_version", "last_error"
    )
    return tuple(row.first() or ())
