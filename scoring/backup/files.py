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


def _read_at_most(stream, size: int) -> bytearray:
    """At most ``size`` bytes of ``stream``, read a chunk at a time: ``read(size)`` would take
    ``size`` bytes of memory at once, however small the file."""
    data = bytearray()
    while len(data) < size and (chunk := stream.read(min(CHUNK, size - len(data)))):
        data += chunk
    return data


def read_backup(path: str | os.PathLike, *, check: bool = True) -> dict:
    """Read and check a backup file; raise :class:`BackupError` unless it can be restored. At
    most :func:`max_bytes` are read (a larger file is refused, not read whole). ``check=False``
    leaves the check of the records to :func:`scoring.backup.preview` or
    :func:`scoring.backup.restore`, which make it anyway (a big file is checked once, not twice)."""
    path = Path(path)
    limit = max_bytes()
    try:
        with path.open("rb") as stream:
            raw = _read_at_most(stream, limit + 1)
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
    return parse_backup(raw, check=check)


def max_values() -> int:
    """The most JSON values a backup may hold (``settings.RESTORE_MAX_VALUES``)."""
    return settings.RESTORE_MAX_VALUES


def values_in(raw: bytes | bytearray) -> int:
    """An upper bound of the JSON values ``raw`` parses to, counted without parsing: each value
    after the first follows a comma, each object and list opens with a brace or bracket (those
    inside strings are counted too: more, never fewer). Three passes in C, about 0.1 s for 100 MB."""
    return raw.count(b",") + raw.count(b"{") + raw.count(b"[")


def _too_many_values(limit: int) -> BackupError:
    return BackupError(
        gettext_noop(
            "The backup holds more than %(count)s values, the most a restore reads. If it really is a "
            "backup of Bruus Turnier, allow more with the setting RESTORE_MAX_VALUES. Nothing was restored."
        ),
        code="too_many_values",
        count=limit,
    )


def _unpacked(raw: bytes, limit: int) -> bytearray:
    """The gzip-compressed ``raw`` unpacked a chunk at a time, refused as soon as it grows beyond
    ``limit`` bytes or :func:`max_values` values (a small file can unpack to gigabytes, or to
    millions of objects that take gigabytes once parsed)."""
    unpacked = bytearray()
    values = 0
    budget = max_values()
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            while chunk := stream.read(CHUNK):
                if len(unpacked) + len(chunk) > limit:
                    raise _too_large(limit)
                values += values_in(chunk)
                if values > budget:
                    raise _too_many_values(budget)
                unpacked += chunk
    except (OSError, EOFError, zlib.error):
        raise BackupError(
            gettext_noop("The backup file is damaged or incomplete (the compressed data cannot be read)."),
            code="bad_gzip",
        ) from None
    return unpacked


def parse_backup(raw: bytes | bytearray, *, check: bool = True) -> dict:
    """Decode (gzip if compressed) and check the bytes of a backup file. Whatever cannot be read
    (not UTF-8, not JSON, nested too deeply, numbers too long, too big for the memory) is a
    damaged file, like any other. The memory the parse takes is bounded by its values: a file of
    more than :func:`max_values` values is refused before it is parsed.

    Raises:
        BackupError: ``too_large`` (bytes), ``too_many_values``, ``bad_gzip``, ``not_json`` or
            any refusal of :func:`scoring.backup.contents.validate`.
    """
    limit = max_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = _unpacked(raw, limit)
    else:
        if len(raw) > limit:
            raise _too_large(limit)
        if values_in(raw) > max_values():
            raise _too_many_values(max_values())
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
    if check:
        validate(document)
    return document
