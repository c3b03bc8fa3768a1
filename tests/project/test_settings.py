"""Settings from the environment: the database in use, and wrong values stopping the start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_the_database_is_the_one_the_environment_names():
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected
    if expected == "sqlite":
        # In-memory test databases cannot use WAL; the configured init command asks for it.
        assert "journal_mode=WAL" in connection.settings_dict["OPTIONS"]["init_command"]
    # One connection per gunicorn thread, kept and checked before reuse (README "How far one
    # laptop carries": a connection per request cost PostgreSQL 0.7 cores at 300 players).
    assert (settings.DATABASES["default"]["CONN_MAX_AGE"], settings.DATABASES["default"]["CONN_HEALTH_CHECKS"]) == (
        600,
        True,
    )


def run_check(**environ):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "DEBUG")}
    env.update(environ)
    return subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"DEBUG": "vielleicht"}, "DEBUG"),
        ({"SECRET_KEY": "kurz"}, "SECRET_KEY"),
        ({"DATABASE_URL": "mysql://x@y/z"}, "DATABASE_URL"),
        ({"CSRF_TRUSTED_ORIGINS": "192.168.1.20:8000"}, "CSRF_TRUSTED_ORIGINS"),
        ({"USE_TLS": "ja bitte"}, "USE_TLS"),
        ({"CONN_MAX_AGE": "zehn Minuten"}, "CONN_MAX_AGE"),
        ({"CONN_MAX_AGE": "-1"}, "CONN_MAX_AGE"),
        ({"TRUSTED_PROXY_COUNT": "zwei"}, "TRUSTED_PROXY_COUNT"),
        ({"TRUSTED_PROXY_COUNT": "-1"}, "TRUSTED_PROXY_COUNT"),
        ({"TRUSTED_PROXY_COUNT": "11"}, "TRUSTED_PROXY_COUNT"),
        ({"RESTORE_MAX_MB": "0"}, "RESTORE_MAX_MB"),
        ({"RESTORE_MAX_MB": "viel"}, "RESTORE_MAX_MB"),
        ({"REDIS_URL": "127.0.0.1:6379"}, "REDIS_URL"),
        ({"HUB_FRAME_ANCESTORS": "www.bruus-schwesing.de"}, "HUB_FRAME_ANCESTORS"),
        ({"HUB_FRAME_ANCESTORS": "https://www.bruus-schwesing.de/ergebnisse"}, "HUB_FRAME_ANCESTORS"),
        ({"HUB_FRAME_ANCESTORS": "https://ok.example 'unsafe-inline'"}, "HUB_FRAME_ANCESTORS"),
        ({"HUB_FRAME_ANCESTORS": "https://a.example;script-src"}, "HUB_FRAME_ANCESTORS"),
    ],
)
def test_wrong_settings_stop_the_start_naming_the_setting(environ, named):
    result = run_check(**environ)
    assert result.returncode == 2
    assert named in result.stderr and "Traceback" not in result.stderr


def shell_lines(code: str, **environ) -> list[str]:
    """The lines ``code`` prints in ``manage.py shell``, started with ``environ`` (and without the
    test run's own database, key, debug, Redis and role settings)."""
    dropped = ("DATABASE_URL", "SECRET_KEY", "DEBUG", "REDIS_URL", "BRUUS_ROLE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(environ)
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--verbosity", "0", "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def caches_and_axes(**environ) -> list[str]:
    code = (
        "from django.conf import settings as s; "
        "print(*[c['BACKEND'] + ' ' + c.get('LOCATION', '') for c in s.CACHES.values()], s.AXES_HANDLER, "
        "s.SESSION_ENGINE, sep='\\n')"
    )
    return shell_lines(code, **environ)


def test_redis_url_puts_the_caches_sessions_and_login_limits_into_redis():
    lines = caches_and_axes(REDIS_URL="redis://127.0.0.1:6399/2")
    redis = "django.core.cache.backends.redis.RedisCache redis://127.0.0.1:6399/2"
    assert lines == [
        redis,
        redis,
        redis,
        "axes.handlers.cache.AxesCacheHandler",
        "django.contrib.sessions.backends.cached_db",
    ]


def test_without_redis_url_the_laptop_keeps_its_files_and_database():
    lines = caches_and_axes()
    assert lines[0].startswith("django.core.cache.backends.locmem.LocMemCache")
    assert lines[1].startswith("django.core.cache.backends.filebased.FileBasedCache")
    assert lines[2].startswith("scoring.web.caches.ShortLivedFileCache")
    assert lines[3:] == ["axes.handlers.database.AxesDatabaseHandler", "django.contrib.sessions.backends.cached_db"]


def test_deploy_check_is_clean_in_production_mode():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
            "DEBUG": "false",
            "SECRET_KEY": "x" * 20 + "abcdefghijklmnopqrstuvwxyz0123456789",
        },
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_sqlite_file_database_runs_in_wal_mode(tmp_path):
    import sqlite3

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env["DATA_DIR"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    mode = sqlite3.connect(tmp_path / "bruus.sqlite3").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


FRAMING = """
from django.test import Client
answer = Client(HTTP_HOST="127.0.0.1").get("/gibt-es-nicht/")
print(answer.headers.get("X-Frame-Options"))
print(answer.headers["Content-Security-Policy"])
"""


def framing_headers(**environ) -> list[str]:
    """X-Frame-Options and the CSP of an answer of the app, started with ``environ``."""
    return shell_lines(FRAMING, **environ)


def test_a_club_website_may_frame_the_results_site_where_the_setting_names_it():
    sites = "https://www.bruus-schwesing.de https://*.verein.example:8443"
    deny, policy = framing_headers(BRUUS_ROLE="hub")
    assert deny == "DENY" and "frame-ancestors 'none'" in policy
    allowed, policy = framing_headers(BRUUS_ROLE="hub", HUB_FRAME_ANCESTORS=sites)
    assert allowed == "None"  # X-Frame-Options cannot name a site: not sent, CSP says it
    assert f"frame-ancestors 'self' {sites};" in policy and "'none'" not in policy.split("base-uri")[0]
    # The hall's pages (tablets, the organiser's desk) are never framed.
    deny, policy = framing_headers(BRUUS_ROLE="hall", HUB_FRAME_ANCESTORS=sites)
    assert deny == "DENY" and "frame-ancestors 'none'" in policy
