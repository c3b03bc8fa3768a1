"""The backup file on disk: written complete or not at all, read and decoded (gzip or not), then
checked (:func:`scoring.backup.contents.validate`)."""

from __future__ import annotations

import gzip
import json
import os
import tempfile
import zlib
from pathlib import Path

from scoring.backup.base import BackupError
from scoring.backup.contents import validate
from scoring.domain.errors import gettext_noop


def write_backup(data: dict, path: str | os.PathLike) -> Path:
    """Write a backup to ``path`` (gzip-compressed when the name ends in ``.gz``).

    The file appears complete or not at all: it is written next to its target and renamed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    content = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    if path.name.endswith(".gz"):
        content = gzip.compress(content, mtime=0)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".bruus-backup-", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def read_backup(path: str | os.PathLike) -> dict:
    """Read and check a backup file; raise :class:`BackupError` unless it can be restored."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise BackupError(gettext_noop("File not found: %(path)s"), code="not_found", path=str(path)) from None
    except OSError as error:
        raise BackupError(
            gettext_noop("The file %(path)s cannot be read: %(reason)s"),
            code="unreadable",
            path=str(path),
            reason=error.strerror or str(error),
        ) from None
    return parse_backup(raw)


def parse_backup(raw: bytes) -> dict:
    """Decode (gzip if compressed) and check the bytes of a backup file."""
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error):
            raise BackupError(
                gettext_noop("The backup file is damaged or incomplete (the compressed data cannot be read)."),
                code="bad_gzip",
            ) from None
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise BackupError(
            gettext_noop("This file is not a Bruus Turnier backup (it is not a text file)."), code="not_json"
        ) from None
    except json.JSONDecodeError:
        raise BackupError(
            gettext_noop("This file is not a Bruus Turnier backup, or it is incomplete (it is not valid JSON)."),
            code="not_json",
        ) from None
    validate(document)
    return document
