"""``python manage.py backup [--evening ID] [--output FILE]``: one evening, or the whole database,
into a single backup file (JSON; gzip-compressed when FILE ends in ``.gz``). See
:mod:`scoring.backup`."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from scoring import backup
from scoring.backup import report
from scoring.models import Evening


def default_path(evening: Evening | None) -> Path:
    """``DATA_DIR/backups/bruus-<evening>-<date>-<time>.json`` (``bruus-datenbank-…`` for all)."""
    return Path(settings.DATA_DIR) / "backups" / report.file_name(evening)


class Command(BaseCommand):
    help = "Write one evening (--evening ID) or the whole database into a single backup file."

    def add_arguments(self, parser):
        parser.add_argument("--evening", type=int, help="back up only this evening (id); default: everything")
        parser.add_argument("--output", type=Path, help="the backup file (.json or .json.gz)")
        parser.add_argument("--language", default="de", help="language of the messages (de, en, da or sv)")

    def handle(self, *args, evening: int | None, output: Path | None, language: str, **options):
        translation.activate(language)
        target = None
        if evening is not None:
            target = Evening.objects.filter(pk=evening).first()
            if target is None:
                raise CommandError(_("There is no evening with number %(id)s.") % {"id": evening})
        document = backup.export_evening(target) if target else backup.export_database()
        path = output or default_path(target)
        try:
            backup.write_backup(document, path)
        except OSError as error:
            raise CommandError(
                _("The file %(path)s cannot be written: %(reason)s")
                % {"path": path, "reason": error.strerror or str(error)}
            ) from None
        counts = backup.counts(document)
        self.stdout.write(
            _("Backup written: evenings: %(evenings)s, players: %(players)s, deals: %(deals)s.")
            % {"evenings": counts["evenings"], "players": counts["players"], "deals": counts["deals"]}
        )
        self.stdout.write(self.style.SUCCESS(str(path)))
