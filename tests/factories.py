"""The builders the tests enter deals and build evenings with, through the services (one
transaction each, the rules checked), as the pages and the tablets do.

- an evening with players checked in: :func:`evening` (``tests/conftest.py``: the fixtures
  ``evening_factory`` and ``roster_evening``, the real Schwesing roster);
- a drawn session and one of its seatings: :func:`draw`, :func:`seating` (the fixture ``seating``
  in ``tests/conftest.py``: table 1, round 1 of the roster evening drawn with seed 1);
- a deal: :func:`enter_deal` (``winner`` and the bonuses, or a ``result``), as the table's scorer
  by default, as an organiser with ``user=``, or with neither (``table=None``); several deals with
  given results: :func:`enter_deals`;
- a round or a session played to its end: :func:`enter_round`, and the domain builders
  :func:`scoring.setup.builders.play_round` / ``play_session`` (random plausible deals, the demo's
  and the benchmarks' builders too).
"""

from __future__ import annotations

from typing import Any

from scoring import services
from scoring.domain.rules import DealResult
from scoring.hall.origin import Origin
from scoring.models import Deal, Evening, Seating, Session, Table
from scoring.setup.builders import evening_with_players, play_round, play_seating, play_session

__all__ = [
    "A_WINS",
    "B_WINS",
    "draw",
    "enter_deal",
    "enter_deals",
    "enter_round",
    "evening",
    "play_round",
    "play_seating",
    "play_session",
    "seating",
]

#: Team A wins the deal, no bonus, not to nil (2:0 in the default rules).
A_WINS = DealResult(winner="A", to_nil=False, bonus_a=0, bonus_b=0)
#: Team B wins the deal, no bonus, not to nil.
B_WINS = DealResult(winner="B", to_nil=False, bonus_a=0, bonus_b=0)

#: :func:`enter_deal`'s default ``table``: the seating's own table (entered through its table link).
AT_ITS_TABLE: Any = object()


def evening(player_count: int, **settings) -> Evening:
    """An evening with ``player_count`` players checked in ('Spieler 1' ...; ``settings``: those of
    :func:`scoring.setup.builders.evening_with_players`, e.g. ``rule_set``, ``name``)."""
    return evening_with_players(player_count, **settings)


def draw(evening: Evening, seed: int = 1, **how) -> Session:
    """The evening's next session drawn with ``seed`` (``how``: ``user``, ``number``)."""
    return services.draw_session(evening=evening, seed=seed, **how)


def seating(evening: Evening, table: int = 1, round: int = 1, session: int | None = None) -> Seating:
    """The seating at table ``table`` in round ``round`` of session ``session`` (the latest drawn
    when None), its table, round, session and evening loaded."""
    seatings = Seating.objects.select_related("table", "round__session__evening").filter(
        table__evening=evening, table__number=table, round__number=round
    )
    if session is None:
        return seatings.latest("round__session__number")
    return seatings.get(round__session__number=session)


def enter_deal(
    seating: Seating,
    number: int = 1,
    winner: str = "A",
    *,
    to_nil: bool = False,
    bonus_a: int = 0,
    bonus_b: int = 0,
    result: DealResult | None = None,
    table: Table | None = AT_ITS_TABLE,
    user=None,
    origin: Origin | None = None,
    **how,
) -> Deal:
    """Enter deal ``number`` of ``seating`` through :func:`scoring.services.enter_deal`.

    Args:
        winner, to_nil, bonus_a, bonus_b: the result; or ``result`` (a DealResult) instead.
        table: entered through this table's link; by default the seating's own table, unless an
            organiser enters it (``user``); None: neither a table nor an organiser (as an import).
        user: the organiser entering it from an organiser page (then no table by default).
        origin: where the change comes from; by default the table link of ``table``, the
            organiser ``user``, or "Test".
        how: the other arguments of the service: ``reason``, ``accept_impossible``, ``key``,
            ``based_on_version``, ``client``.

    Returns:
        The saved Deal (its ``outcome``). Raises what the service raises (ServiceError,
        ImpossibleResult, ConflictError).
    """
    if table is AT_ITS_TABLE:
        table = None if user is not None else seating.table
    if origin is None:
        if table is not None:
            origin = Origin.table_link(table.number)
        elif user is not None:
            origin = Origin.organiser(user)
        else:
            origin = Origin.other("Test")
    result = result or DealResult(winner=winner, to_nil=to_nil, bonus_a=bonus_a, bonus_b=bonus_b)
    return services.enter_deal(
        seating_id=seating.pk, number=number, result=result, origin=origin, user=user, table=table, **how
    )


def enter_deals(seating: Seating, results, **how) -> list[Deal]:
    """Enter deals 1, 2, ... of ``seating`` with ``results`` in turn: DealResults or tuples
    ``(winner, to_nil, bonus_a, bonus_b)`` (``how``: as :func:`enter_deal`)."""
    return [
        enter_deal(seating, number, result=result if isinstance(result, DealResult) else DealResult(*result), **how)
        for number, result in enumerate(results, start=1)
    ]


def enter_round(
    seating: Seating, result: DealResult = A_WINS, *, deals: int | None = None, finish: bool = False, **how
) -> None:
    """Enter the first ``deals`` deals of ``seating`` (all of them when None) with ``result`` each
    (``how``: as :func:`enter_deal`); ``finish``: then the table finishes and confirms the round
    (:func:`scoring.services.enter_and_confirm_seating`)."""
    count = seating.round.session.evening.deals_per_round if deals is None else deals
    for number in range(1, count + 1):
        enter_deal(seating, number, result=result, **how)
    if finish:
        services.enter_and_confirm_seating(seating_id=seating.pk, table=seating.table)
