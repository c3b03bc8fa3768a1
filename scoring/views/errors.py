"""Friendly error pages in the user's language."""

import sys

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string

from bruus_tournament.storage_failures import is_storage_failure, storage_failure_response


def forbidden(request: HttpRequest, exception=None) -> HttpResponse:
    """A login without the role a page needs (scoring.views.access)."""
    return render(request, "errors/403.html", status=403)


def not_found(request: HttpRequest, exception=None) -> HttpResponse:
    return render(request, "errors/404.html", status=404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without a valid security token (an old page, blocked cookies): 403 with what to
    do, in the user's language (``settings.CSRF_FAILURE_VIEW``; Django's own page is English).
    The page needs no query and no login."""
    return HttpResponse(render_to_string("errors/403_csrf.html", request=None), status=403)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this while handling the exception: a full disk or a read-only database
    anywhere (a middleware saving the session, say) answers 503 "nothing saved", never the 500
    page's "nothing is lost" (``bruus_tournament.storage_failures``; Django logs the traceback)."""
    error = sys.exc_info()[1]
    if is_storage_failure(error):
        return storage_failure_response(request, error, log=False)
    return render(request, "errors/500.html", status=500)
