"""A login with a role of the app (Turnierleitung or Helfer) is no superuser and
no staff: the role decides what it may do. Earlier versions made the demo login a superuser, and a
superuser given the role Helfer kept every right. Logins without a role are left as they are."""

from django.db import migrations

ROLES = ("Turnierleitung", "Helfer")


def roles_decide(apps, schema_editor):
    User = apps.get_model("auth", "User")
    User.objects.filter(groups__name__in=ROLES).filter(is_superuser=True).update(is_superuser=False, is_staff=False)
    User.objects.filter(groups__name__in=ROLES).filter(is_staff=True).update(is_staff=False)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0016_sixhanded_teams_of_three"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(roles_decide, migrations.RunPython.noop)]
