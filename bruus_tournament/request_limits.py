"""Request bodies bounded before they are read.

Every form of the app posts a few kilobytes; only the player import uploads a file (at most
2 MB, ``scoring.transfer.player_files``). A body larger than ``settings.REQUEST_BODY_MAX_BYTES`` (or the
URL's own limit in ``settings.REQUEST_BODY_LIMITS``, by URL name) is refused with 413 and a short
page in the browser's language before a byte of it is read, on every URL. The URLs with a limit of
their own (the organiser's uploads: the player import, the restore) take a body only from a
logged-in user: anyone else is sent to the login page before a byte is read (16
anonymous 16 MB bodies at once took 100-140 MB of each worker); Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` would not stop an upload, whose file parts go to temporary files.

- With a ``Content-Length`` (waitress always sends one, also for a chunked request, and gunicorn
  for every request that is not chunked): the declared length decides; nothing is read.
- Chunked without a ``Content-Length`` (gunicorn): at most the limit plus one byte is read; more
  is refused. A body within the limit is handed on to Django with its length (Django reads no
  body without one).

waitress buffers a body before the app sees it: ``bruus_tournament.servers`` tells it the largest
limit, so it refuses anything beyond that itself.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from importlib import import_module

from django.conf import settings
from django.core.handlers.wsgi import LimitedStream
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve
from django.utils import translation

#: Bytes read at a time from a chunked body.
CHUNK = 64 * 1024


def largest_limit() -> int:
    """The largest body any URL accepts (what waitress is told to buffer at most)."""
    hub = [settings.HUB_SNAPSHOT_MAX_BYTES] if settings.BRUUS_ROLE == "hub" else []  # its API reads its own
    return max([settings.REQUEST_BODY_MAX_BYTES, *settings.REQUEST_BODY_LIMITS.values(), *hub])


def declared_length(meta: dict) -> int | None:
    """The body's ``Content-Length`` as the server passed it; None when there is none (a chunked
    body, or none at all). An unreadable value counts as none, as Django reads it."""
    raw = str(meta.get("CONTENT_LENGTH") or "").strip()
    return int(raw) if raw.isascii() and raw.isdigit() else None


def limit_for(request: HttpRequest) -> int:
    """The largest body ``request``'s URL accepts."""
    try:
        name = resolve(request.path_info).view_name
    except Resolver404:
        return settings.REQUEST_BODY_MAX_BYTES
    return settings.REQUEST_BODY_LIMITS.get(name, settings.REQUEST_BODY_MAX_BYTES)


def _read_at_most(stream, size: int) -> bytes:
    parts: list[bytes] = []
    left = size
    while left > 0:
        chunk = stream.read(min(CHUNK, left))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def too_large(request: HttpRequest, limit: int) -> HttpResponse:
    """413 with a short page in the browser's language (no script, no style: it needs nothing;
    the security headers come from ``bruus_tournament.middleware.SecurityHeadersMiddleware``)."""
    with translation.override(translation.get_language_from_request(request)):
        page = render_to_string("errors/413.html", {"megabytes": -(-limit // (1024 * 1024))})
    response = HttpResponse(page, status=413)
    response["Content-Security-Policy"] = settings.CONTENT_SECURITY_POLICY
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Length"] = str(len(response.content))  # as CommonMiddleware would: not reached
    return response


def _own_limit(request: HttpRequest) -> bool:
    """Whether ``request``'s URL takes more than the default (``settings.REQUEST_BODY_LIMITS``:
    the organiser's uploads)."""
    try:
        name = resolve(request.path_info).view_name
    except Resolver404:
        return False
    return name in settings.REQUEST_BODY_LIMITS


def _logged_in(request: HttpRequest) -> bool:
    """Whether the session cookie of ``request`` belongs to an active login (the session read
    as SessionMiddleware and AuthenticationMiddleware will read it; one or two queries)."""
    from django.contrib.auth import get_user  # not at import: bruus_tournament.servers reads this module first

    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not key:
        return False
    probe = HttpRequest()
    probe.session = import_module(settings.SESSION_ENGINE).SessionStore(key)
    probe.META = request.META
    user = get_user(probe)
    return bool(user.is_authenticated and user.is_active)


class RequestBodyLimitMiddleware:
    """Refuse a request body beyond its URL's limit with 413 before it is read (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = declared_length(request.META)
        has_body = bool(length) or "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()
        if has_body and _own_limit(request) and not _logged_in(request):
            from django.contrib.auth.views import redirect_to_login

            return redirect_to_login(request.get_full_path())  # as the view would: nothing read
        if length is not None:
            if length > settings.REQUEST_BODY_MAX_BYTES and length > (limit := limit_for(request)):
                return too_large(request, limit)
        elif "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
            limit = limit_for(request)
            body = _read_at_most(request.META["wsgi.input"], limit + 1)
            if len(body) > limit:
                return too_large(request, limit)
            # django-stubs say BinaryIO; Django's WSGIRequest itself keeps a LimitedStream there
            request._stream = LimitedStream(io.BytesIO(body), len(body))  # type: ignore[assignment]
            request.META["CONTENT_LENGTH"] = str(len(body))
        return self.get_response(request)
