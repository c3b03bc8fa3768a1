"""Getting the tablets to their tables.

- ``/tablet/`` (public, short, printed on the table cards): the scorer picks the table number and
  types the table's short code (``scoring.hall.table_codes``); the tablet then opens the table's page
  and remembers it (a cookie), so ``/tablet/`` and the home-screen icon lead straight back to the
  table in every round and session. Only tables of the evenings being played open
  (``scoring.selectors.tablets``).
- "Tablets einrichten" (Helfer and Turnierleitung): every table large with its QR code (the table
  link), its short code, the stopped devices (with "Unlock"), and the table cards to print.

Wrong codes are counted per device (``scoring.hall.client_address``) in the database
(``scoring.hall.throttle``, shared by every worker): ``TABLE_CODE_DEVICE_LIMIT`` at once, then one more
every ``TABLE_CODE_WINDOW / TABLE_CODE_DEVICE_LIMIT`` seconds, as the count decays. A device at the
limit is stopped, whatever it types, until a wrong code is forgotten or a Helfer unlocks it. Every
try is counted before the code is looked at (tries sent at the same moment cannot slip past the
limit); a right code takes back its own try but never the wrong ones before it. Nothing is counted
per table: one device's guesses never lock another tablet out of its table (with 64,000,000 codes
the limit per device is enough; the help page has the arithmetic).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring import selectors, services
from scoring.documents.table_cards import build_table_cards, table_cards_name
from scoring.domain.numbers import ascii_int
from scoring.hall import throttle
from scoring.hall.client_address import client_address
from scoring.hall.table_codes import ALPHABET, CODE_SPACE, LENGTH, display, normalise
from scoring.models import Evening, Table
from scoring.selectors.tablets import RECENT_DRAW
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404
from scoring.views.common import evening_or_404 as _evening
from scoring.views.documents import pdf_response
from scoring.web import links
from scoring.web.qr import qr_svg

COOKIE = "bruus_tablet"
DEVICE_KEY = "table-code:device:"


def _limits() -> tuple[int, int]:
    return settings.TABLE_CODE_DEVICE_LIMIT, settings.TABLE_CODE_WINDOW


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

    limit, window = _limits()
    typed_number = request.POST.get("number", "").strip()[:6]
    number = ascii_int(typed_number, minimum=1, maximum=999)
    if number is None:
        return _join_page(
            request, number=typed_number, status=422, error=_("Please type the table number (digits, e.g. 7).")
        )
    device_key = DEVICE_KEY + client_address(request)
    # Count the try before looking at the code, so that tries sent at the same moment cannot slip
    # past the limit; a right code takes back its own try below.
    tries = throttle.attempt(device_key, limit, window)
    if tries is None:
        return _join_page(
            request,
            number=typed_number,
            status=429,
            error=_(
                "Too many wrong codes from this tablet. It can try again from %(time)s; a helper or the "
                "organiser can unlock it at once on the page Set up the tablets. Or open the table with "
                "the QR code on the table card."
            )
            % {"time": _free_at(device_key, limit, window)},
        )
    code = normalise(request.POST.get("code", "")[:40])
    table = selectors.table_for_code(number, code) if code is not None else None
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
        left = limit - tries
        if left:
            error += " " + _("Tries left on this tablet: %(left)s.") % {"left": left}
        return _join_page(request, number=typed_number, error=error, status=422)
    throttle.forgive(device_key, limit, window)
    messages.success(request, _("This tablet is now the tablet of table %(number)s.") % {"number": number})
    return _remember(request, redirect("scorer:table", token=table.token), table.token)


def _free_at(key: str, limit: int, window: int) -> str:
    """The local time (``HH:MM``, rounded up) from which ``key`` may try again."""
    free_at = throttle.state(key, limit, window).next_forgotten or timezone.now()
    return (timezone.localtime(free_at) + timedelta(seconds=59)).strftime("%H:%M")


@helper_required
def tablets_setup(request: HttpRequest, pk: int) -> HttpResponse:
    """Tablets einrichten: every table large with QR code and short code; the stopped devices."""
    evening = evening_or_404(pk)
    limit, window = _limits()
    cards = []
    for table in evening.tables.all():
        url = links.absolute_reverse(request, "scorer:table", table.token)
        cards.append(
            {
                "table": table,
                "url": url,
                "code": display(table.code),
                "qr": qr_svg(url, label=_("QR code of table %(number)s") % {"number": table.number}),
            }
        )
    return render(
        request,
        "tablets/setup.html",
        {
            "evening": evening,
            "cards": cards,
            "join_url": links.absolute_reverse(request, "public:tablet_join"),
            "locked_devices": throttle.blocked(DEVICE_KEY, limit, window),
            "device_key": DEVICE_KEY,
            "wifi_name": settings.WIFI_NAME,
        },
    )


@helper_required
@require_POST
def tablet_unlock(request: HttpRequest, pk: int) -> HttpResponse:
    """Forget the wrong codes of one stopped device (``key``): a Helfer at the door can let an
    honest tablet that mistyped too often try again at once."""
    evening = evening_or_404(pk)
    key = request.POST.get("key", "")
    if key.startswith(DEVICE_KEY) and len(key) <= 200:
        throttle.reset(key)
        messages.success(request, _("The device %(address)s is unlocked.") % {"address": key.removeprefix(DEVICE_KEY)})
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
    """The numbers behind the table codes, for the help page (1 query: the evenings being
    played). The odds are "1 in N" (ints; the template formats them).

    A device has ``limit`` tries at once and one more every ``window / limit`` seconds, so in an
    evening of ``hours`` hours at most ``limit + hours * 3600 * limit / window``. Each try names
    one table number and one code; it opens a table when the code is that number's code in one of
    the ``evenings`` being played, so a try hits with a chance of at most ``evenings`` in
    ``CODE_SPACE``, whatever tables it names (``evenings``: the evenings being played now, at least
    1 for the arithmetic). ``devices`` devices together have ``devices`` times the tries."""
    limit, window = _limits()
    hours = 6
    tries_per_device = limit + (hours * 3600 * limit) // window
    playing = selectors.evenings_being_played_count()
    evenings = max(playing, 1)
    devices = 10
    return {
        "alphabet_size": len(ALPHABET),
        "length": LENGTH,
        "code_space": CODE_SPACE,
        "device_limit": limit,
        "window_minutes": window // 60,
        "minutes_per_try": window / limit / 60,
        "recent_draw_hours": int(RECENT_DRAW.total_seconds() // 3600),
        "hours": hours,
        "tries_per_device": tries_per_device,
        "playing": playing,
        "evenings": evenings,
        "one_device_odds": round(CODE_SPACE / (tries_per_device * evenings)),
        "devices": devices,
        "many_devices_odds": round(CODE_SPACE / (tries_per_device * evenings * devices)),
    }


def table_links(request: HttpRequest, evening: Evening) -> list[tuple[int, str, str]]:
    """(table number, the table's link for the tablet, the form's address for a new link) per
    table; each address reversed once and filled in per table (250 tables at 1,000 players)."""
    base = links.base_url(request)
    scorer = reverse("scorer:table", args=["TOKEN"])
    renew = reverse("organiser:table_link_regenerate", args=[evening.pk, 987654321])
    return [
        (number, base + scorer.replace("TOKEN", token), renew.replace("987654321", str(number)))
        for number, token in evening.tables.order_by("number").values_list("number", "token")
    ]


@leader_required
@require_POST
def table_link_regenerate(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Replace a table's private link and code (lost tablet): the old ones stop working at once."""
    evening = _evening(pk)
    table = get_object_or_404(evening.tables, number=number)
    services.regenerate_table_link(table_id=table.pk)
    messages.success(
        request,
        _("Table %(number)s has a new link and code. The old ones no longer work; open the new link on the tablet.")
        % {"number": number},
    )
    if request.POST.get("next") == "tablets":
        return redirect(reverse("organiser:tablets", kwargs={"pk": evening.pk}) + f"#tisch-{number}")
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": evening.pk}) + "#links")


