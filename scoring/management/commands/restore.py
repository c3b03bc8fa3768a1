"""``python manage.py restore FILE [--allow-duplicates]``: restore a backup made with
``manage.py backup`` (see :mod:`scoring.backup`). A damaged or foreign file changes nothing.
The summary names the version of Bruus Turnier that made the backup, when the file says."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from scoring import backup
from scoring.backup import report
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
            document = backup.read_backup(file, check=False)  # restore checks every record
            outcome = backup.restore(document, allow_duplicates=allow_duplicates)
        except backup.BackupError as error:
            raise CommandError(translate(error)) from None
        styles = {report.WARNING: self.style.WARNING, report.SUCCESS: self.style.SUCCESS}
        for level, text in report.restore_summary(outcome):
            self.stdout.write(styles.get(level, str)(text))
