"""Evenings, check-in, the organiser's wishes for the draw and controls of the room."""

from __future__ import annotations

from collections.abc import Collection

from django.conf import settings
from django.db import transaction

from scoring.domain.errors import gettext_noop
from scoring.domain.rulesets import RULE_SETS
from scoring.hall.origin import Origin
from scoring.hall.roles import RUN_PERM
from scoring.hall.table_codes import new_table_code
from scoring.models import (
    Evening,
    Participant,
    PartnerExclusion,
    Player,
    Round,
    RoundEvent,
    Session,
    Table,
    new_table_token,
)
from scoring.selectors.evenings import evening_has_deals, tables_not_started
from scoring.selectors.history import evening_history
from scoring.services.base import ServiceError, evening_changed, set_flag, two_players
from scoring.services.round_events import record_round_event


def create_evening(
    *,
    name: str,
    date,
    venue: str = "",
    sessions_count: int = 3,
    rounds_per_session: int = 4,
    deals_per_round: int = 4,
    language: str = "",
    rule_set: str = "",
) -> Evening:
    """Create an evening (default 3 sessions of 4 rounds of 4 deals, docs/rules.md "The evening: the Schwesing format").

    ``language``: the language of its printouts, public screens and tablets (a code of
    ``settings.LANGUAGES``; empty: the default, German; the organiser's form offers the rule set's
    own, :func:`scoring.domain.languages.suggested_language`). ``rule_set``: a code of
    :data:`scoring.domain.rulesets.RULE_SETS` (empty: Schwesing).

    Raises django.core.exceptions.ValidationError for values outside the model's limits."""
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
    if rule_set:
        evening.rule_set = rule_set
    evening.full_clean()
    evening.save()
    return evening


_DRAWN_NOW = gettext_noop(
    "%(name)s is drawn into session %(number)s, which is not over yet: checking out would leave an empty "
    'seat. Use "A player has to leave" on the session page (or draw the session again before its first '
    "deal)."
)


@transaction.atomic
def set_checked_in(*, evening: Evening, player: Player, checked_in: bool) -> Participant:
    """Check a player in for the evening (present for the next draw), or out again.

    Raises:
        ServiceError: checking out a player who still has a seat (at a table or sitting out) in a
            round not yet confirmed of the last drawn session (``drawn_now``): they are replaced
            on the session page instead, as the undo of a bulk check-in refuses them too. Nothing
            changes then. Between sessions a player checks out freely (and stays ranked).
    """
    if not checked_in:
        _check_not_seated_now(evening, player)
    participant, _ = Participant.objects.update_or_create(
        evening=evening, player=player, defaults={"checked_in": checked_in}
    )
    evening_changed(evening.pk)
    return participant


def _check_not_seated_now(evening: Evening, player: Player) -> None:
    """ServiceError ``drawn_now`` if ``player`` has a seat in an unconfirmed round of the evening's
    last drawn session (5 queries at most)."""
    session = Session.objects.filter(evening=evening).order_by("-number").first()
    if session is None:
        return
    history = evening_history(evening, sessions=(session.number,))
    if any(not r.confirmed and player.pk in r.seats() for r in history.session_rounds(session.pk)):
        raise ServiceError(_DRAWN_NOW, code="drawn_now", name=player.name, number=session.number)


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
    evening_changed(evening.pk)
    return participant


@transaction.atomic
def set_mix_clubs(*, evening_id: int, mix: bool) -> Evening:
    """Switch the option "mix clubs" for the following draws."""
    evening = set_flag(Evening, evening_id, "mix_clubs", mix)
    evening_changed(evening_id)
    return evening


def add_partner_exclusion(*, evening: Evening, player_a_id, player_b_id) -> tuple[PartnerExclusion, bool]:
    """Record the wish that two players are never drawn as partners this evening.

    Returns ``(wish, created)``; a wish already recorded is returned as it is.

    Raises:
        ServiceError: the same player twice, or a player who is not checked in for this evening
            (``not_participant``: a player checked out is not drawn).
    """
    a, b = sorted(two_players(player_a_id, player_b_id))
    with transaction.atomic():
        known = set(
            Participant.objects.filter(evening=evening, player_id__in=(a, b), checked_in=True).values_list(
                "player_id", flat=True
            )
        )
        if known != {a, b}:
            raise ServiceError(
                gettext_noop("Both players must be on this evening's list (check them in first)."),
                code="not_participant",
            )
        wish = PartnerExclusion.objects.get_or_create(evening=evening, player_a_id=a, player_b_id=b)
        evening_changed(evening.pk)
        return wish


