"""The evening's tie-break chain (docs/rules.md, "Equal totals")."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from scoring.domain.tiebreaks import chain_text, parse_chain
from scoring.models import Evening
from scoring.services.base import evening_changed


@transaction.atomic
def set_evening_tiebreaks(*, evening_id: int, criteria: Iterable[str]) -> Evening:
    """Set the chain of tie-breaks of an evening, in the organiser's order.

    Args:
        criteria: stored values of :class:`scoring.domain.tiebreaks.Criterion` (``"best_session"``
            ...), first tie-break first; empty entries (a choice left at "none") are skipped, so
            no entries at all means equal totals share a place.

    Raises:
        DomainError: code ``unknown_criterion`` or ``repeated_criterion``; nothing is saved.
    """
    chain = parse_chain(",".join(value.strip() for value in criteria if value and value.strip()))
    evening = Evening.objects.select_for_update().get(pk=evening_id)
    evening.tiebreaks = chain_text(chain)
    evening.save(update_fields=["tiebreaks"])
    evening_changed(evening_id)
    return evening
