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


def _dotted(node: ast.AST) -> str | None:
    """``scoring.validators.x`` for the attribute chain ``scoring.validators.x``, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def _live_code_in_migration(path: Path) -> list[str]:
    """What a migration uses of the app's live code, other than what Django itself writes into a
    migration and requires to stay importable: a field's callable ``default`` and its
    ``validators``, referenced by their dotted path (``import scoring.models`` and
    ``default=scoring.models.new_version_start``), never called."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "default":
            allowed.add(id(node.value))
        elif isinstance(node, ast.keyword) and node.arg == "validators" and isinstance(node.value, ast.List):
            allowed.update(id(element) for element in node.value.elts)
    inner = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "scoring":
            found.append(f"line {node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                at_top = node in tree.body and not alias.asname and "." in alias.name
                if alias.name.split(".")[0] == "scoring" and not at_top:
                    found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Attribute) and id(node) not in allowed | inner:
            name = _dotted(node)
            if name and name.split(".")[0] == "scoring":
                found.append(f"line {node.lineno}: {name}")
    return found


def test_migrations_import_no_live_code():
    """A migration must do the same on every later version of the code: its data steps use frozen
    copies (as 0005 and 0018 do), never the app's functions or constants. Allowed: a field's
    callable default or validator, named by its path, which Django writes into the migration and
    requires to stay importable."""
    migrations = sorted((ROOT / "scoring" / "migrations").glob("0*.py"))
    assert len(migrations) > 20
    found = {f"{path.name} {use}" for path in migrations for use in _live_code_in_migration(path)}
    assert not found, sorted(found)
    # Migration 0018 reads the old sentences with a frozen copy of what ``scoring.hall.origin`` held
    # then, and imports nothing of the app at all.
    imported = _imported_modules(ROOT / "scoring" / "migrations" / "0018_origin_as_data.py")
    assert "django.db" in imported
    assert not {name for name in imported if name.split(".")[0] == "scoring"}
