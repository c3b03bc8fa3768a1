"""The results site's language: from the URL (``/en/…``, ``/da/…``, ``/sv/…``; German without a
prefix), never from a cookie or the browser's ``Accept-Language``, so that every address is one
page for everybody and a shared cache may hold it (docs/results-online.md)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


class HubLanguageMiddleware:
    """Activates the language of the URL's prefix (German without one) for the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        return response
