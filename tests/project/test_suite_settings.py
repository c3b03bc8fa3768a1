"""The suite's own settings (tests/settings.py): a data folder per test process, a fast hasher,
processes started by tests get the application's settings, and the run compiles the translations
itself (tests/conftest.py)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace

from django.conf import settings
from django.contrib.auth.hashers import get_hasher
from django.core.cache import caches
from django.utils import translation

from tests.conftest import ROOT, compile_catalogues


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


def test_the_run_has_compiled_every_catalogue():
    """A plain ``pytest`` on a fresh clone (no ``.mo`` files, no ``make translations``) reads the
    German, Danish and Swedish texts: the run compiled them before the first test."""
    catalogues = sorted((ROOT / "locale").glob("*/LC_MESSAGES/django.po"))
    assert {po.parent.parent.name for po in catalogues} == {"de", "da", "sv"}
    for po in catalogues:
        mo = po.with_suffix(".mo")
        assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime, f"{mo} missing or older than its .po"
    with translation.override("de"):
        assert translation.gettext("Total") != "Total"


def test_only_the_process_that_starts_the_run_compiles(tmp_path):
    """pytest-xdist's workers (``config.workerinput``) never write a ``.mo``: the process that
    starts the run has compiled them before it starts the workers."""
    po = tmp_path / "de" / "LC_MESSAGES" / "django.po"
    po.parent.mkdir(parents=True)
    shutil.copy(ROOT / "locale" / "de" / "LC_MESSAGES" / "django.po", po)
    assert compile_catalogues(SimpleNamespace(workerinput={"workerid": "gw0"}), tmp_path) == []
    assert not po.with_suffix(".mo").exists()
    assert compile_catalogues(SimpleNamespace(), tmp_path) == [po.with_suffix(".mo")]
    assert compile_catalogues(SimpleNamespace(), tmp_path) == []  # fresh: nothing to do