@transaction.atomic
def remove_partner_exclusion(*, evening: Evening, exclusion_id) -> None:
    """Remove a wish "not together" (for the following draws)."""
    PartnerExclusion.objects.filter(evening=evening, pk=exclusion_id).delete()
    evening_changed(evening.pk)


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
    evening_changed(table.evening_id)
    return table


@transaction.atomic
def set_round_locked(
    *,
    round_id: int,
    locked: bool,
    origin: Origin | None = None,
    user=None,
    not_started_seen: Collection[int] | None = None,
    by_clock: bool = False,
) -> Round:
    """Lock a round (no more deal entries from any table for it) or unlock it; the round's
    history records it (:class:`~scoring.models.RoundEvent`, locked or unlocked, with ``origin``
    and ``user``; ``by_clock``: locked by the round clock at zero).

    ``not_started_seen``: the numbers of the tables not started yet that the organiser was shown
    and agreed to lock with the round (the confirmation step of the live overview); None: no such
    check (the round clock, scripts). Locking or unlocking a round that is so already changes
    nothing.

    Raises ServiceError: a login without the Turnierleitung's permission (``permission``), a
    table not started yet that the organiser was not shown (``not_started``, naming the tables:
    it started or stopped since, or the form was not the confirmation).
    """
    if user is not None and not user.has_perm(RUN_PERM):
        raise ServiceError(gettext_noop("Only the Turnierleitung can lock or unlock a round."), code="permission")
    round_ = Round.objects.select_for_update().get(pk=round_id)
    if round_.locked == locked:
        return round_
    if locked and not_started_seen is not None:
        unseen = [number for number in tables_not_started(round_id) if number not in set(not_started_seen)]
        if unseen:
            raise ServiceError(
                gettext_noop(
                    "This round has not started yet at these tables: %(tables)s. Please confirm that it is "
                    "locked for them too."
                ),
                code="not_started",
                tables=", ".join(str(number) for number in unseen),
            )
    round_.locked = locked
    round_.save(update_fields=["locked"])
    kind = RoundEvent.Kind.CLOCK_LOCKED if by_clock else RoundEvent.Kind.LOCKED if locked else RoundEvent.Kind.UNLOCKED
    record_round_event(kind, round_id=round_.pk, origin=origin, user=user)
    evening_changed(sessions=round_.session_id)
    return round_


@transaction.atomic
def set_session_closed(*, session_id: int, closed: bool) -> Session:
    """Close a session (the tables can change nothing in it any more) or open it again. Closing
    switches off the clock of one of its rounds (:func:`scoring.services.clock.stop_outlived_clock`)."""
    from scoring.services.clock import stop_outlived_clock  # the clock's services use this module

    session = set_flag(Session, session_id, "closed", closed)
    evening_changed(session.evening_id)
    if closed:
        stop_outlived_clock(session.evening_id)
    return session


@transaction.atomic
def set_ranking_hidden(*, evening_id: int, hidden: bool) -> Evening:
    """Hide the public ranking screen (for the last rounds) or reveal it."""
    evening = set_flag(Evening, evening_id, "ranking_hidden", hidden)
    evening_changed(evening_id)
    return evening


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
    evening_changed(evening_id)
    return evening


@transaction.atomic
def set_evening_rule_set(*, evening_id: int, rule_set: str) -> Evening:
    """Change the rule set an evening's deals are entered and scored by.

    Raises ServiceError for a code that is not a rule set (``rule_set``), once a deal or a
    drawn deal of the evening is entered (``rule_set_in_use``): the entered matchsticks were
    scored by the rule set they were entered under, and for a rule set with another team size
    (two or three players, six-handed Bräus) once a session is drawn (``team_size_in_use``).
    """
    if rule_set not in RULE_SETS:
        raise ServiceError(gettext_noop("Please choose one of the rule sets offered."), code="rule_set")
    evening = Evening.objects.select_for_update().get(pk=evening_id)
    if rule_set == evening.rule_set:
        return evening
    if evening_has_deals(evening):
        raise ServiceError(
            gettext_noop(
                "The rule set can no longer be changed: deals of this evening are already entered "
                "and were scored by it."
            ),
            code="rule_set_in_use",
        )
    wanted = RULE_SETS[rule_set].players_per_team
    if wanted != evening.rules.players_per_team and evening.sessions.exists():
        raise ServiceError(
            gettext_noop(
                "The rule set can no longer be changed to this one: the sessions drawn so far have "
                "teams of %(drawn)s, this rule set plays with teams of %(wanted)s."
            ),
            code="team_size_in_use",
            drawn=evening.rules.players_per_team,
            wanted=wanted,
        )
    evening.rule_set = rule_set
    evening.save(update_fields=["rule_set"])
    evening_changed(evening_id)
    return evening
