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


class SecurityHeadersMiddleware:
    """The security headers of every page on every answer, error pages included: the
    413 of :mod:`bruus_tournament.request_limits`, a 500 or 503 for a failure in a middleware and
    the CSRF failure page are made outside the middleware that set them on a page
    (``SecurityMiddleware``, ``XFrameOptionsMiddleware``, :class:`ContentSecurityPolicyMiddleware`).
    First in ``MIDDLEWARE``: it sees every answer last and adds only what is missing."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.headers = {
            "X-Frame-Options": settings.X_FRAME_OPTIONS,
            "Referrer-Policy": settings.SECURE_REFERRER_POLICY,
            "X-Content-Type-Options": "nosniff",
            "Cross-Origin-Opener-Policy": settings.SECURE_CROSS_ORIGIN_OPENER_POLICY,
            "Content-Security-Policy": settings.CONTENT_SECURITY_POLICY,
        }

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name, value in self.headers.items():
            if value and name not in response:
                response[name] = value
        return response
