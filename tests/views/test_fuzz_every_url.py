"""Fuzzing every URL with every form field and query parameter, for every role.

Hypothesis builds requests through Django's test client: any named URL of the URLconf (found by
walking it, so new pages are fuzzed too) with real or made-up numbers and table links, GET or
POST, with or without htmx, as the organiser (logged in), from a table link, or anonymous; the
fields are every name a template, a form or a view reads (found in the source), each with zero,
one or two values from a pool of awkward ones (superscript digits, huge numbers, bidi controls,
markup, real ids, reused idempotency keys), and now and then a deal post that is almost right.

After every example: no answer was a server error, and the database holds only deals the rules
allow: matchsticks as ``scoring.domain.rules`` scores them (an accepted impossible result only
with its reason), deal numbers within the evening's deals per round, one history row per version.
"""

from __future__ import annotations

import inspect
import re
import uuid
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django import forms as django_forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Count
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import forms as app_forms
from scoring import services
from scoring.domain.names import hidden_character
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.domain.rulesets import SCHWESING, rule_set
from scoring.models import (
    AttemptCounter,
    Deal,
    DealChange,
    Evening,
    PartnerExclusion,
    Player,
    Round,
    Season,
    Seating,
    Session,
)
from tests import factories
from tests.views.test_bad_input_pages import patterns

ROOT = Path(__file__).resolve().parents[2]
SCHWESING_RULES = rule_set(SCHWESING)
SKIPPED_URLS = {"admin"}


def field_names() -> list[str]:
    """Every request parameter the app reads: names in templates, fields of its forms, and
    ``request.GET/POST`` lookups in the views (plus django-tables2's sort and page)."""
    names = {"sort", "page", "_export", "accept_impossible", "reason"}
    for template in (ROOT / "templates").rglob("*.html"):
        names |= set(re.findall(r'name="([a-z_]+)"', template.read_text()))
    for view in (ROOT / "scoring" / "views").glob("*.py"):
        names |= set(re.findall(r'request\.(?:GET|POST)(?:\.get|\.getlist)?[(\[]"([a-z_]+)"', view.read_text()))
    for form in FORM_CLASSES:
        names |= set(form.base_fields)
    return sorted(names - {"csrfmiddlewaretoken", "viewport", "file"})


FORM_CLASSES = [
    form
    for form in vars(app_forms).values()
    if isinstance(form, type) and issubclass(form, django_forms.BaseForm) and hasattr(form, "base_fields")
]
FIELDS = field_names()
#: A few more fields besides those the view reads (one strategy object for all examples: see values()).
OTHER_FIELDS = st.lists(st.sampled_from(FIELDS), max_size=3, unique=True)
KEYS = [str(uuid.UUID(int=n)) for n in range(1, 4)]  # a few keys used again and again
# Hypothesis tries the first values of a list first: the ones that broke pages before go first.
NUMBERS = ["²", "99999999999999999999", "-1", "٣", "0", "1", "2", "4", "9", "1_0", " 1", "1.5", "1e3"]
EXAMPLES_PER_URL = 8
AWKWARD = [
    "",
    "3",
    "5",
    "A",
    "B",
    "C",
    "a",
    "on",
    "true",
    "x",
    "<b>x</b>",
    "Boy\u202eJensen",
    "Boy\u200bJensen",
    "Sön\u00adke",
    "%",
    "/",
    "\x00",
    *KEYS,
    "not-a-uuid",
    "csv",
    "xlsx",
    "ä" * 300,
]


