"""``manage.py startcheck``: may this database be served to the hall (``make serve``)?

Exit status 0 when yes; otherwise prints why (German and English, see ``scoring.setup.startup``) and
exits with status 1: first whether the data can be kept (the data folder takes a file, an SQLite
database can be written and passes ``PRAGMA quick_check``), then the logins (no demo password, an
organiser login; not for a results site, ``BRUUS_ROLE=hub``, which has none). ``bruus-turnier serve``
runs it before starting the server.
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from scoring.setup.startup import refusal_text, start_problems, storage_problems


class Command(BaseCommand):
    help = (
        "Refuse to serve when the data folder or the database cannot be written or the database is "
        "damaged, or with the demo password or without an organiser login."
    )
    requires_system_checks = []

    def handle(self, *args, **options):
        problems = storage_problems()
        if not problems and settings.BRUUS_ROLE == "hall":  # a results site has no logins
            try:
                problems = start_problems()
            except DatabaseError as error:  # the logins cannot even be read
                problems = [f"Die Datenbank kann nicht gelesen werden / The database cannot be read: {error}"]
        if problems:
            raise CommandError(refusal_text(problems), returncode=1)
        if options["verbosity"]:
            self.stdout.write("Daten und Anmeldungen in Ordnung / data and logins are fine.")