#: How long a browser may keep the web app manifest without asking again (seconds).
MANIFEST_MAX_AGE = 24 * 3600


@require_GET
def web_app_manifest(request: HttpRequest, language: str) -> HttpResponse:
    """The web app manifest (``application/manifest+json``) in ``language``, one of
    ``settings.LANGUAGES`` (else 404): the name a tablet's home-screen icon shows, in the language
    of the page that links it (``templates/includes/app_head.html``: a table's page speaks its
    evening's language). The icon opens ``/tablet/``, which leads back to the tablet's table;
    the icons are the app's own static files (scripts/make_icons.py)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404
    with translation.override(language):
        manifest = {
            "name": _("Bruus Tournament – table"),
            "short_name": "Bruus",
            "description": _("Enter the results at the table (Bruus tournament)"),
            "lang": language,
            "dir": "ltr",
            "start_url": reverse("public:tablet_join"),
            "scope": "/",
            "display": "standalone",
            "orientation": "any",
            "background_color": "#f4efe6",
            "theme_color": "#8b1e17",
            "icons": [
                {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
                {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
                {
                    "src": static("icons/icon-maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
            ],
        }
    response = JsonResponse(
        manifest, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    patch_cache_control(response, public=True, max_age=MANIFEST_MAX_AGE)
    return response
