"""Changes to a drawn session: swap two players before play, replace a player who leaves.

Teams of two and of three (six-handed Bräus) alike: a partnership's players are its filled seats
``player_1``, ``player_2`` and ``player_3``; a session has up to two sit-out players."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from scoring.domain.errors import gettext_noop
from scoring.models import (
    Deal,
    Evening,
    Participant,
    PartnerExclusion,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Substitution,
)
from scoring.selectors.history import evening_history
from scoring.services.base import ServiceError, evening_changed, two_players
from scoring.services.draw import SessionStartedError, has_entries, locked_session


@dataclass(frozen=True)
class SwapOutcome:
    """A swap done: the session, and the pairs who are now partners again (from an earlier
    session of the evening), for a warning."""

    session: Session
    repeated_partners: tuple[tuple[str, str], ...]


def _check_wishes(evening: Evening, pairs: Iterable[tuple[int, int]]) -> None:
    """Raise ServiceError if one of the pairs of player ids is a wish "not together"."""
    wanted = {tuple(sorted(pair)) for pair in pairs}
    excluded = set(PartnerExclusion.objects.filter(evening=evening).values_list("player_a_id", "player_b_id"))
    clash = sorted(wanted & excluded)
    if clash:
        names = dict(Player.objects.filter(pk__in=clash[0]).values_list("pk", "name"))
        raise ServiceError(
            gettext_noop('%(first)s and %(second)s must not be partners (wish "not together").'),
            code="wish_not_together",
            first=names[clash[0][0]],
            second=names[clash[0][1]],
        )


def _check_not_started(session: Session, message: str) -> None:
    """Raise SessionStartedError (``message``: a msgid with ``%(number)s``) once a deal of the
    session has been entered or a round confirmed."""
    if has_entries(session):
        raise SessionStartedError(message, code="session_started", number=session.number)


_SLOTS = ("player_1_id", "player_2_id", "player_3_id")
_SLOT_FIELDS = ["player_1", "player_2", "player_3"]


def _team_pairs(team: Partnership) -> list[tuple[int, int]]:
    """Every pair of players in one partnership (one pair, or three in a team of three)."""
    return list(itertools.combinations(team.player_ids, 2))


def _places(partnerships: Iterable[Partnership]) -> dict[int, tuple[Partnership, str]]:
    """Player id -> (their partnership, "player_1_id", "player_2_id" or "player_3_id")."""
    place = {}
    for team in partnerships:
        for slot in _SLOTS:
            if getattr(team, slot) is not None:
                place[getattr(team, slot)] = (team, slot)
    return place


def _check_swap(session: Session, place: dict, a_id: int, b_id: int) -> None:
    """Raise ServiceError unless the two players can swap places in the session: at least one
    plays in it, the other is drawn or checked in, and they are not partners."""
    in_session = set(place) | set(session.sitout_player_ids)
    if a_id not in in_session and b_id not in in_session:
        raise ServiceError(
            gettext_noop("Neither player plays in session %(number)s."),
            code="not_in_session",
            number=session.number,
        )
    for pid in (a_id, b_id):
        if (
            pid not in in_session
            and not Participant.objects.filter(evening=session.evening, player_id=pid, checked_in=True).exists()
        ):
            raise ServiceError(
                gettext_noop("%(name)s is not checked in."),
                code="not_checked_in",
                name=Player.objects.filter(pk=pid).values_list("name", flat=True).first() or pid,
            )
    if a_id in place and b_id in place and place[a_id][0].pk == place[b_id][0].pk:
        raise ServiceError(gettext_noop("These two players are partners already."), code="same_partnership")


def swap_players(*, session_id, player_a_id, player_b_id, user=None) -> SwapOutcome:
    """Swap two players' places for the whole session, before any deal of it is entered.

    Both may play in the session (partners are exchanged between their partnerships, teams of
    two or of three), or one may be one of the session's sit-out players or a checked-in player
    not drawn (a late arrival): that player takes the other's place, who then sits out the
    session or is out of it. A wish "not together" is checked against every new teammate.

    Raises:
        SessionStartedError: a deal of the session has been entered (nothing is changed).
        ServiceError: the same player twice, two partners, neither player in the session, a
            player not checked in, or a wish "not together" broken by the swap.
    """
    a_id, b_id = two_players(player_a_id, player_b_id)
    with transaction.atomic():
        session = locked_session(session_id)
        evening = session.evening
        _check_not_started(
            session,
            gettext_noop(
                "Deals of session %(number)s have already been entered: players can no longer "
                "be swapped. A player who has to leave can be replaced for the remaining rounds."
            ),
        )
        place = _places(Partnership.objects.select_for_update().filter(session=session))
        _check_swap(session, place, a_id, b_id)
        changed = []
        for me, other in ((a_id, b_id), (b_id, a_id)):
            if me in place:
                team, slot = place[me]
                setattr(team, slot, other)
                changed.append(team)
        swapped = {a_id: b_id, b_id: a_id}
        sitters = [f for f in ("sitout_player_id", "sitout_player_2_id") if getattr(session, f) in swapped]
        for field in sitters:
            setattr(session, field, swapped[getattr(session, field)])
        if sitters:
            session.save(update_fields=["sitout_player", "sitout_player_2"])
        pairs = [pair for t in changed for pair in _team_pairs(t)]
        _check_wishes(evening, pairs)
        for team in changed:
            team.save(update_fields=_SLOT_FIELDS)
        earlier = evening_history(evening, exclude=session).for_draw().partners
        repeated = [pair for pair in pairs if frozenset(pair) in earlier]
        names = dict(Player.objects.filter(pk__in={p for pair in repeated for p in pair}).values_list("pk", "name"))
        evening_changed(evening.pk)
        return SwapOutcome(session=session, repeated_partners=tuple((names[x], names[y]) for x, y in repeated))


def _rounds_of(session: Session) -> dict[int, set[int]]:
    """Partnership id -> the numbers of the rounds it plays in the session (seated or sitting out)."""
    rounds_of: dict[int, set[int]] = {}
    for number, team_a, team_b in Seating.objects.filter(round__session=session).values_list(
        "round__number", "team_a_id", "team_b_id"
    ):
        rounds_of.setdefault(team_a, set()).add(number)
        rounds_of.setdefault(team_b, set()).add(number)
    for number, team in Round.objects.filter(session=session, sitout_partnership__isnull=False).values_list(
        "number", "sitout_partnership_id"
    ):
        rounds_of.setdefault(team, set()).add(number)
    return rounds_of


def _leavers_team(session, teams, rounds_of, leaving_id, name) -> Partnership:
    """The partnership the leaver plays in (the last one, if a replacement split an earlier one),
    or ServiceError ``not_playing``."""
    own = [t for t in teams.values() if leaving_id in t.player_ids and rounds_of.get(t.pk)]
    if not own:
        raise ServiceError(
            gettext_noop("%(name)s does not play in session %(number)s."),
            code="not_playing",
            name=name,
            number=session.number,
        )
    return max(own, key=lambda t: max(rounds_of[t.pk]))


def _takeover_round(session, team, rounds: set[int], name) -> int:
    """The first round after the last one in which ``team`` has entered a deal (its first round
    when none), or ServiceError ``nothing_left`` when it has played all its rounds."""
    played = set(
        Deal.objects.filter(
            seating__round__session=session,
        )
        .filter(Q(seating__team_a=team) | Q(seating__team_b=team))
        .values_list("seating__round__number", flat=True)
    )
    from_round = max(played) + 1 if played else min(rounds)
    if from_round > session.evening.rounds_per_session or from_round > max(rounds):
        raise ServiceError(
            gettext_noop(
                "%(name)s's partnership has played all its rounds of session %(number)s: nobody needs to take over."
            ),
            code="nothing_left",
            name=name,
            number=session.number,
        )
    return from_round


def _check_replacement(session, teams, rounds_of, replacement_id, from_round, name) -> None:
    """Raise ServiceError unless the replacement is checked in and plays in no partnership of the
    session from ``from_round`` on."""
    if not Participant.objects.filter(evening=session.evening, player_id=replacement_id, checked_in=True).exists():
        raise ServiceError(gettext_noop("%(name)s is not checked in."), code="not_checked_in", name=name)
    busy = any(replacement_id in t.player_ids and max(rounds_of.get(t.pk, {0})) >= from_round for t in teams.values())
    if busy:
        raise ServiceError(
            gettext_noop(
                "%(name)s plays in session %(number)s already. Choose a stand-in, the player who "
                "sits out this session, or a player who has just arrived."
            ),
            code="replacement_plays",
            name=name,
            number=session.number,
        )


def _hand_over(session, teams, team, leaving_id, replacement_id, from_round, first_round) -> Partnership:
    """Put the replacement in the leaver's seat from ``from_round`` on; returns the partnership
    that plays from then on. Before the partnership's first round the replacement simply takes
    the seat; otherwise a new partnership takes over the later seatings and round sit-outs: the
    remaining partner (or, in a team of three, the two remaining players) and the replacement
    in the leaver's seat."""
    slot = next(slot for slot in _SLOTS if getattr(team, slot) == leaving_id)
    _check_wishes(session.evening, [(other, replacement_id) for other in team.player_ids if other != leaving_id])
    if from_round == first_round:
        setattr(team, slot, replacement_id)
        team.save(update_fields=_SLOT_FIELDS)
        return team
    seats = {field: getattr(team, field) for field in _SLOTS}
    seats[slot] = replacement_id
    after = Partnership.objects.create(session=session, number=max(t.number for t in teams.values()) + 1, **seats)
    later = Seating.objects.filter(round__session=session, round__number__gte=from_round)
    later.filter(team_a=team).update(team_a=after)
    later.filter(team_b=team).update(team_b=after)
    Round.objects.filter(session=session, number__gte=from_round, sitout_partnership=team).update(
        sitout_partnership=after
    )
    return after


