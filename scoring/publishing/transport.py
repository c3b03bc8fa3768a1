"""Sending one snapshot to the hub: an HTTP POST with the standard library (urllib), and the check
of the hub's address (docs/results-online.md, "The API").
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import urlsplit

from scoring.domain.errors import gettext_noop

#: Where the hub takes snapshots, below its address (``PUBLISH_URL``).
API_PATH = "/api/v1/snapshots/"
#: Seconds to wait for the hub (connecting, and each read).
TIMEOUT = 10.0
#: The hub's answers that mean "this snapshot is wrong": recorded with the reason, not retried.
REFUSALS = frozenset({400, 401, 403, 413})
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


@dataclass(frozen=True)
class Answer:
    """What became of one send: ``kind`` is ``"applied"`` or ``"unchanged"`` (the hub holds
    ``version``), ``"refused"`` (``reason``: the hub's errors) or ``"unreachable"`` (no answer, or
    a server error: ``reason`` says which)."""

    kind: str
    version: int | None = None
    reason: str = ""

    @property
    def held(self) -> bool:
        return self.kind in ("applied", "unchanged")


class Transport(Protocol):
    """What the sender sends with (the tests give a fake one)."""

    def send(self, payload: dict[str, Any]) -> Answer: ...


def address_problem(url: str, allow_http: bool) -> str | None:
    """Why the hub's address cannot be used, a msgid (None: it can): not http(s), no host, or
    plain HTTP to another machine without ``PUBLISH_ALLOW_HTTP``."""
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return gettext_noop("The results site's address is not a valid URL.")
    if parts.scheme not in ("https", "http") or not host:
        return gettext_noop("The results site's address must start with https:// and name a host.")
    if parts.scheme == "http" and host not in LOOPBACK and not allow_http:
        return gettext_noop(
            "Plain HTTP is refused except to this machine (set PUBLISH_ALLOW_HTTP=true on a trusted network)."
        )
    return None


def endpoint(url: str) -> str:
    """The snapshots' URL below the hub's address."""
    return url.rstrip("/") + API_PATH


def _reason(status: int, body: bytes) -> str:
    try:
        data = json.loads(body.decode("utf-8"))
        errors = data.get("errors") if isinstance(data, dict) else None
    except (UnicodeDecodeError, ValueError):
        errors = None
    if isinstance(errors, list) and errors:
        return f"HTTP {status}: " + "; ".join(str(e) for e in errors)[:900]
    return f"HTTP {status}"


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is not followed (it would carry the key elsewhere): its status is the answer."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirects())


class HttpTransport:
    """POSTs snapshots to ``<url>/api/v1/snapshots/`` with ``Authorization: Bearer <key>``."""

    def __init__(self, url: str, key: str, *, allow_http: bool = False, timeout: float = TIMEOUT):
        self.url, self.key, self.allow_http, self.timeout = url, key, allow_http, timeout

    def send(self, payload: dict[str, Any]) -> Answer:
        """Send one snapshot; never raises for the network or the hub's answer."""
        problem = address_problem(self.url, self.allow_http)
        if problem:
            return Answer("refused", reason=problem)
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        request = urllib.request.Request(
            endpoint(self.url),
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.key}"},
        )
        try:
            with _opener.open(request, timeout=self.timeout) as response:
                status, answer = response.status, response.read(64 * 1024)
        except urllib.error.HTTPError as error:
            status, answer = error.code, error.read(64 * 1024)
        except OSError as error:  # URLError, timeouts, refused connections
            reason = getattr(error, "reason", error)
            return Answer("unreachable", reason=str(reason) or type(error).__name__)
        if status in REFUSALS:
            return Answer("refused", reason=_reason(status, answer))
        if status != 200:
            return Answer("unreachable", reason=_reason(status, answer))
        try:
            data = json.loads(answer.decode("utf-8"))
            kind, version = data["status"], data.get("version")
        except (UnicodeDecodeError, ValueError, KeyError, TypeError):
            return Answer("unreachable", reason="HTTP 200 without the hub's answer")
        if not isinstance(kind, str) or kind == "refused":
            return Answer("unreachable", reason=f"HTTP 200: {str(kind)[:100]}")
        # Any other status of a JSON answer is taken (a withdrawal's answer may name itself); a
        # captive portal's HTML page (200 too) is not JSON and counts as not reached.
        return Answer(
            "unchanged" if kind == "unchanged" else "applied", version=version if isinstance(version, int) else None
        )
