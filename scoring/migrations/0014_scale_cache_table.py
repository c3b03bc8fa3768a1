"""The table of the shared cache of the screens (settings.CACHES["screens"], a DatabaseCache)."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0014_scale_evening_version")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
