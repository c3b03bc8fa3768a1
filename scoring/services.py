"""Write operations of Bruus Turnier, one transaction each.

Views call these functions and nothing else to change data. Bad input raises
:class:`~scoring.domain.errors.DomainError` (or a subclass) whose message the view translates;
because each service runs in one transaction, an error saves nothing half.
"""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from scoring.domain import draw as draw_domain
from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.player_import import (
    BIDI_CONTROL_MESSAGE,
    ParsedPlayer,
    find_bidi_control,
    match_key,
    normalise_name,
)
from scoring.domain.rules import DealResult, ImpossibleResult, score_accepted, score_deal
from scoring.models import (
    Deal,
    DealChange,
    Evening,
    PartnerExclusion,
    Participant,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Substitution,
    Table,
    new_table_token,
)
from scoring.parsing import ascii_int
from scoring.table_codes import new_table_code

class ServiceError(DomainError):
    """A request the current state of the evening does not allow (message is a msgid)."""


# --- Player register -------------------------------------------------------------------------


def _checked_name(name: str, club: str) -> tuple[str, str]:
    """Name and club normalised (``normalise_name``), or ServiceError: empty name, longer than
    100 characters, or a character that changes the writing direction."""
    name, club = normalise_name(name), normalise_name(club)
    if not name:
        raise ServiceError(gettext_noop("Please enter the player's name."), code="name_missing")
    if len(name) > 100 or len(club) > 100:
        raise ServiceError(
            gettext_noop("Name and club may have at most 100 characters each."), code="too_long"
        )
    bidi = find_bidi_control(name + club)
    if bidi is not None:
        raise ServiceError(BIDI_CONTROL_MESSAGE, code="bidi_control", character=f"{ord(bidi):04X}")
    return name, club


def add_player(*, name: str, club: str = "") -> tuple[Player, bool]:
    """Add a player to the register, or find the one already there.

    Args:
        name: full name; whitespace is normalised, markup and quotes are kept literally.
        club: club or village, may be empty.

    Returns:
        ``(player, created)``; ``created`` is False when a player with the same name and club
        (ignoring case and extra spaces) was already registered.

    Raises:
        ServiceError: empty name, name/club longer than 100 characters, or a character that
            changes the writing direction (it can make a name look like another).
    """
    name, club = _checked_name(name, club)
    existing = Player.objects.filter(match_key=match_key(name, club)).first()
    if existing:
        return existing, False
    with transaction.atomic():
        return Player.objects.create(name=name, club=club), True


@transaction.atomic
def update_player(*, player_id: int, name: str, club: str = "") -> Player:
    """Correct a player's name or club (e.g. a typo); every evening shows the corrected name.

    Raises:
        Player.DoesNotExist: no such player.
        ServiceError: empty name, longer than 100 characters, or another player in the register
            already has this name and club.
    """
    player = Player.objects.select_for_update().get(pk=player_id)
    name, club = _checked_name(name, club)
    if Player.objects.filter(match_key=match_key(name, club)).exclude(pk=player.pk).exists():
        raise ServiceError(
            gettext_noop("%(name)s (%(club)s) is already in the register."),
            code="duplicate_player",
            name=name,
            club=club or "–",
        )
    player.name, player.club = name, club
    player.save()
    return player


@dataclass(frozen=True)
class ImportOutcome:
    """Counts of an import: players created, and players already in the register."""

    created: int
    existing: int
    checked_in: int


@transaction.atomic
def import_players(
    players: Iterable[ParsedPlayer], *, check_in_to: Evening | None = None
) -> ImportOutcome:
    """Save parsed player rows to the register in one transaction.

    Players already registered (same name and club, ignoring case and spacing) are recognised
    and not duplicated. With ``check_in_to``, every imported player is also checked in for that
    evening.
    """
    rows = list(players)
    keys = {match_key(p.name, p.club): p for p in rows}
    known = {p.match_key: p for p in Player.objects.filter(match_key__in=keys)}
    created = [
        Player(name=p.name, club=p.club, match_key=key) for key, p in keys.items() if key not in known
    ]
    Player.objects.bulk_create(created)
    checked_in = 0
    if check_in_to is not None:
        all_players = Player.objects.filter(match_key__in=keys)
        for player in all_players:
            Participant.objects.update_or_create(
                evening=check_in_to, player=player, defaults={"checked_in": True}
            )
            checked_in += 1
    return ImportOutcome(created=len(created), existing=len(keys) - len(created), checked_in=checked_in)


# --- Evening --------------------------------------------------------------------------------


def create_evening(
    *, name: str, date, venue: str = "", sessions_count: int = 3, rounds_per_session: int = 4,
    deals_per_round: int = 4, language: str = "",
) -> Evening:
    """Create an evening (default 3 sessions of 4 rounds of 4 deals, DOMAIN.md).

    ``language``: the language of its printouts, public screens and tablets (a code of
    ``settings.LANGUAGES``; empty: the default, German)."""
    evening = Evening(
        name=name.strip(),
        date=date,
        venue=venue.strip(),
        sessions_count=sessions_count,
        rounds_per_session=rounds_per_session,
        deals_per_round=deals_per_round,
    )
    if language:
        evening.language = language
    evening.full_clean()
    evening.save()
    return evening


