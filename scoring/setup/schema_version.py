"""Which program last brought the database up to date, and whether it was newer than this one.

After every ``migrate`` (``bruus-turnier`` runs it quietly before each command; ``manage.py
migrate`` too) the program's version is written into the one-row table :data:`TABLE` (made here
with plain SQL, for SQLite and PostgreSQL alike; not a model, so backups and migrations never see
it). A database with applied migrations this program does not have on disk was brought up to date
by a newer version: :func:`newer_database_problem` names that version (from :data:`TABLE`) so the
command line can refuse it in one line instead of working on tables it does not understand.
"""

from __future__ import annotations

from django.db import connections, transaction
from django.db.migrations.loader import MigrationLoader

#: The table holding the version of the program that migrated the database last.
TABLE = "bruus_program_version"


def record(version: str, alias: str = "default") -> None:
    """Write ``version`` as the program that migrated the database ``alias`` last."""
    connection = connections[alias]
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY, version VARCHAR(64) NOT NULL)")
        cursor.execute(f"DELETE FROM {TABLE}")
        cursor.execute(f"INSERT INTO {TABLE} (id, version) VALUES (1, %s)", [version[:64]])


def recorded(alias: str = "default") -> str | None:
    """The version that migrated the database last; None when no version of the program said."""
    connection = connections[alias]
    if TABLE not in connection.introspection.table_names():
        return None
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {TABLE} WHERE id = 1")
        row = cursor.fetchone()
    return row[0] if row else None


def unknown_migrations(alias: str = "default") -> list[tuple[str, str]]:
    """Applied migrations (app, name) of this program's apps that it does not have on disk: made by
    a newer version (or another branch). [] for a new database."""
    loader = MigrationLoader(connections[alias], ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    for migration in loader.disk_migrations.values():
        known.update(migration.replaces or ())  # squashed ones: their old names count as known
    return sorted(key for key in loader.applied_migrations if key[0] in loader.migrated_apps and key not in known)


def newer_database_problem(version: str, alias: str = "default") -> str | None:
    """One line (German and English) saying which version to install when the database ``alias``
    was migrated by a newer program than ``version``; None when this program may use it."""
    unknown = unknown_migrations(alias)
    if not unknown:
        return None
    newer = recorded(alias)
    named = f" {newer}" if newer and newer != version else ""
    install = f"install Bruus Turnier{named} or newer" if named else "install the newest Bruus Turnier"
    return (
        f"Diese Datenbank stammt von einer neueren Version{named} / This database was brought up to date by a "
        f"newer Bruus Turnier{named} (this is {version}; unknown: {unknown[-1][0]}.{unknown[-1][1]}): {install} "
        f"(pip install --upgrade bruus-turnier). Nothing was changed."
    )


def record_after_migrate(sender, using: str = "default", **kwargs) -> None:
    """``post_migrate`` receiver: the running program's version into :data:`TABLE`."""
    from bruus_tournament import __version__

    record(__version__, alias=using)
