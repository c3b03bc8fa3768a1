"""The organiser's publishing choices, one transaction each (docs/publishing.md): an evening's
mode, a player's online name, the club default, "Erneut senden", and the withdrawal of a deleted
evening. Bad input raises :class:`scoring.services.base.ServiceError` and changes nothing.
"""

from __future__ import annotations

from django.db import transaction

from scoring.domain.errors import gettext_noop
from scoring.models import Evening, Player
from scoring.publishing import privacy, queue
from scoring.publishing.models import EveningPublishing, OnlineName, PlayerPublishing, PublishMode
from scoring.services.base import ServiceError, evening_changed


def _row(evening_id: int) -> EveningPublishing:
    """The evening's queue row, created if missing, locked for the transaction."""
    if not Evening.objects.filter(pk=evening_id).exists():
        raise ServiceError(gettext_noop("This evening no longer exists."), code="no_evening")
    EveningPublishing.objects.bulk_create([EveningPublishing(evening_id=evening_id)], ignore_conflicts=True)
    return EveningPublishing.objects.select_for_update().get(evening_id=evening_id)


@transaction.atomic
def set_publish_mode(*, evening_id: int, mode: str) -> EveningPublishing:
    """Set when the evening goes online: ``"live"``, ``"end"`` (at the end) or ``"off"`` (not
    online). "Not online" for an evening the hub holds queues its withdrawal. Raises ServiceError
    for an unknown mode (``mode``) or evening (``no_evening``)."""
    if mode not in PublishMode.values:
        raise ServiceError(gettext_noop("Please choose one of the choices offered."), code="mode")
    row = _row(evening_id)
    if mode == PublishMode.OFF and row.sent_version is not None:
        uid = privacy.evening_uid(queue.config().installation_id, evening_id)
        queue.queue_withdrawal(evenings=[uid])
        row.sent_version = None
    if mode == PublishMode.OFF:
        row.waiting_version, row.changes, row.refused_version, row.last_error = None, 0, None, ""
    row.mode = mode
    row.save()
    evening_changed(evening_id)  # marks it waiting when it is now due (live, or over)
    row.refresh_from_db()
    return row


@transaction.atomic
def send_again(*, evening_id: int) -> EveningPublishing:
    """ "Erneut senden": the evening's newest snapshot is sent on the sender's next pass, even one
    the hub refused, without waiting for the backoff. A "not online" evening is not sent; nor is an
    "at the end" evening before its end (ServiceError ``not_due``). Refused withdrawals are tried
    again too."""
    row = _row(evening_id)
    if row.mode == PublishMode.OFF:
        raise ServiceError(gettext_noop("This evening is not online."), code="not_due")
    version = Evening.objects.values_list("version", flat=True).get(pk=evening_id)
    marked = queue.mark_changed(EveningPublishing.objects.filter(pk=row.pk))
    if not marked:
        raise ServiceError(
            gettext_noop("This evening goes online at its end, once its last round is confirmed."), code="not_due"
        )
    EveningPublishing.objects.filter(pk=row.pk).update(
        waiting_version=version, refused_version=None, attempts=0, next_attempt_at=None
    )
    queue.Withdrawal.objects.filter(refused=True).update(refused=False, attempts=0, next_attempt_at=None)
    row.refresh_from_db()
    return row


@transaction.atomic
def set_online_name(*, player_id: int, choice: str) -> PlayerPublishing:
    """Set how a player's name goes online: ``"default"`` (the club's), ``"full"``,
    ``"initials"`` or ``"hidden"`` (not online: "take this player's page down"). A player who
    goes "not online" after anything was published gets a withdrawal of their key (the hub blanks
    them in every stored evening and removes their page); the published evenings they played in
    are sent again with the new name. Raises ServiceError (``choice``, ``no_player``)."""
    if choice not in OnlineName.values:
        raise ServiceError(gettext_noop("Please choose one of the choices offered."), code="choice")
    if not Player.objects.filter(pk=player_id).exists():
        raise ServiceError(gettext_noop("This player no longer exists."), code="no_player")
    config = queue.config()
    row, _ = PlayerPublishing.objects.select_for_update().get_or_create(player_id=player_id)
    before = privacy.effective_choice(row.online_name, config.club_default)
    row.online_name = choice
    row.save()
    after = privacy.effective_choice(choice, config.club_default)
    if after == privacy.HIDDEN and before != privacy.HIDDEN and queue.anything_sent():
        queue.queue_withdrawal(players=[privacy.player_key(config.secret, player_id)])
    if after != before:
        evening_changed(participants__player=player_id)
    return row


@transaction.atomic
def set_club_default(*, choice: str) -> None:
    """Set the club default of the online names (``"full"``, ``"initials"``, ``"hidden"``). When it
    becomes "not online", the keys of every player following it are withdrawn (if anything was
    published); the published evenings are sent again with the names it gives."""
    if choice not in (privacy.FULL, privacy.INITIALS, privacy.HIDDEN):
        raise ServiceError(gettext_noop("Please choose one of the choices offered."), code="choice")
    config = queue.config()
    before = config.club_default
    if before == choice:
        return
    type(config).objects.filter(pk=config.pk).update(club_default=choice)
    if choice == privacy.HIDDEN and queue.anything_sent():
        own = dict(PlayerPublishing.objects.values_list("player_id", "online_name"))
        following = [
            pid for pid in Player.objects.values_list("pk", flat=True) if own.get(pid, OnlineName.DEFAULT) == "default"
        ]
        queue.queue_withdrawal(players=[privacy.player_key(config.secret, pid) for pid in following])
    evening_changed(publishing__sent_version__isnull=False)