@transaction.atomic
def set_checked_in(*, evening: Evening, player: Player, checked_in: bool) -> Participant:
    """Check a player in for the evening (present for the next draw), or out again."""
    participant, _ = Participant.objects.update_or_create(
        evening=evening, player=player, defaults={"checked_in": checked_in}
    )
    return participant


# --- Draw -----------------------------------------------------------------------------------


class SessionStartedError(ServiceError):
    """The session has entered deals: it can no longer be drawn again or rearranged."""


def _history(evening: Evening, *, exclude: Session | None = None) -> draw_domain.History:
    """The evening's partners, opponents and sit-outs so far, for the draw (5 queries).

    Partnerships split by a replacement count both ways (the leaver and the replacement were
    both the remaining player's partner). The session's sit-out player counts a round only
    when not seated in it (they may have replaced a leaver). ``exclude``: a session to leave
    out (the one being drawn again).
    """
    sessions = Session.objects.filter(evening=evening)
    if exclude is not None:
        sessions = sessions.exclude(pk=exclude.pk)
    team_players = {
        p["id"]: (p["player_1"], p["player_2"])
        for p in Partnership.objects.filter(session__in=sessions).values("id", "player_1", "player_2")
    }
    partners = frozenset(frozenset(pair) for pair in team_players.values())
    opponents: dict[frozenset[int], int] = {}
    seated: dict[int, set[int]] = {}
    for s in Seating.objects.filter(round__session__in=sessions).values("round_id", "team_a_id", "team_b_id"):
        team_a, team_b = team_players[s["team_a_id"]], team_players[s["team_b_id"]]
        seated.setdefault(s["round_id"], set()).update(team_a + team_b)
        for a in team_a:
            for b in team_b:
                key = frozenset((a, b))
                opponents[key] = opponents.get(key, 0) + 1
    session_sitter = dict(sessions.filter(sitout_player__isnull=False).values_list("id", "sitout_player_id"))
    sitouts: dict[int, int] = {}
    for r in Round.objects.filter(session__in=sessions).values("id", "session_id", "sitout_partnership_id"):
        sitters = set(team_players[r["sitout_partnership_id"]]) if r["sitout_partnership_id"] else set()
        if r["session_id"] in session_sitter:
            sitters.add(session_sitter[r["session_id"]])
        for pid in sorted(sitters):
            if pid not in seated.get(r["id"], ()):
                sitouts[pid] = sitouts.get(pid, 0) + 1
    return draw_domain.History(partners=partners, opponents=opponents, sitouts=sitouts)


def _draw_inputs(evening: Evening) -> dict:
    """The draw's keyword arguments from the evening: the players checked in, the stand-ins,
    the wishes "not together" and, with "mix clubs", every player's club (2 queries)."""
    present = list(
        Participant.objects.filter(evening=evening, checked_in=True).values_list(
            "player_id", "is_stand_in", "player__club"
        )
    )
    return {
        "players": sorted(pid for pid, _, _ in present),
        "stand_ins": sorted(pid for pid, stand_in, _ in present if stand_in),
        "forbidden": list(
            PartnerExclusion.objects.filter(evening=evening).values_list("player_a_id", "player_b_id")
        ),
        "clubs": {pid: club for pid, _, club in present} if evening.mix_clubs else None,
    }


def _run_draw(evening: Evening, history: draw_domain.History, seed: int) -> draw_domain.SessionDraw:
    """The pure draw with the evening's players and wishes; a DrawError names the players."""
    inputs = _draw_inputs(evening)
    players = inputs.pop("players")
    try:
        return draw_domain.draw_session(
            players, history, evening.rounds_per_session, random.Random(seed), **inputs
        )
    except draw_domain.DrawError as error:
        raise _with_names(error) from None


def _with_names(error: draw_domain.DrawError) -> draw_domain.DrawError:
    """The same error with player names instead of ids in its message's placeholders."""
    if not error.player_ids:
        return error
    ids = {pid for group in error.player_ids.values() for pid in group}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    params = dict(error.params)
    for key, group in error.player_ids.items():
        params[key] = ", ".join(names.get(pid, str(pid)) for pid in group)
    named = draw_domain.DrawError(error.message, code=error.code, **params)
    named.player_ids = error.player_ids
    return named


def session_is_complete(session: Session) -> bool:
    """True when every seating of every round of the session has been completed."""
    return not Seating.objects.filter(round__session=session, completed_at__isnull=True).exists()


_DRAW_RACE = gettext_noop(
    "Session %(number)s has just been drawn (by someone else or by a second click). "
    "Please reload the page."
)


def draw_session(
    *, evening: Evening, user=None, seed: int | None = None, number: int | None = None
) -> Session:
    """Draw the evening's next session: partnerships, and for each round the tables and sit-outs.

    Uses exactly the players checked in now, the stand-ins, the wishes "not together" and the
    evening's "mix clubs" option; the history of the sessions before (partners, opponents,
    sit-outs) counts, also for players who have left since.

    Args:
        evening: the evening.
        user: the organiser who draws (recorded).
        seed: the random seed; a fresh one when None. Stored on the session and shown, so the
            same seed and players reproduce the draw exactly.
        number: the session the organiser meant to draw (the page sends it). If it has been
            drawn meanwhile (a second click, a second organiser), nothing happens and a clear
            message says so.

    Returns:
        The new Session with its partnerships, rounds and seatings saved.

    Raises:
        ServiceError: all sessions are drawn already, the previous session is not complete,
            the session has just been drawn (``draw_race``).
        DrawError: too few players, or the wishes "not together" make a draw impossible (the
            message names the players).
    """
    try:
        with transaction.atomic():
            return _draw_session(evening, user, seed, number)
    except IntegrityError:  # a backstop: the evening's row lock serialises draws
        raise ServiceError(
            _DRAW_RACE, code="draw_race", number=number or evening.sessions.count()
        ) from None


