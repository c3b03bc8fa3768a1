"""The sentences read into the origin's fields by migration 0018 are removed
(a separate migration: PostgreSQL alters no table with updates pending in the same transaction).
Given a default first, so that going back re-adds them (empty) to tables that have rows."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0018_origin_as_data")]

    operations = [
        migrations.AlterField(model_name="dealchange", name="via", field=models.CharField(default="", max_length=120)),
        migrations.AlterField(model_name="drawndeal", name="via", field=models.CharField(default="", max_length=120)),
        migrations.AlterField(
            model_name="seating", name="confirmed_via", field=models.CharField(blank=True, default="", max_length=120)
        ),
        migrations.RemoveField(model_name="dealchange", name="via"),
        migrations.RemoveField(model_name="drawndeal", name="via"),
        migrations.RemoveField(model_name="seating", name="confirmed_via"),
    ]
