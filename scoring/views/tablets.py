"""Getting the tablets to their tables.

- ``/tablet/`` (public, short, printed on the table cards): the scorer picks the table number and
  types the table's short code (``scoring.table_codes``); the tablet then opens the table's page
  and remembers it (a cookie), so ``/tablet/`` and the home-screen icon lead straight back to the
  table in every round and session.
- "Tablets einrichten" (organiser): every table large with its QR code (the table link), its
  short code, the locked tables and devices, and the table cards to print.

Wrong codes are counted in the database (``scoring.throttle``, shared by every worker) per table
number and per device; at ``TABLE_CODE_TABLE_LIMIT`` / ``TABLE_CODE_DEVICE_LIMIT`` within
``TABLE_CODE_WINDOW`` seconds the table (or device) is locked for the rest of the window or until
the organiser unlocks it. Every try is counted before the code is looked at (tries sent at the same
moment cannot slip past the limit); a right code takes back its own try but never resets a table's
count, so the limit per table holds whatever happens in between (the help page has the
arithmetic).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import links, throttle
from scoring.documents.table_cards import build_table_cards, table_cards_name
from scoring.models import Table
from scoring.parsing import ascii_int
from scoring.qr import qr_svg
from scoring.table_codes import ALPHABET, CODE_SPACE, LENGTH, display, normalise
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404
from scoring.views.documents import pdf_response

COOKIE = "bruus_tablet"
TABLE_KEY = "table-code:table:"
DEVICE_KEY = "table-code:device:"


def _device(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "")


def _limits() -> tuple[int, int, int]:
    return settings.TABLE_CODE_TABLE_LIMIT, settings.TABLE_CODE_DEVICE_LIMIT, settings.TABLE_CODE_WINDOW


def _remember(request: HttpRequest, response: HttpResponse, token: str) -> HttpResponse:
    """Let the tablet keep the table of ``token`` (cookie, ``TABLET_COOKIE_AGE`` seconds)."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=settings.TABLET_COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response


def remember_table(view):
    """Wrap the table page: a tablet that opened it (by code, QR code or link) keeps the table in
    a cookie, for ``/tablet/`` and the home-screen icon."""

    def wrapped(request: HttpRequest, token: str, *args, **kwargs) -> HttpResponse:
        response = view(request, token, *args, **kwargs)
        if response.status_code == 200 and request.COOKIES.get(COOKIE) != token:
            _remember(request, response, token)
        return response

    wrapped.__doc__ = view.__doc__
    wrapped.__name__ = view.__name__
    return wrapped


def _join_page(request: HttpRequest, *, number: str = "", error: str = "", status: int = 200) -> HttpResponse:
    return render(
        request,
        "tablets/join.html",
        {"number": number, "error": error, "alphabet": " ".join(ALPHABET), "length": LENGTH},
        status=status,
    )


def _join_form(request: HttpRequest) -> HttpResponse:
    """GET/HEAD of ``/tablet/``: the remembered table's page, or the form (a stale cookie is dropped)."""
    remembered = request.COOKIES.get(COOKIE, "")
    if remembered and "andere" not in request.GET and Table.objects.filter(token=remembered).exists():
        return redirect("scorer:table", token=remembered)
    response = _join_page(request)
    if remembered and not Table.objects.filter(token=remembered).exists():
        response.delete_cookie(COOKIE)
    return response


