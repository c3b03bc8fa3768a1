"""Names that say what they mean: a seating's round is *entered* (by the scorer) and then
*confirmed* (by the other team or the organiser). Only the names change; no data moves."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("scoring", "0009_merge_harden")]

    operations = [
        migrations.RenameField("seating", "finished_at", "entered_at"),
        migrations.RenameField("seating", "finished_by", "entered_by"),
        migrations.RenameField("seating", "completed_at", "confirmed_at"),
    ]
