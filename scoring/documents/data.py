"""The plain data the session documents print, and the loaders that fetch it.

The builders (score sheets, table lists, route cards) take a :class:`SessionPlan`: who plays
with whom at which table in every round, and optionally what has been entered. It is built from
:func:`scoring.selectors.sessions_with_rounds` without further queries; only the loaders in this
module touch the database, with a fixed number of queries whatever the number of players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.translation import gettext

from scoring import selectors
from scoring.domain.names import display_names, person_key
from scoring.models import Deal, Evening, Participant, Partnership, Player, Session


@dataclass(frozen=True)
class PlayerRef:
    """A player as printed. ``name`` and ``club`` as registered (they decide the order);
    ``shown`` is the name as printed (:attr:`label`): with the club when another player of the
    evening has the same name, with "(Ersatz)" for a stand-in."""

    id: int
    name: str
    club: str = ""
    shown: str = ""

    @property
    def label(self) -> str:
        return self.shown or self.name


@dataclass(frozen=True)
class Team:
    """A partnership: two players who play together for the whole session."""

    number: int
    players: tuple[PlayerRef, PlayerRef]

    @property
    def label(self) -> str:
        return f"{self.players[0].label} & {self.players[1].label}"


@dataclass(frozen=True)
class DealLine:
    """An entered deal: team that reached five tricks, to nil, bonuses and matchsticks."""

    number: int
    winner: str
    to_nil: bool
    bonus_a: int
    bonus_b: int
    points_a: int
    points_b: int


@dataclass(frozen=True)
class TableSeat:
    """One table in one round: its two teams, the scorer's link and the deals entered so far."""

    table: int
    team_a: Team
    team_b: Team
    scorer_url: str
    deals: tuple[DealLine, ...] = ()


@dataclass(frozen=True)
class RoundPlan:
    number: int
    tables: tuple[TableSeat, ...]
    sitout: Team | None = None


@dataclass(frozen=True)
class SessionPlan:
    number: int
    deals_per_round: int
    rounds: tuple[RoundPlan, ...]
    partnerships: tuple[Team, ...]
    sitout_player: PlayerRef | None = None


@dataclass(frozen=True)
class Seat:
    """Where one player is in one round: table and partner, or sitting out."""

    round: int
    table: int | None
    partner: PlayerRef | None

    @property
    def sits_out(self) -> bool:
        return self.table is None


def person_sort_key(player: PlayerRef) -> tuple:
    """The German alphabetical order of people (:func:`scoring.domain.names.person_key`)."""
    return person_key(player.name, player.club, player.id)


def player_ref(
    player: Player, stand_ins: frozenset[int] = frozenset(), names: dict[int, str] | None = None
) -> PlayerRef:
    """The player as printed: the evening's display name (``names``, see
    :func:`scoring.selectors.evening_display_names`), a stand-in (plays, is not ranked) marked
    "(Ersatz)" after the name."""
    shown = (names or {}).get(player.pk, player.name)
    if player.pk in stand_ins:
        shown = f"{shown} {gettext('(stand-in)')}"
    return PlayerRef(id=player.pk, name=player.name, club=player.club, shown=shown)


def team(
    partnership: Partnership, stand_ins: frozenset[int] = frozenset(), names: dict[int, str] | None = None
) -> Team:
    return Team(
        partnership.number,
        (player_ref(partnership.player_1, stand_ins, names), player_ref(partnership.player_2, stand_ins, names)),
    )


