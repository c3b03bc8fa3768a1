"""Roles (groups Turnierleitung and Helfer with their permissions, scoring.hall.roles) and short table
codes (scoring.hall.table_codes): every existing table gets its own random code.

The drawing of a code and the making of the groups are frozen copies of ``new_table_code`` and
``ensure_groups`` as they were when this migration was written: a migration must do the same on
every later version of the code, so it calls none of it. The field's default names the live
function by its path, as Django requires of a callable default (it must stay importable)."""

import secrets

import scoring.hall.table_codes
from django.db import migrations, models

# The alphabet and length of a table code then (scoring.hall.table_codes).
_ALPHABET = "ABCDEFGHJKMNPRSTUVWX"
_LENGTH = 6

# The groups and their permission codenames on scoring.Evening then (scoring.hall.roles).
_GROUP_PERMISSIONS = {
    "Turnierleitung": ("assist_evening", "run_evening", "manage_logins"),
    "Helfer": ("assist_evening",),
}


def _new_table_code() -> str:
    """A fresh random code, e.g. ``"KATWEN"`` (cryptographically random)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(_LENGTH))


def give_codes(apps, schema_editor):
    """AddField gave every existing table the same default: draw one code per table."""
    Table = apps.get_model("scoring", "Table")
    for table in Table.objects.all():
        table.code = _new_table_code()
        table.save(update_fields=["code"])


def create_groups(apps, schema_editor):
    """Both groups with their permissions, created if missing (idempotent)."""
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ContentType = apps.get_model("contenttypes", "ContentType")
    evening_model = apps.get_model("scoring", "Evening")
    content_type, _ = ContentType.objects.get_or_create(app_label="scoring", model="evening")
    permissions = {}
    # The names are the English source strings of Evening.Meta.permissions.
    for codename, name in evening_model._meta.permissions:
        permissions[codename], _ = Permission.objects.get_or_create(
            content_type=content_type, codename=codename, defaults={"name": str(name)[:255]}
        )
    for group_name, codenames in _GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        group.permissions.add(*(permissions[c] for c in codenames))


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
