"""Every text shown to a user reaches the German catalogue: ``makemessages`` (xgettext) cannot see
a ``gettext("...")`` call written inside an f-string, so such a text silently stays English."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from scoring import services
from tests.conftest import make_evening

ROOT = Path(__file__).resolve().parents[2]
CALLS = {"gettext", "_", "pgettext", "ngettext", "gettext_lazy", "gettext_noop"}


def _calls_inside_fstrings(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and getattr(inner.func, "id", None) in CALLS:
                    lines.append(inner.lineno)
    return lines


def test_no_translated_text_is_written_inside_an_f_string():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "scoring").rglob("*.py"))
        if (lines := _calls_inside_fstrings(path))
    }
    assert found == {}


@pytest.mark.django_db
def test_the_progress_grid_heads_are_german(organiser_client):
    evening = make_evening(8)
    services.draw_session(evening=evening, seed=1)
    with translation.override("de"):
        page = organiser_client.get(
            reverse("organiser:evening_detail", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE="de"
        ).content.decode()
    assert "<th>Runde</th>" in page and "<th>Tisch 1</th>" in page
