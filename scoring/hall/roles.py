"""The two organiser roles, as Django groups with permissions (see docs/settings-and-security.md, "Logins and roles").

- **Turnierleitung** (``LEADER``): everything, including drawing, changing a drawn session,
  locking, correcting a confirmed round, new table links and managing the logins.
- **Helfer** (``HELPER``): check-in, adding players, entering and confirming a table's deals on a
  team's behalf (from a paper score sheet), unlocking a tablet stopped after wrong table codes,
  reading every organiser page and printing.

A login in neither group (and not a superuser) sees no organiser page. The groups are created by
the migration ``0005_hall_roles_table_codes`` and again after every ``migrate`` (and a test
database flush) by :func:`ensure_groups`, so they always exist.
"""

from __future__ import annotations

LEADER = "Turnierleitung"
HELPER = "Helfer"

# Permission codenames on the model ``scoring.Evening`` (declared in its Meta).
ASSIST = "assist_evening"
RUN = "run_evening"
MANAGE_LOGINS = "manage_logins"

GROUP_PERMISSIONS = {
    LEADER: (ASSIST, RUN, MANAGE_LOGINS),
    HELPER: (ASSIST,),
}
ROLE_CHOICES = (LEADER, HELPER)

ASSIST_PERM = f"scoring.{ASSIST}"
RUN_PERM = f"scoring.{RUN}"
MANAGE_LOGINS_PERM = f"scoring.{MANAGE_LOGINS}"


def ensure_groups(apps=None) -> None:
    """Create both groups and their permissions if missing (idempotent).

    ``apps`` is a migration's app registry (historical models) or None for the real models.
    """
    if apps is None:
        from django.apps import apps
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
    for group_name, codenames in GROUP_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=group_name)
        group.permissions.add(*(permissions[c] for c in codenames))


def role_of(user) -> str | None:
    """``LEADER``, ``HELPER`` or None (no organiser role). Superusers count as Turnierleitung."""
    if not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return LEADER
    names = {group.name for group in user.groups.all()}
    if LEADER in names:
        return LEADER
    if HELPER in names:
        return HELPER
    return None