def _draw_session(evening: Evening, user, seed: int | None, wanted: int | None) -> Session:
    # One draw at a time per evening: a second request waits here, then sees the new session.
    evening = Evening.objects.select_for_update().get(pk=evening.pk)
    previous = list(evening.sessions.order_by("number"))
    number = len(previous) + 1
    if wanted is not None and wanted < number:
        raise ServiceError(_DRAW_RACE, code="draw_race", number=wanted)
    if number > evening.sessions_count:
        raise ServiceError(
            gettext_noop("All %(count)s sessions of this evening have been drawn already."),
            code="all_drawn",
            count=evening.sessions_count,
        )
    if previous and not session_is_complete(previous[-1]):
        raise ServiceError(
            gettext_noop(
                "Session %(number)s is not complete yet: every table must finish its rounds "
                "before the next session is drawn."
            ),
            code="previous_incomplete",
            number=previous[-1].number,
        )
    seed = secrets.randbits(48) if seed is None else seed
    result = _run_draw(evening, _history(evening), seed)
    session = Session.objects.create(
        evening=evening, number=number, seed=seed, sitout_player_id=result.sitout_player, drawn_by=user
    )
    _save_draw(evening, session, result)
    return session


def _save_draw(evening: Evening, session: Session, result: draw_domain.SessionDraw) -> None:
    """Save a drawn session's partnerships, rounds and seatings."""
    partnerships = Partnership.objects.bulk_create(
        Partnership(session=session, number=i + 1, player_1_id=a, player_2_id=b)
        for i, (a, b) in enumerate(result.partnerships)
    )
    table_count = max(len(r.tables) for r in result.rounds)
    tables = _ensure_tables(evening, table_count)
    for round_draw in result.rounds:
        sitout = round_draw.sitout_partnership
        round_ = Round.objects.create(
            session=session,
            number=round_draw.number,
            sitout_partnership=partnerships[sitout] if sitout is not None else None,
        )
        Seating.objects.bulk_create(
            Seating(
                round=round_,
                table=tables[t.number],
                team_a=partnerships[t.team_a],
                team_b=partnerships[t.team_b],
            )
            for t in round_draw.tables
        )


def _ensure_tables(evening: Evening, count: int) -> dict[int, Table]:
    existing = {t.number: t for t in evening.tables.all()}
    missing = [Table(evening=evening, number=n) for n in range(1, count + 1) if n not in existing]
    for table in Table.objects.bulk_create(missing):
        existing[table.number] = table
    return existing


# --- The organiser's wishes for the draw, and changes to a drawn session ----------------------


@transaction.atomic
def set_stand_in(*, evening: Evening, player: Player, stand_in: bool) -> Participant:
    """Mark a player as a stand-in for the evening (Ersatzspieler: plays to fill a table, is not
    ranked) or as a ranked player again. A new stand-in is also checked in."""
    participant, created = Participant.objects.get_or_create(
        evening=evening, player=player, defaults={"checked_in": True, "is_stand_in": stand_in}
    )
    if not created and participant.is_stand_in != stand_in:
        participant.is_stand_in = stand_in
        participant.save(update_fields=["is_stand_in"])
    return participant


@transaction.atomic
def set_mix_clubs(*, evening_id: int, mix: bool) -> Evening:
    """Switch the option "mix clubs" for the following draws."""
    return _set_flag(Evening, evening_id, "mix_clubs", mix)


def add_partner_exclusion(*, evening: Evening, player_a_id, player_b_id) -> tuple[PartnerExclusion, bool]:
    """Record the wish that two players are never drawn as partners this evening.

    Returns ``(wish, created)``; a wish already recorded is returned as it is.

    Raises:
        ServiceError: the same player twice, or a player who is not on this evening's list.
    """
    a, b = sorted(_two_players(player_a_id, player_b_id))
    with transaction.atomic():
        known = set(
            Participant.objects.filter(evening=evening, player_id__in=(a, b)).values_list("player_id", flat=True)
        )
        if known != {a, b}:
            raise ServiceError(
                gettext_noop("Both players must be on this evening's list (check them in first)."),
                code="not_participant",
            )
        return PartnerExclusion.objects.get_or_create(evening=evening, player_a_id=a, player_b_id=b)


@transaction.atomic
def remove_partner_exclusion(*, evening: Evening, exclusion_id) -> None:
    """Remove a wish "not together" (for the following draws)."""
    PartnerExclusion.objects.filter(evening=evening, pk=exclusion_id).delete()


def _locked_session(session_id) -> Session:
    """The session, its row locked, and its seatings locked too: deal entries for it wait until
    this transaction ends (on SQLite the whole database is locked by the transaction anyway)."""
    session = (
        Session.objects.select_for_update(of=("self",)).select_related("evening").filter(pk=session_id).first()
    )
    if session is None:
        raise ServiceError(gettext_noop("This session does not exist."), code="no_session")
    list(Seating.objects.filter(round__session=session).select_for_update().values_list("pk", flat=True))
    return session


