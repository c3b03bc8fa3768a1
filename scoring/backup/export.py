"""Writing a backup: Django's ``python`` serializer reads every field, converted to the file's shape."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

from django.core import serializers
from django.db import models, transaction
from django.utils import timezone

from bruus_tournament import __version__
from scoring.backup.base import FORMAT, MODELS, VERSION, backed_up_fields, checksum, is_user_fk
from scoring.models import Evening, Player
from scoring.publishing.models import PlayerPublishing


def _plain(value: Any) -> Any:
    """A value of the ``python`` serializer as plain JSON, exact to the microsecond (Django's
    JSON encoder would cut datetimes to milliseconds)."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat() if timezone.is_aware(value) else value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _file_record(serialized: dict, users: set[str]) -> dict:
    """A record of the ``python`` serializer in the file's shape: ``id`` and the fields beside
    it, the users (fields ``users``) by username (a user's natural key is ``(username,)``)."""
    record = {"id": serialized["pk"]}
    for name, value in serialized["fields"].items():
        record[name] = (value[0] if value else None) if name in users else _plain(value)
    return record


def _records(model: type[models.Model], queryset) -> list[dict]:
    """The records of ``queryset`` in the file's shape (one query: users joined)."""
    users = {f.name for f in backed_up_fields(model) if is_user_fk(f)}
    if users:  # select_related() without names would join every reference
        queryset = queryset.select_related(*users)
    serialized = serializers.serialize("python", queryset.order_by("pk"), use_natural_foreign_keys=True)
    return [_file_record(record, users) for record in serialized]


def _export(scope: str, evening: Evening | None) -> dict:
    data: dict[str, list[dict]] = {}
    for key, model, path in MODELS[1:]:
        if path is None:  # a player's online name: with the players, below
            continue
        queryset = model._default_manager.all()  # the one manager, `objects`
        if evening is not None:
            queryset = queryset.filter(**{f"{path}__pk" if path else "pk": evening.pk})
        data[key] = _records(model, queryset)
    players = Player.objects.all()
    if evening is not None:  # the players the evening refers to
        players = players.filter(
            pk__in={
                record[f.name]
                for key, model, _ in MODELS[1:]
                if key in data
                for f in backed_up_fields(model)
                if f.related_model is Player
                for record in data[key]
                if record[f.name] is not None
            }
        )
    # The online names of those players that have one (no row: the club default).
    data["player_publishing"] = _records(PlayerPublishing, PlayerPublishing.objects.filter(player__in=players))
    data = {"players": _records(Player, players), **data}
    return {
        "format": FORMAT,
        "version": VERSION,
        "app_version": __version__,
        "scope": scope,
        "created": timezone.now().isoformat(),
        "sha256": checksum(data),
        "data": data,
    }


def export_evening(evening: Evening) -> dict:
    """A backup of one evening: its players, participants, wishes, tables, sessions,
    partnerships, rounds, seatings, replacements, deals and the history of every deal, the
    online names of its players (one query per model)."""
    with transaction.atomic():  # one consistent snapshot, even while tablets keep entering deals
        return _export("evening", evening)


def export_database() -> dict:
    """A backup of every evening and the whole player register with the players' online names."""
    with transaction.atomic():
        return _export("database", None)
