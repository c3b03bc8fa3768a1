"""Check-in in a minute (issue 28, point 3): many players at once, and undone at once.

- :func:`check_in_everyone`: every player of the register is present ("alle anwesend").
- :func:`check_in_like_last_evening`: everyone who was present at the last evening before this one
  ("wie beim letzten Abend").
- :func:`undo_check_in`: the players one of the two has just checked in are checked out again.

Each returns the ids of the players it changed, so the page can offer the undo of exactly those.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from scoring.domain.errors import gettext_noop
from scoring.models import Evening, Participant, Player
from scoring.selectors.check_in import last_evening, undoable_check_ins
from scoring.services.base import ServiceError, evening_changed


def _check_in(evening: Evening, player_ids: Iterable[int]) -> list[int]:
    """Check in ``player_ids`` who are not present yet; the ids changed, in id order (2 queries
    and one write per kind: new places on the list, places checked in again)."""
    wanted = set(player_ids)
    places = dict(
        Participant.objects.filter(evening=evening, player_id__in=wanted).values_list("player_id", "checked_in")
    )
    again = sorted(pk for pk, present in places.items() if not present)
    new = sorted(wanted - set(places))
    Participant.objects.filter(evening=evening, player_id__in=again).update(checked_in=True)
    Participant.objects.bulk_create([Participant(evening=evening, player_id=pk, checked_in=True) for pk in new])
    changed = sorted(again + new)
    if changed:
        evening_changed(evening.pk)
    return changed


def _locked_evening(evening_id: int) -> Evening:
    return Evening.objects.select_for_update().get(pk=evening_id)


@transaction.atomic
def check_in_everyone(*, evening_id: int) -> list[int]:
    """Check in every player of the register who is not present yet ("alle anwesend").

    Returns the ids of the players checked in now (empty: everyone was present already)."""
    evening = _locked_evening(evening_id)
    return _check_in(evening, Player.objects.values_list("pk", flat=True))


@transaction.atomic
def check_in_like_last_evening(*, evening_id: int) -> tuple[Evening, list[int]]:
    """Check in everyone who was present at the last evening before this one
    (:func:`scoring.selectors.check_in.last_evening`: the latest earlier date, with players).
    Stand-ins of that evening come as ordinary players; nobody present now is checked out.

    Returns ``(that evening, the ids of the players checked in now)``.

    Raises:
        ServiceError: there is no earlier evening with players (``no_last_evening``).
    """
    evening = _locked_evening(evening_id)
    previous = last_evening(evening)
    if previous is None:
        raise ServiceError(
            gettext_noop("There is no earlier evening with players to copy the attendance from."),
            code="no_last_evening",
        )
    present = Participant.objects.filter(evening=previous, checked_in=True).values_list("player_id", flat=True)
    return previous, _check_in(evening, present)


@transaction.atomic
def undo_check_in(*, evening_id: int, player_ids: Iterable[int]) -> list[int]:
    """Check out again the players a bulk check-in has just checked in (its undo).

    Players already drawn into a session of the evening stay checked in (their place at a table
    is kept; to let one go, use "A player has to leave" on the session page), and so do players
    checked out by hand since (:func:`scoring.selectors.check_in.undoable_check_ins`, which the
    button's count uses too). Returns the ids checked out."""
    evening = _locked_evening(evening_id)
    going = undoable_check_ins(evening, player_ids)
    Participant.objects.filter(evening=evening, player_id__in=going).update(checked_in=False)
    if going:
        evening_changed(evening.pk)
    return going
