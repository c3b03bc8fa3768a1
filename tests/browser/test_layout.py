"""The layout check: every page of every role, at a phone (360x640), a tablet
(800x1280) and a laptop (1280x900), on a realistic evening (tests/layout_evening.py: the demo
roster, session 1 drawn, round 1 confirmed, round 2 under way), in real Chromium.

A page fails when (tests/layout_check.js):

- it scrolls sideways;
- a touch target is smaller than 44x44 px (tablet and public pages; the organiser's pages are
  used with a mouse and are not held to it);
- two touch targets are closer than 8 px;
- a sticky or fixed element covers a touch target (on opening, or scrolled into view).

Every page is checked in every language of ``settings.LANGUAGES`` (the evening, the
organiser's pages and the browser in that language). At the laptop size every page is also
checked by axe-core for serious and critical WCAG 2.1 A/AA violations (
tests/browser/test_accessibility.py has the rest): one visit of each page for both checks.

Screenshots are kept for a person to look at: every page with a finding, and with ``make
screenshots`` every page (``test-results/layout/<page>-<size>.png`` in German,
``<page>-<language>-<size>.png`` in the others).

The list of pages is checked against the URLconf: a new URL fails
:func:`test_every_url_is_checked_or_says_why_not` until it is added to ``PAGES`` (a page) or to
``NOT_PAGES`` (with the reason it is no page: a form's target, a partial; every ``….pdf`` URL counts as a
printed document by itself).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from playwright.sync_api import Browser

from scoring.models import Round, Seating
from tests.browser.helpers import axe_violations, screenshot, settle, with_axe
from tests.layout_evening import LayoutEvening, build_layout_evening

CHECK = (Path(__file__).parents[1] / "layout_check.js").read_text()
SIZES = {"phone": (360, 640), "tablet": (800, 1280), "laptop": (1280, 900)}
#: The size at which axe-core checks every page too (what it checks does not depend on the width;
#: the organiser's pages are made for the laptop).
AXE_SIZE = "laptop"
#: At least this many pages get axe-core's check in each language (a shrunken PAGES would fail).
AXE_MIN_PAGES = 40
#: Every language of the site: the check runs in each (the German screenshots keep their names).
LANGUAGES = [code for code, _name in settings.LANGUAGES]
MIN_TARGET_PX = 44
MIN_GAP_PX = 8
TIMEOUT_MS = 15_000

ORGANISER, PUBLIC, TABLET = "organiser", "public", "tablet"
#: Who opens the page (the organiser logged in; players and tablets without a login) and whether
#: touch targets must be 44x44 px.
ROLES = {ORGANISER: (True, 0), PUBLIC: (False, MIN_TARGET_PX), TABLET: (False, MIN_TARGET_PX)}

Url = Callable[[LayoutEvening], str]


def _seating(ev: LayoutEvening) -> Seating:
    return ev.entering_seating


def _confirmed_seating(ev: LayoutEvening) -> Seating:
    return Seating.objects.filter(table=ev.entering, confirmed_at__isnull=False).first()


def _player_pk(ev: LayoutEvening) -> int:
    return ev.entering_seating.team_a.player_1_id


def _season_pk(ev: LayoutEvening) -> int:
    """A season with the layout evening in it (made on first use)."""
    from scoring import services
    from scoring.models import Season

    season = Season.objects.filter(evenings=ev.evening).first()
    if season is None:
        season = services.save_season(
            name="Jahreswertung Schwesing 2026",
            year=2026,
            scoring="points",
            best_of=1,
            planned_evenings=3,
            evening_ids=[ev.evening.pk],
            public_player_pages=True,
        )
    return season.pk


#: URL name -> the pages to open: (label, role, URL).
PAGES: dict[str, list[tuple[str, str, Url]]] = {
    "login": [("login", PUBLIC, lambda ev: reverse("login"))],
    "public:home": [("home", PUBLIC, lambda ev: reverse("public:home"))],
    "public:help": [("help", PUBLIC, lambda ev: reverse("public:help"))],
    # The organiser's guide of docs/ (organiser-guide.de.md and .en.md), as the repository holds it.
    "public:guide": [
        ("guide", PUBLIC, lambda ev: reverse("public:guide")),
        ("guide-en", PUBLIC, lambda ev: reverse("public:guide") + "?sprache=en"),
    ],
    "public:ranking_screen": [
        ("ranking-screen", PUBLIC, lambda ev: reverse("public:ranking_screen", args=[ev.evening.pk]))
    ],
    "public:projector": [("projector", PUBLIC, lambda ev: reverse("public:projector", args=[ev.evening.pk]))],
    "public:seat_finder": [("seat-finder", PUBLIC, lambda ev: reverse("public:seat_finder", args=[ev.evening.pk]))],
    "public:seat": [
        ("seat", PUBLIC, lambda ev: reverse("public:seat", args=[ev.evening.pk, _player_pk(ev)])),
        ("not-found", PUBLIC, lambda ev: reverse("public:seat", args=[ev.evening.pk + 1000, 1])),
    ],
    "scorer:table": [
        ("tablet-entering", TABLET, lambda ev: reverse("scorer:table", args=[ev.entering.token])),
        ("tablet-correction", TABLET, lambda ev: reverse("scorer:table", args=[ev.entering.token]) + "?deal=1"),
        ("tablet-all-entered", TABLET, lambda ev: reverse("scorer:table", args=[ev.all_entered.token])),
        ("tablet-round-finished", TABLET, lambda ev: reverse("scorer:table", args=[ev.finished.token])),
        ("tablet-after-confirmed-round", TABLET, lambda ev: reverse("scorer:table", args=[ev.confirmed.token])),
        ("tablet-unknown-link", TABLET, lambda ev: reverse("scorer:table", args=["kein-tisch-link"])),
    ],
    "organiser:evening_list": [("evenings", ORGANISER, lambda ev: reverse("organiser:evening_list"))],
    "organiser:evening_create": [("evening-new", ORGANISER, lambda ev: reverse("organiser:evening_create"))],
    "organiser:evening_detail": [
        ("evening", ORGANISER, lambda ev: reverse("organiser:evening_detail", args=[ev.evening.pk]))
    ],
    "organiser:evening_players": [
        ("check-in", ORGANISER, lambda ev: reverse("organiser:evening_players", args=[ev.evening.pk]))
    ],
    "organiser:session_detail": [
        ("session", ORGANISER, lambda ev: reverse("organiser:session_detail", args=[ev.evening.pk, 1]))
    ],
    "organiser:ranking": [("ranking", ORGANISER, lambda ev: reverse("organiser:ranking", args=[ev.evening.pk]))],
    "organiser:deal_results": [
        ("deals", ORGANISER, lambda ev: reverse("organiser:deal_results", args=[ev.evening.pk]))
    ],
    "organiser:seating_detail": [
        ("table-round", ORGANISER, lambda ev: reverse("organiser:seating_detail", args=[_seating(ev).pk])),
        (
            "table-round-correction",
            ORGANISER,
            lambda ev: reverse("organiser:seating_detail", args=[_confirmed_seating(ev).pk]) + "?deal=1",
        ),
    ],
    "organiser:live": [("live", ORGANISER, lambda ev: reverse("organiser:live", args=[ev.evening.pk]))],
    "organiser:fairness": [("fairness", ORGANISER, lambda ev: reverse("organiser:fairness", args=[ev.evening.pk]))],
    "organiser:player_list": [("players", ORGANISER, lambda ev: reverse("organiser:player_list"))],
    "organiser:player_edit": [
        ("player-edit", ORGANISER, lambda ev: reverse("organiser:player_edit", args=[_player_pk(ev)]))
    ],
    "organiser:player_import": [("player-import", ORGANISER, lambda ev: reverse("organiser:player_import"))],
    "organiser:player_detail": [
        ("player-evenings", ORGANISER, lambda ev: reverse("organiser:player_detail", args=[_player_pk(ev)]))
    ],
    "organiser:player_merge": [
        ("player-merge", ORGANISER, lambda ev: reverse("organiser:player_merge")),
        (
            "player-merge-refused",  # both took part in the layout evening: the refusal
            ORGANISER,
            lambda ev: (
                reverse("organiser:player_merge")
                + f"?keep={_player_pk(ev)}&remove={ev.entering_seating.team_a.player_2_id}"
            ),
        ),
    ],
    "organiser:tablets": [("tablets", ORGANISER, lambda ev: reverse("organiser:tablets", args=[ev.evening.pk]))],
    "organiser:logins": [("logins", ORGANISER, lambda ev: reverse("organiser:logins"))],
    "organiser:online": [("online", ORGANISER, lambda ev: reverse("organiser:online"))],
    "organiser:backups": [("backups", ORGANISER, lambda ev: reverse("organiser:backups"))],
    "organiser:evening_delete": [
        ("evening-delete", ORGANISER, lambda ev: reverse("organiser:evening_delete", args=[ev.evening.pk]))
    ],
    # "Sperren" of a round that tables have not begun: the question first.
    "organiser:round_lock": [
        (
            "round-lock-confirm",
            ORGANISER,
            lambda ev: reverse(
                "organiser:round_lock",
                args=[ev.evening.pk, Round.objects.get(session__evening=ev.evening, session__number=1, number=2).pk],
            ),
        )
    ],
    "public:tablet_join": [("tablet-join", TABLET, lambda ev: reverse("public:tablet_join"))],
    "organiser:season_list": [("seasons", ORGANISER, lambda ev: reverse("organiser:season_list"))],
    "organiser:season_create": [("season-new", ORGANISER, lambda ev: reverse("organiser:season_create"))],
    "organiser:season_detail": [
        ("season", ORGANISER, lambda ev: reverse("organiser:season_detail", args=[_season_pk(ev)]))
    ],
    "organiser:season_edit": [
        ("season-edit", ORGANISER, lambda ev: reverse("organiser:season_edit", args=[_season_pk(ev)]))
    ],
    "public:season_screen": [
        ("season-screen", PUBLIC, lambda ev: reverse("public:season_screen", args=[_season_pk(ev)]))
    ],
    "public:season_player": [
        (
            "season-player",
            PUBLIC,
            lambda ev: reverse("public:season_player", args=[_season_pk(ev), _player_pk(ev)]),
        )
    ],
}

#: Pages that say "not found" (status 404), friendly and in the same layout.
NOT_FOUND = {"tablet-unknown-link", "not-found"}

POST_ONLY = "a form's target (POST only), answers with a redirect to a page checked here"
PDF = "a printed document (PDF), checked by tests/documents/test_documents.py"
DOWNLOAD = "a file to save (a backup, the results for the website), checked by tests/views/test_printing.py"
#: URL name -> why it is not a page of its own.
NOT_PAGES: dict[str, str] = {
    **{
        f"organiser:{name}": POST_ONLY
        for name in (
            "check_in",
            "check_in_all",
            "check_in_last",
            "check_in_undo",
            "session_draw",
            "table_link_regenerate",
            "evening_rename",
            "evening_archive",
            "session_close",
            "ranking_visibility",
            "projector_mode",
            "seating_confirm",
            "stand_in",
            "mix_clubs",
            "exclusion_add",
            "exclusion_remove",
            "session_redraw",
            "session_swap",
            "session_replace",
            "evening_language",
            "evening_tiebreaks",
            "evening_rule_set",
            "tablet_unlock",
            "login_password",
            "login_role",
            "login_active",
            "backup_restore",  # its answer, the preview, is checked by tests/views/test_printing.py
            "backup_restore_confirm",
            "clock_action",
            "clock_settings",
            "evening_publish_mode",
            "evening_send_again",
            "player_online_name",
        )
    },
    **{f"organiser:{name}": DOWNLOAD for name in ("backup_all", "backup_evening", "results_html")},
    **{f"scorer:{name}": POST_ONLY for name in ("deal", "finish", "confirm", "reopen")},
    "scorer:poll": "the tablet's polling: a part of the tablet page (or 204), checked with it",
    "public:round_clock": "the round clock's own poll: a part of the seat finder, checked with it",
    "public:manifest": "the web app manifest (JSON), checked by tests/hall/test_tablets.py",
    "logout": POST_ONLY,
    "set_language": "Django's language switch (the buttons at the top right): a GET only redirects",
}
#: Whole URL trees that are not the app's own pages.
NOT_OURS = {"admin": "Django's admin (not used at the evening)"}


def _routes() -> dict[str, URLPattern]:
    """Every named URL of the project, as ``namespace:name`` (top level: ``name``)."""
    routes: dict[str, URLPattern] = {}

    def walk(patterns, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace not in NOT_OURS:
                    walk(pattern.url_patterns, pattern.namespace or namespace)
            elif pattern.name:
                routes[f"{namespace}:{pattern.name}" if namespace else pattern.name] = pattern

    walk(get_resolver().url_patterns, "")
    return routes


def _not_pages() -> dict[str, str]:
    """NOT_PAGES and every printed document (a URL ending in .pdf)."""
    pdfs = {name: PDF for name, route in _routes().items() if str(route.pattern).endswith(".pdf")}
    return {**pdfs, **NOT_PAGES}


def test_every_url_is_checked_or_says_why_not():
    names = set(_routes())
    missing = sorted(names - set(PAGES) - set(_not_pages()))
    assert not missing, f"URLs without an entry in tests/browser/test_layout.py (PAGES or NOT_PAGES): {missing}"
    stale = sorted((set(PAGES) | set(_not_pages())) - names)
    assert not stale, f"entries for URLs that no longer exist: {stale}"


def _route_kwargs(name: str, ev: LayoutEvening) -> dict:
    """Arguments for the URL ``name``, taken from the layout evening."""
    converters = _routes()[name].pattern.converters
    values = {
        "pk": ev.evening.pk,
        "number": 1,
        "player_pk": _player_pk(ev),
        "round_pk": Round.objects.filter(session__evening=ev.evening).first().pk,
        "exclusion_pk": 1,
        "user_pk": 1,
        "season_pk": _season_pk(ev),
        "token": ev.entering.token,
    }
    return {key: values[key] for key in converters}


@pytest.mark.django_db
def test_what_is_not_a_page_is_really_no_page(organiser_client):
    """NOT_PAGES must not hide a page: forms' targets refuse GET, documents are PDFs."""
    ev = build_layout_evening()
    for name, reason in _not_pages().items():
        if reason not in (POST_ONLY, PDF, DOWNLOAD):
            continue
        response = organiser_client.get(reverse(name, kwargs=_route_kwargs(name, ev)))
        if reason == POST_ONLY:
            assert response.status_code == 405, (name, response.status_code)
        elif reason == DOWNLOAD:
            assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment"), name
        else:
            assert response.status_code == 200 and response["Content-Type"] == "application/pdf", name


