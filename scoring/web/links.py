"""The address the tablets and phones use: every link and QR code shown on screen or printed
starts with it.

``settings.PUBLIC_BASE_URL`` (``make serve`` sets it to the hall address it prints, e.g.
``http://192.168.1.20:8000``) wins; without it the address the organiser's browser used is taken,
which is only right when the tablets can reach the same address. Organiser pages warn when the
links would point at this machine itself (localhost, 127.0.0.1), which no tablet can open.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from urllib.parse import quote, urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS


def base_url(request: HttpRequest) -> str:
    """``scheme://host[:port]`` without a trailing slash."""
    return settings.PUBLIC_BASE_URL or f"{request.scheme}://{request.get_host()}"


def absolute(request: HttpRequest, path: str) -> str:
    """``path`` (starting with ``/``) on the public address."""
    return base_url(request) + path


def absolute_reverse(request: HttpRequest, name: str, *args) -> str:
    """The public address of the URL named ``name`` with ``args``."""
    return absolute(request, reverse(name, args=args))


def absolute_reverser(request: HttpRequest, name: str) -> Callable[[str], str]:
    """A function that turns a token (``str``) into the public address of the URL named ``name``
    with the token as its one argument (e.g. ``"scorer:table"``): the same as
    :func:`absolute_reverse`, but reversed once for all tokens (a printout of 1,000 tables needs
    1,000 links). Tokens are URL-safe (``secrets.token_urlsafe``); others are quoted as by ``reverse()``."""
    marker = "0TOKEN0"
    before, after = absolute_reverse(request, name, marker).split(marker)
    return lambda token: f"{before}{quote(token, safe=RFC3986_SUBDELIMS + '~:@')}{after}"  # as reverse() does


def points_at_this_machine(url: str) -> bool:
    """True when ``url``'s host is localhost or a loopback / unspecified address (127.0.0.1,
    ::1, 0.0.0.0): a tablet opening it would look for the app on itself."""
    host = (urlsplit(url).hostname or "").lower()
    if host in ("", "localhost") or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def context(request: HttpRequest) -> dict:
    """Template context: ``public_base`` everywhere; ``local_links_warning`` on organiser pages
    when their links would only work on this machine."""
    match = getattr(request, "resolver_match", None)
    on_organiser_page = bool(match and match.namespace == "organiser")
    try:
        base = base_url(request)
    except DisallowedHost:  # an error page for a request from a foreign host name
        return {"public_base": "", "local_links_warning": False}
    return {
        "public_base": base,
        "local_links_warning": on_organiser_page and points_at_this_machine(base),
    }
