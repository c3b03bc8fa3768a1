"""The register's likely duplicates for the hint "same person?"."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.domain.duplicates import likely_duplicates
from scoring.models import Player


@dataclass(frozen=True)
class DuplicateHint:
    """Two register entries that are probably one person; ``reason`` as
    :class:`scoring.domain.duplicates.LikelyDuplicate`."""

    keep: Player
    remove: Player
    reason: str


def register_duplicates() -> list[DuplicateHint]:
    """Every likely duplicate pair of the whole register (1 query, whatever its size)."""
    players = {p.pk: p for p in Player.objects.only("pk", "name", "club")}
    pairs = likely_duplicates((p.pk, p.name, p.club) for p in players.values())
    return [DuplicateHint(players[d.keep], players[d.remove], d.reason) for d in pairs]
