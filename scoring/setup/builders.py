"""Evenings built through the services, as the organiser's pages and the tablets build them: the
demo of ``make run`` (:mod:`scoring.setup.demo`), the tests (``tests/conftest.py``) and the
benchmarks (``bench/``) use these same builders, so what they measure and check is made alike.

Every function writes through :mod:`scoring.services` (one transaction each, the evening version
bumped, the rules checked); none is used by a page.
"""

from __future__ import annotations

import random
from datetime import date

from scoring import services
from scoring.domain.rules import TEAMS, DealResult
from scoring.domain.rulesets import DEFAULT, rule_set
from scoring.hall.origin import Origin
from scoring.models import Evening, Seating, Session

#: The date of the evenings the tests and benchmarks build (a Saturday).
EVENING_DATE = date(2026, 11, 21)


def evening_with_players(
    count: int,
    *,
    name: str = "Testabend",
    on: date = EVENING_DATE,
    player_name: str = "Spieler {n}",
    clubs: int = 5,
    **settings,
) -> Evening:
    """A new evening with ``count`` players of the register checked in.

    Args:
        count: players, numbered 1 to ``count`` in ``player_name`` (``{n}``); a name already in the
            register is that player (the register is the identity across evenings).
        clubs: the players' clubs are "Verein 0" to "Verein clubs-1", in turn.
        settings: further arguments of :func:`scoring.services.create_evening` (format, rule set).
    """
    evening = services.create_evening(name=name, date=on, **settings)
    for n in range(1, count + 1):
        player, _ = services.add_player(name=player_name.format(n=n), club=f"Verein {n % clubs}")
        services.set_checked_in(evening=evening, player=player, checked_in=True)
    return evening


def random_result(rng: random.Random) -> DealResult:
    """A plausible deal: most deals without bonus, sometimes to nil, bonuses from the possible set
    of the default rules (Schwesing)."""
    pairs = sorted(rule_set(DEFAULT).bonus_pairs)
    weights = [12 if pair == (0, 0) else 3 if sum(pair) == 1 else 1 for pair in pairs]
    bonus_a, bonus_b = rng.choices(pairs, weights=weights)[0]
    return DealResult(winner=rng.choice(TEAMS), to_nil=rng.random() < 0.1, bonus_a=bonus_a, bonus_b=bonus_b)


def play_seating(
    seating: Seating,
    rng: random.Random | None = None,
    *,
    result: DealResult | None = None,
    origin: Origin | None = None,
    complete: bool = True,
) -> None:
    """Enter every deal of a seating as its table's scorer would (``result`` each time, else a
    :func:`random_result` from ``rng``), then finish and confirm the round (``complete``)."""
    table = seating.table
    rng = rng or random.Random(seating.pk)
    origin = origin or Origin.demo()
    for number in range(1, seating.round.session.evening.deals_per_round + 1):
        services.enter_deal(
            seating_id=seating.pk, number=number, result=result or random_result(rng), origin=origin, table=table
        )
    if complete:
        services.enter_and_confirm_seating(seating_id=seating.pk, table=table)


def play_round(session: Session, number: int, rng: random.Random | None = None, **deal) -> None:
    """Play round ``number`` of a session at every table (:func:`play_seating`; ``deal``: its
    ``result``, ``origin``, ``complete``)."""
    seatings = Seating.objects.filter(round__session=session, round__number=number)
    for seating in seatings.select_related("table", "round__session__evening").order_by("table__number"):
        play_seating(seating, rng, **deal)


def play_session(session: Session, rng: random.Random | None = None, **deal) -> None:
    """Play every round of a session (:func:`play_round`)."""
    for number in range(1, session.evening.rounds_per_session + 1):
        play_round(session, number, rng, **deal)
