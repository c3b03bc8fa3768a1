"""The request type of the pages htmx reloads: django-htmx's middleware (settings ``MIDDLEWARE``)
gives every request an ``htmx`` attribute, which Django's own ``HttpRequest`` does not declare."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``django_htmx.middleware.HtmxMiddleware``, for annotations only.

    ``request.htmx`` is true for a request htmx sent (header ``HX-Request``), false for a page
    load; ``request.htmx.history_restore_request`` is true when htmx reloads a page from its
    history (the whole page is wanted then, not the fragment).
    """

    htmx: HtmxDetails
