"""Friendly error pages in the user's language."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def forbidden(request: HttpRequest, exception=None) -> HttpResponse:
    """A login without the role a page needs (scoring.views.access)."""
    return render(request, "errors/403.html", status=403)


def not_found(request: HttpRequest, exception=None) -> HttpResponse:
    return render(request, "errors/404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    return render(request, "errors/500.html", status=500)