def tablet_join(request: HttpRequest) -> HttpResponse:
    """``/tablet/``: table number + short code -> the table's page. A tablet that already knows
    its table goes straight there (``?andere=1`` picks another table)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD, POST"})
    if request.method != "POST":
        return _join_form(request)

    table_limit, device_limit, window = _limits()
    typed_number = request.POST.get("number", "").strip()[:6]
    number = ascii_int(typed_number, minimum=1, maximum=999)
    device_key = DEVICE_KEY + _device(request)
    table_key = f"{TABLE_KEY}{number}"
    device_locked = throttle.is_blocked(device_key, device_limit, window)
    if not device_locked and number is None:
        return _join_page(
            request, number=typed_number, status=422, error=_("Please type the table number (digits, e.g. 7).")
        )
    table_locked = not device_locked and throttle.is_blocked(table_key, table_limit, window)
    if not (device_locked or table_locked):
        # Count the try before looking at the code, so that tries sent at the same moment cannot
        # slip past the limit; a right code is forgiven below.
        device_locked = throttle.record_failure(device_key, window) > device_limit
        tries = throttle.record_failure(table_key, window)
        table_locked = tries > table_limit
    if device_locked:
        return _join_page(
            request,
            number=typed_number,
            status=429,
            error=_(
                "Too many wrong codes from this tablet. Please ask the organiser to unlock it, "
                "or open the table with the QR code on the table card."
            ),
        )
    if table_locked:
        return _join_page(
            request,
            number=typed_number,
            status=429,
            error=_(
                "Table %(number)s is locked after too many wrong codes. Please ask the organiser to "
                "unlock it, or open the table with the QR code on the table card."
            )
            % {"number": number},
        )
    code = normalise(request.POST.get("code", "")[:40])
    table = None
    if code is not None:
        table = (
            Table.objects.select_related("evening")
            .filter(number=number, code=code)
            .order_by("-evening__date", "-evening_id")
            .first()
        )
    if table is None:
        if code is None:
            error = _(
                "A table code has %(length)s letters and no digits, e.g. KAT WEN. Please check the table card."
            ) % {"length": LENGTH}
        else:
            error = _(
                "This is not the code of table %(number)s. Please check the table number and the "
                "code on the table card."
            ) % {"number": number}
        left = max(table_limit - tries, 0)
        if left:
            error += " " + _("Tries left for this table: %(left)s.") % {"left": left}
        return _join_page(request, number=typed_number, error=error, status=422)
    throttle.forgive(table_key)
    throttle.reset(device_key)
    messages.success(request, _("This tablet is now the tablet of table %(number)s.") % {"number": number})
    return _remember(request, redirect("scorer:table", token=table.token), table.token)


@helper_required
def tablets_setup(request: HttpRequest, pk: int) -> HttpResponse:
    """Tablets einrichten: every table large with QR code and short code; locked tables."""
    evening = evening_or_404(pk)
    table_limit, device_limit, window = _limits()
    locked_numbers = {
        int(state.key[len(TABLE_KEY) :]): state
        for state in throttle.blocked(TABLE_KEY, table_limit, window)
        if state.key[len(TABLE_KEY) :].isascii() and state.key[len(TABLE_KEY) :].isdigit()
    }
    cards = []
    for table in evening.tables.all():
        url = links.absolute_reverse(request, "scorer:table", table.token)
        cards.append(
            {
                "table": table,
                "url": url,
                "code": display(table.code),
                "qr": qr_svg(url, label=_("QR code of table %(number)s") % {"number": table.number}),
                "locked": locked_numbers.get(table.number),
            }
        )
    return render(
        request,
        "tablets/setup.html",
        {
            "evening": evening,
            "cards": cards,
            "join_url": links.absolute_reverse(request, "public:tablet_join"),
            "locked_devices": throttle.blocked(DEVICE_KEY, device_limit, window),
            "device_key": DEVICE_KEY,
            "table_key": TABLE_KEY,
            "wifi_name": settings.WIFI_NAME,
        },
    )


@leader_required
@require_POST
def tablet_unlock(request: HttpRequest, pk: int) -> HttpResponse:
    """Forget the wrong codes of one locked table number or device (``key``)."""
    evening = evening_or_404(pk)
    key = request.POST.get("key", "")
    if key.startswith((TABLE_KEY, DEVICE_KEY)) and len(key) <= 200:
        throttle.reset(key)
        what = key.removeprefix(TABLE_KEY).removeprefix(DEVICE_KEY)
        if key.startswith(TABLE_KEY):
            messages.success(request, _("Table %(number)s is unlocked.") % {"number": what})
        else:
            messages.success(request, _("The device %(address)s is unlocked.") % {"address": what})
    else:
        messages.error(request, _("Nothing to unlock."))
    return redirect("organiser:tablets", pk=evening.pk)


@helper_required
def table_cards_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """Tischkarten: one card per table (number, QR code, short code, /tablet/, Wi-Fi)."""
    evening = evening_or_404(pk)
    tables = list(evening.tables.all())
    if not tables:
        messages.error(request, _("There are no tables yet: they are made when session 1 is drawn."))
        return redirect("organiser:tablets", pk=evening.pk)
    table_link = links.absolute_reverser(request, "scorer:table")
    data = build_table_cards(
        evening,
        tables,
        table_url=lambda table: table_link(table.token),
        join_url=links.absolute_reverse(request, "public:tablet_join"),
        wifi_name=settings.WIFI_NAME,
    )
    return pdf_response(data, table_cards_name(evening))


def code_arithmetic() -> dict:
    """The numbers behind the table codes, for the help page: code space, tries allowed per table
    and per device, and the chance that guessing hits a code in one evening (6 hours, 50 tables).
    The odds are "1 in N" (ints; the template formats them)."""
    table_limit, device_limit, window = _limits()
    hours = 6
    windows = max(hours * 3600 // window, 1)
    tries_per_table = table_limit * windows
    tables = 50
    return {
        "alphabet_size": len(ALPHABET),
        "length": LENGTH,
        "code_space": CODE_SPACE,
        "table_limit": table_limit,
        "device_limit": device_limit,
        "window_minutes": window // 60,
        "hours": hours,
        "tries_per_table": tries_per_table,
        "one_table_odds": round(CODE_SPACE / tries_per_table),
        "tables": tables,
        "all_tables_odds": round(CODE_SPACE / (tries_per_table * tables)),
    }
