"""Compiling the committed translations (``locale/<language>/LC_MESSAGES/django.po``) to the
``.mo`` files Django reads, with Babel (no system gettext needed).

Used by ``bruus-turnier run``/``serve`` in a checkout (compiles what is missing or older than its
``.po``) and by the wheel build (``hatch_build.py`` loads this file by path: it imports nothing of
Django or of the project).
"""

from __future__ import annotations

from pathlib import Path


def catalogs(locale_dir: Path) -> list[Path]:
    """The ``django.po`` files under ``locale_dir``, sorted (``[]`` when there are none)."""
    return sorted(Path(locale_dir).glob("*/LC_MESSAGES/django.po"))


def compile_catalog(po: Path, mo: Path) -> None:
    """Write ``po`` compiled to ``mo`` (folders made as needed). Fuzzy entries are left out, as
    ``pybabel compile`` does. Raises ``OSError`` when ``mo`` cannot be written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    language = po.parent.parent.name
    with po.open("rb") as source:
        catalog = read_po(source, locale=language)
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as target:
        write_mo(target, catalog)


def compile_stale(locale_dir: Path) -> list[Path]:
    """Compile every ``django.po`` under ``locale_dir`` whose ``django.mo`` beside it is missing or
    older. Returns the ``.mo`` files written."""
    written = []
    for po in catalogs(locale_dir):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            compile_catalog(po, mo)
            written.append(mo)
    return written
