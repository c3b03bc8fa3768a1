"""Settings for the page benchmark: the project's settings plus a bare view (bench/bench_urls.py)."""

from bruus_tournament.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench.bench_urls"

# Server errors with their traceback in gunicorn's log (the load benchmark counts them).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
}
