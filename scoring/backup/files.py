"""The backup file on disk: written complete or not at all, read and decoded (gzip or not), then
checked (:func:`scoring.backup.contents.validate`)."""

from __future__ import annotations

import gzip
import io
import json
import os
import tempfile
import zlib
from pathlib import Path

from django.conf import settings

from scoring.backup.base import BackupError
from scoring.backup.contents import validate
from scoring.domain.errors import gettext_noop


def encode_backup(data: dict, *, compressed: bool = False) -> bytes:
    """The bytes of a backup file: UTF-8 JSON, gzip-compressed when ``compressed``."""
    content = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    return gzip.compress(content, mtime=0) if compressed else content


def write_backup(data: dict, path: str | os.PathLike) -> Path:
    """Write a backup to ``path`` (gzip-compressed when the name ends in ``.gz``).

    The file appears complete or not at all: it is written next to its target and renamed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    content = encode_backup(data, compressed=path.name.endswith(".gz"))
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


#: Bytes read from a compressed backup at a time while it is unpacked.
CHUNK = 1024 * 1024


def max_bytes() -> int:
    """The largest backup read, unpacked (``settings.RESTORE_MAX_BYTES``, ``RESTORE_MAX_MB``)."""
    return settings.RESTORE_MAX_BYTES


def _too_large(limit: int) -> BackupError:
    return BackupError(
        gettext_noop(
            "The backup is larger than %(megabytes)s MB (unpacked), the most a restore reads. "
            "If it really is a backup of Bruus Turnier, allow more with the setting RESTORE_MAX_MB. "
            "Nothing was restored."
        ),
        code="too_large",
        megabytes=-(-limit // (1024 * 1024)),
    )


def read_backup(path: str | os.PathLike) -> dict:
    """Read and check a backup file; raise :class:`BackupError` unless it can be restored. At
    most :func:`max_bytes` are read (a larger file is refused, not read whole)."""
    path = Path(path)
    limit = max_bytes()
    try:
        with path.open("rb") as stream:
            raw = stream.read(limit + 1)
    except FileNotFoundError:
        raise BackupError(gettext_noop("File not found: %(path)s"), code="not_found", path=str(path)) from None
    except OSError as error:
        raise BackupError(
            gettext_noop("The file %(path)s cannot be read: %(reason)s"),
            code="unreadable",
            path=str(path),
            reason=error.strerror or str(error),
        ) from None
    if len(raw) > limit:
        raise _too_large(limit)
    return parse_backup(raw)


def _unpacked(raw: bytes, limit: int) -> bytes:
    """The gzip-compressed ``raw`` unpacked a chunk at a time, refused as soon as it grows beyond
    ``limit`` bytes (a small file can unpack to gigabytes)."""
    parts: list[bytes] = []
    size = 0
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            while chunk := stream.read(CHUNK):
                size += len(chunk)
                if size > limit:
                    raise _too_large(limit)
                parts.append(chunk)
    except (OSError, EOFError, zlib.error):
        raise BackupError(
            gettext_noop("The backup file is damaged or incomplete (the compressed data cannot be read)."),
            code="bad_gzip",
        ) from None
    return b"".join(parts)


def parse_backup(raw: bytes) -> dict:
    """Decode (gzip if compressed) and check the bytes of a backup file. Whatever cannot be read
    (not UTF-8, not JSON, nested too deeply, numbers too long, too big for the memory) is a
    damaged file, like any other."""
    limit = max_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = _unpacked(raw, limit)
    elif len(raw) > limit:
        raise _too_large(limit)
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise BackupError(
            gettext_noop("This file is not a Bruus Turnier backup (it is not a text file)."), code="not_json"
        ) from None
    except (ValueError, RecursionError, MemoryError):  # JSONDecodeError is a ValueError
        raise BackupError(
            gettext_noop("This file is not a Bruus Turnier backup, or it is incomplete (it is not valid JSON)."),
            code="not_json",
        ) from None
    validate(document)
    return document
