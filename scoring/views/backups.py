"""Backup and restore from the organiser's pages (Turnierleitung only), as ``manage.py backup``
and ``manage.py restore`` do on the command line, with their code (:mod:`scoring.backup`) and
their words (:mod:`scoring.backup.report`).

- Download a backup of one evening (from the evening's page) or of everything (the backup page).
- Restore in two steps: the uploaded file is checked completely in memory and the preview
  (:func:`scoring.backup.preview`) says what the restore adds (evenings, players new and reused,
  deals, new table links) from the file and a few reading queries, without a transaction, so
  the tablets keep entering deals; or it refuses the file with the command line's message. Only
  "Restore now" writes, in short transactions (:mod:`scoring.backup.merge`). A damaged, foreign or too large file, or an
  evening already there (unless "restore as a copy" is ticked), changes nothing.

Between the two steps the file waits in ``DATA_DIR/backups/restore-pending/`` under a random
name that only the organiser's session knows; it is deleted when restored, refused (whatever
the reason) or replaced.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoring import backup
from scoring.backup import report
from scoring.models import Evening
from scoring.transfer.exports import attachment
from scoring.views.access import leader_required
from scoring.views.common import evening_or_404
from scoring.web.messages import translate

#: The session's key of the file waiting to be restored: {"token", "name", "allow_duplicates"}.
PENDING = "bruus_restore_pending"
LEVELS = {report.INFO: messages.INFO, report.WARNING: messages.WARNING, report.SUCCESS: messages.SUCCESS}


def pending_dir() -> Path:
    return Path(settings.DATA_DIR) / "backups" / "restore-pending"


def _download(document: dict, evening: Evening | None) -> HttpResponse:
    content = backup.encode_backup(document)
    response = HttpResponse(content, content_type="application/json")
    response["Content-Disposition"] = attachment(report.file_name(evening))
    response["Content-Length"] = str(len(content))
    response["Cache-Control"] = "no-store"
    return response


@leader_required
@require_safe
def backup_page(request: HttpRequest) -> HttpResponse:
    """Download a backup of everything or of one evening; upload a backup to restore."""
    evenings = Evening.objects.order_by("-date", "-pk").only("pk", "name", "date")
    return render(
        request, "organiser/backups.html", {"evenings": evenings, "max_mb": settings.RESTORE_UPLOAD_MAX_BYTES >> 20}
    )


@leader_required
@require_safe
def backup_all(request: HttpRequest) -> HttpResponse:
    """Every evening, player and season in one file (as ``manage.py backup``)."""
    return _download(backup.export_database(), None)


@leader_required
@require_safe
def backup_evening(request: HttpRequest, pk: int) -> HttpResponse:
    """One evening with its players (as ``manage.py backup --evening ID``)."""
    evening = evening_or_404(pk)
    return _download(backup.export_evening(evening), evening)


def _refuse(request: HttpRequest, text: str) -> HttpResponse:
    messages.error(request, text)
    return redirect("organiser:backups")


def _save(upload, token: str) -> Path:
    """The upload as a file of its own (at most one byte more than a restore reads: a larger
    file is refused as too large, as on the command line)."""
    directory = pending_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{token}.backup"
    left = settings.RESTORE_MAX_BYTES + 1
    with path.open("wb") as stream:
        for chunk in upload.chunks():
            stream.write(chunk[:left])
            left -= len(chunk)
            if left <= 0:
                break
    return path


def _refusal_text(error: backup.BackupError) -> str:
    """The refusal as the page says it: an evening already here names the page's checkbox, not
    the command line's option."""
    if error.code == "duplicate_evening":
        return (
            _(
                'The evening "%(name)s" of %(date)s is already in this database. Nothing was restored. '
                'To restore it a second time, tick "Restore an evening that is already here as a copy".'
            )
            % error.params
        )
    return translate(error)


def _forget_pending(request: HttpRequest) -> None:
    pending = request.session.pop(PENDING, None)
    if pending:
        (pending_dir() / f"{pending['token']}.backup").unlink(missing_ok=True)


@leader_required
@require_POST
def backup_restore(request: HttpRequest) -> HttpResponse:
    """Step 1: check the uploaded file and show what restoring it adds."""
    upload = request.FILES.get("file")
    allow_duplicates = request.POST.get("allow_duplicates") == "1"
    if upload is None:
        return _refuse(request, _("Please choose a backup file (.json or .json.gz)."))
    _forget_pending(request)
    token = secrets.token_urlsafe(24)
    path = _save(upload, token)
    try:
        # As ``manage.py restore FILE`` reads it: the same checks, the same messages.
        document = backup.read_backup(path, check=False)  # the preview checks every record
        outcome = backup.preview(document, allow_duplicates=allow_duplicates)
    except backup.BackupError as error:
        path.unlink(missing_ok=True)
        return _refuse(request, _refusal_text(error))
    except BaseException:
        path.unlink(missing_ok=True)  # nothing left behind, whatever went wrong
        raise
    request.session[PENDING] = {"token": token, "name": upload.name, "allow_duplicates": allow_duplicates}
    return render(
        request,
        "organiser/backup_preview.html",
        {
            "outcome": outcome,
            "file_name": upload.name,
            "counts": backup.counts(document),
            "allow_duplicates": allow_duplicates,
            "token": token,
        },
    )


@leader_required
@require_POST
def backup_restore_confirm(request: HttpRequest) -> HttpResponse:
    """Step 2: restore the file of the preview (or cancel it)."""
    pending = request.session.get(PENDING)
    if not pending or request.POST.get("token") != pending["token"]:
        return _refuse(request, _("There is no backup waiting to be restored: please upload it again."))
    if "cancel" in request.POST:
        _forget_pending(request)
        messages.info(request, _("Nothing was restored."))
        return redirect("organiser:backups")
    path = pending_dir() / f"{pending['token']}.backup"
    try:
        outcome = backup.restore(backup.read_backup(path, check=False), allow_duplicates=pending["allow_duplicates"])
    except backup.BackupError as error:
        return _refuse(request, _refusal_text(error))
    finally:
        _forget_pending(request)
    for level, text in report.restore_summary(outcome):
        messages.add_message(request, LEVELS[level], text)
    if len(outcome.evenings) == 1:
        return redirect("organiser:evening_detail", pk=outcome.evenings[0].pk)
    return redirect("organiser:evening_list")
