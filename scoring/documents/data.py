"""The plain data the session documents print, and the loaders that fetch it.

The builders (score sheets, table lists, route cards) take a :class:`SessionPlan`: who plays
with whom at which table in every round, every player's seat per round, and optionally what has
been entered. It is built from the evening's history (:func:`scoring.selectors.history.evening_history`,
the one loader of who sits where and who sits out) without further queries; only the loader in
this module touches the database, with a fixed number of queries whatever the number of players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from django.utils.translation import get_language, gettext

from scoring.domain.names import display_names, person_key
from scoring.models import Deal, Evening, Participant, Player
from scoring.selectors.history import EveningHistory, Seat, evening_history


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
class PartnershipRef:
    """A partnership as printed: the players (two, or three in six-handed Bräus) who play together
    for the whole session."""

    number: int
    players: tuple[PlayerRef, ...]

    @property
    def label(self) -> str:
        return " & ".join(p.label for p in self.players)


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
class TablePlan:
    """One table in one round: its two teams, the scorer's link and the deals entered so far."""

    table: int
    team_a: PartnershipRef
    team_b: PartnershipRef
    scorer_url: str
    deals: tuple[DealLine, ...] = ()


@dataclass(frozen=True)
class RoundPlan:
    """One round: its tables, the sit-out partnership, and which of the session's sit-out players
    (none, one, or two in six-handed Bräus) sit it out (no longer once one has replaced a player
    who left)."""

    number: int
    tables: tuple[TablePlan, ...]
    sitout: PartnershipRef | None = None
    session_sitters: tuple[PlayerRef, ...] = ()

    @property
    def session_sitter_sits_out(self) -> bool:
        """At least one of the session's sit-out players sits this round out."""
        return bool(self.session_sitters)


@dataclass(frozen=True)
class SessionPlan:
    """A drawn session as printed; ``sitout_players``: who sits out the whole session (the
    players left over by the teams: one with teams of two, up to two with teams of three);
    ``seats``: each player's seat per round (:meth:`scoring.selectors.history.EveningHistory.seats`,
    partners and opponents printed)."""

    number: int
    deals_per_round: int
    rounds: tuple[RoundPlan, ...]
    partnerships: tuple[PartnershipRef, ...]
    sitout_players: tuple[PlayerRef, ...] = ()
    seats: Mapping[PlayerRef, tuple[Seat[PlayerRef], ...]] = field(default_factory=dict)


def person_sort_key(player: PlayerRef) -> tuple:
    """The German alphabetical order of people (:func:`scoring.domain.names.person_key`)."""
    return person_key(player.name, player.club, player.id, get_language())


def player_ref(
    pk: int, name: str, club: str, stand_ins: frozenset[int] = frozenset(), names: dict[int, str] | None = None
) -> PlayerRef:
    """The player ``pk`` (``name``, ``club``) as printed: the evening's display name (``names``,
    see :func:`scoring.selectors.evening_display_names`), a stand-in (plays, is not ranked)
    marked "(Ersatz)" after the name."""
    shown = (names or {}).get(pk, name)
    if pk in stand_ins:
        marker = gettext("(stand-in)")  # a literal call: makemessages finds it
        shown = f"{shown} {marker}"
    return PlayerRef(id=pk, name=name, club=club, shown=shown)


