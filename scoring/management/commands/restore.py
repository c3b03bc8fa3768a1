"""``python manage.py restore FILE [--allow-duplicates]``: restore a backup made with
``manage.py backup`` (see :mod:`scoring.backup`). A damaged or foreign file changes nothing.
The summary names the version of Bruus Turnier that made the backup, when the file says."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import formats, translation
from django.utils.translation import gettext as _

from scoring import backup
from scoring.web.messages import translate


class Command(BaseCommand):
    help = "Restore a backup file (one evening or a whole database); players already there are reused."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--allow-duplicates",
            action="store_true",
            help="restore an evening even if one with the same name and date exists",
        )
        parser.add_argument("--language", default="de", help="language of the messages (de, en, da or sv)")

    def handle(self, *args, file: Path, allow_duplicates: bool, language: str, **options):
        translation.activate(language)
        try:
            document = backup.read_backup(file)
            outcome = backup.restore(document, allow_duplicates=allow_duplicates)
        except backup.BackupError as error:
            raise CommandError(translate(error)) from None
        if outcome.app_version:
            self.stdout.write(_("Backup made by Bruus Turnier %(version)s.") % {"version": outcome.app_version})
        else:
            self.stdout.write(
                _(
                    "The backup does not say which version of Bruus Turnier made it "
                    "(versions before 0.9.0 did not record it)."
                )
            )
        for evening in outcome.evenings:
            self.stdout.write(
                _("Evening restored: %(name)s, %(date)s (number %(id)s)")
                % {
                    "name": evening.name,
                    "date": formats.date_format(evening.date, "SHORT_DATE_FORMAT"),
                    "id": evening.pk,
                }
            )
        self.stdout.write(
            _("Players: %(new)s new, %(reused)s already in the register. Deals: %(deals)s.")
            % {"new": outcome.players_new, "reused": outcome.players_reused, "deals": outcome.deals}
        )
        if outcome.new_tokens:
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "%(count)s tables got a new tablet link because their link is already used in this "
                        "database: open the new links (or print the score sheets with the QR codes again)."
                    )
                    % {"count": outcome.new_tokens}
                )
            )
        if outcome.unknown_users:
            self.stdout.write(
                _("Unknown logins, kept only as text in the history: %(names)s")
                % {"names": ", ".join(outcome.unknown_users)}
            )
        if outcome.ignored_fields:
            self.stdout.write(
                self.style.WARNING(
                    _("Fields this version does not know were ignored: %(fields)s")
                    % {"fields": ", ".join(outcome.ignored_fields)}
                )
            )
        self.stdout.write(self.style.SUCCESS(_("Restore complete.")))
