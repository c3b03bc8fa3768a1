"""``python manage.py load_demo``: the demo evening of ``make run`` (idempotent)."""

from django.core.management.base import BaseCommand

from scoring.setup.demo import load_demo


class Command(BaseCommand):
    help = "Load the demo evening built from the club roster in scoring/data/players-schwesing.csv (once)."

    def handle(self, *args, **options):
        evening, created = load_demo()
        self.stdout.write(("Demo evening loaded: " if created else "Demo evening already there: ") + evening.name)
