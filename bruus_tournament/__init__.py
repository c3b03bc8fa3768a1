"""Bruus Turnier: tournament software for Bruus, Danish Brus and Bräus club evenings.

``__version__`` is the version of the program: the version in the package's metadata when it is
installed (pip, pipx, a wheel), else, in a checkout that is not installed (the usual way to run
it), the ``[project] version`` of the checkout's ``pyproject.toml`` beside this folder, read with
:mod:`tomllib`. Both come from that one line of ``pyproject.toml``. It is shown in the footer of
every page, written into every PDF's metadata (creator) and every backup (``app_version``).

Importing this module is cheap: no Django, and ``pyproject.toml`` is read only when the package
is not installed.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

#: The name of the distribution (``pip install bruus-turnier``).
DISTRIBUTION = "bruus-turnier"

#: The checkout's pyproject.toml (beside the ``bruus_tournament`` folder); not in an installed wheel.
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"

#: Shown when neither the metadata nor pyproject.toml says (a copied folder, a damaged checkout).
UNKNOWN = "0+unknown"


def _checkout_version(pyproject: Path = PYPROJECT) -> str:
    """``[project] version`` of ``pyproject`` when it is this project's, else :data:`UNKNOWN`."""
    import tomllib

    try:
        with pyproject.open("rb") as stream:
            project = tomllib.load(stream).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return UNKNOWN
    found = project.get("version")
    if project.get("name") != DISTRIBUTION or not isinstance(found, str) or not found:
        return UNKNOWN
    return found


def _version() -> str:
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # a checkout, not installed
        return _checkout_version()


__version__ = _version()
