"""A full, read-only or failing disk during the evening: a clear 503, never the 500 page's
"nothing you entered is lost".

What counts as such a failure (:func:`is_storage_failure`), anywhere in the exception's chain:

- SQLite: its result codes for a full disk (SQLITE_FULL), a read-only database (SQLITE_READONLY),
  an I/O error (SQLITE_IOERR), a damaged file ("database disk image is malformed",
  SQLITE_CORRUPT; "file is not a database", SQLITE_NOTADB) and a file it cannot open ("unable to
  open database file", SQLITE_CANTOPEN), by ``sqlite_errorcode`` or else by their messages
  (``sqlite3.OperationalError``/``DatabaseError``, raised by Django as ``django.db`` errors). A
  file system that fails under the running server (shut down, unplugged) answers the write with
  an I/O error, the next read with "malformed", a new connection with "unable to open";
- PostgreSQL: SQLSTATE 53100 (disk full), 58030 (I/O error), XX001/XX002 (data or index
  corrupted), 25006 (read-only transaction);
- a file the app writes (the screens' and logins' caches in ``DATA_DIR``): ``OSError`` with
  ENOSPC (no space left), EDQUOT (quota exceeded), EROFS (read-only file system) or EIO (I/O error).

The answer is 503 with "Speicher voll – nichts gespeichert, bitte Turnierleitung rufen" (in the
request's language) and a line for the organiser; the traceback goes to the server's log
(standard error). The tablets' page script keeps an entry answered with 503 in its queue and sends
it again (``static/js/scorer.js``); the idempotency key saves it once.

:class:`StorageFailureMiddleware` answers for the views; ``scoring.views.errors.server_error``
(``handler500``) for a failure anywhere else (a middleware saving the session, say).
"""

from __future__ import annotations

import errno
import logging
import sqlite3
from collections.abc import Callable

from django.db import Error as DatabaseError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger("bruus_tournament.storage")

#: SQLite's messages for storage that has no room, no permission or fails (lower case), for an
#: error without its result code.
SQLITE_MESSAGES = (
    "database or disk is full",
    "attempt to write a readonly database",
    "disk i/o error",
    "database disk image is malformed",
    "unable to open database file",
    "file is not a database",
)
#: SQLite's primary result codes of the same (SQLITE_READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN,
#: _NOTADB); extended codes such as SQLITE_IOERR_WRITE (778) carry them in their low byte.
SQLITE_CODES = frozenset({8, 10, 11, 13, 14, 26})
#: PostgreSQL's SQLSTATEs of the same: disk full, I/O error, data or index corrupted, read-only.
POSTGRES_STATES = frozenset({"53100", "58030", "XX001", "XX002", "25006"})
#: OSError numbers of a file that cannot be written for want of room or permission, or for a failing disk.
OS_ERRNOS = frozenset(
    n for n in (errno.ENOSPC, errno.EROFS, errno.EIO, getattr(errno, "EDQUOT", None)) if n is not None
)
#: How long a client should wait before trying again (seconds): the tablets retry every few
#: seconds by themselves.
RETRY_AFTER = 10


def is_storage_failure(error: BaseException | None) -> bool:
    """Whether ``error``, or an exception it was raised from or while handling, is a failure to
    store for want of room or permission (see the module)."""
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, OSError) and error.errno in OS_ERRNOS:
            return True
        if isinstance(error, (sqlite3.Error, DatabaseError)):
            code = getattr(error, "sqlite_errorcode", None)
            if isinstance(code, int) and code & 0xFF in SQLITE_CODES:
                return True
            if any(message in str(error).lower() for message in SQLITE_MESSAGES):
                return True
            if {getattr(error, "sqlstate", None), getattr(error, "pgcode", None)} & POSTGRES_STATES:
                return True
        error = error.__cause__ or error.__context__
    return False


def storage_failure_response(request: HttpRequest, error: BaseException, *, log: bool = True) -> HttpResponse:
    """503 "nothing saved" in the active language; the traceback to the log (``log=False`` when
    Django logs it already: ``handler500``). The page is rendered without the request's context
    (no query: the database may be what failed)."""
    if log:
        logger.error(
            "Service Unavailable (nothing saved: storage full, read-only or failing): %s %s",
            request.method,
            request.path,
            exc_info=error,
        )
    response = HttpResponse(render_to_string("errors/503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class StorageFailureMiddleware:
    """Answer a view's storage failure (:func:`is_storage_failure`) with 503 (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_storage_failure(exception):
            return storage_failure_response(request, exception)
        return None
