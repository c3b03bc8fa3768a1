"""``python manage.py import_players FILE [--evening ID] [--dry-run]``: the spreadsheet import
of the organiser pages, for scripted setups. It prints what the page's preview shows
(:func:`scoring.selectors.players.import_preview`): the notes on the file, every row with whether
the register knows it already, the rows that cannot be imported, and how many are new."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import selectors, services
from scoring.domain.player_import import PlayerFileError
from scoring.models import Evening
from scoring.transfer.player_files import parse_player_file
from scoring.web.messages import translate


class Command(BaseCommand):
    help = "Import players from an .xlsx or .csv file into the player register."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--evening", type=int, help="also check the players in for this evening (id)")
        parser.add_argument("--dry-run", action="store_true", help="only show what would be imported")
        parser.add_argument("--language", default="de", help="language of the messages (de, en, da or sv)")

    def handle(self, *args, file: Path, evening: int | None, dry_run: bool, language: str, **options):
        translation.activate(language)
        if not file.is_file():
            raise CommandError(_("File not found: %(path)s") % {"path": file})
        target = None
        if evening is not None:
            target = Evening.objects.filter(pk=evening).first()
            if target is None:
                raise CommandError(_("There is no evening with number %(id)s.") % {"id": evening})
        try:
            parsed = parse_player_file(file.read_bytes(), file.name)
        except PlayerFileError as error:
            raise CommandError(translate(error)) from None
        preview = selectors.import_preview(parsed)
        for note in preview.notes:
            self.stdout.write(note)
        for player, known in preview.rows:
            club = f" ({player.club})" if player.club else ""
            status = _("already in the register") if known else _("new")
            self.stdout.write(f"{player.line:>5}  {player.name}{club}: {status}")
        if preview.problems:
            self.stderr.write(_("These rows cannot be imported:"))
            for _line, text in preview.problems:
                self.stderr.write(f"  {text}")
        count = len(preview.rows)
        can = ngettext("%(n)s player can be imported", "%(n)s players can be imported", count) % {"n": count}
        new = _("%(n)s new") % {"n": preview.new_count}
        self.stdout.write(f"{can} ({new}).")
        if dry_run:
            self.stdout.write(_("%(count)s players would be imported.") % {"count": len(parsed.players)})
            return
        outcome = services.import_players(parsed.players, check_in_to=target)
        self.stdout.write(
            self.style.SUCCESS(
                _("%(created)s players added, %(existing)s were already in the register.")
                % {"created": outcome.created, "existing": outcome.existing}
            )
        )
