"""The hall's publishing state (docs/publishing.md). Registered by ``scoring.models`` (one import
line there), so the app label is ``scoring`` and the migrations are the app's.

Rows are created lazily: an evening without an :class:`EveningPublishing` row is "at the end"
and has sent nothing; a player without a :class:`PlayerPublishing` row follows the club default.
"""

from __future__ import annotations

import secrets
import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _


class OnlineName(models.TextChoices):
    """How a player's name goes online (the club default uses the three last ones)."""

    DEFAULT = "default", _("Club default")
    FULL = "full", _("Full name")
    INITIALS = "initials", _("Initials")
    HIDDEN = "hidden", _("Not online")


class PublishMode(models.TextChoices):
    """When an evening goes online."""

    LIVE = "live", _("Live: every change goes online")
    END = "end", _("At the end: once the last round is confirmed")
    OFF = "off", _("Not online")


def new_installation_id() -> str:
    """A fresh installation id: 32 hexadecimal digits (a UUID4 without dashes)."""
    return uuid.uuid4().hex


def new_secret() -> str:
    """A fresh secret for the player keys: 64 hexadecimal digits (256 bits)."""
    return secrets.token_hex(32)


class PublishingConfig(models.Model):
    """The hall's one row (pk 1): its installation id (the start of every evening uid), the secret
    of the opaque player keys, the club default of the online names, and the sender's lease
    (only one sender of all processes works at a time: ``scoring.publishing.queue.take_lease``)."""

    installation_id = models.CharField(max_length=32, default=new_installation_id, editable=False)
    secret = models.CharField(max_length=64, default=new_secret, editable=False)
    club_default = models.CharField(
        _("online names by default"),
        max_length=8,
        choices=[c for c in OnlineName.choices if c[0] != OnlineName.DEFAULT],
        default=OnlineName.INITIALS,
    )
    # Evenings that nobody set a mode for go online at their end only if dated on or after this day
    # (the day the hall first published): switching publishing on does not upload every old evening.
    since = models.DateField(null=True, blank=True, editable=False)
    lease_holder = models.CharField(max_length=64, blank=True, editable=False)
    lease_until = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("publishing settings")


class PlayerPublishing(models.Model):
    """A player's online name (no row: the club default)."""

    player = models.OneToOneField("scoring.Player", on_delete=models.CASCADE, related_name="publishing")
    online_name = models.CharField(
        _("name online"), max_length=8, choices=OnlineName.choices, default=OnlineName.DEFAULT
    )


class EveningPublishing(models.Model):
    """An evening's publish mode and its place in the queue.

    ``waiting_version``: the newest ``Evening.version`` waiting to be sent (None: nothing waits);
    ``changes``: how many changes wait (the status line); ``sent_version``: the version the hub
    acknowledged; ``attempts`` and ``next_attempt_at``: the backoff while the hub cannot be
    reached (``failing_since``: the first failure since the last success); ``refused_version``:
    a version the hub refused (``last_error`` its reason), not sent again until the evening
    changes or the organiser says "Erneut senden".
    """

    evening = models.OneToOneField("scoring.Evening", on_delete=models.CASCADE, related_name="publishing")
    mode = models.CharField(_("online"), max_length=4, choices=PublishMode.choices, default=PublishMode.END)
    waiting_version = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    changes = models.PositiveIntegerField(default=0, editable=False)
    sent_version = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    refused_version = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    attempts = models.PositiveIntegerField(default=0, editable=False)
    next_attempt_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_success_at = models.DateTimeField(null=True, blank=True, editable=False)
    failing_since = models.DateTimeField(null=True, blank=True, editable=False)
    last_error = models.TextField(blank=True, editable=False)


class Withdrawal(models.Model):
    """A withdrawal waiting for the hub (player keys and evening uids, format ``bruus-withdraw``):
    written when a published player goes "not online", an evening is set to "not online" or is
    deleted; deleted once the hub has applied it."""

    players = models.JSONField(default=list)
    evenings = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    refused = models.BooleanField(default=False)

    class Meta:
        ordering = ["pk"]