def _has_entries(session: Session) -> bool:
    return (
        Deal.objects.filter(seating__round__session=session).exists()
        or Seating.objects.filter(round__session=session, completed_at__isnull=False).exists()
    )


def redraw_session(*, session_id, user=None, seed: int | None = None) -> Session:
    """Draw a session again, before any deal of it is entered: new seed, the players checked in
    now, the wishes as they are now. The table links stay the same.

    Raises:
        SessionStartedError: a deal of the session has been entered (nothing is changed).
        DrawError: as :func:`draw_session`.
    """
    with transaction.atomic():
        session = _locked_session(session_id)
        evening = session.evening
        if _has_entries(session):
            raise SessionStartedError(
                gettext_noop(
                    "Deals of session %(number)s have already been entered: it can no longer be "
                    "drawn again. A player who has to leave can be replaced for the remaining rounds."
                ),
                code="session_started",
                number=session.number,
            )
        if evening.sessions.filter(number__gt=session.number).exists():  # pragma: no cover - needs deals
            raise SessionStartedError(
                gettext_noop("Only the last session can be drawn again."), code="not_last_session"
            )
        seed = secrets.randbits(48) if seed is None else seed
        result = _run_draw(evening, _history(evening, exclude=session), seed)
        Substitution.objects.filter(session=session).delete()
        Seating.objects.filter(round__session=session).delete()
        Round.objects.filter(session=session).delete()
        Partnership.objects.filter(session=session).delete()
        session.seed = seed
        session.sitout_player_id = result.sitout_player
        session.drawn_by = user
        session.drawn_at = timezone.now()
        session.closed = False
        session.save(update_fields=["seed", "sitout_player", "drawn_by", "drawn_at", "closed"])
        _save_draw(evening, session, result)
        return session


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


def _two_players(first, second) -> tuple[int, int]:
    """Two different player ids from a form (ASCII digits only), or ServiceError."""
    first, second = ascii_int(first), ascii_int(second)
    if first is None or second is None:
        raise ServiceError(gettext_noop("Please choose two players."), code="players_missing")
    if first == second:
        raise ServiceError(gettext_noop("Please choose two different players."), code="same_player")
    return first, second


def swap_players(*, session_id, player_a_id, player_b_id, user=None) -> SwapOutcome:
    """Swap two players' places for the whole session, before any deal of it is entered.

    Both may play in the session (partners are exchanged between their partnerships), or one
    may be the session's sit-out player or a checked-in player not drawn (a late arrival): that
    player takes the other's place, who then sits out the session or is out of it.

    Raises:
        SessionStartedError: a deal of the session has been entered (nothing is changed).
        ServiceError: the same player twice, two partners, neither player in the session, a
            player not checked in, or a wish "not together" broken by the swap.
    """
    a_id, b_id = _two_players(player_a_id, player_b_id)
    with transaction.atomic():
        session = _locked_session(session_id)
        evening = session.evening
        if _has_entries(session):
            raise SessionStartedError(
                gettext_noop(
                    "Deals of session %(number)s have already been entered: players can no longer "
                    "be swapped. A player who has to leave can be replaced for the remaining rounds."
                ),
                code="session_started",
                number=session.number,
            )
        partnerships = list(Partnership.objects.select_for_update().filter(session=session))
        place = {}
        for team in partnerships:
            place[team.player_1_id] = (team, "player_1_id")
            place[team.player_2_id] = (team, "player_2_id")
        sitter = session.sitout_player_id
        in_session = set(place) | ({sitter} if sitter else set())
        if a_id not in in_session and b_id not in in_session:
            raise ServiceError(
                gettext_noop("Neither player plays in session %(number)s."),
                code="not_in_session",
                number=session.number,
            )
        for pid in (a_id, b_id):
            if pid not in in_session and not Participant.objects.filter(
                evening=evening, player_id=pid, checked_in=True
            ).exists():
                raise ServiceError(
                    gettext_noop("%(name)s is not checked in."),
                    code="not_checked_in",
                    name=Player.objects.filter(pk=pid).values_list("name", flat=True).first() or pid,
                )
        if a_id in place and b_id in place and place[a_id][0].pk == place[b_id][0].pk:
            raise ServiceError(
                gettext_noop("These two players are partners already."), code="same_partnership"
            )
        changed = []
        for me, other in ((a_id, b_id), (b_id, a_id)):
            if me in place:
                team, slot = place[me]
                setattr(team, slot, other)
                changed.append(team)
        if sitter in (a_id, b_id):
            session.sitout_player_id = b_id if sitter == a_id else a_id
            session.save(update_fields=["sitout_player"])
        pairs = [(t.player_1_id, t.player_2_id) for t in changed]
        _check_wishes(evening, pairs)
        for team in changed:
            team.save(update_fields=["player_1", "player_2"])
        earlier = _history(evening, exclude=session).partners
        repeated = [pair for pair in pairs if frozenset(pair) in earlier]
        names = dict(Player.objects.filter(pk__in={p for pair in repeated for p in pair}).values_list("pk", "name"))
        return SwapOutcome(
            session=session, repeated_partners=tuple((names[x], names[y]) for x, y in repeated)
        )


