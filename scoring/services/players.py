"""The player register: add and correct players, import a list."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db import transaction

from scoring.domain.errors import gettext_noop
from scoring.domain.names import hidden_character, match_key, normalise_name
from scoring.domain.player_import import ParsedPlayer
from scoring.models import Evening, Participant, Player
from scoring.services.base import ServiceError, evening_changed


def _checked_name(name: str, club: str) -> tuple[str, str]:
    """Name and club normalised (``normalise_name``), or ServiceError: empty name, longer than
    100 characters, or an invisible character (one that changes the writing direction, a
    zero-width space, a soft hyphen, ...)."""
    hidden = hidden_character(name + club)  # before normalising, which makes U+2028 a space
    if hidden is not None:
        message, code, character = hidden
        raise ServiceError(message, code=code, character=character)
    name, club = normalise_name(name), normalise_name(club)
    if not name:
        raise ServiceError(gettext_noop("Please enter the player's name."), code="name_missing")
    if len(name) > 100 or len(club) > 100:
        raise ServiceError(gettext_noop("Name and club may have at most 100 characters each."), code="too_long")
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
    evening_changed(participants__player=player)  # every evening shows the corrected name
    return player


@dataclass(frozen=True)
class ImportOutcome:
    """Counts of an import: players created, and players already in the register."""

    created: int
    existing: int
    checked_in: int


@transaction.atomic
def import_players(players: Iterable[ParsedPlayer], *, check_in_to: Evening | None = None) -> ImportOutcome:
    """Save parsed player rows to the register in one transaction.

    Players already registered (same name and club, ignoring case and spacing) are recognised
    and not duplicated. With ``check_in_to``, every imported player is also checked in for that
    evening.
    """
    rows = list(players)
    keys = {match_key(p.name, p.club): p for p in rows}
    known = {p.match_key: p for p in Player.objects.filter(match_key__in=keys)}
    created = [Player(name=p.name, club=p.club, match_key=key) for key, p in keys.items() if key not in known]
    Player.objects.bulk_create(created)
    checked_in = 0
    if check_in_to is not None:
        all_players = Player.objects.filter(match_key__in=keys)
        for player in all_players:
            Participant.objects.update_or_create(evening=check_in_to, player=player, defaults={"checked_in": True})
            checked_in += 1
        evening_changed(check_in_to.pk)
    return ImportOutcome(created=len(created), existing=len(keys) - len(created), checked_in=checked_in)