def session_plan(
    history: EveningHistory,
    number: int,
    *,
    people: Mapping[int, PlayerRef],
    deals_per_round: int,
    scorer_url: Callable[[str], str],
    deals: Mapping[int, Iterable[DealLine]] | None = None,
) -> SessionPlan | None:
    """Session ``number`` of the loaded history (no query here) as a :class:`SessionPlan`, None
    when it is not in the history (not drawn).

    Args:
        people: player id -> the player as printed (:func:`player_ref`).
        scorer_url: table token -> the absolute URL of the table's scorer page.
        deals: seating id -> its entered deals, for filled score sheets; None for none.
    """
    session_id = next((sid for sid, n in history.sessions.items() if n == number), None)
    if session_id is None:
        return None
    deals = deals or {}
    teams = {
        p.id: PartnershipRef(p.number, tuple(people[pid] for pid in p.players))
        for p in history.partnerships
        if p.session_id == session_id
    }
    sitters = history.sitters.get(session_id, ())
    rounds = []
    for round_ in history.session_rounds(session_id):
        tables = tuple(
            TablePlan(
                table=t.table,
                team_a=teams[t.team_a_id],
                team_b=teams[t.team_b_id],
                scorer_url=scorer_url(t.token),
                deals=tuple(sorted(deals.get(t.seating_id, ()), key=lambda d: d.number)),
            )
            for t in round_.tables
        )
        rounds.append(
            RoundPlan(
                number=round_.number,
                tables=tables,
                sitout=teams[round_.sitout_team_id] if round_.sitout_team_id is not None else None,
                session_sitters=tuple(people[p] for p in sitters if p in round_.sitters),
            )
        )
    seats = {
        people[pid]: tuple(seat.named(people) for seat in player_seats)
        for pid, player_seats in history.seats(session_id).items()
    }
    return SessionPlan(
        number=number,
        deals_per_round=deals_per_round,
        rounds=tuple(rounds),
        partnerships=tuple(teams.values()),
        sitout_players=tuple(people[p] for p in sitters),
        seats=seats,
    )


def seats_by_player(plan: SessionPlan) -> dict[PlayerRef, tuple[Seat[PlayerRef], ...]]:
    """Every player of the session with their seat in each round they play or sit out, in round
    order (worked out by :meth:`scoring.selectors.history.RoundHistory.seats`)."""
    return dict(plan.seats)


def partners_of(plan: SessionPlan) -> dict[PlayerRef, tuple[PlayerRef, ...]]:
    """Each player's partners for the session (one, or two in a team of three, in seat order):
    those of their last seat with partners (after a replacement, the partners they play with
    now); () for a player who sits out the whole session."""
    return {
        player: next((s.partners for s in reversed(seats) if s.partners), ()) for player, seats in plan.seats.items()
    }


def partner_of(plan: SessionPlan) -> dict[PlayerRef, PlayerRef | None]:
    """Each player's (first) partner for the session (:func:`partners_of`); None for a player who
    sits out the whole session."""
    return {player: partners[0] if partners else None for player, partners in partners_of(plan).items()}


# --- Loaders (the only queries) --------------------------------------------------------------


def load_session_plan(
    evening: Evening, number: int, *, scorer_url: Callable[[str], str], with_deals: bool = False
) -> SessionPlan | None:
    """The plan of session ``number`` of the evening, None if it has not been drawn.

    Queries: those of :func:`scoring.selectors.history.evening_history` for the one session, one
    for the evening's players (stand-ins, names that collide), plus one for the deals.
    """
    history = evening_history(evening, sessions=(number,))
    if not history.sessions:
        return None
    deals: dict[int, list[DealLine]] = defaultdict(list)
    if with_deals:
        for d in Deal.objects.filter(seating__round__session__evening=evening, seating__round__session__number=number):
            deals[d.seating_id].append(
                DealLine(d.number, d.winner, d.to_nil, d.bonus_a, d.bonus_b, d.points_a, d.points_b)
            )
    rows = list(
        Participant.objects.filter(evening=evening).values_list(
            "player_id", "is_stand_in", "player__name", "player__club"
        )
    )
    stand_ins = frozenset(pid for pid, stand_in, _, _ in rows if stand_in)
    names = display_names((pid, name, club) for pid, _, name, club in rows)
    people = {pid: player_ref(pid, name, club, stand_ins, names) for pid, _, name, club in rows}
    drawn = {pid for p in history.partnerships for pid in p.players} | {
        pid for sitters in history.sitters.values() for pid in sitters
    }
    if missing := drawn - people.keys():  # not a participant of the evening (never in normal use)
        people.update(
            {
                pk: player_ref(pk, name, club, stand_ins, names)
                for pk, name, club in Player.objects.filter(pk__in=missing).values_list("pk", "name", "club")
            }
        )
    return session_plan(
        history,
        number,
        people=people,
        deals_per_round=evening.deals_per_round,
        scorer_url=scorer_url,
        deals=deals,
    )