def replace_player(*, session_id, leaving_id, replacement_id, user=None) -> Substitution:
    """A player has to leave during a session: another player takes over their seat for the
    remaining rounds, and no result already entered is lost.

    The replacement takes over from the first round after the last one in which the leaver's
    partnership has entered a deal (a round begun stays with the leaver). From that round on,
    the seatings and round sit-outs of the partnership point to a new partnership of the
    remaining partner and the replacement; the rounds before keep the old one. So the leaver
    keeps the matchsticks of the rounds they played, the replacement (if ranked) gets the later
    rounds, and the sit-out credit follows whoever sits out. The leaver is checked out.

    The replacement must be checked in and not play in the session from that round on: a
    stand-in, the session's sit-out player, or a player who arrived late.

    Raises:
        ServiceError: nothing entered in the session yet (``use_swap``: swap or draw again
            instead), the leaver does not play in the session or has finished it, the
            replacement is not checked in or already plays, or a wish "not together" is broken.
    """
    leaving_id, replacement_id = _two_players(leaving_id, replacement_id)
    with transaction.atomic():
        session = _locked_session(session_id)
        evening = session.evening
        if not _has_entries(session):
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
        # Which partnership plays in which round (seated or sitting out).
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
        teams = {t.pk: t for t in Partnership.objects.select_for_update().filter(session=session)}
        own = [t for t in teams.values() if leaving_id in (t.player_1_id, t.player_2_id) and rounds_of.get(t.pk)]
        if not own:
            raise ServiceError(
                gettext_noop("%(name)s does not play in session %(number)s."),
                code="not_playing",
                name=names[leaving_id],
                number=session.number,
            )
        team = max(own, key=lambda t: max(rounds_of[t.pk]))
        played = set(
            Deal.objects.filter(
                seating__round__session=session,
            ).filter(Q(seating__team_a=team) | Q(seating__team_b=team)).values_list("seating__round__number", flat=True)
        )
        first_round = min(rounds_of[team.pk])
        from_round = max(played) + 1 if played else first_round
        if from_round > evening.rounds_per_session or from_round > max(rounds_of[team.pk]):
            raise ServiceError(
                gettext_noop(
                    "%(name)s's partnership has played all its rounds of session %(number)s: "
                    "nobody needs to take over."
                ),
                code="nothing_left",
                name=names[leaving_id],
                number=session.number,
            )
        if not Participant.objects.filter(evening=evening, player_id=replacement_id, checked_in=True).exists():
            raise ServiceError(
                gettext_noop("%(name)s is not checked in."), code="not_checked_in", name=names[replacement_id]
            )
        busy = any(
            replacement_id in (t.player_1_id, t.player_2_id) and max(rounds_of.get(t.pk, {0})) >= from_round
            for t in teams.values()
        )
        if busy:
            raise ServiceError(
                gettext_noop(
                    "%(name)s plays in session %(number)s already. Choose a stand-in, the player who "
                    "sits out this session, or a player who has just arrived."
                ),
                code="replacement_plays",
                name=names[replacement_id],
                number=session.number,
            )
        slot = "player_1_id" if team.player_1_id == leaving_id else "player_2_id"
        partner_id = team.player_2_id if slot == "player_1_id" else team.player_1_id
        _check_wishes(evening, [(partner_id, replacement_id)])
        if from_round == first_round:
            # The partnership has not played yet: the replacement simply takes the seat.
            setattr(team, slot, replacement_id)
            team.save(update_fields=["player_1", "player_2"])
            after = team
        else:
            after = Partnership.objects.create(
                session=session,
                number=max(t.number for t in teams.values()) + 1,
                player_1_id=replacement_id if slot == "player_1_id" else partner_id,
                player_2_id=partner_id if slot == "player_1_id" else replacement_id,
            )
            later = Seating.objects.filter(round__session=session, round__number__gte=from_round)
            later.filter(team_a=team).update(team_a=after)
            later.filter(team_b=team).update(team_b=after)
            Round.objects.filter(session=session, number__gte=from_round, sitout_partnership=team).update(
                sitout_partnership=after
            )
        Participant.objects.filter(evening=evening, player_id=leaving_id).update(checked_in=False)
        return Substitution.objects.create(
            session=session,
            from_round=from_round,
            leaving_id=leaving_id,
            replacement_id=replacement_id,
            partnership_before=team,
            partnership_after=after,
            created_by=user,
        )


@transaction.atomic
def regenerate_table_link(*, table_id: int) -> Table:
    """Give a table a new private link and short code (e.g. when a tablet is lost); the old ones
    stop at once.

    Returns the table with its new token (192 random bits) and code. Raises Table.DoesNotExist.
    """
    table = Table.objects.select_for_update().get(pk=table_id)
    table.token = new_table_token()
    table.code = new_table_code()
    table.save(update_fields=["token", "code"])
    return table


# --- Deals ----------------------------------------------------------------------------------


def _snapshot(deal: Deal) -> dict:
    return {
        "winner": deal.winner,
        "to_nil": deal.to_nil,
        "bonus_a": deal.bonus_a,
        "bonus_b": deal.bonus_b,
        "points_a": deal.points_a,
        "points_b": deal.points_b,
    }


def current_seating(table: Table) -> Seating | None:
    """The table's first seating (by session and round) that is not confirmed yet, or None."""
    return (
        Seating.objects.filter(table=table, completed_at__isnull=True)
        .select_related("round__session")
        .order_by("round__session__number", "round__number")
        .first()
    )


