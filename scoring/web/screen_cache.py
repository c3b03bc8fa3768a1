"""Screens that cost nothing between changes: ETags from the evening version, and computed
results in the cache every gunicorn worker shares.

Every service that changes something a page of an evening shows bumps ``Evening.version`` in its
own transaction (:func:`scoring.services.base.evening_changed`). So:

- **Conditional GET.** A page's ETag is ``"<version>.<at>.<variant>"``: the evening version of
  the data shown, when that data was computed (milliseconds since the epoch; 0 for the
  organiser's pages) and a hash of whatever else the page depends on (language, htmx fragment or
  whole page, query string; for the organiser: the login, its permissions and the CSRF cookie).
  A poll whose ``If-None-Match`` still holds answers 304 after one small query.
- **Shared cache** (``settings.CACHES["screens"]``, files under ``DATA_DIR``, so every gunicorn
  worker sees it and writing it takes no database write lock): results keyed on (evening,
  version).
- **A time floor for the public screens.** With deals arriving several times a second the
  version changes all the time; a public screen is recomputed at most once every
  :data:`FLOOR_SECONDS` (one computation per key: ``cache.add`` is the lock; the others serve
  the previous result meanwhile, or when there is none yet wait for the one being computed).
  Correctness: the result served at time *t* holds every write committed before
  *t* − ``FLOOR_SECONDS``, and ``FLOOR_SECONDS`` is shorter than the screens' poll interval, so
  a screen never shows a ranking older than the last write for longer than one poll interval
  (``tests/web/test_screen_cache.py``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

from scoring.models import Evening
from scoring.web.htmx import HtmxHttpRequest

#: The cache alias of the computed screens (settings.CACHES).
CACHE = "screens"
#: A public screen's result is recomputed at most this often (seconds); must stay below the
#: public screens' poll intervals (scoring.views.screens: 10 s and 15 s).
FLOOR_SECONDS: float = getattr(settings, "SCREEN_FLOOR_SECONDS", 5.0)
#: How long a computation may hold its lock before another worker may start it (seconds).
LOCK_SECONDS = 30
#: Entries are dropped after this long without a new version (seconds).
ENTRY_SECONDS = 600
#: A poll that finds no result at all while another worker computes the first one waits this
#: long for it (seconds), looking every WAIT_STEP_SECONDS, before computing it itself.
WAIT_SECONDS = 5.0
WAIT_STEP_SECONDS = 0.05


@dataclass(frozen=True)
class Computed:
    """A computed result: the evening version it was computed for, when its computation started
    (``time.time()``) and the value."""

    version: int
    at: float
    value: Any


def room_evening(request: HttpRequest, pk: int) -> Evening | None:
    """Evening ``pk`` as the language middleware read it for a page of the room
    (``request.room_evening``, no query), or None when it read none (or another one)."""
    evening = getattr(request, "room_evening", None)
    return evening if evening is not None and evening.pk == pk else None


def computed(
    kind: str,
    evening_id: int,
    version: int,
    compute: Callable[[], Any],
    *,
    variant: str = "",
    floor: float = 0,
) -> Computed:
    """The result of ``compute()`` for the evening at ``version`` from the shared cache, or
    computed now and stored.

    ``floor`` (seconds, public screens): a result for an older version is still served while it
    is younger than ``floor``, and while another worker computes the new one (one computation per
    key). ``floor=0``: never older than ``version``. ``compute`` may return a :class:`Computed`
    itself (a page rendered from a cached result keeps that result's version and time).
    """
    cache = caches[CACHE]
    key = f"screen:{kind}:{evening_id}:{_hash(variant)}"
    entry = cache.get(key)
    now = time.time()
    if entry is not None and (entry.version == version or now - entry.at < floor):
        return entry
    locked = bool(floor)
    if locked and not cache.add(f"{key}:computing", 1, timeout=LOCK_SECONDS):
        if entry is not None:
            return entry  # another worker is computing it: the previous result meanwhile
        # Nothing to show yet (the first poll of a screen, 100 phones at once): wait for the one
        # computation under way instead of starting a hundred.
        entry = _awaited(cache, key)
        if entry is not None and (entry.version == version or time.time() - entry.at < floor):
            return entry
        locked = False  # none in time, or too old already: computed here as well
    try:
        value = compute()
        fresh = value if isinstance(value, Computed) else Computed(version, now, value)
        cache.set(key, fresh, timeout=ENTRY_SECONDS)
    finally:
        if locked:
            cache.delete(f"{key}:computing")
    return fresh


def _awaited(cache, key: str) -> Computed | None:
    """The entry another worker is computing, once it is stored; None after :data:`WAIT_SECONDS`."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP_SECONDS)
        entry = cache.get(key)
        if entry is not None:
            return entry
    return None


def _hash(*parts) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


def public_variant(request: HttpRequest, *parts) -> str:
    """What a public page depends on besides the evening: language, fragment or whole page,
    path and query string, host (absolute links), and ``parts``."""
    return _hash(get_language(), _fragment(request), request.get_full_path(), request.get_host(), *parts)


def organiser_variant(request: HttpRequest, *parts) -> str | None:
    """As :func:`public_variant`, plus the login, its permissions and the CSRF cookie (the forms'
    tokens); None while messages wait to be shown (such a page is never answered with 304)."""
    if len(messages.get_messages(request)):
        return None
    user = request.user
    return _hash(
        public_variant(request, *parts),
        user.pk,
        sorted(user.get_all_permissions()),
        request.COOKIES.get(settings.CSRF_COOKIE_NAME, ""),
    )


def _fragment(request: HttpRequest) -> bool:
    htmx = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def etag(version: int, at: float, variant: str) -> str:
    return f'"{version}.{int(at * 1000)}.{variant}"'


def not_modified(
    request: HttpRequest, version: int, variant: str | None, *, floor: float = 0, private: bool = False
) -> HttpResponseNotModified | None:
    """304 when the client's ``If-None-Match`` names this variant at ``version``, or (public
    screens, ``floor``) a result computed less than ``floor`` seconds ago; else None."""
    if variant is None or request.method not in ("GET", "HEAD"):
        return None
    now = time.time()
    for tag in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        parts = tag.strip('"').split(".")
        if len(parts) != 3 or parts[2] != variant or not (parts[0].isascii() and parts[0].isdigit()):
            continue
        at = int(parts[1]) / 1000 if parts[1].isascii() and parts[1].isdigit() else 0
        if int(parts[0]) == version or (floor and now - at < floor):
            response = HttpResponseNotModified()
            response["ETag"] = tag
            _revalidate(response, private=private)
            return response
    return None


def tagged(
    response: HttpResponse, version: int, variant: str | None, *, at: float = 0, private: bool = False
) -> HttpResponse:
    """The response with its ETag (when ``variant`` is not None) and headers telling the browser
    to keep it but ask again every time (``no-cache``: the next poll sends ``If-None-Match``)."""
    if variant is not None and response.status_code == 200:
        response["ETag"] = etag(version, at, variant)
    _revalidate(response, private=private)
    return response


def _revalidate(response: HttpResponse, *, private: bool) -> None:
    if private:
        patch_cache_control(response, private=True, no_cache=True)
    else:
        patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])


