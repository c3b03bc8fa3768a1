"""Settings of Bruus Turnier, read from the environment with django-environ (the environment
first, then the data folder's ``settings.env``, then the checkout's ``.env``: bruus_tournament/envfile.py).

Every setting has a default that is safe on an organiser's laptop:

- ``DEBUG`` (true/false, default ``false``).
- ``SECRET_KEY``: if unset, a random key is made once and kept in ``DATA_DIR/secret_key``
  (mode 0600); if set, at least 50 characters.
- ``DATA_DIR`` (path; default ``<checkout>/var`` in a checkout, the user's data folder of
  platformdirs when installed, e.g. ``~/.local/share/bruus-turnier`` or
  ``%LOCALAPPDATA%\\bruus-turnier``): SQLite database, secret key, caches, static files, and
  ``settings.env``, the settings of this data folder (``bruus-turnier settings set KEY VALUE``).
- ``DATABASE_URL`` (default ``sqlite:///DATA_DIR/bruus.sqlite3``, SQLite in WAL mode;
  ``postgres://user:password@host:5432/name`` for PostgreSQL).
- ``ALLOWED_HOSTS`` (comma-separated, default ``localhost,127.0.0.1,[::1]``).
- ``CSRF_TRUSTED_ORIGINS`` (comma-separated origins such as ``http://192.168.1.20:8000``).
- ``USE_TLS`` (true/false, default ``false``): served over HTTPS (behind a TLS proxy); turns on
  secure cookies, HSTS and the HTTPS redirect.
- ``PUBLIC_BASE_URL`` (e.g. ``http://192.168.1.20:8000``): the address the tablets and phones use;
  every link and QR code on screen and on paper starts with it. ``make serve`` sets it to the hall
  address it prints; empty (``make run``) means the address the organiser's browser used.
- ``WIFI_NAME``: the hall's Wi-Fi name, printed on the table cards (may be empty).
- ``ADMIN_ENABLED`` (true/false, default ``false``): Django's admin at ``/admin/``.
- ``TRUSTED_PROXY_COUNT`` (0 to 10, default 0): reverse proxies in front of the app; the guessing
  limits then take the device's address from ``X-Forwarded-For`` (``scoring.hall.client_address``).
- ``REDIS_URL`` (e.g. ``redis://127.0.0.1:6379/0``; default unset): the caches, the logins' copies
  and the failed-login counts in Redis, shared by every app process (the results site, several
  processes or machines); unset: files under ``DATA_DIR``.
- ``RESTORE_MAX_MB`` (default 100): the largest backup ``restore`` unpacks, in megabytes.
- ``BRUUS_ROLE`` (``hall``, the default, or ``hub``): the hall's program, or the results site
  (``scoring/hub/``; docs/results-online.md). ``bruus-turnier hub`` sets it.
- ``HUB_SNAPSHOT_MAX_BYTES`` (default 2097152, 2 MiB): the largest snapshot the results site takes.
- ``HUB_FRAME_ANCESTORS`` (web sites separated by spaces, default none): the sites that may show
  the results site's pages in a frame (a club's own website).
- ``PUBLISH_URL``, ``PUBLISH_KEY``, ``PUBLISH_ALLOW_HTTP`` (true/false, default ``false``): the
  results site the hall publishes to, the club's key, plain HTTP beyond this machine allowed.
- Read by ``bruus-turnier run``/``serve`` (``bruus_tournament.cli``), not here: ``LISTEN_ADDRESS``,
  ``PORT``, ``SERVER``, ``WORKERS``, ``THREADS``.

A wrong value stops the start with ``ImproperlyConfigured`` naming the setting.
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from bruus_tournament import envfile

# A web site as CSP names it: http(s), a host name (its first label may be "*"), an optional port.
_SITE = re.compile(r"https?://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?")

PACKAGE_DIR = Path(__file__).resolve().parent
BASE_DIR = PACKAGE_DIR.parent
#: Templates, static files, compiled translations and the docs: beside the code in a checkout,
#: inside the package (``bruus_tournament/resources``) in an installed wheel (pyproject.toml).
INSTALLED_FROM_WHEEL = envfile.installed_from_wheel()
RESOURCE_DIR = PACKAGE_DIR / "resources" if INSTALLED_FROM_WHEEL else BASE_DIR
DOCS_DIR = RESOURCE_DIR / "docs"

env = environ.Env()
# The data folder's settings.env, then the checkout's .env, under the environment (bruus_tournament/envfile.py).
envfile.read_env_file()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _flag(name: str, default: bool) -> bool:
    """A true/false setting; anything else stops the start with a message naming it."""
    raw = env.str(name, default=str(default)).strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (1/0, yes/no), not {raw!r}.")


DEBUG = _flag("DEBUG", False)
USE_TLS = _flag("USE_TLS", False)
# Django's admin (/admin/) only when asked for: it is not how an evening is run, and a staff login
# there edits any row past the app's rules (roles, locks, the history of corrections). Off, the
# URL does not exist (404); the app's own pages and bruus-turnier organiser manage the logins.
ADMIN_ENABLED = _flag("ADMIN_ENABLED", False)

# The role (docs/results-online.md): the hall (the organiser's laptop) or the results site (the
# hub), which serves only its own pages and API (scoring/hub/urls.py) and no hall page.
BRUUS_ROLE = env.str("BRUUS_ROLE", default="hall").strip().lower()
if BRUUS_ROLE not in ("hall", "hub"):
    raise ImproperlyConfigured(f"BRUUS_ROLE must be hall or hub, not {BRUUS_ROLE!r}.")


DATA_DIR = envfile.data_dir()  # DATA_DIR, else var/ in a checkout, the user's data folder when installed
try:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
except OSError as error:
    raise ImproperlyConfigured(f"DATA_DIR {DATA_DIR} cannot be created: {error.strerror}.") from None
if not os.access(DATA_DIR, os.R_OK | os.W_OK | os.X_OK):
    raise ImproperlyConfigured(f"DATA_DIR {DATA_DIR} is not readable and writable by this user.")


def _secret_key() -> str:
    """The SECRET_KEY from the environment, else one kept in DATA_DIR (made on first start)."""
    key = env.str("SECRET_KEY", default="")
    if key:
        if len(key) < 50 or len(set(key)) < 5:
            raise ImproperlyConfigured("SECRET_KEY must be at least 50 random characters long.")
        return key
    key_file = DATA_DIR / "secret_key"
    try:
        if not key_file.exists():
            key_file.write_text(secrets.token_urlsafe(50))
            key_file.chmod(0o600)
        key = key_file.read_text().strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not a text file"
        raise ImproperlyConfigured(f"The secret key file {key_file} cannot be used: {reason}.") from None
    if len(key) < 50:
        raise ImproperlyConfigured(f"The secret key file {key_file} is damaged (shorter than 50 characters).")
    return key


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
for _origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in _origin:
        raise ImproperlyConfigured(
            f"CSRF_TRUSTED_ORIGINS entries need a scheme, e.g. http://{_origin} (got {_origin!r})."
        )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "django_tables2",
    "axes",
    "scoring",
]

MIDDLEWARE = [
    # Outermost: the security headers on every answer, the error pages of the middleware below too.
    "bruus_tournament.middleware.SecurityHeadersMiddleware",
    # First: a request body beyond its limit is refused (413) before anything reads it.
    "bruus_tournament.request_limits.RequestBodyLimitMiddleware",
    # A full disk or a read-only database answers 503 "nothing saved" (bruus_tournament/storage_failures.py).
    "bruus_tournament.storage_failures.StorageFailureMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Printouts, public screens and tablets in the evening's language (scoring/web/middleware.py).
    "scoring.web.middleware.EveningLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "bruus_tournament.middleware.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: locks out repeated failed organiser logins.
    "axes.middleware.AxesMiddleware",
]

# The hub's middleware: no sessions, logins or CSRF cookies (its pages are the same for everyone,
# so a shared cache may hold them), the language from the URL's prefix (scoring/hub/middleware.py);
# its API reads its body itself, within HUB_SNAPSHOT_MAX_BYTES (scoring/hub/views.py).
HUB_MIDDLEWARE = [
    "bruus_tournament.middleware.SecurityHeadersMiddleware",
    "bruus_tournament.storage_failures.StorageFailureMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "scoring.hub.middleware.HubLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "bruus_tournament.middleware.ContentSecurityPolicyMiddleware",
]
HALL_MIDDLEWARE = MIDDLEWARE
if BRUUS_ROLE == "hub":
    MIDDLEWARE = HUB_MIDDLEWARE

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # ModelBackend with the permissions in one query (scoring/hall/auth_backends.py)
    "scoring.hall.auth_backends.OrganiserBackend",
]
# Five wrong passwords lock the login for 15 minutes: per user name and address, and per address
# whatever the names (one password sprayed over many names is five tries too).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# Failed logins are counted in the database (axes' default handler, named here on purpose): every
# gunicorn worker sees the same count, and a restart forgets nothing.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
# The device's address as the other guessing limits see it (TRUSTED_PROXY_COUNT below).
AXES_CLIENT_IP_CALLABLE = "scoring.hall.client_address.client_address"

# Guessing limits count failures per device (scoring.hall.throttle): LIMIT failures at once, then one
# more each WINDOW / LIMIT seconds (a failure is forgotten that often, so at most LIMIT per WINDOW
# in the long run); a success never resets the count and is never refused for it.
# Wrong table links: from the limit on, a wrong link answers "please wait" (HTTP 429); a valid
# link always opens. A real link has 192 random bits.
TABLE_LINK_FAILURE_LIMIT = 10
TABLE_LINK_FAILURE_WINDOW = 10 * 60  # seconds

# Short table codes typed at /tablet/ (6 letters): wrong codes are counted per device; at the limit
# that device is stopped until a wrong code is forgotten or a Helfer or the Turnierleitung unlocks
# it on the page "Tablets einrichten". Other devices, and the table, are not affected. Only tables
# of evenings being played open (scoring.selectors.tablets). The arithmetic is in the help page.
TABLE_CODE_DEVICE_LIMIT = 10
TABLE_CODE_WINDOW = 60 * 60  # seconds
# How long a tablet remembers its table (cookie), so /tablet/ and the home-screen icon lead back.
TABLET_COOKIE_AGE = 18 * 60 * 60  # seconds

# Reverse proxies in front of the app that append the client's address to X-Forwarded-For: the
# device limits above and django-axes then count the N-th address from the right of that header
# (scoring.hall.client_address); 0 (default): no proxy, the header is never read.
_trusted_proxy_count = env.str("TRUSTED_PROXY_COUNT", default="0").strip()
if not (_trusted_proxy_count.isascii() and _trusted_proxy_count.isdigit() and int(_trusted_proxy_count) <= 10):
    raise ImproperlyConfigured(
        "TRUSTED_PROXY_COUNT must be the number of reverse proxies in front of the app, 0 to 10, "
        f"not {_trusted_proxy_count!r}."
    )
TRUSTED_PROXY_COUNT = int(_trusted_proxy_count)


def _public_base_url() -> str:
    """PUBLIC_BASE_URL without a trailing slash; scheme and host required, no path."""
    raw = env.str("PUBLIC_BASE_URL", default="").strip().rstrip("/")
    if not raw:
        return ""
    from urllib.parse import urlsplit

    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        raise ImproperlyConfigured(
            f"PUBLIC_BASE_URL must be an address such as http://192.168.1.20:8000 (got {raw!r})."
        )
    return raw


PUBLIC_BASE_URL = _public_base_url()
WIFI_NAME = env.str("WIFI_NAME", default="").strip()

ROOT_URLCONF = "scoring.hub.urls" if BRUUS_ROLE == "hub" else "bruus_tournament.urls"
# The largest snapshot body the hub's API reads (bytes); a larger one is refused (413) unread.
_hub_max = env.str("HUB_SNAPSHOT_MAX_BYTES", default=str(2 * 1024 * 1024)).strip()
if not (_hub_max.isascii() and _hub_max.isdigit() and 1024 <= int(_hub_max) <= 64 * 1024 * 1024):
    raise ImproperlyConfigured(
        f"HUB_SNAPSHOT_MAX_BYTES must be a whole number of bytes (1024 to 67108864), not {_hub_max!r}."
    )
HUB_SNAPSHOT_MAX_BYTES = int(_hub_max)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [RESOURCE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "scoring.web.links.context",
            ],
        },
    },
]

WSGI_APPLICATION = "bruus_tournament.wsgi.application"

try:
    DATABASES = {
        "default": env.db_url("DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'bruus.sqlite3'}"),
    }
except (ImproperlyConfigured, ValueError, KeyError) as error:
    raise ImproperlyConfigured(
        f"DATABASE_URL is not a valid database URL ({error}); "
        "use e.g. sqlite:////path/bruus.sqlite3 or postgres://user:password@host:5432/name."
    ) from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets the organiser's pages read while tablets write; IMMEDIATE transactions take the
    # write lock up front so concurrent entries wait (busy timeout) instead of failing.
    DATABASES["default"]["OPTIONS"] = {
        # synchronous=FULL: every acknowledged deal is on disk before the tablet hears
        # "gespeichert", even when the hall loses power (NORMAL in WAL mode may lose the last
        # commits on a power cut). Cost: one fsync per entry, see README "Durability".
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
elif DATABASES["default"]["ENGINE"] not in ("django.db.backends.postgresql",):
    raise ImproperlyConfigured("DATABASE_URL must point to SQLite or PostgreSQL.")
# Persistent connections (one per gunicorn thread), checked before reuse: a new PostgreSQL
# connection per request costs the server a process start, which under 160 polling screens took
# more CPU than the pages themselves (README "How far one laptop carries"). CONN_MAX_AGE=0: one
# connection per request, Django's default.
_conn_max_age = env.str("CONN_MAX_AGE", default="600").strip()
if not (_conn_max_age.isascii() and _conn_max_age.isdigit()):
    raise ImproperlyConfigured(f"CONN_MAX_AGE must be a whole number of seconds (0 or more), not {_conn_max_age!r}.")
DATABASES["default"]["CONN_MAX_AGE"] = int(_conn_max_age)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# "screens": computed rankings and live grids shared by every gunicorn worker, in files under
# DATA_DIR (writing them takes no database write lock, so deal entries never wait for a screen);
# keyed on the evening's version (scoring/web/screen_cache.py). A second machine computes its own.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "screens": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(DATA_DIR / "screen-cache"),
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
    # Organiser logins read without a query (scoring/web/caches.py): a copy of the database's
    # sessions in files, each kept at most a minute.
    "sessions": {
        "BACKEND": "scoring.web.caches.ShortLivedFileCache",
        "LOCATION": str(DATA_DIR / "session-cache"),
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
SESSION_CACHE_ALIAS = "sessions"


def _redis_url() -> str:
    """REDIS_URL (``redis://``, ``rediss://`` or ``unix://``), or "" when unset."""
    raw = env.str("REDIS_URL", default="").strip()
    if raw and not raw.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            f"REDIS_URL must be an address such as redis://127.0.0.1:6379/0 (got {raw.split('://')[0]!r}://…)."
        )
    return raw