class ConflictError(ServiceError):
    """The form was based on an older state of the deal: someone changed it in the meantime.

    ``deal`` is the deal as it is now; nothing was saved.
    """

    def __init__(self, message: str, code: str = "conflict", *, deal: Deal | None = None, **params):
        super().__init__(message, code=code, **params)
        self.deal = deal


TEAMS = ("A", "B")


def _locked_seating(seating_id) -> Seating | None:
    """The seating, locked for this transaction (PostgreSQL row lock; SQLite takes its write lock
    at the start of every transaction), with its round, session and evening."""
    seating_id = ascii_int(seating_id)
    if seating_id is None:
        return None
    return (
        Seating.objects.select_related("round__session__evening")
        .select_for_update(of=("self",))  # the seating only: other tables go on entering
        .filter(pk=seating_id)
        .first()
    )


def _check_own_table(seating: Seating | None, table: Table | None) -> Seating:
    if seating is None:
        raise ServiceError(gettext_noop("This round does not exist."), code="no_seating")
    if table is not None and seating.table_id != table.pk:
        raise ServiceError(gettext_noop("This round belongs to another table."), code="foreign_table")
    return seating


def _check_table_may_change(seating: Seating, table: Table, *, entry: bool) -> None:
    """Raise ServiceError unless a table link may change this seating now.

    ``entry``: entering or correcting deals (refused in a locked round); finishing and confirming
    are allowed in a locked round, so the organiser's lock does not trap a table that is done.
    """
    if seating.completed_at is not None:
        raise ServiceError(
            gettext_noop(
                "This round is complete and can no longer be changed at the table. "
                "Please ask the organiser."
            ),
            code="round_complete",
        )
    if seating.round.session.closed:
        raise ServiceError(
            gettext_noop(
                "Session %(number)s is closed: the tables can no longer change anything. "
                "Please ask the organiser."
            ),
            code="session_closed",
            number=seating.round.session.number,
        )
    if entry and seating.round.locked:
        raise ServiceError(
            gettext_noop(
                "Round %(number)s is locked by the organiser: no more entries at the tables. "
                "Please ask the organiser."
            ),
            code="round_locked",
            number=seating.round.number,
        )
    current = current_seating(table)
    if current is None or current.pk != seating.pk:
        raise ServiceError(
            gettext_noop("This is not the current round at this table. Please reload the page."),
            code="not_current_round",
        )


def _check_all_deals_entered(seating: Seating) -> None:
    expected = seating.round.session.evening.deals_per_round
    entered = seating.deals.count()
    if entered < expected:
        raise ServiceError(
            gettext_noop("%(missing)s of %(count)s deals are still missing."),
            code="deals_missing",
            missing=expected - entered,
            count=expected,
        )


def enter_deal(
    *,
    seating_id: int,
    number: int,
    result: DealResult,
    via: str,
    user=None,
    table: Table | None = None,
    reason: str = "",
    accept_impossible: bool = False,
    key: uuid.UUID | None = None,
    based_on_version: int | None = None,
    client: str = "",
) -> Deal:
    """Enter or correct the result of deal ``number`` at a seating, keeping the previous value.

    Args:
        seating_id: the seating (two partnerships at one table in one round).
        number: deal number, 1 .. the evening's deals per round.
        result: what the scorer entered (rules.DealResult).
        via: who/where for the history, e.g. "Tisch 3 (Tablet)" or the organiser's login.
        user: the organiser, when entered from an organiser page.
        table: when entered through a table link: the table it belongs to. The seating must then be
            that table's current seating, not confirmed, its round not locked, its session not
            closed. A correction of a round the scorer has finished reopens it (the other team
            must confirm what is now entered).
        reason: the organiser's reason for a correction or an accepted impossible result;
            required for an organiser's correction of a confirmed round.
        accept_impossible: organiser only: save a result the rules call impossible, with ``reason``.
        key: the idempotency key of the form sent (a UUID made when the form was shown). Sending
            the same key again (double tap, resent form, replay after a lost connection) changes
            nothing and returns the deal as it is, with ``outcome == "replayed"``.
        based_on_version: the deal's ``version`` the form was made from (0: not entered yet). If
            the deal has changed since to a different result, nothing is saved (ConflictError).
        client: the device's network address, kept in the history.

    Returns:
        The saved Deal with its matchsticks (points_a, points_b) and ``outcome``: "created",
        "changed", "unchanged" or "replayed".

    Raises:
        ImpossibleResult: the rules reject the result (nothing saved).
        ConflictError: the deal was changed meanwhile (``based_on_version`` is stale).
        ServiceError: unknown seating or deal number, a confirmed/locked/closed round changed from
            a table link, a missing reason, or a key already used for another deal.
    """
    try:
        with transaction.atomic():
            return _enter_deal(
                seating_id, number, result, via, user, table, reason.strip(), accept_impossible,
                key, based_on_version, client[:64],
            )
    except IntegrityError:  # a backstop: the seating lock serialises entries for one seating
        raise ServiceError(
            gettext_noop("This deal was saved at the same moment on another device. Please reload the page."),
            code="entry_race",
        ) from None


def _entered(values: dict) -> tuple:
    """What a scorer enters for a deal (winner, to nil, both bonuses), from a snapshot."""
    return (values.get("winner"), values.get("to_nil"), values.get("bonus_a"), values.get("bonus_b"))


def _stored_value_params(deal: Deal) -> dict:
    """The deal as stored, for a message: winning team and matchsticks."""
    return {"number": deal.number, "winner": deal.winner, "points_a": deal.points_a, "points_b": deal.points_b}


