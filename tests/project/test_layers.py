"""The layers stay apart: the pure domain reads no files and imports no Django, and the models
do not import the spreadsheet reader (a name's match key comes from ``scoring.domain.names``)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _loaded(code: str) -> set[str]:
    """The modules loaded after running ``code`` in a fresh interpreter."""
    script = f"{code}\nimport sys\nprint('\\n'.join(sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "bruus_tournament.settings", "PATH": "/usr/bin:/bin"},
    ).stdout
    return set(out.split())


def test_the_player_list_rules_read_no_files():
    loaded = _loaded("import scoring.domain.player_import")
    assert not loaded & {"openpyxl", "csv", "zipfile", "django", "scoring.transfer.player_files"}


def test_the_models_do_not_import_the_spreadsheet_reader():
    loaded = _loaded("import django\ndjango.setup()\nimport scoring.models")
    assert "scoring.models" in loaded
    assert not loaded & {"scoring.transfer.player_files", "scoring.domain.player_import", "openpyxl"}


# Django's conventional modules of an app; everything else lives in a package named for what it is
# (scoring.web, scoring.hall, scoring.transfer, scoring.setup, the domain, services, selectors…).
CONVENTIONAL_MODULES = {"__init__.py", "admin.py", "apps.py", "forms.py", "models.py", "tables.py", "validators.py"}


def test_the_root_of_the_app_holds_only_djangos_conventional_modules():
    loose = {path.name for path in (ROOT / "scoring").glob("*.py")} - CONVENTIONAL_MODULES
    assert not loose, f"modules without a package: {sorted(loose)}"


def _imported_modules(path: Path) -> set[str]:
    """The modules a source file imports (``import x`` and ``from x import y``; relative imports
    are not used in the app)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_services_and_selectors_do_not_import_the_web_layer():
    """Writes and reads serve the views, the commands and the tests alike: they import nothing of
    the pages (``scoring.views``, ``scoring.web``, ``scoring.urls``, ``scoring.forms``)."""
    web = ("scoring.views", "scoring.web", "scoring.urls", "scoring.forms")
    found = {
        f"{path.relative_to(ROOT)}: {name}"
        for folder in ("services", "selectors")
        for path in sorted((ROOT / "scoring" / folder).rglob("*.py"))
        for name in _imported_modules(path)
        if name.startswith(web)
    }
    assert not found, sorted(found)


def test_the_origin_migration_imports_no_live_code():
    """Migration 0018 reads the old sentences with a frozen copy of what ``scoring.hall.origin``
    held then: a later change to the live module cannot change what the migration does."""
    imported = _imported_modules(ROOT / "scoring" / "migrations" / "0018_origin_as_data.py")
    assert "django.db" in imported
    assert not {name for name in imported if name.split(".")[0] == "scoring"}
