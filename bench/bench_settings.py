"""Settings for the page benchmark: the project's settings plus a bare view (bench/bench_urls.py)."""

from bruus_tournament.settings import *  # noqa: F401,F403

ROOT_URLCONF = "bench.bench_urls"
