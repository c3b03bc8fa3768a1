"""The suite's own settings (tests/settings.py): a data folder per test process, a fast hasher,
and processes started by tests get the application's settings."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.contrib.auth.hashers import get_hasher
from django.core.cache import caches


def test_each_test_process_has_a_data_folder_of_its_own():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    data_dir = Path(settings.DATA_DIR)
    assert data_dir.name.startswith(f"bruus-tests-{worker}-")
    assert data_dir.parent == Path(tempfile.gettempdir())
    assert settings.TEST_DATA_DIR == settings.DATA_DIR
    for alias in ("screens", "sessions"):
        assert Path(settings.CACHES[alias]["LOCATION"]).parent == data_dir
    assert Path(settings.STATIC_ROOT).parent == data_dir
    caches["screens"].set("probe", 1)  # the file cache really writes there
    assert any((data_dir / "screen-cache").iterdir())


def test_passwords_hash_fast_in_the_tests_only():
    assert get_hasher().algorithm == "md5"
    assert "PASSWORD_HASHERS" not in Path(settings.BASE_DIR, "bruus_tournament", "settings.py").read_text()


def test_processes_started_by_tests_get_the_application_settings():
    assert os.environ["DJANGO_SETTINGS_MODULE"] == "bruus_tournament.settings"
    assert os.environ.get("DATA_DIR") != str(settings.DATA_DIR)
