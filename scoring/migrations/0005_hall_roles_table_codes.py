"""Roles (groups Turnierleitung and Helfer with their permissions, scoring.hall.roles) and short table
codes (scoring.hall.table_codes): every existing table gets its own random code."""

import scoring.hall.table_codes
from django.db import migrations, models


def give_codes(apps, schema_editor):
    """AddField gave every existing table the same default: draw one code per table."""
    Table = apps.get_model("scoring", "Table")
    for table in Table.objects.all():
        table.code = scoring.hall.table_codes.new_table_code()
        table.save(update_fields=["code"])


def create_groups(apps, schema_editor):
    from scoring.hall.roles import ensure_groups

    ensure_groups(apps)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_attempt_counter'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='evening',
            options={'ordering': ['-date', '-id'], 'permissions': [('assist_evening', "Can check in players, enter and confirm deals on a team's behalf and print"), ('run_evening', 'Can draw and change sessions, lock, correct confirmed rounds and renew table links'), ('manage_logins', 'Can create, reset and deactivate organiser logins')], 'verbose_name': 'evening', 'verbose_name_plural': 'evenings'},
        ),
        migrations.AddField(
            model_name='table',
            name='code',
            field=models.CharField(default=scoring.hall.table_codes.new_table_code, max_length=6, verbose_name='table code'),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.RunPython(create_groups, migrations.RunPython.noop),
    ]
