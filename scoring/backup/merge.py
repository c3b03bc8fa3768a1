"""Restoring a checked backup into a database that may hold other evenings: players reused, new
primary keys, table links kept unless taken, users by username, one transaction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializedObject
from django.db import DatabaseError, models, transaction

from scoring.backup.base import KEY_OF_MODEL, MODELS, BackupError, backed_up_fields, invalid, is_user_fk, messages_of
from scoring.backup.contents import read_contents
from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import match_key
from scoring.models import Evening, PartnerExclusion, Player, Season

#: Pairs stored smaller id first (a database check constraint): ordered again after new ids.
ORDERED_PAIRS: dict[type[models.Model], tuple[str, str]] = {PartnerExclusion: ("player_a_id", "player_b_id")}


@dataclass
class RestoreOutcome:
    """What a restore did."""

    scope: str
    evenings: list[Evening] = field(default_factory=list)
    players_new: int = 0
    players_reused: int = 0
    deals: int = 0
    deal_changes: int = 0
    new_tokens: int = 0  # tables that got a new link
    unknown_users: list[str] = field(default_factory=list)  # usernames not in this database
    ignored_fields: list[str] = field(default_factory=list)  # "model.field" not in this version
    app_version: str | None = None  # the Bruus Turnier that wrote the file (None: before 0.9.0)


def restore(document: dict, *, allow_duplicates: bool = False) -> RestoreOutcome:
    """Restore a checked backup (see :func:`read_backup`) in one transaction.

    Raises:
        BackupError: the file does not pass :func:`validate`, an evening with the same name and
            date exists already (unless ``allow_duplicates``), or the database refuses the data
            (then everything is rolled back).
    """
    contents = read_contents(document)
    outcome = RestoreOutcome(
        scope=contents.scope,
        unknown_users=contents.unknown_users,
        ignored_fields=contents.ignored_fields,
        app_version=contents.app_version,
    )
    try:
        with transaction.atomic():
            if not allow_duplicates:
                _refuse_duplicate_evenings(cast(list[Evening], contents.objects["evenings"]))
            _restore(contents.objects, outcome)
    except DatabaseError as error:
        raise BackupError(
            gettext_noop("The backup does not fit into this database (%(detail)s). Nothing was restored."),
            code="integrity",
            detail=str(error)[:200],
        ) from None
    return outcome


def _refuse_duplicate_evenings(evenings: list[Evening]) -> None:
    for evening in evenings:
        if Evening.objects.filter(name=evening.name, date=evening.date).exists():
            raise BackupError(
                gettext_noop(
                    'The evening "%(name)s" of %(date)s is already in this database. '
                    "Nothing was restored. To restore it a second time, allow duplicates "
                    "(restore --allow-duplicates)."
                ),
                code="duplicate_evening",
                name=evening.name,
                date=evening.date.isoformat(),
            )


def _restore(objects: dict[str, list], outcome: RestoreOutcome) -> None:
    new_ids = {"players": _reuse_or_insert_players(objects["players"], outcome)}
    for key, model, _ in MODELS[1:]:
        file_ids = [obj.pk for obj in objects[key]]
        for file_id, obj in zip(file_ids, objects[key], strict=True):
            _renumber_references(obj, new_ids)
            _order_pair(key, file_id, obj)
            _check_constraints(key, file_id, obj)
        if model is Season:
            new_ids[key] = _reuse_or_insert_seasons(objects[key], objects["evenings"])
            continue
        outcome.new_tokens += _fresh_unique_values(model, objects[key])
        for obj in objects[key]:
            _insert(obj)
        new_ids[key] = {file_id: obj.pk for file_id, obj in zip(file_ids, objects[key], strict=True)}
    outcome.evenings = objects["evenings"]
    outcome.deals = len(objects["deals"])
    outcome.deal_changes = len(objects["deal_changes"])


def _renumber_references(obj: models.Model, new_ids: dict[str, dict[int, int]]) -> None:
    """Point the references of ``obj`` (ids of the file) to the records as saved here (users
    are this database's already)."""
    for f in backed_up_fields(type(obj)):
        if f.is_relation and f.related_model is not None and not is_user_fk(f) and getattr(obj, f.attname) is not None:
            setattr(obj, f.attname, new_ids[KEY_OF_MODEL[f.related_model]][getattr(obj, f.attname)])


def _reuse_or_insert_players(players: list[Player], outcome: RestoreOutcome) -> dict[int, int]:
    """File id -> primary key here of every player of the file: the player of the register with
    the same :attr:`Player.match_key`, else a new one (once, however often the file holds them)."""
    keys = [match_key(player.name, player.club) for player in players]
    existing = {p.match_key: p.pk for p in Player.objects.filter(match_key__in=keys)}
    created: dict[str, int] = {}
    new_ids = {}
    for player, key in zip(players, keys, strict=True):
        file_id = player.pk
        if key in existing:
            outcome.players_reused += 1
        elif key not in created:  # else: the same person twice in the file, created once
            player.match_key = key
            _insert(player)
            created[key] = player.pk
            outcome.players_new += 1
        new_ids[file_id] = existing[key] if key in existing else created[key]
    return new_ids


def _reuse_or_insert_seasons(seasons: list[Season], evenings: list[Evening]) -> dict[int, int]:
    """File id -> primary key here of every season of the file: the season here with the same
    name and year (its settings stay as they are here), else a new one. So the backups of a
    season's evenings, restored one after the other, join one season again. A season that holds
    an evening of the same name and date already is not joined (a second copy of an evening,
    restored with duplicates allowed, gets a season of its own instead of counting twice)."""
    restored = {(evening.name, evening.date) for evening in evenings}
    new_ids = {}
    for season in seasons:
        file_id = season.pk
        existing = next(
            (
                here
                for here in Season.objects.filter(name=season.name, year=season.year).order_by("pk")
                if not restored & set(here.evenings.values_list("name", "date"))
            ),
            None,
        )
        if existing is None:
            _insert(season)
            existing = season
        new_ids[file_id] = existing.pk
    return new_ids


def _insert(obj: models.Model) -> None:
    """Insert ``obj`` under a new primary key exactly as it is: a raw save, as ``loaddata``
    does, so automatic dates keep their backed-up values."""
    obj.pk = None
    DeserializedObject(obj).save()


def _order_pair(key: str, record_id: int, obj: models.Model) -> None:
    """Put an ordered pair of references (a wish "not together") back in order after the
    players got new ids, which may have flipped it; one player twice is refused."""
    if type(obj) not in ORDERED_PAIRS:
        return
    first, second = ORDERED_PAIRS[type(obj)]
    a, b = getattr(obj, first), getattr(obj, second)
    if a == b:
        raise invalid(
            key, record_id, DomainError(gettext_noop("Both players of the pair are the same player in this database."))
        )
    if a > b:
        setattr(obj, first, b)
        setattr(obj, second, a)


def _fresh_unique_values(model: type[models.Model], objects: list) -> int:
    """Unique fields with a generated default (table links): keep the backed-up value unless
    this database (or an earlier record of the file) uses it already; then generate a new one.
    Returns how many objects got a new value."""
    changed: set[int] = set()
    for f in backed_up_fields(model):
        if not (f.unique and callable(f.default)):
            continue
        wanted = [getattr(obj, f.attname) for obj in objects]
        taken = set(model._default_manager.filter(**{f"{f.attname}__in": wanted}).values_list(f.attname, flat=True))
        for i, obj in enumerate(objects):
            while getattr(obj, f.attname) in taken:
                setattr(obj, f.attname, f.get_default())
                changed.add(i)
            taken.add(getattr(obj, f.attname))
    return len(changed)


def _check_constraints(key: str, record_id: int, obj: models.Model) -> None:
    """The model's check constraints, on the record as it will be saved (with its new ids)."""
    model = type(obj)
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.CheckConstraint):
            try:
                constraint.validate(model, obj)
            except ValidationError as error:
                raise invalid(key, record_id, messages_of(error)) from None
