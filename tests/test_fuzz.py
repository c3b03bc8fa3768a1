"""Fuzzing every URL with every form field and query parameter, for every role (issue 11).

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
from scoring.domain.rules import DealResult, ImpossibleResult, score_accepted, score_deal
from scoring.models import AttemptCounter, Deal, PartnerExclusion, Player, Round, Seating
from tests.test_no_server_errors import patterns

ROOT = Path(__file__).resolve().parent.parent
SKIPPED_URLS = {"admin"}


def field_names() -> list[str]:
    """Every request parameter the app reads: names in templates, fields of its forms, and
    ``request.GET/POST`` lookups in the views (plus django-tables2's sort and page)."""
    names = {"sort", "page", "_export", "accept_impossible", "reason"}
    for template in (ROOT / "templates").rglob("*.html"):
        names |= set(re.findall(r'name="([a-z_]+)"', template.read_text()))
    for view in (ROOT / "scoring" / "views").glob("*.py"):
        names |= set(re.findall(r'request\.(?:GET|POST)(?:\.get|\.getlist)?[(\[]"([a-z_]+)"', view.read_text()))
    for form in vars(app_forms).values():
        if isinstance(form, type) and issubclass(form, django_forms.BaseForm) and form is not django_forms.BaseForm:
            names |= set(getattr(form, "base_fields", {}))
    return sorted(names - {"csrfmiddlewaretoken", "viewport", "file"})


FIELDS = field_names()
KEYS = [str(uuid.UUID(int=n)) for n in range(1, 4)]  # a few keys used again and again
AWKWARD = ["", "0", "1", "2", "3", "4", "5", "9", "-1", "²", "٣", "1_0", " 1", "1.5", "1e3", "99999999999999999999",
           "A", "B", "C", "a", "on", "true", "x", "<b>x</b>", "Boy\u202eJensen", "%", "/", "\x00", *KEYS,
           "not-a-uuid", "csv", "xlsx", "ä" * 300]


@pytest.fixture
def world(roster_evening, organiser):
    """A drawn evening with some deals entered, a finished and a confirmed round, a wish."""
    evening = roster_evening
    services.draw_session(evening=evening, seed=3)
    seatings = list(Seating.objects.filter(round__session__evening=evening, round__number=1).order_by("table__number"))
    for seating in seatings[:3]:
        for number in range(1, evening.deals_per_round + 1):
            services.enter_deal(seating_id=seating.pk, number=number, result=DealResult("A", False, 0, 0),
                                via="setup", table=seating.table, based_on_version=0)
    services.finish_seating(seating_id=seatings[1].pk, table=seatings[1].table, team="A")
    services.finish_seating(seating_id=seatings[2].pk, table=seatings[2].table, team="A")
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
        "tokens": [s.table.token for s in seatings[:4]],
        "seatings": [s.pk for s in seatings],
        "players": players,
    }


def url_names():
    from django.urls import get_resolver

    return [(name, tuple(entry.pattern.converters)) for name, entry in patterns(get_resolver())
            if name.split(":")[0] not in SKIPPED_URLS]


def values(world):
    real = [str(i) for i in world["seatings"] + world["players"]] + world["tokens"]
    return st.sampled_from(AWKWARD + real)


@st.composite
def requests(draw, world):
    """One request: (role, method, url, data, htmx)."""
    role = draw(st.sampled_from(["organiser", "table", "anonymous"]))
    names = url_names()
    if role == "table":  # a tablet: the table pages, with a real link most of the time
        names = [entry for entry in names if entry[0].startswith("scorer:")]
    name, converters = draw(st.sampled_from(names))
    kwargs = {}
    for key in converters:
        if key == "token" and role == "table" and draw(st.integers(0, 4)):
            kwargs[key] = draw(st.sampled_from(world["tokens"]))
        elif key == "token":
            kwargs[key] = draw(st.one_of(st.sampled_from(world["tokens"]), st.text(
                "abcXYZ019-_", min_size=1, max_size=40)))
        else:
            kwargs[key] = draw(st.one_of(st.sampled_from(world["ids"].get(key, [1])), st.integers(0, 10**12)))
    url = reverse(name, kwargs=kwargs)
    method = draw(st.sampled_from(["get", "post"]))
    data = {}
    deal_like = name == "scorer:deal" or name == "organiser:seating_detail"
    if deal_like and draw(st.booleans()):
        # Almost a right deal post: the real round, a team, bonuses, a version, a key.
        method = "post"
        data = {"seating": str(draw(st.sampled_from(world["seatings"]))), "winner": draw(st.sampled_from("AB")),
                "bonus_a": str(draw(st.integers(0, 4))), "bonus_b": str(draw(st.integers(0, 4))),
                "version": str(draw(st.integers(0, 3))), "key": draw(st.sampled_from(KEYS + [str(uuid.uuid4())])),
                "number": str(draw(st.integers(0, 5)))}
        if draw(st.booleans()):
            data["to_nil"] = "on"
        if draw(st.booleans()):
            data.update(accept_impossible="on", reason=draw(st.sampled_from(["", "Hausregel"])))
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=6, unique=True)):
        data[field] = draw(st.lists(values(world), min_size=1, max_size=2))
    if method == "post" and draw(st.integers(0, 9)) == 0:
        data["file"] = SimpleUploadedFile(draw(st.sampled_from(["x.csv", "x.xlsx", "x.pdf"])),
                                          draw(st.binary(max_size=200)))
    return role, method, url, data, draw(st.booleans())


def assert_only_rule_valid_deals() -> None:
    deals = Deal.objects.select_related("seating__round__session__evening").annotate(change_count=Count("changes"))
    for deal in deals:
        deals_per_round = deal.seating.round.session.evening.deals_per_round
        assert 1 <= deal.number <= deals_per_round, deal.number
        result = DealResult(deal.winner, deal.to_nil, deal.bonus_a, deal.bonus_b)
        try:
            score = score_deal(result)
        except ImpossibleResult:
            assert deal.override_reason.strip(), ("impossible without reason", result)
            score = score_accepted(result)
        assert (deal.points_a, deal.points_b) == (score.a, score.b), (result, deal.points_a, deal.points_b)
        assert deal.change_count == deal.version, ("history rows", deal.change_count, deal.version)


@pytest.mark.django_db
def test_fuzz_every_url_field_and_role(world):
    seen_status = set()

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(st.lists(requests(world), min_size=1, max_size=3))
    def run(batch):
        AttemptCounter.objects.all().delete()
        AccessAttempt.objects.all().delete()
        world["organiser_client"].force_login(world["organiser"])
        for role, method, url, data, htmx in batch:
            client = world["organiser_client"] if role == "organiser" else world["anonymous"]
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            response = getattr(client, method)(url, data, **headers)
            seen_status.add(response.status_code)
            assert response.status_code < 500, (role, method, url, data, response.status_code)
        assert_only_rule_valid_deals()

    run()
    assert {200, 302, 404} <= seen_status
