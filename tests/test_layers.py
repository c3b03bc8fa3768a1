"""The layers stay apart: the pure domain reads no files and imports no Django, and the models
do not import the spreadsheet reader (a name's match key comes from ``scoring.domain.names``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
    assert not loaded & {"openpyxl", "csv", "zipfile", "django", "scoring.player_files"}


def test_the_models_do_not_import_the_spreadsheet_reader():
    loaded = _loaded("import django\ndjango.setup()\nimport scoring.models")
    assert "scoring.models" in loaded
    assert not loaded & {"scoring.player_files", "scoring.domain.player_import", "openpyxl"}