@pytest.fixture
def world(roster_evening, organiser):
    """A drawn evening: table 1 with nothing entered yet (where hypothesis' simplest deal posts
    land), tables 2 to 4 with every deal of round 1 entered (2 finished, 3 confirmed), a wish."""
    evening = roster_evening
    services.draw_session(evening=evening, seed=3)
    seatings = list(Seating.objects.filter(round__session__evening=evening, round__number=1).order_by("table__number"))
    for seating in seatings[1:4]:
        for number in range(1, evening.deals_per_round + 1):
            factories.enter_deal(seating, number, "B", bonus_b=1, based_on_version=0)
    services.mark_seating_entered(seating_id=seatings[1].pk, table=seatings[1].table, team="A")
    services.mark_seating_entered(seating_id=seatings[2].pk, table=seatings[2].table, team="A")
    services.confirm_seating(seating_id=seatings[2].pk, table=seatings[2].table, team="B")
    players = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    services.add_partner_exclusion(evening=evening, player_a_id=players[0], player_b_id=players[1])
    organiser_client = Client()
    return {
        "evening": evening,
        "organiser": organiser,
        "organiser_client": organiser_client,
        "anonymous": Client(),
        "ids": {
            "pk": [evening.pk, seatings[0].pk, seatings[1].pk],
            "player_pk": players[:4],
            "round_pk": list(Round.objects.values_list("pk", flat=True)[:2]),
            "exclusion_pk": list(PartnerExclusion.objects.values_list("pk", flat=True)),
            "number": [1, 2],
        },
        "seatings": [s.pk for s in seatings],
        "players": players,
    }


def fields_read_by(callback) -> list[str]:
    """The request fields the module of a view reads (its own lookups and its forms' fields):
    sent more often to that URL, so that every field of every page is reached in few examples."""
    module = inspect.getmodule(getattr(callback, "view_class", callback))
    source = inspect.getsource(module) if module else ""
    names = set(re.findall(r'request\.(?:GET|POST)(?:\.get|\.getlist)?[(\[]"([a-z_]+)"', source))
    for form in FORM_CLASSES:
        if re.search(rf"\b{form.__name__}\b", source):
            names |= set(form.base_fields)
    return sorted(names & set(FIELDS)) or FIELDS


def url_names():
    from django.urls import get_resolver

    return [
        (name, tuple(entry.pattern.converters), fields_read_by(entry.callback))
        for name, entry in patterns(get_resolver())
        if name.split(":")[0] not in SKIPPED_URLS
    ]


def values(world):
    """One field's values: one or two of the awkward ones. Made once per world: Hypothesis works out
    what it needs to know of a strategy (is it empty, can it repeat values …) once per strategy
    object, and a new object for every field of every example made that a third of the fuzz's time."""
    if "values" not in world:
        real = [str(i) for i in world["seatings"] + world["players"]]
        world["values"] = st.lists(
            st.one_of(st.sampled_from(NUMBERS), st.sampled_from(AWKWARD + real)), min_size=1, max_size=2
        )
    return world["values"]


def tokens(world) -> list[str]:
    """The current links of the tables of ``world["seatings"]`` (in that order)."""
    links = dict(Seating.objects.filter(pk__in=world["seatings"]).values_list("pk", "table__token"))
    return [links[pk] for pk in world["seatings"]]


@st.composite
def requests(draw, world, url):
    """One request to the URL ``url`` = (name, converters, fields its view reads): (role, method,
    path, data, htmx). Every field the view reads is sent, plus a few others."""
    name, converters, relevant = url
    roles = ["table", "anonymous", "organiser"] if name.startswith("scorer:") else ["organiser", "anonymous"]
    role = draw(st.sampled_from(roles))
    kwargs = {}
    for key in converters:
        if key == "token":  # a tablet's real link most of the time (read again: the fuzz renews links)
            kwargs[key] = draw(
                st.one_of(st.sampled_from(tokens(world)), st.text("abcXYZ019-_", min_size=1, max_size=40))
            )
        else:
            kwargs[key] = draw(st.one_of(st.sampled_from(world["ids"].get(key, [1])), st.integers(0, 10**12)))
    method = draw(st.sampled_from(["get", "post"]))
    data = {}
    if name in ("scorer:deal", "organiser:seating_detail") and draw(st.integers(0, 3)) < 3:
        # Almost a right deal post: a table's link and its round, a team, bonuses, a version, a key.
        method = "post"
        table = draw(st.integers(0, 3))
        number = draw(st.integers(1, 5))
        if name == "scorer:deal":
            kwargs.update(token=tokens(world)[table], number=number)
        else:
            kwargs["pk"] = world["seatings"][table]
        current = (
            Deal.objects.filter(seating_id=world["seatings"][table], number=number)
            .values_list("version", flat=True)
            .first()
            or 0
        )
        bonus_a, bonus_b = draw(
            st.one_of(
                st.sampled_from(sorted(SCHWESING_RULES.bonus_pairs)), st.tuples(st.integers(0, 4), st.integers(0, 4))
            )
        )
        data = {
            "seating": str(world["seatings"][table]),
            "winner": draw(st.sampled_from("AB")),
            "bonus_a": str(bonus_a),
            "bonus_b": str(bonus_b),
            "version": str(draw(st.one_of(st.just(current), st.integers(0, 3)))),
            "key": draw(st.one_of(st.builds(lambda: str(uuid.uuid4())), st.sampled_from(KEYS))),
            "number": str(number),
        }
        if draw(st.booleans()):
            data["to_nil"] = "on"
        if draw(st.booleans()):
            data.update(accept_impossible="on", reason=draw(st.sampled_from(["", "Hausregel"])))
        fields = draw(st.lists(st.sampled_from([f for f in FIELDS if f not in data]), max_size=2, unique=True))
    else:
        fields = list(relevant) + draw(OTHER_FIELDS)
    for field in fields:
        data[field] = draw(values(world))
    if method == "post" and draw(st.integers(0, 9)) == 0:
        data["file"] = SimpleUploadedFile(
            draw(st.sampled_from(["x.csv", "x.xlsx", "x.pdf"])), draw(st.binary(max_size=200))
        )
    return role, method, reverse(name, kwargs=kwargs), data, draw(st.booleans())


