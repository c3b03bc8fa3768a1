"""Cache backends of the project (settings ``CACHES``).

:class:`ShortLivedFileCache` keeps the organisers' logins (sessions) in files under
``DATA_DIR``: every gunicorn worker of the machine reads the same files, so a poll of the live
overview finds its login without a database query (``SESSION_ENGINE`` ``cached_db``: the
database stays the record, the files a copy). An entry lives at most :data:`MAX_AGE_SECONDS`:
a second machine behind the same database has its own files, so a logout there reaches this
machine within that time. The logins themselves, with their permissions, are kept here too
(``scoring.hall.auth_backends``): a change on this machine forgets them at once, a change on a second
machine reaches this one within the same time.
"""

from __future__ import annotations

import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

#: The longest an entry is kept, in seconds.
MAX_AGE_SECONDS = 60


class ShortLivedFileCache(FileBasedCache):
    """Django's file cache whose entries expire after at most :data:`MAX_AGE_SECONDS`, whatever
    time-out the caller asks for (``cached_db`` asks for the session's whole age, two weeks)."""

    def get_backend_timeout(self, timeout=DEFAULT_TIMEOUT) -> float:
        """The absolute expiry time (seconds since the epoch) of an entry set now."""
        expires = super().get_backend_timeout(timeout)
        latest = time.time() + MAX_AGE_SECONDS
        return latest if expires is None else min(expires, latest)
