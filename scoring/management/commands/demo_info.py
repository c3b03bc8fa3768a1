"""``python manage.py demo_info``: prints where to click and how to log in (``make run``)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from scoring.models import Evening, Season
from scoring.setup.demo import DEMO_EVENING, DEMO_PASSWORD, DEMO_SEASON, DEMO_USER


class Command(BaseCommand):
    help = "Print the URLs and login of the demo evening."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, *args, host, port, **options):
        base = f"http://{host}:{port}"
        evening = Evening.objects.filter(name=DEMO_EVENING).first()
        lines = [
            "",
            "=" * 72,
            "Bruus Turnier läuft / is running:",
            f"  Startseite / home:            {base}/",
            f"  Turnierleitung / organiser:   {base}/organiser/",
            f"      Anmeldung / login:        {DEMO_USER} / {DEMO_PASSWORD}",
        ]
        if evening is not None:
            lines.append(f"  Demo-Abend / demo evening:    {base}/organiser/abende/{evening.pk}/")
            lines.append(f"  Live-Übersicht / live view:   {base}/organiser/abende/{evening.pk}/live/")
            lines.append(f"  Ranglisten-Bildschirm:        {base}/abend/{evening.pk}/rangliste/")
            lines.append(f"  Wo sitze ich? / my seat:      {base}/abend/{evening.pk}/platz/")
            for table in evening.tables.all()[:3]:
                lines.append(f"  Tisch {table.number} (Tablet-Link):        {base}/t/{table.token}/")
        season = Season.objects.filter(name=DEMO_SEASON).first()
        if season is not None:
            lines.append(f"  Saison / season:              {base}/organiser/saisons/{season.pk}/")
        lines.append(f"  Demo-Daten / demo data:       {settings.DATA_DIR} (nicht die des Vereins / not the club's)")
        lines += ["  Stoppen / stop: Strg+C / Ctrl+C", "=" * 72, ""]
        self.stdout.write("\n".join(lines))