def assert_only_rule_valid_deals() -> None:
    deals = Deal.objects.select_related("seating__round__session__evening").annotate(change_count=Count("changes"))
    for deal in deals:
        deals_per_round = deal.seating.round.session.evening.deals_per_round
        assert 1 <= deal.number <= deals_per_round, deal.number
        result = DealResult(deal.winner, deal.to_nil, deal.bonus_a, deal.bonus_b)
        try:
            score = SCHWESING_RULES.score_deal(result)
        except ImpossibleResult:
            assert deal.override_reason.strip(), ("impossible without reason", result)
            score = SCHWESING_RULES.score_accepted(result)
        assert (deal.points_a, deal.points_b) == (score.a, score.b), (result, deal.points_a, deal.points_b)
        assert deal.change_count == deal.version, ("history rows", deal.change_count, deal.version)


def assert_no_invisible_names() -> None:
    """No name, club, evening or season name holds a character that shows nothing."""
    texts = [
        *Player.objects.values_list("name", "club"),
        *Evening.objects.values_list("name", "venue"),
        *Season.objects.values_list("name", "name"),
    ]
    for first, second in texts:
        assert hidden_character(first + second) is None, (first, second)


@pytest.mark.no_cover  # a sweep: its lines are measured by other tests (tests/conftest.py)
@pytest.mark.django_db
def test_fuzz_every_url_field_and_role(world):
    """For every URL its own bounded hypothesis run (so that no page is left out), all in one
    database: what one request changed is the state the next one meets."""
    seen_status = set()
    changes_before = DealChange.objects.count()

    def run(batch):
        AttemptCounter.objects.all().delete()  # else the wrong links soon answer only 429
        AccessAttempt.objects.all().delete()
        world["organiser_client"].force_login(world["organiser"])  # a fuzzed logout logs it out
        Session.objects.update(closed=False)  # fuzzed organiser posts close sessions, lock rounds
        Round.objects.update(locked=False)
        Evening.objects.update(clock_locks_round=False)  # a fuzzed round clock would lock them again
        for role, method, url, data, htmx in batch:
            client = world["organiser_client"] if role == "organiser" else world["anonymous"]
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = getattr(client, method)(url, data, **headers)
            seen_status.add(response.status_code)
            assert response.status_code < 500, (role, method, url, data, response.status_code)
        assert_only_rule_valid_deals()
        assert_no_invisible_names()

    for url in url_names():
        examples = EXAMPLES_PER_URL * (10 if url[0] in ("scorer:deal", "organiser:seating_detail") else 1)
        check = settings(
            max_examples=examples,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )(given(st.lists(requests(world, url), min_size=1, max_size=2))(run))
        check()
    assert {200, 302, 404, 422} <= seen_status, seen_status
    assert DealChange.objects.count() > changes_before + 8  # the fuzz did enter and correct deals