# REDIS_URL (the results site served by several app processes, on one machine or several): the
# caches above in Redis, shared by every process of every machine (Django's own RedisCache, the
# package redis). The screens are then computed once for all machines, a login's copy is dropped
# everywhere at once (so it may live as long as the session; SESSION_ENGINE stays cached_db: the
# database remains the record), and the failed logins are counted in Redis (django-axes' cache
# handler), where every process sees them. Unset (the hall's laptop): files under DATA_DIR, as above.
REDIS_URL = _redis_url()
if REDIS_URL:
    _redis = "django.core.cache.backends.redis.RedisCache"
    CACHES = {
        alias: {"BACKEND": _redis, "LOCATION": REDIS_URL, "KEY_PREFIX": f"bruus:{alias}"}
        for alias in ("default", "screens", "sessions")
    }
    AXES_HANDLER = "axes.handlers.cache.AxesCacheHandler"
    AXES_CACHE = "default"
# A public screen is recomputed at most this often while deals arrive (seconds; below its poll interval).
_screen_floor = env.str("SCREEN_FLOOR_SECONDS", default="5").strip()
try:
    SCREEN_FLOOR_SECONDS = float(_screen_floor)
except ValueError:
    SCREEN_FLOOR_SECONDS = -1.0
if not 0 <= SCREEN_FLOOR_SECONDS <= 3600:
    raise ImproperlyConfigured(f"SCREEN_FLOOR_SECONDS must be a number of seconds (0 to 3600), not {_screen_floor!r}.")

