"""The round's history besides its deals (:class:`~scoring.models.RoundEvent`): written by the
services that finish, dispute, reopen, confirm, lock and unlock a round, in their transaction."""

from __future__ import annotations

from scoring.hall.origin import Origin
from scoring.models import RoundEvent, Seating


def record_round_event(
    kind: str,
    *,
    round_id: int,
    seating: Seating | None = None,
    origin: Origin | None = None,
    user=None,
) -> RoundEvent:
    """Record that ``kind`` (a :class:`RoundEvent.Kind`) happened now to ``seating`` (None: the
    whole round), from ``origin`` (None: no origin, e.g. the round clock or a script), by ``user``
    (a login or None). One INSERT; call it inside the service's transaction."""
    fields = origin.fields() if origin is not None else {}
    return RoundEvent.objects.create(
        kind=kind,
        round_id=round_id,
        seating=seating,
        user=user if user is not None and user.is_authenticated else None,
        **fields,
    )
