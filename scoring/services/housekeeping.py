"""Housekeeping of an evening: rename it, archive it and bring it back, delete
it with a backup written first. The Turnierleitung's, each one transaction with the permission
and the evening's state checked inside.

Archiving hides an evening from the organiser's list of evenings and from the evenings a season's
form offers; nothing else changes: its results stay on the players' pages, a season that holds it
goes on counting it, its pages and downloads answer as before. Deleting takes the evening and
everything in it away (the register keeps its players); a backup of it is written to
``DATA_DIR/backups/`` first, so it can be restored from the backup page.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from scoring.backup import export_evening, write_backup
from scoring.backup.report import file_name
from scoring.domain.errors import gettext_noop
from scoring.hall.roles import RUN_PERM
from scoring.models import Evening, Round, Seating
from scoring.publishing.queue import evening_deleted
from scoring.services.base import ServiceError, evening_changed


def _leader_evening(evening_id: int, user) -> Evening:
    """The evening's row, locked for the transaction, after the login's permission is checked."""
    if user is None or not user.has_perm(RUN_PERM):
        raise ServiceError(
            gettext_noop("Only the Turnierleitung can rename, archive or delete an evening."), code="permission"
        )
    evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
    if evening is None:
        raise ServiceError(gettext_noop("This evening no longer exists."), code="no_evening")
    return evening


@transaction.atomic
def rename_evening(*, evening_id: int, name: str, user) -> Evening:
    """Give an evening a new name (spaces at either end dropped; at most 120 characters, no
    invisible direction marks). The same name again changes nothing.

    Raises ServiceError: no permission (``permission``), no such evening (``no_evening``), an
    empty name (``name_missing``) or one the field refuses (``name_invalid``).
    """
    evening = _leader_evening(evening_id, user)
    name = (name or "").strip()
    if not name:
        raise ServiceError(gettext_noop("Please give the evening a name."), code="name_missing")
    if name == evening.name:
        return evening
    evening.name = name
    try:
        evening.clean_fields(exclude=[f.name for f in Evening._meta.fields if f.name != "name"])
    except ValidationError as error:
        raise ServiceError(
            gettext_noop("This name cannot be used: at most 120 characters, no invisible control characters."),
            code="name_invalid",
        ) from error
    evening.save(update_fields=["name"])
    evening_changed(evening.pk)
    return evening


@transaction.atomic
def set_evening_archived(*, evening_id: int, archived: bool, user) -> Evening:
    """Archive an evening (hidden from the list of evenings and the season form's choices; its
    results stay everywhere else) or bring it back. Archiving an archived evening again changes
    nothing (its date of archiving stays).

    Raises ServiceError: no permission (``permission``), no such evening (``no_evening``).
    """
    evening = _leader_evening(evening_id, user)
    if (evening.archived_at is not None) == archived:
        return evening
    evening.archived_at = timezone.now() if archived else None
    evening.save(update_fields=["archived_at"])
    evening_changed(evening.pk)
    return evening


def backup_dir() -> Path:
    """Where a backup written before a deletion goes: ``DATA_DIR/backups`` (as ``manage.py backup``)."""
    return Path(settings.DATA_DIR) / "backups"


@transaction.atomic
def delete_evening(*, evening_id: int, user, seen_version: int | None) -> Path:
    """Delete an evening after writing a backup of it to :func:`backup_dir`.

    ``seen_version``: the evening's version the confirmation page showed; an evening changed
    since (a deal entered, a player checked in) is not deleted: the organiser looks again.

    Returns the path of the backup file written. The players stay in the register; the seasons
    that held the evening no longer count it.

    Raises ServiceError: no permission (``permission``), no such evening (``no_evening``), changed
    since the confirmation (``changed``), the backup could not be written (``backup_failed``;
    nothing is deleted).
    """
    evening = _leader_evening(evening_id, user)
    if seen_version is None or seen_version != evening.version:
        raise ServiceError(
            gettext_noop(
                "This evening changed since the confirmation page was shown. Please look at what "
                "would be deleted again."
            ),
            code="changed",
        )
    try:
        path = write_backup(export_evening(evening), backup_dir() / file_name(evening))
    except OSError as error:
        raise ServiceError(
            gettext_noop("The backup could not be written (%(reason)s), so nothing was deleted."),
            code="backup_failed",
            reason=error.strerror or type(error).__name__,
        ) from error
    seasons = list(evening.seasons.values_list("pk", flat=True))
    if seasons:  # the other evenings of its seasons show the season's ranking
        evening_changed(season_link__season__in=seasons)
    evening_deleted(evening.pk)  # the results site removes it (when it holds it)
    # Seatings and rounds first: they hold protected references to the tables and partnerships.
    Seating.objects.filter(round__session__evening=evening).delete()
    Round.objects.filter(session__evening=evening).delete()
    evening.delete()
    return path