def replace_player(*, session_id, leaving_id, replacement_id, user=None) -> Substitution:
    """A player has to leave during a session: another player takes over their seat for the
    remaining rounds, and no result already entered is lost. Works for teams of two and of three
    (six-handed Bräus: the leaver's team goes on with its two other players and the replacement).

    The replacement takes over from the first round after the last one in which the leaver's
    partnership has entered a deal (a round begun stays with the leaver). From that round on,
    the seatings and round sit-outs of the partnership point to a new partnership of the
    remaining partner and the replacement; the rounds before keep the old one. So the leaver
    keeps the matchsticks of the rounds they played, the replacement (if ranked) gets the later
    rounds, and the sit-out credit follows whoever sits out. The leaver is checked out.

    The replacement must be checked in and not play in the session from that round on: a
    stand-in, one of the session's sit-out players, or a player who arrived late.

    Raises:
        ServiceError: nothing entered in the session yet (``use_swap``: swap or draw again
            instead), the leaver does not play in the session or has finished it, the
            replacement is not checked in or already plays, or a wish "not together" is broken.
    """
    leaving_id, replacement_id = two_players(leaving_id, replacement_id)
    with transaction.atomic():
        session = locked_session(session_id)
        if not has_entries(session):
            raise ServiceError(
                gettext_noop(
                    "Nothing has been entered in session %(number)s yet: swap the players instead "
                    "(or draw the session again)."
                ),
                code="use_swap",
                number=session.number,
            )
        names = dict(Player.objects.filter(pk__in=(leaving_id, replacement_id)).values_list("pk", "name"))
        if len(names) < 2:
            raise ServiceError(gettext_noop("Please choose two players."), code="players_missing")
        rounds_of = _rounds_of(session)
        teams = {t.pk: t for t in Partnership.objects.select_for_update().filter(session=session)}
        team = _leavers_team(session, teams, rounds_of, leaving_id, names[leaving_id])
        from_round = _takeover_round(session, team, rounds_of[team.pk], names[leaving_id])
        _check_replacement(session, teams, rounds_of, replacement_id, from_round, names[replacement_id])
        after = _hand_over(session, teams, team, leaving_id, replacement_id, from_round, min(rounds_of[team.pk]))
        Participant.objects.filter(evening=session.evening, player_id=leaving_id).update(checked_in=False)
        substitution = Substitution.objects.create(
            session=session,
            from_round=from_round,
            leaving_id=leaving_id,
            replacement_id=replacement_id,
            partnership_before=team,
            partnership_after=after,
            created_by=user,
        )
        evening_changed(session.evening_id)
        return substitution
