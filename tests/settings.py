"""The settings the test suite runs with (pytest.ini): the application's settings
(``bruus_tournament/settings.py``), with three differences for speed and for parallel runs (the
third: the draw's evening planner runs with a tiny budget, see the end).

- A data folder of each test process's own: a new temporary folder per process (each
  pytest-xdist worker ``gw0``, ``gw1`` ... and the controlling process), removed when the process
  ends (tests/conftest.py). The file caches of the screens and the sessions, the secret key and
  the static folder live in DATA_DIR: workers clearing their caches for every test must not clear
  each other's, nor those of a server running from the checkout's ``var/``. DATA_DIR is read when
  the settings are imported, which pytest-django does before any conftest is loaded (and in each
  xdist worker after ``PYTEST_XDIST_WORKER`` is set), so it is set here and nowhere later.
- A fast password hasher (MD5): a login in a test costs microseconds instead of 0.3 s of PBKDF2.
  New passwords are hashed with it; the production hashers still check existing hashes. Never in
  the application's settings.

Processes a test starts (``manage.py``, servers) get the application's settings and the
environment as it was: tests/conftest.py names ``bruus_tournament.settings`` for them.
"""

from __future__ import annotations

import os
import tempfile

from django.conf import global_settings

_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
_outer_data_dir = os.environ.get("DATA_DIR")
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix=f"bruus-tests-{_worker}-")
try:
    from bruus_tournament.settings import *  # noqa: F403
finally:  # the environment as it was, for the processes the tests start
    if _outer_data_dir is None:
        del os.environ["DATA_DIR"]
    else:
        os.environ["DATA_DIR"] = _outer_data_dir

#: Removed at the end of the test run (tests/conftest.py, ``pytest_unconfigure``).
TEST_DATA_DIR = DATA_DIR  # noqa: F405

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *global_settings.PASSWORD_HASHERS]

# The evening planner of the draw with a tiny budget: tests check the rules, not the quality
# (bench/bench_draw.py measures that), and must stay fast.
DRAW_PLAN_SECONDS_FIRST = 0.5
DRAW_PLAN_SECONDS_LATER = 0.5
DRAW_PLAN_ITERATIONS_PER_SECOND = 600  # 300 moves
