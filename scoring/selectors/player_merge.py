"""What merging two register entries of the same person would move (the merge itself:
:func:`scoring.services.merge_players`)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from scoring.domain.errors import DomainError, gettext_noop
from scoring.models import Deal, Evening, Participant, Partnership, Player
from scoring.selectors.player_history import player_evening_ids


@dataclass(frozen=True)
class MergePreview:
    """What a merge of ``remove`` into ``keep`` would move, and whether it is allowed.

    Attributes:
        keep, remove: the two register entries.
        evenings: the evenings of ``remove`` (they become ``keep``'s), by date.
        participations: evenings ``remove`` is on the list of (checked in, stand-in).
        partnerships: partnerships ``remove`` played in.
        deals: deals played by those partnerships.
        conflicts: evenings both entries took part in (the merge is refused while there are any).
    """

    keep: Player
    remove: Player
    evenings: tuple[Evening, ...]
    participations: int
    partnerships: int
    deals: int
    conflicts: tuple[Evening, ...]

    @property
    def allowed(self) -> bool:
        return not self.conflicts


def merge_preview(*, keep_id: int | None, remove_id: int | None) -> MergePreview:
    """What :func:`merge_players` would move (reads only; a fixed number of queries).

    Raises:
        DomainError: ``players_missing``, ``same_player`` (the same entry twice) or
            ``unknown_player``.
    """
    keep, remove = _two_entries(keep_id, remove_id)
    moving = player_evening_ids(remove.pk)
    conflicts = moving & player_evening_ids(keep.pk)
    partnerships = Partnership.objects.filter(Q(player_1=remove) | Q(player_2=remove) | Q(player_3=remove))
    by_date = list(Evening.objects.filter(pk__in=moving).order_by("date", "id"))
    return MergePreview(
        keep=keep,
        remove=remove,
        evenings=tuple(by_date),
        participations=Participant.objects.filter(player=remove).count(),
        partnerships=partnerships.count(),
        deals=Deal.objects.filter(Q(seating__team_a__in=partnerships) | Q(seating__team_b__in=partnerships)).count(),
        conflicts=tuple(e for e in by_date if e.pk in conflicts),
    )


def _two_entries(keep_id: int | None, remove_id: int | None) -> tuple[Player, Player]:
    if keep_id is None or remove_id is None:
        raise DomainError(gettext_noop("Please choose two players."), code="players_missing")
    if keep_id == remove_id:
        raise DomainError(
            gettext_noop("A player cannot be merged into themselves: please choose two different entries."),
            code="same_player",
        )
    found = Player.objects.in_bulk([keep_id, remove_id])
    if len(found) != 2:
        raise DomainError(
            gettext_noop("One of the two players is no longer in the register. Please choose again."),
            code="unknown_player",
        )
    return found[keep_id], found[remove_id]
