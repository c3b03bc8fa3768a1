"""The demo evening of ``make run``: the real Schwesing roster, session 1 drawn, round 1 played."""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from scoring import services
from scoring.domain.rules import POSSIBLE_BONUS_PAIRS, TEAMS, DealResult
from scoring.models import Evening, Seating
from scoring.player_files import parse_player_file
from scoring.roles import LEADER, ensure_groups

DEMO_EVENING = "Schwesinger Bruus-Abend (Demo)"
DEMO_USER = "turnierleitung"
DEMO_PASSWORD = "bruus-demo"
DEMO_SEED = 20200303


def random_result(rng: random.Random) -> DealResult:
    """A plausible deal: most deals without bonus, sometimes to nil, bonuses from the possible set."""
    pairs = sorted(POSSIBLE_BONUS_PAIRS)
    weights = [12 if pair == (0, 0) else 3 if sum(pair) == 1 else 1 for pair in pairs]
    bonus_a, bonus_b = rng.choices(pairs, weights=weights)[0]
    return DealResult(winner=rng.choice(TEAMS), to_nil=rng.random() < 0.1, bonus_a=bonus_a, bonus_b=bonus_b)


def play_seating(seating: Seating, rng: random.Random, complete: bool = True) -> None:
    """Enter every deal of a seating as its table's scorer would, then finish the round."""
    table = seating.table
    for number in range(1, seating.round.session.evening.deals_per_round + 1):
        services.enter_deal(seating_id=seating.pk, number=number, result=random_result(rng), via="Demo", table=table)
    if complete:
        services.enter_and_confirm_seating(seating_id=seating.pk, table=table)


@transaction.atomic
def load_demo(players_file: Path | None = None) -> tuple[Evening, bool]:
    """Create the organiser login (superuser, group Turnierleitung) and the demo evening unless
    they exist.

    Returns ``(evening, created)``.
    """
    user_model = get_user_model()
    if not user_model.objects.filter(username=DEMO_USER).exists():
        user = user_model.objects.create_superuser(DEMO_USER, "", DEMO_PASSWORD)
        ensure_groups()
        user.groups.add(Group.objects.get(name=LEADER))
    evening = Evening.objects.filter(name=DEMO_EVENING).first()
    if evening is not None:
        return evening, False
    path = Path(players_file or settings.DEMO_PLAYERS_FILE)
    parsed = parse_player_file(path.read_bytes(), path.name)
    evening = services.create_evening(name=DEMO_EVENING, date=date.today(), venue="Gasthof Schwesing")
    services.import_players(parsed.players, check_in_to=evening)
    session = services.draw_session(evening=evening, seed=DEMO_SEED)
    rng = random.Random(DEMO_SEED)
    seatings = Seating.objects.filter(round__session=session).select_related("table", "round__session__evening")
    for seating in seatings.filter(round__number=1):
        play_seating(seating, rng)
    return evening, True