def _replayed(sent: DealChange, number: int, result: DealResult) -> Deal:
    """A form whose idempotency key was used before (double tap, resent form, replay, Back
    button): the deal as it is, outcome ``"replayed"``, only if the key was used for the same
    deal with the same entry and the deal still holds it. Otherwise :class:`ConflictError`
    naming what is stored; nothing is changed."""
    deal = sent.deal
    if deal.number != number:
        raise ConflictError(
            gettext_noop("This form was already sent for deal %(number)s. Please reload the page."),
            code="key_reused",
            deal=deal,
            number=deal.number,
        )
    if _entered(sent.new) != (result.winner, result.to_nil, result.bonus_a, result.bonus_b):
        raise ConflictError(
            gettext_noop(
                "This form was already sent for deal %(number)s with another entry. Deal %(number)s "
                "reads: team %(winner)s won, %(points_a)s:%(points_b)s. Your new entry was not "
                "taken. To correct the deal, tap it in the list and enter it again."
            ),
            code="key_other_content",
            deal=deal,
            **_stored_value_params(deal),
        )
    if _snapshot(deal) != sent.new:
        raise ConflictError(
            gettext_noop(
                "Deal %(number)s was saved from this form before and has been changed since; it "
                "now reads: team %(winner)s won, %(points_a)s:%(points_b)s. Nothing was changed."
            ),
            code="changed_since",
            deal=deal,
            **_stored_value_params(deal),
        )
    deal.outcome = "replayed"
    return deal


def _enter_deal(seating_id, number, result, via, user, table, reason, accept_impossible, key,
                based_on_version, client) -> Deal:
    seating = _check_own_table(_locked_seating(seating_id), table)
    deals_per_round = seating.round.session.evening.deals_per_round
    if not 1 <= number <= deals_per_round:
        raise ServiceError(
            gettext_noop("There is no deal %(number)s: a round has deals 1 to %(count)s."),
            code="deal_out_of_range",
            number=number,
            count=deals_per_round,
        )
    if key is not None:
        sent = DealChange.objects.filter(deal__seating=seating, submission=key).select_related("deal").first()
        if sent is not None:
            return _replayed(sent, number, result)
    if table is not None:
        _check_table_may_change(seating, table, entry=True)
    try:
        score = score_deal(result)
    except ImpossibleResult:
        if not (accept_impossible and user is not None):
            raise
        if not reason:
            raise ServiceError(
                gettext_noop("Please give a reason for accepting a result the rules call impossible."),
                code="reason_missing",
            ) from None
        score = score_accepted(result)
    deal = Deal.objects.filter(seating=seating, number=number).first()
    previous = _snapshot(deal) if deal else None
    if deal is None:
        deal = Deal(seating=seating, number=number, version=0)
    based_on = deal.version
    deal.winner = result.winner
    deal.to_nil = result.to_nil
    deal.bonus_a = result.bonus_a
    deal.bonus_b = result.bonus_b
    deal.points_a = score.a
    deal.points_b = score.b
    deal.override_reason = reason if accept_impossible else ""
    new = _snapshot(deal)
    if previous == new:
        deal.outcome = "unchanged"
        return deal
    if based_on_version is not None and previous is not None and based_on_version != based_on:
        raise ConflictError(
            gettext_noop(
                "Deal %(number)s was changed on another device in the meantime and now reads "
                "%(points_a)s:%(points_b)s. Your entry was not saved. Please check the deal and "
                "correct it if necessary."
            ),
            deal=Deal.objects.get(pk=deal.pk),
            number=number,
            points_a=previous["points_a"],
            points_b=previous["points_b"],
        )
    if user is not None and previous is not None and seating.completed_at is not None and not reason:
        raise ServiceError(
            gettext_noop("This round is already confirmed: please give a reason for the correction."),
            code="reason_required",
        )
    deal.version = based_on + 1
    deal.save()
    DealChange.objects.create(
        deal=deal, changed_by=user, via=via, previous=previous, new=new, reason=reason,
        client=client, submission=key,
    )
    if table is not None and seating.finished_at is not None:
        seating.finished_at = None
        seating.finished_by = ""
        seating.save(update_fields=["finished_at", "finished_by"])
    deal.outcome = "created" if previous is None else "changed"
    return deal


@transaction.atomic
def finish_seating(*, seating_id: int, table: Table, team: str) -> Seating:
    """The scorer finishes the round at the table: every deal is entered; the other team must
    now confirm (:func:`confirm_seating`).

    Args:
        team: "A" or "B", the scorer's team (the team that entered the deals).

    Returns the seating; finishing again changes nothing (the first finish counts).

    Raises:
        ServiceError: another table's round, deals missing, the round confirmed already, its
            session closed, or no team given.
    """
    seating = _check_own_table(_locked_seating(seating_id), table)
    if team not in TEAMS:
        raise ServiceError(gettext_noop("Please choose the scorer's team."), code="team_missing")
    _check_table_may_change(seating, table, entry=False)
    if seating.finished_at is not None:
        return seating
    _check_all_deals_entered(seating)
    seating.finished_at = timezone.now()
    seating.finished_by = team
    seating.save(update_fields=["finished_at", "finished_by"])
    return seating