# --- The check in Chromium ---------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES), ids=[f"{k}-{w}x{h}" for k, (w, h) in SIZES.items()])
def test_every_page_fits_at_every_size(live_server, browser: Browser, transactional_db, organiser, size, language):
    """In every language of the site (Danish and Swedish words are longer in places):
    the evening's language for the room, the organiser's own pages switched to it too. At
    ``AXE_SIZE`` every page also passes axe-core."""
    width, height = SIZES[size]
    accessibility = size == AXE_SIZE
    ev = build_layout_evening(language)
    client = Client()
    client.force_login(organiser)
    session_cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    contexts = {}
    for logged_in in (True, False):
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 500, locale=language
        )
        context.set_default_timeout(TIMEOUT_MS)
        if accessibility:
            with_axe(context)
        cookies = [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        if logged_in:
            cookies.append({"name": settings.SESSION_COOKIE_NAME, "value": session_cookie, "url": live_server.url})
        context.add_cookies(cookies)
        contexts[logged_in] = context.new_page()
    problems: list[str] = []
    checked_by_axe = 0
    try:
        for pages in PAGES.values():
            for label, role, url in pages:
                logged_in, min_target = ROLES[role]
                page = contexts[logged_in]
                response = page.goto(live_server.url + url(ev))
                expected = 404 if label in NOT_FOUND else 200
                assert response is not None and response.status == expected, (label, response and response.status)
                settle(page)
                found = page.evaluate(CHECK, {"minTarget": min_target, "minGap": MIN_GAP_PX})
                shot = f"{label}-{width}x{height}" if language == "de" else f"{label}-{language}-{width}x{height}"
                screenshot(page, "layout", shot, full_page=True, always=bool(found))
                problems += [f"{label} ({language}) at {width}x{height}: {problem}" for problem in found]
                if accessibility:
                    problems += [f"{label} ({language}), axe-core: {found}" for found in axe_violations(page)]
                    checked_by_axe += 1
    finally:
        for page in contexts.values():
            page.context.close()
    assert not problems, "\n".join(problems)
    assert checked_by_axe >= AXE_MIN_PAGES or not accessibility, checked_by_axe