# The draw plans the evening (scoring.domain.draw.evening): the search's budget per draw. Seconds
# for the first draw of an evening (it plans every session) and for later draws; the moves are
# capped at DRAW_PLAN_ITERATIONS_PER_SECOND a second, so that on an idle machine the cap ends the
# search and a draw is reproducible from its seed (the time only ends it on a busy machine).
DRAW_PLAN_SECONDS_FIRST = env.float("DRAW_PLAN_SECONDS_FIRST", default=4.5)
DRAW_PLAN_SECONDS_LATER = env.float("DRAW_PLAN_SECONDS_LATER", default=1.8)
DRAW_PLAN_ITERATIONS_PER_SECOND = env.int("DRAW_PLAN_ITERATIONS_PER_SECOND", default=160_000)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    # Organiser logins guard the hall's Wi-Fi: no common or all-digit passwords either.
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "de"
# German first, English second; Danish for Danish Brus, Swedish for Bräus.
LANGUAGES = [("de", _("German")), ("en", _("English")), ("da", _("Danish")), ("sv", _("Swedish"))]
LOCALE_PATHS = [RESOURCE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [RESOURCE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            # Hashed, compressed files once `collectstatic` has run (production); plain otherwise.
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG and (STATIC_ROOT / "staticfiles.json").exists()
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "organiser:evening_list"
LOGOUT_REDIRECT_URL = "login"

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# An uploaded player list is small; refuse anything larger before it is read into memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Request bodies beyond these sizes are refused (413) before they are read, on every URL
# (bruus_tournament/request_limits.py): a form posts a few kB. The player import has its own, above
# its file limit of 2 MB (scoring/transfer/player_files.py) so that a file slightly too big gets the page's
# message naming that limit. waitress is told the largest (bruus_tournament/servers.py).
REQUEST_BODY_MAX_BYTES = 2 * 1024 * 1024
REQUEST_BODY_LIMITS = {"organiser:player_import": 4 * 1024 * 1024}  # URL name -> bytes

# The server's log (gunicorn's and waitress's: standard error): a server error (500, and the 503 of
# a full disk) with its traceback; nothing else, so the console stays readable during an evening.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"console": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "console"}},  # stderr
    "loggers": {
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "bruus_tournament": {"handlers": ["console"], "level": "WARNING", "propagate": False},
    },
}

# `restore` reads a backup up to this size (MB, unpacked) and refuses a larger one before it fills
# the memory (a small .gz can unpack to gigabytes); scoring/backup/files.py.
_restore_max_mb = env.str("RESTORE_MAX_MB", default="100").strip()
if not (_restore_max_mb.isascii() and _restore_max_mb.isdigit() and int(_restore_max_mb) >= 1):
    raise ImproperlyConfigured(
        f"RESTORE_MAX_MB must be a whole number of megabytes (1 or more), not {_restore_max_mb!r}."
    )
RESTORE_MAX_BYTES = int(_restore_max_mb) * 1024 * 1024
# ... and at most this many JSON values (commas, objects and lists counted before the file is
# parsed): the memory a parsed file takes grows with its values, not its bytes (100 MB of "{}," is
# 33 million objects, some 2.6 GB). A record takes about 20; 5 million is a database of 250,000
# records and at most some 200 MB of parsed values.
_restore_max_values = env.str("RESTORE_MAX_VALUES", default="5000000").strip()
if not (_restore_max_values.isascii() and _restore_max_values.isdigit() and int(_restore_max_values) >= 1000):
    raise ImproperlyConfigured(
        f"RESTORE_MAX_VALUES must be a whole number (1000 or more), not {_restore_max_values!r}."
    )
RESTORE_MAX_VALUES = int(_restore_max_values)
# The backup page's restore uploads a backup file: up to 16 MB (a season of evenings is far less,
# packed less still), and the form around it. waitress buffers a body up to the largest limit, so
# it stays small; a larger backup is restored with `bruus-turnier restore`.
RESTORE_UPLOAD_MAX_BYTES = min(RESTORE_MAX_BYTES, 16 * 1024 * 1024)
REQUEST_BODY_LIMITS["organiser:backup_restore"] = RESTORE_UPLOAD_MAX_BYTES + 64 * 1024

# Publishing to the results site (docs/publishing.md): its address (empty: the hall publishes
# nothing and starts no sender), the club's upload key, and whether plain HTTP may go to another
# machine than this one (a trusted network). A wrong address never stops the hall: the sender
# refuses it and the organiser's "Online" line says why (scoring.publishing.transport).
PUBLISH_URL = env.str("PUBLISH_URL", default="").strip()
PUBLISH_KEY = env.str("PUBLISH_KEY", default="").strip()
PUBLISH_ALLOW_HTTP = _flag("PUBLISH_ALLOW_HTTP", False)

# The roster the demo evening of `make run` is built from.
DEMO_PLAYERS_FILE = Path(
    env.str("DEMO_PLAYERS_FILE", default=str(PACKAGE_DIR.parent / "scoring" / "data" / "players-schwesing.csv"))
)

# --- Security ---------------------------------------------------------------------------------
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# A form sent without its security cookie or token: a page of the app, in the user's language.
CSRF_FAILURE_VIEW = "scoring.views.errors.csrf_failure"
# Scripts, styles, pictures and requests from this server only; no inline script or style, no
# eval (htmx runs with allowEval off), no framing, forms post here only.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
)
# The results site's pages in a frame on a club's own website: the sites that may frame them,
# e.g. "https://www.bruus-schwesing.de https://*.verein.example" (the hub role only; default none).
# CSP's frame-ancestors lists them; X-Frame-Options, which cannot name a site, is then not sent.
HUB_FRAME_ANCESTORS = env.str("HUB_FRAME_ANCESTORS", default="").split()
for _site in HUB_FRAME_ANCESTORS:
    if not _SITE.fullmatch(_site):
        raise ImproperlyConfigured(
            f"HUB_FRAME_ANCESTORS takes web sites such as https://www.example.org, separated by spaces, not {_site!r}."
        )
