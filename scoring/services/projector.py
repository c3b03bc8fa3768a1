"""What the projector shows: the organiser's choice per evening."""

from __future__ import annotations

from django.db import transaction

from scoring.domain.errors import gettext_noop
from scoring.hall.roles import RUN_PERM
from scoring.models import Evening, ProjectorMode
from scoring.services.base import ServiceError, evening_changed


@transaction.atomic
def set_projector_mode(*, evening_id: int, mode: str, user) -> Evening:
    """Set what the evening's projector page shows: ``mode`` is a
    :class:`~scoring.models.ProjectorMode` value (ranking, seating of the next round, round
    clock, or a rotation of the three).

    Raises ServiceError, changing nothing, for a login without the Turnierleitung's permission
    (``not_allowed``), a mode that is not offered (``projector_mode``) or an evening that no
    longer exists (``no_evening``). The evening's row is locked: two organisers pressing at
    once are applied one after the other (the later choice stays). Choosing the mode shown
    already changes nothing (the screens are not made to reload).
    """
    if user is None or not user.has_perm(RUN_PERM):
        raise ServiceError(
            gettext_noop("Only the Turnierleitung can choose what the projector shows."), code="not_allowed"
        )
    if mode not in ProjectorMode.values:
        raise ServiceError(gettext_noop("Please choose one of the projector views offered."), code="projector_mode")
    evening = Evening.objects.select_for_update().filter(pk=evening_id).first()
    if evening is None:
        raise ServiceError(gettext_noop("This evening no longer exists."), code="no_evening")
    if evening.projector_mode == mode:
        return evening
    evening.projector_mode = mode
    evening.save(update_fields=["projector_mode"])
    evening_changed(evening_id)
    return evening
