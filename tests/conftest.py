"""Shared fixtures: an organiser login and evenings with checked-in players."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from tests import checkout_guard
from tests.tracing import untraced

# Nothing the tests read may lie outside the checkout (tests/checkout_guard.py).
checkout_guard.install()

# Playwright's sync API runs an event loop in the test thread; Django's ORM must still be usable.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

#: The checkout.
ROOT = Path(__file__).resolve().parent.parent
#: The club roster the demo is built from (26 players of Schwesing), part of the repository.
ROSTER = ROOT / "scoring" / "data" / "players-schwesing.csv"


# --- The test settings (tests/settings.py) and what runs on which database -------------------------

#: pytest-django's fixtures that give a test the database: a test asking for none of them (nor
#: marked ``django_db``) cannot reach it, pytest-django refuses.
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_configure(config):
    """Refuse to run with other settings than tests/settings.py (an exported
    DJANGO_SETTINGS_MODULE wins over pytest.ini): the workers would share one data folder. Then
    compile the translations (:func:`compile_catalogues`)."""
    from django.conf import settings

    if settings.configured and not getattr(settings, "TEST_DATA_DIR", None):
        raise pytest.UsageError(
            f"The tests run with tests.settings (pytest.ini), not {settings.SETTINGS_MODULE}: "
            "unset DJANGO_SETTINGS_MODULE."
        )
    compile_catalogues(config)


def compile_catalogues(config, locale: Path = ROOT / "locale") -> list[Path]:
    """Compile every ``django.po`` under ``locale`` whose ``.mo`` is missing or older, so that a
    plain ``pytest`` on a fresh clone reads the German, Danish and Swedish texts the tests assert
    (no ``make translations`` first). Only in the process that starts the run: pytest-xdist's
    workers start after it has compiled, so no two processes write one ``.mo``. Django, set up
    before this hook, may have read the catalogues already: then it forgets them, as it does when
    a test changes ``LOCALE_PATHS``. Returns the ``.mo`` files written."""
    if hasattr(config, "workerinput"):
        return []
    from asgiref.local import Local
    from django.utils.translation import trans_real

    from bruus_tournament.translations import compile_stale

    written = compile_stale(locale)
    if written:
        trans_real._translations = {}
        trans_real._default = None
        trans_real._active = Local()
        trans_real.translation_catalog_exists.cache_clear()
    return written


def pytest_unconfigure(config):
    """Remove this process's data folder (tests/settings.py)."""
    from django.conf import settings

    if settings.configured and getattr(settings, "TEST_DATA_DIR", None):
        shutil.rmtree(settings.TEST_DATA_DIR, ignore_errors=True)


# --- The order and the coverage of the longest tests ---------------------------------------------
#
# Coverage on Python 3.11 (a trace function, no ``sys.monitoring``) slows every line of Python a
# test runs two- to threefold. Tests that only run code other tests measure run their body without
# it (tests/tracing.py):
#
# - Browser tests (``browser``): what they check is what Chromium shows; the server threads that
#   answer Chromium run untraced anyway (``_live_server_requests_untraced`` below), and in the
#   test's own thread the time goes to Playwright's client.
# - Tests marked ``no_cover`` (pytest-cov's marker), each with its reason beside it: sweeps (the
#   same code over hundreds of generated inputs: the ranking for every field size from 4 to 300,
#   every document for hypothesis-drawn fields, the fuzz of every URL and its sweep with junk
#   input, the draw for every field size, 100 seeds of teams of three, the property tests of the
#   draw and the fairness bound); the same code on more input (200-player documents, the draw on a
#   large field); the query-count tests (a page at two field sizes); and the evenings end to end
#   (tests/evenings), all but the Bräus evening, the only one to reach the Bräus draws at the table.
#
# Every line they run is run by a measured test as well: checked with ``--cov-context=test`` (the
# lines whose only contexts are such tests: none), so the coverage figure does not change. Their
# fixtures (the evening they set up) stay measured.


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item):
    """A ``no_cover`` or ``browser`` test runs with no tracer at all. pytest-cov's own pause is not
    enough in a pytest-xdist worker: it stops the worker's coverage, and coverage then resumes the
    one pytest-cov also started there at load time (both seen with ``sys.gettrace()`` inside such
    a test), so the sweep ran as slowly as before. This hook runs inside pytest-cov's (trylast)."""
    if item.get_closest_marker("no_cover") is None and item.get_closest_marker("browser") is None:
        yield
        return
    with untraced():
        yield


