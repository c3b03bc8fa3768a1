"""A round clock never outlives its round. From now on the write that finishes a round
switches its clock off (scoring.services.clock.stop_outlived_clock); this switches off the clocks
stored before that still run (or are paused or ended) for a round confirmed at every table or of
a closed session, and any clock of an evening that is over. The rules are written out here (as
scoring.domain.clock.outlived and scoring.domain.evening.evening_is_over state them today), so
that the migration does not change with the code."""

from django.db import migrations
from django.db.models import F


CLOCK_OFF = {
    "clock_kind": "",
    "clock_status": "",
    "clock_session": None,
    "clock_round": None,
    "clock_ends_at": None,
    "clock_remaining": None,
}


def stop_outlived_clocks(apps, schema_editor):
    Evening = apps.get_model("scoring", "Evening")
    Session = apps.get_model("scoring", "Session")
    Seating = apps.get_model("scoring", "Seating")
    for evening in Evening.objects.exclude(clock_kind=""):
        drawn = Session.objects.filter(evening=evening).count()
        open_seatings = Seating.objects.filter(round__session__evening=evening, confirmed_at__isnull=True)
        over = drawn > 0 and drawn >= evening.sessions_count and not open_seatings.exists()
        round_done = not open_seatings.filter(
            round__session__number=evening.clock_session,
            round__session__closed=False,
            round__number=evening.clock_round,
        ).exists()
        if over or (evening.clock_kind == "round" and round_done):
            Evening.objects.filter(pk=evening.pk).update(
                **CLOCK_OFF, clock_version=F("clock_version") + 1, version=F("version") + 1
            )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0022_evening_projector_mode"),
    ]

    operations = [
        migrations.RunPython(stop_outlived_clocks, migrations.RunPython.noop),
    ]
