"""The repository stands alone: while the tests run, a file opened outside the checkout but beside
it (the checkout's parent folder, e.g. a workshop folder next to the clone) raises
:class:`OutsideCheckoutError` in the test that opened it.

Installed by ``tests/conftest.py`` as a Python audit hook (PEP 578, the ``open`` event). Paths
under the temporary folder and under Python's own prefixes stay allowed, so a checkout placed
directly in one of those (e.g. ``/tmp/clone``) is guarded less: :func:`guarded` says whether a
path would be refused.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent


class OutsideCheckoutError(PermissionError):
    """A test read or wrote a file beside the checkout."""


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


_ALLOWED = tuple(
    str(Path(folder).resolve()) for folder in {tempfile.gettempdir(), sys.prefix, sys.base_prefix, sys.exec_prefix}
)
_INSIDE = str(CHECKOUT)
_BESIDE = str(CHECKOUT.parent)


def guarded(path: str | os.PathLike) -> bool:
    """True when opening ``path`` is refused: beside the checkout, not inside it, not allowed."""
    text = os.path.abspath(os.fspath(path))
    if not _under(text, _BESIDE) or _under(text, _INSIDE):
        return False
    return not any(_under(text, folder) for folder in _ALLOWED)


def _hook(event: str, args: tuple) -> None:
    if event == "open" and isinstance(args[0], str | os.PathLike) and guarded(args[0]):
        raise OutsideCheckoutError(f"the tests read outside the checkout: {args[0]}")


def install() -> None:
    """Install the audit hook for the rest of the process (hooks cannot be removed)."""
    sys.addaudithook(_hook)
