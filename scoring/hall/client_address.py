"""The address of the device that sent a request: the one function every guessing limit uses (wrong
table links, wrong table codes, and django-axes for wrong passwords: ``AXES_CLIENT_IP_CALLABLE``).

Served directly (``TRUSTED_PROXY_COUNT=0``, the default) that is ``REMOTE_ADDR``, and the
``X-Forwarded-For`` header is never read: anybody can send one. Behind reverse proxies every request
arrives from the last proxy, so ``REMOTE_ADDR`` is the same for the whole hall; with
``TRUSTED_PROXY_COUNT=N`` the address is the N-th entry of ``X-Forwarded-For`` counted from the
right. Each proxy appends the address it received the request from, so the N rightmost entries
were written by the N trusted proxies and the N-th from the right is the device; entries further
left came from the device itself and are ignored. A header with fewer than N entries, or whose
entry is not an IP address, means the request did not come through the proxies as configured:
then ``REMOTE_ADDR`` is used (one shared counter for such requests, never an address the sender
chose).
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _ip(text: str) -> str | None:
    """``text`` as a normalised IP address, or None. Tolerates a port (``1.2.3.4:5678``,
    ``[2001:db8::1]:443``), as some proxies write it."""
    text = text.strip()
    candidates = [text]
    if text.startswith("[") and "]" in text:
        candidates.append(text[1 : text.index("]")])
    elif text.count(":") == 1:
        candidates.append(text.split(":", 1)[0])
    for candidate in candidates:
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            continue
    return None


def client_address(request: HttpRequest) -> str:
    """The device's address (see the module docstring); ``""`` when the server gives none."""
    remote = request.META.get("REMOTE_ADDR") or ""
    count = settings.TRUSTED_PROXY_COUNT
    if count <= 0:
        return remote
    entries = [entry for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if entry.strip()]
    if len(entries) < count:
        return remote
    return _ip(entries[-count]) or remote
