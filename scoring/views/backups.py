"""Backup and restore from the organiser's pages (Turnierleitung only), as ``manage.py backup``
and ``manage.py restore`` do on the command line, with their code (:mod:`scoring.backup`) and
their words (:mod:`scoring.backup.report`).

- Download a backup of one evening (from the evening's page) or of everything (the backup page).
- Restore in two steps: the uploaded file is checked and restored for a preview inside a
  transaction that is rolled back, so the preview says exactly what the restore adds (evenings,
  players new and reused, deals, new table links) or refuses the file with the command line's
  message; only "Restore now" writes. A damaged, foreign or too large file, or an evening
  already there (unless "restore as a copy" is ticked), changes nothing.

Between the two steps the file waits in ``DATA_DIR/backups/restore-pending/`` under a random
name that only the organiser's session knows; it is deleted when restored or replaced.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.db import transaction
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


def _dry_run(document: dict, allow_duplicates: bool) -> backup.RestoreOutcome:
    """What restoring ``document`` would add: the real restore, rolled back."""
    with transaction.atomic():
        outcome = backup.restore(document, allow_duplicates=allow_duplicates)
        # Read what the page shows before the rows go again.
        outcome.evenings = [Evening(name=e.name, date=e.date) for e in outcome.evenings]
        transaction.set_rollback(True)
    return outcome


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
        document = backup.read_backup(path)
        outcome = _dry_run(document, allow_duplicates)
    except backup.BackupError as error:
        path.unlink(missing_ok=True)
        return _refuse(request, translate(error))
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
        outcome = backup.restore(backup.read_backup(path), allow_duplicates=pending["allow_duplicates"])
    except backup.BackupError as error:
        _forget_pending(request)
        return _refuse(request, translate(error))
    _forget_pending(request)
    for level, text in report.restore_summary(outcome):
        messages.add_message(request, LEVELS[level], text)
    if len(outcome.evenings) == 1:
        return redirect("organiser:evening_detail", pk=outcome.evenings[0].pk)
    return redirect("organiser:evening_list")
