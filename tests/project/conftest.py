"""Fixtures of the tests that start the app's own processes (tests/project)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.project.test_processes import ROOT, SETUP, environment, run


@pytest.fixture(scope="session")
def _database_made_once(tmp_path_factory) -> tuple[Path, list[str]]:
    """The data folder :func:`database` copies (migrating and setting up take seconds each time):
    made once per test process, with ``manage.py migrate`` and SETUP run as the app runs them."""
    folder = tmp_path_factory.mktemp("processes-database")
    env = environment(folder)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, capture_output=True, timeout=180
    )
    return folder, run(env, SETUP).split()


@pytest.fixture
def database(tmp_path, _database_made_once):
    """A migrated SQLite file with a drawn evening of 24 players, in the test's own data folder
    (a copy: a test may change it); returns (env, table tokens)."""
    folder, tokens = _database_made_once
    shutil.copytree(folder, tmp_path, dirs_exist_ok=True)
    return environment(tmp_path), tokens