@transaction.atomic
def reopen_seating(*, seating_id: int, table: Table) -> Seating:
    """The other team does not agree: the finished round goes back to the scorer for corrections.

    Raises ServiceError as :func:`enter_deal` does for a table link (confirmed, locked, closed).
    """
    seating = _check_own_table(_locked_seating(seating_id), table)
    _check_table_may_change(seating, table, entry=True)
    if seating.finished_at is not None:
        seating.finished_at = None
        seating.finished_by = ""
        seating.save(update_fields=["finished_at", "finished_by"])
    return seating


@transaction.atomic
def confirm_seating(
    *, seating_id: int, team: str, table: Table | None = None, user=None, via: str = ""
) -> Seating:
    """The other team confirms the round's deals (Bridgemate style); only then is it final.

    Args:
        team: "A" or "B", the team that confirms. It must not be the team that entered
            (``finished_by``).
        table: through a table link: that table's current round, finished by its scorer.
        user: the organiser confirming on the team's behalf (the round need not be finished at
            the table, but every deal must be entered).
        via: who/where, kept on the seating.

    Returns the seating; confirming a confirmed round again changes nothing.

    Raises:
        ServiceError: another table's round, not finished by the scorer (from a table), the team
            that entered confirming, deals missing, session closed (from a table).
    """
    seating = _check_own_table(_locked_seating(seating_id), table)
    if seating.completed_at is not None:
        return seating
    if team not in TEAMS:
        raise ServiceError(gettext_noop("Please choose a team."), code="team_missing")
    if table is not None:
        _check_table_may_change(seating, table, entry=False)
        if seating.finished_at is None:
            raise ServiceError(
                gettext_noop(
                    "The scorer has not finished this round, or has corrected a deal since. "
                    "Please finish the round first."
                ),
                code="not_finished",
            )
    if seating.finished_by and team == seating.finished_by:
        raise ServiceError(
            gettext_noop(
                "Team %(team)s entered this round, so it cannot confirm it: the other team "
                "(team %(other)s) confirms."
            ),
            code="own_team",
            team=team,
            other="B" if team == "A" else "A",
        )
    _check_all_deals_entered(seating)
    now = timezone.now()
    seating.finished_at = seating.finished_at or now
    seating.completed_at = now
    seating.confirmed_by = user
    seating.confirmed_via = via[:120]
    seating.save(update_fields=["finished_at", "completed_at", "confirmed_by", "confirmed_via"])
    return seating


@transaction.atomic
def complete_seating(*, seating_id: int, table: Table | None = None) -> Seating:
    """Finish and confirm a seating's round in one step (organiser tools, demo, scripts).

    The table's tablet does not use this: there the scorer finishes and the other team confirms.

    Raises:
        ServiceError: deals are missing, or the seating belongs to another table.
    """
    seating = _locked_seating(seating_id)
    if seating is None or (table is not None and seating.table_id != table.pk):
        raise ServiceError(gettext_noop("This round belongs to another table."), code="foreign_table")
    if seating.completed_at is not None:
        return seating
    _check_all_deals_entered(seating)
    seating.completed_at = timezone.now()
    seating.finished_at = seating.finished_at or seating.completed_at
    seating.save(update_fields=["completed_at", "finished_at"])
    return seating


# --- The organiser's controls of the room -----------------------------------------------------


def _set_flag(model, pk: int, field: str, value: bool):
    """Set one boolean field of one row, locked for the transaction; saved only if it changes."""
    row = model.objects.select_for_update().get(pk=pk)
    if getattr(row, field) != value:
        setattr(row, field, value)
        row.save(update_fields=[field])
    return row


@transaction.atomic
def set_round_locked(*, round_id: int, locked: bool) -> Round:
    """Lock a round (no more deal entries from any table for it) or unlock it."""
    return _set_flag(Round, round_id, "locked", locked)


@transaction.atomic
def set_session_closed(*, session_id: int, closed: bool) -> Session:
    """Close a session (the tables can change nothing in it any more) or open it again."""
    return _set_flag(Session, session_id, "closed", closed)


@transaction.atomic
def set_ranking_hidden(*, evening_id: int, hidden: bool) -> Evening:
    """Hide the public ranking screen (for the last rounds) or reveal it."""
    return _set_flag(Evening, evening_id, "ranking_hidden", hidden)


@transaction.atomic
def set_evening_language(*, evening_id: int, language: str) -> Evening:
    """Set the language of an evening's printouts, public screens and tablets.

    Raises ServiceError for a language that is not one of ``settings.LANGUAGES``.
    """
    if language not in dict(settings.LANGUAGES):
        raise ServiceError(gettext_noop("Please choose one of the languages offered."), code="language")
    evening = Evening.objects.select_for_update().get(pk=evening_id)
    evening.language = language
    evening.save(update_fields=["language"])
    return evening


__all__ = [
    "ServiceError",
    "ConflictError",
    "set_evening_language",
    "add_player",
    "update_player",
    "import_players",
    "create_evening",
    "set_checked_in",
    "draw_session",
    "SessionStartedError",
    "SwapOutcome",
    "set_stand_in",
    "set_mix_clubs",
    "add_partner_exclusion",
    "remove_partner_exclusion",
    "redraw_session",
    "swap_players",
    "replace_player",
    "session_is_complete",
    "current_seating",
    "enter_deal",
    "finish_seating",
    "reopen_seating",
    "confirm_seating",
    "complete_seating",
    "set_round_locked",
    "set_session_closed",
    "set_ranking_hidden",
]