#: The test files with the longest tests (10 s to a minute each on this 2-core machine), longest
#: first. They run first: pytest-xdist (``--dist worksteal``) hands each process a share of the
#: tests in this order and an idle process takes work from the end of another's share, so a long
#: test left for the end would keep one process busy while the others wait.
LONGEST_FIRST = (
    "tests/browser/test_layout.py",
    "tests/views/test_fuzz_every_url.py",
    "tests/documents/test_documents_fit.py",
    "tests/evenings/test_evening_machine.py",
    "tests/evenings/test_sixhanded.py",
    "tests/evenings/test_schwesing.py",
    "tests/browser/test_table.py",
    "tests/browser/test_whole_evening.py",
    "tests/documents/test_documents.py",
    "tests/views/test_bad_input_pages.py",
    "tests/evenings/test_rulesets.py",
    "tests/hub_stack/test_hub_stack.py",
    "tests/hub_stack/test_hall_to_hub.py",
)


def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the database ``database`` (pytest.ini): ``make test`` runs those
    on PostgreSQL too, the others (pure domain, documents from plain data, settings, processes with
    their own SQLite file) once. Then put the files of :data:`LONGEST_FIRST` first (in its order;
    every other file after them, as collected)."""
    for item in items:
        if item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.database)
    stale = [path for path in LONGEST_FIRST if not (ROOT / path).is_file()]
    if stale:  # a renamed or removed file would silently lose its place
        raise pytest.UsageError(f"LONGEST_FIRST in tests/conftest.py names files that are gone: {stale}")
    rank = {path: index for index, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONGEST_FIRST)))


@pytest.fixture(scope="session", autouse=True)
def _started_processes_get_the_app_settings():
    """pytest-django exports DJANGO_SETTINGS_MODULE=tests.settings; a process a test starts with
    this environment (``manage.py check``, a server) gets the application's settings, as outside
    the tests."""
    saved = os.environ.get("DJANGO_SETTINGS_MODULE")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bruus_tournament.settings"
    yield
    if saved is None:
        os.environ.pop("DJANGO_SETTINGS_MODULE", None)
    else:
        os.environ["DJANGO_SETTINGS_MODULE"] = saved


def make_login(django_user_model, username: str, role: str | None):
    """A login with ``role`` (scoring.hall.roles.LEADER / HELPER, or None for no organiser role)."""
    from django.contrib.auth.models import Group

    from scoring.hall.roles import ensure_groups

    user = django_user_model.objects.create_user(username, password="geheim-123")
    if role:
        ensure_groups()  # a flushed test database (live server tests) has lost the migration's groups
        user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def organiser(django_user_model):
    """A Turnierleitung login (may do everything)."""
    from scoring.hall.roles import LEADER

    return make_login(django_user_model, "leitung", LEADER)


@pytest.fixture
def helper(django_user_model):
    """A Helfer login."""
    from scoring.hall.roles import HELPER

    return make_login(django_user_model, "helfer", HELPER)


@pytest.fixture
def organiser_client(client, organiser):
    """A browser logged in as :func:`organiser`, its login already copied to the file cache as
    by its first page (``scoring.hall.auth_backends``): query counts are those of every later page."""
    from scoring.hall.auth_backends import OrganiserBackend

    client.force_login(organiser)
    OrganiserBackend().get_user(organiser.pk)
    return client


def make_evening(player_count: int, **kwargs):
    """An evening with ``player_count`` checked-in players (names 'Spieler 1' ...): the builder the
    demo and the benchmarks use too (:func:`scoring.setup.builders.evening_with_players`)."""
    from scoring.setup.builders import evening_with_players

    return evening_with_players(player_count, **kwargs)


@pytest.fixture
def evening_factory(db):
    return make_evening


def make_roster_evening():
    """The real Schwesing roster (26 players) checked in for a new evening (needs the database)."""
    from scoring import services
    from scoring.transfer.player_files import parse_player_file

    evening = services.create_evening(name="Schwesing", date=date(2026, 11, 21), venue="Dörpshus")
    parsed = parse_player_file(ROSTER.read_bytes(), ROSTER.name)
    services.import_players(parsed.players, check_in_to=evening)
    return evening


@pytest.fixture
def roster_evening(db):
    """The real Schwesing roster (26 players) checked in for an evening."""
    return make_roster_evening()


@pytest.fixture
def seating(drawn_roster_evening):
    """Table 1 in round 1 of the roster evening's first session, drawn with seed 1
    (:func:`tests.factories.seating`): enter its deals with :func:`tests.factories.enter_deal`."""
    from tests import factories

    return factories.seating(drawn_roster_evening)


@pytest.fixture(scope="session")
def _drawn_roster_rows(django_db_setup, django_db_blocker) -> tuple[int, list[dict]]:
    """The rows of :func:`drawn_roster_evening`, built through the services once per test process
    (tests/rows.py): the draw's evening planner took about half a second of every test that
    started from it."""
    from scoring import services
    from tests import rows

    def build() -> int:
        evening = make_roster_evening()
        services.draw_session(evening=evening, seed=1)
        return evening.pk

    with django_db_blocker.unblock():
        return rows.capture(build)


@pytest.fixture
def drawn_roster_evening(db, _drawn_roster_rows):
    """:func:`roster_evening` with its first session drawn (seed 1, no login), its rows put back
    as the services wrote them."""
    from tests import rows

    return rows.evening_put_back(_drawn_roster_rows)


@pytest.fixture(autouse=True)
def _live_server_requests_untraced(request):
    """While a test runs with the live server (the browser tests), its request threads start
    without coverage's tracer. Python 3.11 installs a thread's tracer with a lock shared by all
    threads: Chromium's parallel requests, each in a new thread, now and then raced for it and one
    thread died with "RuntimeError: Cannot install a trace function while another trace function
    is being installed" (CPython issue 98257), its page never answered (seen twice in 1,500 tests).
    Every line the live server runs for them is run by another test too (checked with
    ``--cov-context=test``), so the coverage figure stays; the pages are also served faster."""
    if "live_server" not in request.fixturenames:
        yield
        return
    hook = threading.gettrace()
    threading.settrace(None)
    yield
    threading.settrace(hook)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Every test starts with empty caches, also the shared cache of the screens
    (``scoring.web.screen_cache``; wrong-link counters live in the database, ``scoring.hall.throttle``,
    and are rolled back with each test's transaction).

    Does nothing when Django is not set up (pure domain tests run with ``-p no:django``)."""
    from django.conf import settings

    if not settings.configured:
        yield
        return
    from django.core.cache import caches

    aliases = ("default", "screens", "sessions")  # screens, sessions: files in DATA_DIR
    for alias in aliases:
        caches[alias].clear()
    yield
    for alias in aliases:
        caches[alias].clear()


# --- Real Chromium for the browser tests (Debian's package; Playwright never downloads one) --------

#: Debian's chromium-headless-shell (``make chromium``): Chromium's own engine without the desktop
#: browser around it, which the full ``chromium --headless`` still runs (its tab strip and menus
#: in renderers of their own); Playwright's choice for headless runs too. A third less CPU for the
#: same pages, and the tests share two cores with the server and the other test process.
CHROMIUM = Path("/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One headless Chromium per test module. Without Chromium the tests fail, never skip."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        pytest.fail(f"No Chromium at {CHROMIUM}: browser tests need it (make chromium: chromium-headless-shell)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