def session_plan(
    session: Session,
    *,
    deals_per_round: int,
    scorer_url: Callable[[str], str],
    deals: dict[int, Iterable[Deal]] | None = None,
    stand_ins: frozenset[int] = frozenset(),
    names: dict[int, str] | None = None,
) -> SessionPlan:
    """A session as loaded by :func:`scoring.selectors.sessions_with_rounds` (everything
    prefetched, no query here) as a :class:`SessionPlan`.

    Args:
        scorer_url: table token -> the absolute URL of the table's scorer page.
        deals: seating id -> its entered deals, for filled score sheets; None for none.
        stand_ins: ids of the evening's stand-ins, printed as "Name (Ersatz)".
        names: player id -> name as printed (club added where names collide in the evening).
    """
    deals = deals or {}
    rounds = []
    for round_ in session.rounds.all():
        tables = tuple(
            TableSeat(
                table=s.table.number,
                team_a=team(s.team_a, stand_ins, names),
                team_b=team(s.team_b, stand_ins, names),
                scorer_url=scorer_url(s.table.token),
                deals=tuple(
                    DealLine(d.number, d.winner, d.to_nil, d.bonus_a, d.bonus_b, d.points_a, d.points_b)
                    for d in sorted(deals.get(s.pk, ()), key=lambda d: d.number)
                ),
            )
            for s in sorted(round_.seatings.all(), key=lambda s: s.table.number)
        )
        sitout = team(round_.sitout_partnership, stand_ins, names) if round_.sitout_partnership else None
        rounds.append(RoundPlan(number=round_.number, tables=tables, sitout=sitout))
    rounds.sort(key=lambda r: r.number)
    return SessionPlan(
        number=session.number,
        deals_per_round=deals_per_round,
        rounds=tuple(rounds),
        partnerships=tuple(team(p, stand_ins, names) for p in session.partnerships.all()),
        sitout_player=player_ref(session.sitout_player, stand_ins, names) if session.sitout_player else None,
    )


def seats_by_player(plan: SessionPlan) -> dict[PlayerRef, list[Seat]]:
    """Every player of the session with their seat in each round, in round order."""
    seats: dict[PlayerRef, list[Seat]] = defaultdict(list)
    for round_ in plan.rounds:
        for t in round_.tables:
            for pair in (t.team_a.players, t.team_b.players):
                seats[pair[0]].append(Seat(round_.number, t.table, pair[1]))
                seats[pair[1]].append(Seat(round_.number, t.table, pair[0]))
        if round_.sitout:
            a, b = round_.sitout.players
            seats[a].append(Seat(round_.number, None, b))
            seats[b].append(Seat(round_.number, None, a))
        if plan.sitout_player:
            seats[plan.sitout_player].append(Seat(round_.number, None, None))
    return dict(seats)


def partner_of(plan: SessionPlan) -> dict[PlayerRef, PlayerRef | None]:
    """Each player's partner for the session (None for a player who sits out the whole session)."""
    partners: dict[PlayerRef, PlayerRef | None] = {}
    for t in plan.partnerships:
        partners[t.players[0]] = t.players[1]
        partners[t.players[1]] = t.players[0]
    if plan.sitout_player:
        partners[plan.sitout_player] = None
    return partners


# --- Loaders (the only queries) --------------------------------------------------------------


def load_session_plan(
    evening: Evening, number: int, *, scorer_url: Callable[[str], str], with_deals: bool = False
) -> SessionPlan | None:
    """The plan of session ``number`` of the evening, None if it has not been drawn.

    Queries: those of :func:`scoring.selectors.sessions_with_rounds`, one for the evening's players
    (stand-ins, names that collide), plus one for the deals.
    """
    session = next(iter(selectors.sessions_with_rounds(evening, number)), None)
    if session is None:
        return None
    deals: dict[int, list[Deal]] = defaultdict(list)
    if with_deals:
        for deal in Deal.objects.filter(seating__round__session=session).order_by("seating_id", "number"):
            deals[deal.seating_id].append(deal)
    people = list(
        Participant.objects.filter(evening=evening).values_list(
            "player_id", "is_stand_in", "player__name", "player__club"
        )
    )
    stand_ins = frozenset(pid for pid, stand_in, _, _ in people if stand_in)
    names = display_names((pid, name, club) for pid, _, name, club in people)
    return session_plan(
        session,
        deals_per_round=evening.deals_per_round,
        scorer_url=scorer_url,
        deals=deals,
        stand_ins=stand_ins,
        names=names,
    )
