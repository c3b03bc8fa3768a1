"""``manage.py startcheck``: may this database be served to the hall (``make serve``)?

Exit status 0 when yes; otherwise prints why (German and English, see ``scoring.startup``) and
exits with status 1. ``scripts/serve.sh`` runs it before starting gunicorn.
"""

from django.core.management.base import BaseCommand, CommandError

from scoring.startup import refusal_text, start_problems


class Command(BaseCommand):
    help = "Refuse to serve a database with the demo password or without an organiser login."
    requires_system_checks = []

    def handle(self, *args, **options):
        problems = start_problems()
        if problems:
            raise CommandError(refusal_text(problems), returncode=1)
        if options["verbosity"]:
            self.stdout.write("Anmeldungen in Ordnung / logins are fine.")
