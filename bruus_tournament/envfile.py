"""Where the settings come from, before Django reads them (``bruus_tournament.settings``) and before
``bruus-turnier serve`` derives the hall's addresses from them.

Precedence, first wins:

1. the process environment (``set``/``$env:`` in the window, a service's environment);
2. ``settings.env`` in the data folder (:data:`SETTINGS_FILE_NAME`; written by ``bruus-turnier
   settings set KEY VALUE``): what an installed program keeps between windows;
3. the checkout's ``.env`` (:data:`ENV_FILE`; beside ``manage.py``);
4. the default in ``bruus_tournament.settings``.

``DATA_DIR`` itself comes from 1 or 3 (the data folder's file cannot say where the data folder is).
The files hold ``KEY=value`` lines (``#`` comments, blank lines, an ``export`` in front and quotes
around the value are allowed).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ENV_FILE = PACKAGE_DIR.parent / ".env"
#: The settings file in the data folder.
SETTINGS_FILE_NAME = "settings.env"
#: Where a setting came from, as :func:`source` names it.
ENVIRONMENT, DATA_FOLDER_FILE, CHECKOUT_FILE, DEFAULT = "environment", "data folder file", "checkout .env", "default"
#: The settings a person may set, in the order ``bruus-turnier settings`` shows them.
KNOWN = (
    "DATA_DIR",
    "DATABASE_URL",
    "PUBLIC_BASE_URL",
    "WIFI_NAME",
    "LISTEN_ADDRESS",
    "PORT",
    "SERVER",
    "WORKERS",
    "THREADS",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "USE_TLS",
    "TRUSTED_PROXY_COUNT",
    "ADMIN_ENABLED",
    "RESTORE_MAX_MB",
    "RESTORE_MAX_VALUES",
    "CONN_MAX_AGE",
    "REDIS_URL",
    "SECRET_KEY",
    "DEBUG",
    "SCREEN_FLOOR_SECONDS",
    "GIL_SWITCH_INTERVAL",
    "DEMO_PLAYERS_FILE",
    "DRAW_PLAN_SECONDS_FIRST",
    "DRAW_PLAN_SECONDS_LATER",
    "DRAW_PLAN_ITERATIONS_PER_SECOND",
    "BRUUS_ROLE",
    "HUB_SNAPSHOT_MAX_BYTES",
    "HUB_FRAME_ANCESTORS",
    "PUBLISH_URL",
    "PUBLISH_KEY",
    "PUBLISH_ALLOW_HTTP",
)
#: What this module put into ``os.environ`` and from which file (a name not here, but in the
#: environment, came from the environment).
_loaded: dict[str, str] = {}


def installed_from_wheel() -> bool:
    """True in an installed wheel (templates and the like inside the package), False in a checkout."""
    return (PACKAGE_DIR / "resources").is_dir()


def parse(path: Path) -> dict[str, str]:
    """The ``KEY=value`` lines of ``path`` ({} when it does not exist or cannot be read)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return {}
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        if key:
            values[key] = value
    return values


def data_dir() -> Path:
    """The data folder: ``DATA_DIR`` (environment, else the checkout's ``.env``); else ``var/`` in a
    checkout, the user's data folder of platformdirs when installed (``~/.local/share/bruus-turnier``,
    ``%LOCALAPPDATA%\\bruus-turnier``, ``~/Library/Application Support/bruus-turnier``)."""
    raw = os.environ.get("DATA_DIR", "").strip() or parse(ENV_FILE).get("DATA_DIR", "").strip()
    if raw:
        return Path(raw).expanduser()
    if not installed_from_wheel():
        return PACKAGE_DIR.parent / "var"
    from platformdirs import user_data_path

    return user_data_path("bruus-turnier", appauthor=False)


def settings_file(folder: Path | None = None) -> Path:
    """``settings.env`` in the data folder (``folder``, default :func:`data_dir`)."""
    return (folder or data_dir()) / SETTINGS_FILE_NAME


def read_env_file(path: Path = ENV_FILE) -> None:
    """Read the settings files into ``os.environ`` (values already there win): the data folder's
    ``settings.env``, then the checkout's ``.env`` (``path``)."""
    checkout = parse(path)
    if "DATA_DIR" in checkout and not os.environ.get("DATA_DIR", "").strip():
        os.environ["DATA_DIR"] = checkout["DATA_DIR"]
        _loaded["DATA_DIR"] = CHECKOUT_FILE
    club = parse(settings_file())
    club.pop("DATA_DIR", None)
    for values, where in ((club, DATA_FOLDER_FILE), (checkout, CHECKOUT_FILE)):
        for key, value in values.items():
            if key not in os.environ:
                os.environ[key] = value
                _loaded[key] = where


def source(key: str) -> str:
    """Where the value of ``key`` in ``os.environ`` came from (after :func:`read_env_file`)."""
    if key in _loaded and os.environ.get(key) is not None:
        return _loaded[key]
    return ENVIRONMENT if key in os.environ else DEFAULT


def write_setting(key: str, value: str | None, folder: Path | None = None) -> Path:
    """Set ``key`` to ``value`` in the data folder's ``settings.env`` (``None``: remove it), keeping
    the other lines; returns the file. Raises OSError when it cannot be written."""
    path = settings_file(folder)
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except FileNotFoundError:
        lines = ["# Bruus Turnier: settings of this data folder (bruus-turnier settings set KEY VALUE)."]
    kept = [line for line in lines if line.strip().removeprefix("export ").split("=", 1)[0].strip() != key]
    if value is not None:
        kept.append(f"{key}={value}")
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".new")
    temporary.write_text("\n".join(kept) + "\n", encoding="utf-8")
    temporary.chmod(0o600)  # it may hold SECRET_KEY or a database password: the owner's only
    os.replace(temporary, path)
    return path


#: A Microsoft Store Python's install folder: its package name and publisher id.
_STORE_PYTHON = re.compile(r"(PythonSoftwareFoundation\.Python\.[\d.]+)_[^\\/]*__(\w+)")


def store_python_folder(folder: Path, base_prefix: str | None = None, local: str | None = None) -> str | None:
    """Where Windows really keeps ``folder`` when this Python comes from the Microsoft Store: its
    sandbox redirects writes under ``%LOCALAPPDATA%`` to
    ``%LOCALAPPDATA%\\Packages\\<package>\\LocalCache\\Local\\…``. None for any other Python or a
    folder elsewhere (``base_prefix``, ``local``: ``sys.base_prefix`` and ``%LOCALAPPDATA%``)."""
    found = _STORE_PYTHON.search(sys.base_prefix if base_prefix is None else base_prefix)
    local = os.environ.get("LOCALAPPDATA", "") if local is None else local
    text = str(folder)
    if not found or not local or not text.lower().startswith(local.lower().rstrip("\\/")):
        return None
    rest = text[len(local.rstrip("\\/")) :].lstrip("\\/")
    return f"{local.rstrip(chr(92) + '/')}\\Packages\\{found.group(1)}_{found.group(2)}\\LocalCache\\Local\\{rest}"
