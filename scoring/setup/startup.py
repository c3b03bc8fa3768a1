"""The start refusal of a served app (DEBUG off, ``make serve``, gunicorn): a real club database
is never the demo.

The app does not start while any active login still has the demo password (``bruus-demo``, see
``scoring.setup.demo``) or while no active organiser login (Turnierleitung or superuser) exists. The
message is German and English and says what to do (``bruus-turnier organiser`` or
``make organiser``). ``make run`` (DEBUG on) is not affected.

Called by ``bruus_tournament/wsgi.py`` (every gunicorn worker, and ``runserver``) when DEBUG is
off, and by ``manage.py startcheck`` (``scripts/serve.sh`` runs it before gunicorn, so the
message is shown once and clearly).

``startcheck`` (which ``bruus-turnier serve`` runs before the server starts) first checks that the
data can be kept (:func:`storage_problems`): the data folder takes a file (written,
flushed to the disk and removed: a read-only folder or file system, or a full disk, fails), an
SQLite database file and its ``-wal`` and ``-shm`` can be written, and the database passes
``PRAGMA quick_check`` (a file older than its ``-wal``, or otherwise damaged, fails). Otherwise the
server would start and answer every page, or every entry, with an error.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connections
from django.db.models import Q

from scoring.hall.roles import LEADER
from scoring.setup.demo import DEMO_PASSWORD


def start_problems() -> list[str]:
    """Why the app must not be served, each reason in German and English; [] when it may."""
    users = get_user_model().objects.filter(is_active=True)
    problems = []
    for user in users.only("username", "password"):
        if check_password(DEMO_PASSWORD, user.password):
            problems.append(
                f"Das Konto „{user.username}“ hat noch das Demo-Passwort. Neues Passwort setzen: "
                f"bruus-turnier organiser oder make organiser (Benutzername {user.username}).\n"
                f'  The login "{user.username}" still has the demo password. Set a new one: '
                f"bruus-turnier organiser or make organiser (user name {user.username})."
            )
    if not users.filter(Q(is_superuser=True) | Q(groups__name=LEADER)).exists():
        problems.append(
            "Es gibt noch kein Konto der Turnierleitung. Anlegen: bruus-turnier organiser oder make organiser.\n"
            "  There is no organiser (Turnierleitung) login yet. Create one: bruus-turnier organiser or make organiser."
        )
    return problems


#: Bytes the data folder's check writes (and flushes to the disk): a full disk refuses them.
PROBE_BYTES = 64 * 1024


def storage_problems(
    data_dir: str | os.PathLike | None = None, database: dict | None = None, alias: str = "default"
) -> list[str]:
    """Why the data cannot be kept, each reason in German and English naming the folder or file;
    [] when it can: the data folder (``DATA_DIR``, the SQLite database's folder, the file caches'
    folders) does not take a file, an SQLite database file (or its ``-wal``, ``-shm``) cannot be
    written, or the database fails ``PRAGMA quick_check`` (through the connection ``alias``;
    ``database``: its settings, by default ``DATABASES[alias]``)."""
    folder = Path(settings.DATA_DIR if data_dir is None else data_dir)
    problems = []
    database = settings.DATABASES[alias] if database is None else database
    name = str(database["NAME"])
    in_memory = name == ":memory:" or "mode=memory" in name  # the tests' database
    file = Path(name) if database["ENGINE"] == "django.db.backends.sqlite3" and not in_memory else None
    folders = [folder]
    if file is not None and file.parent.is_dir():
        folders.append(file.parent)  # SQLite writes its -wal and -shm beside the database
    # The screens' and logins' file caches: left behind by a server run as another user, say.
    folders += [Path(c["LOCATION"]) for c in _caches() if _file_cache(c) and Path(c["LOCATION"]).is_dir()]
    seen = set()
    for where in folders:
        if where.resolve() in seen:
            continue
        seen.add(where.resolve())
        reason = _write_problem(where)
        if reason:
            problems.append(
                f"Der Datenordner {where} kann nicht beschrieben werden ({reason}). Schreibrechte und freien "
                f"Platz prüfen oder DATA_DIR auf einen anderen Ordner setzen.\n"
                f"  The data folder {where} cannot be written ({reason}). Check its permissions and the free "
                f"space, or set DATA_DIR to another folder."
            )
    if file is not None:
        for part in (file, file.with_name(file.name + "-wal"), file.with_name(file.name + "-shm")):
            if part.exists() and not os.access(part, os.R_OK | os.W_OK):
                problems.append(
                    f"Die Datenbankdatei {part} kann nicht beschrieben werden (schreibgeschützt). Schreibrechte "
                    f"prüfen.\n  The database file {part} cannot be written (read-only). Check its permissions."
                )
        if not problems:
            damage = _quick_check_problem(alias)
            if damage:
                problems.append(
                    f"Die Datenbank {file} ist beschädigt (PRAGMA quick_check: {damage}). Alle Server stoppen, "
                    f"die Datei mit ihren -wal- und -shm-Dateien beiseitelegen und die letzte Sicherung in eine "
                    f"neue Datenbank zurückspielen: bruus-turnier restore DATEI.\n"
                    f"  The database {file} is damaged (PRAGMA quick_check: {damage}). Stop every server, move "
                    f"the file and its -wal and -shm files aside, and restore the last backup into a new "
                    f"database: bruus-turnier restore FILE."
                )
    return problems


def _caches() -> list[dict]:
    """The caches of ``settings.CACHES``, each its dictionary of settings."""
    return [cast(dict, cache) for cache in settings.CACHES.values()]


def _file_cache(cache: dict) -> bool:
    """Whether a cache of ``settings.CACHES`` keeps its entries in files (Django's FileBasedCache)."""
    from django.core.cache.backends.filebased import FileBasedCache
    from django.utils.module_loading import import_string

    try:
        return issubclass(import_string(cache["BACKEND"]), FileBasedCache) and bool(cache.get("LOCATION"))
    except ImportError:
        return False


def _write_problem(folder: Path) -> str | None:
    """None if ``folder`` takes a file of :data:`PROBE_BYTES` (written, flushed to the disk,
    removed); else why not (the system's words)."""
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=".bruus-write-check-")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(bytes(PROBE_BYTES))
                stream.flush()
                os.fsync(stream.fileno())
        finally:
            os.unlink(name)
    except OSError as error:
        return error.strerror or str(error)
    return None


def _quick_check_problem(alias: str) -> str | None:
    """None if the database passes ``PRAGMA quick_check``; else what SQLite found (first lines)."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("PRAGMA quick_check")
            rows = [str(row[0]) for row in cursor.fetchall()]
    except DatabaseError as error:
        return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if rows == ["ok"]:
        return None
    return "; ".join(rows[:3]) + (" …" if len(rows) > 3 else "")


def refusal_text(problems: list[str]) -> str:
    """The whole message for the terminal."""
    head = "Bruus Turnier startet nicht für das Hallennetz / will not start for the hall's network:"
    return "\n".join([head, *(f"- {problem}" for problem in problems)])


def refuse_unsafe_start() -> None:
    """Raise ImproperlyConfigured with :func:`refusal_text` when there is any problem."""
    problems = start_problems()
    if problems:
        raise ImproperlyConfigured(refusal_text(problems))