@dataclass
class Screen:
    """What :func:`conditional` hands its view: the evening (read once, with its version), the
    variant of the page and the floor in force. A view that serves a cached result calls
    :meth:`shows` so that the ETag names the version and time of what it shows."""

    evening: Evening
    variant: str | None
    floor: float
    version: int
    at: float

    def shows(self, result: Computed) -> Computed:
        """Tag the response with ``result``'s version and time; returns ``result``."""
        self.version, self.at = result.version, result.at
        return result

    def fragment(
        self, key: str, version: int, data: Callable[[], Computed], html: Callable[[Computed], str]
    ) -> HttpResponse:
        """The htmx fragment of a public screen, rendered once per cached result for all the screens
        that poll it: ``data`` gives the (cached) result, ``html`` renders it; cached under ``key``
        for ``version`` and this screen's variant within the floor, like :func:`computed`."""

        def rendered() -> Computed:
            result = data()
            return Computed(result.version, result.at, html(result))

        page = self.shows(
            computed(key, self.evening.pk, version, rendered, variant=self.variant or "", floor=self.floor)
        )
        return HttpResponse(page.value)


def screen_floor(request: HttpRequest) -> float:
    """The public screens' floor, :data:`FLOOR_SECONDS`, read when a request comes (``floor`` of
    :func:`conditional`; tests may change it)."""
    return FLOOR_SECONDS


def conditional(
    *,
    private: bool = False,
    floor: float | Callable[[HtmxHttpRequest], float] = 0,
    version: Callable[[Evening], int] = lambda evening: evening.version,
    settle: Callable[[Evening], Evening] | None = None,
    parts: Callable[[Evening], tuple] = lambda evening: (),
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """The one decorator for conditional GET of an evening's pages and screens.

    The decorated view is called as ``view(request, screen, *args, **kwargs)`` with a
    :class:`Screen` for the evening of the URL's ``pk`` (404 for an unknown one). Before it, a
    request whose ``If-None-Match`` still holds is answered 304 (:func:`not_modified`); after it,
    the response gets its ETag and ``no-cache`` (:func:`tagged`).

    Args:
        private: an organiser's page (variant :func:`organiser_variant`: login, permissions, CSRF
            cookie; ``Cache-Control: private``); else a public screen (:func:`public_variant`).
        floor: seconds a public screen's result may lag behind the version (a number, or a
            function of the request, e.g. only for htmx polls); 0: always the current version.
        version: the evening's counter the page depends on (default ``Evening.version``, bumped
            by every change; the seat pages: ``Evening.seating_version``, which deals leave alone).
        settle: called with the evening before anything else, returns it brought up to date (the
            round clock's lock at zero, :func:`scoring.services.settle_due_clock`).
        parts: what else of the evening the page depends on, part of the variant (the
            projector's mode).
    The evening comes from the language middleware on the public pages (no query), else from one
    query. Goes below the access check.
    """

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HtmxHttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
            evening = room_evening(request, pk) or Evening.objects.filter(pk=pk).first()
            if evening is None:
                raise Http404
            if settle is not None:
                evening = settle(evening)
            seconds = floor(request) if callable(floor) else floor
            # Hiding or revealing the ranking is part of the variant: never held back by the floor.
            variant = (organiser_variant if private else public_variant)(
                request, evening.ranking_hidden, *parts(evening)
            )
            current = version(evening)
            if unchanged := not_modified(request, current, variant, floor=seconds, private=private):
                return unchanged
            screen = Screen(evening, variant, seconds, current, time.time() if seconds else 0)
            response = view(request, screen, *args, **kwargs)
            return tagged(response, screen.version, variant, at=screen.at, private=private)

        return wrapper

    return decorate