if BRUUS_ROLE == "hub" and HUB_FRAME_ANCESTORS:
    CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
        "frame-ancestors 'none'", "frame-ancestors 'self' " + " ".join(HUB_FRAME_ANCESTORS)
    )
    X_FRAME_OPTIONS = ""
    MIDDLEWARE = [m for m in MIDDLEWARE if m != "django.middleware.clickjacking.XFrameOptionsMiddleware"]
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True
if USE_TLS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
else:
    # A village hall serves the app from the organiser's laptop over the hall's Wi-Fi by plain HTTP:
    # there is no certificate for a LAN address, so HTTPS-only settings would lock everybody out.
    SILENCED_SYSTEM_CHECKS = [
        "security.W004",  # HSTS: only meaningful over HTTPS (set USE_TLS=true behind a TLS proxy).
        "security.W008",  # HTTPS redirect: no TLS on a LAN without a certificate.
        "security.W012",  # Secure session cookie: would never be sent over plain HTTP.
        "security.W016",  # Secure CSRF cookie: would never be sent over plain HTTP.
    ]
if BRUUS_ROLE == "hub":
    # Both roles share one schema, so the admin stays installed; but the hub serves no admin page
    # (scoring/hub/urls.py) and has no sessions, logins or messages (HUB_MIDDLEWARE above): the
    # admin's and django-axes' checks for that middleware do not apply to it.
    SILENCED_SYSTEM_CHECKS = [
        *(SILENCED_SYSTEM_CHECKS if not USE_TLS else []),
        *("admin.E408", "admin.E409", "admin.E410", "axes.W002"),
    ]
