"""Response headers Django does not set by itself."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class ContentSecurityPolicyMiddleware:
    """Send ``settings.CONTENT_SECURITY_POLICY`` as the ``Content-Security-Policy`` header of
    every response that has none yet (Django 5.2 has no CSP support of its own).

    The app needs no inline script or style: scripts and styles are static files, and htmx runs
    with ``allowEval`` off (see ``templates/includes/htmx_head.html``). A name that slipped
    through as markup could therefore run nothing.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.policy = settings.CONTENT_SECURITY_POLICY

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if self.policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        return response
