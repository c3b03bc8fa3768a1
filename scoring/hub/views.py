"""The results site's views: the API the halls publish to, and the public pages (thin: the reads
are :mod:`scoring.hub.selectors`, the writes :mod:`scoring.hub.services`).

Every page is the same for everybody (no cookie, the language from the URL), so it is marked
``Cache-Control: public`` for a few seconds and a reverse proxy may answer it; an evening's page
also carries an ETag of the version held and answers 304 while it holds, and is rendered once per
version and language into the shared cache ``screens`` (the file cache in the data folder, or
what the set-up configures, e.g. Redis).
"""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.cache import caches
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from bruus_tournament import __version__
from bruus_tournament.request_limits import _read_at_most, declared_length
from bruus_tournament.storage_failures import is_storage_failure, storage_failure_response
from scoring.hub import keys, selectors, services
from scoring.hub.snapshot import Refused, check, parse

#: Seconds a shared cache or browser may keep a page: a live evening's, a final evening's, the rest.
LIVE_SECONDS = 5
FINAL_SECONDS = 60
LIST_SECONDS = 15
#: Seconds a shared cache (nginx in front of the app processes, docs/hub-serving.md) keeps a live
#: evening's page: a snapshot is then on every viewer's page within about this long after it is
#: applied (measured: bench/bench_hub.py), where the browsers' LIVE_SECONDS would make it 5 s and more.
LIVE_SHARED_SECONDS = 2
#: How often a live evening's page asks for itself again (seconds).
POLL_SECONDS = 15


def _refused(status: int, errors: list[str]) -> JsonResponse:
    return JsonResponse({"status": "refused", "errors": errors}, status=status)


def _body(request: HttpRequest) -> bytes | None:
    """The request body, read no further than ``HUB_SNAPSHOT_MAX_BYTES``; None when it is larger."""
    limit = settings.HUB_SNAPSHOT_MAX_BYTES
    length = declared_length(request.META)
    if length is not None:
        return None if length > limit else request.read(limit + 1)
    if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
        body = _read_at_most(request.META["wsgi.input"], limit + 1)
        return None if len(body) > limit else body
    return b""


@csrf_exempt
def snapshots(request: HttpRequest) -> HttpResponse:
    """``POST /api/v1/snapshots/``: a hall publishes one snapshot (docs/results-online.md, "The API").

    401 without a valid ``Authorization: Bearer <key>``; 413 beyond ``HUB_SNAPSHOT_MAX_BYTES``
    (unread); 400 with every reason for a snapshot refused; 200 ``applied`` or ``unchanged``."""
    if request.method != "POST":
        response = _refused(405, ["method: POST only"])
        response["Allow"] = "POST"
        return response
    club = services.club_for_key(keys.bearer(request.headers.get("Authorization", "")))
    if club is None:
        return _refused(401, ["key"])
    body = _body(request)
    if body is None:
        return _refused(413, [f"body: larger than {settings.HUB_SNAPSHOT_MAX_BYTES} bytes"])
    if request.content_type != "application/json":
        return _refused(400, ["content-type: not application/json"])
    try:
        checked = check(parse(body))
    except Refused as refused:
        return _refused(400, refused.errors)
    applied = services.apply(club, checked)
    answer: dict[str, object] = {"status": applied.status}
    if applied.version is not None:
        answer["version"] = applied.version
    return JsonResponse(answer)


def _public(response: HttpResponse, seconds: int) -> HttpResponse:
    patch_cache_control(response, public=True, max_age=seconds)
    return response


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    clubs, associations = selectors.home()
    return _public(render(request, "hub/home.html", {"clubs": clubs, "associations": associations}), LIST_SECONDS)


@require_GET
def club(request: HttpRequest, slug: str) -> HttpResponse:
    found = selectors.club_page(slug)
    if found is None:
        raise Http404
    club, evenings, seasons = found
    context = {"club": club, "evenings": evenings, "seasons": seasons}
    return _public(render(request, "hub/club.html", context), LIST_SECONDS)


def _etag(pk: int, version: int, edits: int, language: str) -> str:
    return f'"hub-{pk}-{version}-{edits}-{language}-{__version__}"'


@require_GET
def evening(request: HttpRequest, slug: str, uid: str) -> HttpResponse:
    """An evening: its ranking (the Endstand once final), sessions, rounds, tables and deals. A
    live one reloads itself every :data:`POLL_SECONDS`; ETag from the version held (304)."""
    tag = selectors.evening_tag(slug, uid)
    if tag is None:
        raise Http404
    pk, version, edits, state = tag
    etag = _etag(pk, version, edits, request.LANGUAGE_CODE)
    seconds = LIVE_SECONDS if state == "live" else FINAL_SECONDS
    if etag in [part.strip() for part in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        # The page as rendered for this version, shared by every process (the cache "screens").
        cache, key = caches["screens"], f"hub-evening:{etag}"
        content = cache.get(key)
        if content is None:
            page = selectors.evening_page(slug, uid)
            if page is None:
                raise Http404
            live = page.evening.state == "live"
            context = {"page": page, "club": page.club, "live": live, "poll_seconds": POLL_SECONDS}
            content = render_to_string("hub/evening.html", context, request)
            if (page.evening.version, page.evening.edits) == (version, edits):
                cache.set(key, content, 60 * 60)
        response = HttpResponse(content)
    response["ETag"] = etag
    _public(response, seconds)
    if state == "live":
        patch_cache_control(response, s_maxage=LIVE_SHARED_SECONDS)
    return response


@require_GET
def player(request: HttpRequest, slug: str, key: str) -> HttpResponse:
    found = selectors.player_page(slug, key)
    if found is None:
        raise Http404
    person, results = found
    context = {"player": person, "club": person.club, "results": results}
    return _public(render(request, "hub/player.html", context), LIST_SECONDS)


@require_GET
def club_season(request: HttpRequest, slug: str, uid: str) -> HttpResponse:
    page = selectors.club_season_page(slug, uid)
    if page is None:
        raise Http404
    return _public(render(request, "hub/season.html", {"page": page, "club": page.club}), LIST_SECONDS)


@require_GET
def association(request: HttpRequest, slug: str) -> HttpResponse:
    found = selectors.association_page(slug)
    if found is None:
        raise Http404
    group, clubs, seasons = found
    context = {"association": group, "clubs": clubs, "seasons": seasons}
    return _public(render(request, "hub/association.html", context), LIST_SECONDS)


@require_GET
def association_season(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    found = selectors.association_season(slug, pk)
    if found is None:
        raise Http404
    season, rows = found
    context = {"season": season, "association": season.association, "rows": rows}
    return _public(render(request, "hub/association_season.html", context), LIST_SECONDS)


def not_found(request: HttpRequest, exception=None) -> HttpResponse:
    """404 of the hub: its own page (the hall's names hall pages)."""
    return render(request, "hub/404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """500 of the hub (a full disk or read-only database: 503, as in the hall)."""
    error = sys.exc_info()[1]
    if error is not None and is_storage_failure(error):
        return storage_failure_response(request, error, log=False)
    return render(request, "errors/500.html", status=500)
