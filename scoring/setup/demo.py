"""The demo of ``make run``: the real Schwesing roster; the demo evening with session 1 drawn and
round 1 played, and a season (Jahreswertung) of three past evenings, fully played with changing
attendance, plus the demo evening."""

from __future__ import annotations

import random
from datetime import date, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from scoring import services
from scoring.hall.roles import LEADER, ensure_groups
from scoring.models import Evening, Player, Season
from scoring.setup.builders import play_round, play_session
from scoring.transfer.player_files import parse_player_file

DEMO_EVENING = "Schwesinger Bruus-Abend (Demo)"
DEMO_USER = "turnierleitung"
DEMO_PASSWORD = "bruus-demo"
DEMO_SEED = 20200303
DEMO_SEASON = "Jahreswertung (Demo)"
#: The past evenings of the demo season: months before today and players missing that evening.
PAST_EVENINGS = ((3, 2), (2, 5), (1, 3))
#: The past evenings are played in a shorter format than the evening itself (keeps ``make run``
#: quick): sessions, rounds per session, deals per round.
PAST_FORMAT = (3, 1, 2)


@transaction.atomic
def load_demo(players_file: Path | None = None) -> tuple[Evening, bool]:
    """Create the organiser login (group Turnierleitung; neither superuser nor staff, so the
    app's roles decide what it may do) and the demo evening unless they exist.

    Returns ``(evening, created)``.
    """
    load_demo_login()
    evening = Evening.objects.filter(name=DEMO_EVENING).first()
    if evening is not None:
        if not Season.objects.filter(name=DEMO_SEASON).exists():
            load_demo_season(evening)
        return evening, False
    path = Path(players_file or settings.DEMO_PLAYERS_FILE)
    parsed = parse_player_file(path.read_bytes(), path.name)
    evening = services.create_evening(name=DEMO_EVENING, date=date.today(), venue="Gasthof Schwesing")
    services.import_players(parsed.players, check_in_to=evening)
    session = services.draw_session(evening=evening, seed=DEMO_SEED)
    play_round(session, 1, random.Random(DEMO_SEED))
    load_demo_season(evening)
    return evening, True


def load_demo_login() -> None:
    """The demo's organiser login (``DEMO_USER`` with ``DEMO_PASSWORD``, group Turnierleitung)
    unless it exists: what a database made by ``make run`` has that a club's must not
    (scoring.setup.startup refuses to serve it)."""
    user_model = get_user_model()
    if not user_model.objects.filter(username=DEMO_USER).exists():
        user = user_model.objects.create_user(DEMO_USER, "", DEMO_PASSWORD)
        ensure_groups()
        user.groups.add(Group.objects.get(name=LEADER))


def play_evening(evening: Evening, rng: random.Random) -> None:
    """Draw every session of an evening and play and confirm every table of every round."""
    for number in range(1, evening.sessions_count + 1):
        play_session(services.draw_session(evening=evening, number=number, seed=DEMO_SEED + number), rng)


def load_demo_season(current: Evening) -> Season:
    """The demo season: three past evenings of the roster checked in for ``current`` (a few
    players missing each time), fully played, and ``current`` itself; placement points, the best
    three of four evenings count, ranked from two evenings."""
    roster = list(Player.objects.filter(participations__evening=current).order_by("pk"))
    rng = random.Random(DEMO_SEED + 1)
    evening_ids = []
    for months_ago, missing in PAST_EVENINGS:
        past = services.create_evening(
            name=f"Schwesinger Bruus-Abend vor {months_ago} Monat{'en' if months_ago > 1 else ''} (Demo)",
            date=current.date - timedelta(days=28 * months_ago),
            venue="Gasthof Schwesing",
            sessions_count=PAST_FORMAT[0],
            rounds_per_session=PAST_FORMAT[1],
            deals_per_round=PAST_FORMAT[2],
        )
        away = set(rng.sample(range(len(roster)), missing))
        for index, player in enumerate(roster):
            if index not in away:
                services.set_checked_in(evening=past, player=player, checked_in=True)
        play_evening(past, rng)
        evening_ids.append(past.pk)
    return services.save_season(
        name=DEMO_SEASON,
        year=current.date.year,
        scoring=Season.Scoring.POINTS,
        best_of=3,
        min_evenings=2,
        planned_evenings=4,
        evening_ids=[*evening_ids, current.pk],
    )
