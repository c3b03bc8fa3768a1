"""The hall's web servers, started by ``bruus-turnier serve`` and by the benchmarks.

- gunicorn (POSIX only): worker processes with threads (``gthread``), configured by
  ``bruus_tournament.gunicorn_conf``; the fastest path (docs/performance.md).
- waitress: one process with threads, pure Python, the path on Windows; selectable on Linux too
  (``SERVER=waitress``), so that it is tested and measured here.

Both start in a fresh process (the settings choose the hashed static files when that process reads
them, after :func:`collect_static`) and send no ``Server`` header.
"""

from __future__ import annotations

import os
import subprocess
import sys


def collect_static() -> None:
    """Collect the static files into ``STATIC_ROOT`` hashed and compressed (whitenoise's
    ``CompressedManifestStaticFilesStorage``, whatever the settings chose for this process): a
    server started afterwards with DEBUG off serves them with long cache lifetimes."""
    from django.contrib.staticfiles.management.commands.collectstatic import Command
    from django.core.management import call_command
    from whitenoise.storage import CompressedManifestStaticFilesStorage

    command = Command()
    command.storage = CompressedManifestStaticFilesStorage()
    call_command(command, interactive=False, verbosity=0)


def gunicorn_argv(address: str, port: int, workers: int, threads: int) -> list[str]:
    """The command line of gunicorn serving the app on ``address:port``."""
    bind = f"[{address}]:{port}" if ":" in address else f"{address}:{port}"
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "bruus_tournament.wsgi",
        "--config",
        "python:bruus_tournament.gunicorn_conf",
        "--bind",
        bind,
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--access-logfile",
        "-",
        "--log-level",
        "warning",
    ]


def waitress_argv(address: str, port: int, threads: int) -> list[str]:
    """The command line of waitress serving the app on ``address:port`` (:func:`waitress_main`)."""
    return [sys.executable, "-m", "bruus_tournament.servers", address, str(port), str(threads)]


def start(server: str, address: str, port: int, *, workers: int, threads: int) -> int:
    """Serve until stopped (Ctrl+C); returns the server's exit status. On POSIX the server replaces
    this process (signals reach it directly); on Windows it runs as a child this process waits for
    (Ctrl+C reaches both; the child stops, this process returns its status)."""
    argv = (
        gunicorn_argv(address, port, workers, threads)
        if server == "gunicorn"
        else waitress_argv(address, port, threads)
    )
    sys.stdout.flush()
    if os.name != "nt":
        os.execv(argv[0], argv)
    child = subprocess.Popen(argv)
    while True:
        try:
            return child.wait()
        except KeyboardInterrupt:
            continue


def waitress_main(address: str, port: int, threads: int) -> None:
    """Load the app and serve it with waitress (the process of :func:`waitress_argv`)."""
    import gc

    import waitress

    from bruus_tournament.request_limits import largest_limit

    # As gunicorn_conf does for its workers: hand the interpreter lock on after 1 ms, and leave
    # what the app loaded out of the garbage collector's full collections.
    sys.setswitchinterval(float(os.environ.get("GIL_SWITCH_INTERVAL", "0.001")))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
    from django.conf import settings

    from bruus_tournament.wsgi import application

    gc.collect()
    gc.freeze()
    waitress.serve(
        application,
        host=address,
        port=port,
        threads=threads,
        # waitress buffers a body before the app sees it: anything beyond the largest the app
        # accepts is refused (413) before it is received (bruus_tournament.request_limits).
        max_request_body_size=largest_limit(),
        ident="",  # no Server header: nothing on the hall's network learns what serves it
        connection_limit=1000,
        channel_timeout=60,
        # Proxy headers (X-Forwarded-For, -Proto) reach the app only behind a proxy: the app reads
        # them itself (TRUSTED_PROXY_COUNT: scoring.hall.client_address; USE_TLS: Django's
        # SECURE_PROXY_SSL_HEADER). Served directly, waitress removes them.
        clear_untrusted_proxy_headers=not (settings.TRUSTED_PROXY_COUNT or settings.USE_TLS),
        _quiet=True,
    )


if __name__ == "__main__":
    waitress_main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
