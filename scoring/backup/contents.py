"""Reading a backup: the envelope checked, each record turned into an unsaved model instance by
Django's ``python`` deserializer, the references checked; the rules of the game in
:mod:`scoring.backup.game`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError
from django.db import models
from django.utils import timezone

from scoring.backup.base import (
    ADDED_LATER,
    FORMAT,
    KEY_OF_MODEL,
    MODELS,
    OLD_FIELD_NAMES,
    OLD_ORIGIN_TEXTS,
    SCOPES,
    VERSION,
    BackupError,
    backed_up_fields,
    broken,
    checksum,
    chunks,
    foreign,
    invalid,
    is_user_fk,
    messages_of,
)
from scoring.backup.game import check_game, check_graph, check_unique_in_file
from scoring.backup.values import check_values
from scoring.domain.errors import DomainError, gettext_noop
from scoring.hall import table_codes
from scoring.hall.origin import origin_from_text
from scoring.hall.table_links import TOKEN_LENGTH, is_table_token
from scoring.models import Table

#: The longest ``app_version`` read from a file (a version such as ``0.9.0`` or ``1.0.0rc1+g1a2b3c4``).
APP_VERSION_LENGTH = 40


def validate(document: Any) -> None:
    """Check a decoded backup completely, before anything is written.

    Raises:
        BackupError: a foreign file (Django dumpdata, any other JSON), a newer or unknown
            format version, a checksum that does not match (damaged), missing keys, values
            that do not fit their field, references to records that are not in the file, or
            records that break a rule of the game or of their model.
    """
    read_contents(document)


@dataclass
class Contents:
    """A checked backup: per key of ``data``, unsaved model instances whose primary keys and
    references are still the file's ids (users: already this database's, or None)."""

    scope: str
    objects: dict[str, list[models.Model]]
    unknown_users: list[str]
    ignored_fields: list[str]
    app_version: str | None = None  # the Bruus Turnier that wrote the file (None: before 0.9.0)


def read_contents(document: Any) -> Contents:
    """The checked contents of a decoded backup; see :func:`validate`. A document nested too
    deeply for the checks, or too big for the memory, is damaged like any other."""
    try:
        return _read_contents(document)
    except (RecursionError, MemoryError):
        raise broken("data") from None


def _read_contents(document: Any) -> Contents:
    _check_envelope(document)
    data = _checked_data(document)
    _check_record_ids(data)
    if document["scope"] == "evening" and not data["evenings"]:
        raise broken("evenings")
    users = _user_map(data)
    objects = {key: _deserialize(key, model, data[key], users) for key, model, _ in MODELS}
    _check_table_links(objects["tables"])
    _check_references(objects)
    check_graph(objects)
    check_game(objects)
    _check_constraints(objects)
    check_unique_in_file(objects)
    return Contents(
        scope=document["scope"],
        app_version=app_version(document),
        objects=objects,
        unknown_users=sorted(name for name, user in users.items() if user is None),
        ignored_fields=sorted(
            {
                f"{key}.{name}"
                for key, model, _ in MODELS
                for record in data[key]
                for name in record
                if name != "id" and name not in _known_names(key, model)
            }
        ),
    )


def app_version(document: dict) -> str | None:
    """The version of Bruus Turnier that wrote the backup: its ``app_version``; None when the file
    has none (written before 0.9.0) or holds no short text there (the field is informational and
    outside the checksum, so it never refuses a file)."""
    found = document.get("app_version")
    if isinstance(found, str) and 0 < len(found.strip()) <= APP_VERSION_LENGTH:
        return found.strip()
    return None


def _check_envelope(document: Any) -> None:
    """Raise BackupError unless ``document`` is a Bruus Turnier backup of a version this reads."""
    if isinstance(document, list) and document and all(isinstance(r, dict) and "model" in r for r in document):
        raise BackupError(
            gettext_noop(
                "This file is a Django database dump (dumpdata), not a Bruus Turnier backup. "
                'Please use a file made with "manage.py backup".'
            ),
            code="dumpdata",
        )
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise foreign()
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise broken("version")
    if version > VERSION:
        raise BackupError(
            gettext_noop(
                "This backup was made by a newer version of Bruus Turnier (backup format %(version)s; "
                "this version reads format %(supported)s). Please update the program first."
            ),
            code="newer_version",
            version=version,
            supported=VERSION,
        )


def _checked_data(document: dict) -> dict:
    """The ``data`` of a backup whose scope and checksum are right (later-added keys filled in).

    Raises:
        BackupError: unknown scope, no data, or a checksum that does not match.
    """
    if document.get("scope") not in SCOPES:
        raise broken("scope")
    data = document.get("data")
    if not isinstance(data, dict) or not isinstance(document.get("sha256"), str):
        raise broken("data")
    if checksum(data) != document["sha256"].lower():
        raise BackupError(
            gettext_noop(
                "The backup file is damaged: its checksum does not match its content "
                "(it was changed or only partly copied). Nothing was restored."
            ),
            code="checksum",
        )
    # A copy: the document stays as read, so its checksum holds when it is checked again.
    return {key: [] for key in ADDED_LATER} | data


def _check_record_ids(data: dict) -> None:
    """Raise BackupError unless every key holds a list of records, each with its own whole-number
    ``id`` (the primary key it had)."""
    for key, _model, _ in MODELS:
        records = data.get(key)
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise broken(key)
        seen = set()
        for record in records:
            pk = record.get("id")
            if not isinstance(pk, int) or isinstance(pk, bool) or pk in seen:
                raise broken(f"{key}: id {pk!r}")
            seen.add(pk)


def _user_map(data: dict) -> dict[str, Any]:
    """Username -> user of this database (None when there is no such user), for every username
    the file names (one query)."""
    user_model = get_user_model()
    values = (
        record.get(f.name)
        for key, model, _ in MODELS
        for f in backed_up_fields(model)
        if is_user_fk(f)
        for record in data[key]
    )
    # Only text can be a username (anything else is refused with its record, by _fits).
    names = sorted({name for name in values if name and isinstance(name, str)})
    username = user_model.USERNAME_FIELD
    found = {
        getattr(u, username): u
        for part in chunks(names)
        for u in user_model.objects.filter(**{f"{username}__in": part})
    }
    return {name: found.get(name) for name in names}


def _known_names(key: str, model: type[models.Model]) -> set[str]:
    """The field names a file may hold for ``model``: today's and those of older files."""
    names = {f.name for f in backed_up_fields(model)}
    old_text = [OLD_ORIGIN_TEXTS[key][0]] if key in OLD_ORIGIN_TEXTS else []
    return names | {OLD_FIELD_NAMES[key, name] for name in names if (key, name) in OLD_FIELD_NAMES} | set(old_text)


def _may_be_missing(f: models.Field) -> bool:
    """A field the record may leave out (added after the backup was made: its default)."""
    if f.has_default() or f.null or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
        return True
    return isinstance(f, (models.CharField, models.TextField)) and f.blank


def _fits(f: models.Field, value: Any) -> bool:
    """Whether a value of the file has the JSON type the backup writes for ``f``. Stricter than
    ``to_python``, which would read ``1`` as True, ``true`` as 1 and a number as a name."""
    if value is None:
        return f.null or is_user_fk(f)
    if is_user_fk(f) or isinstance(f, (models.CharField, models.TextField)):
        return isinstance(value, str)
    if isinstance(f, models.BooleanField):
        return isinstance(value, bool)
    if f.is_relation or isinstance(f, (models.IntegerField, models.FloatField)):
        return not isinstance(value, bool)
    return True


def _serializer_record(key: str, model: type[models.Model], record: dict, users: dict[str, Any]) -> dict:
    """A record of the file as a record of Django's ``python`` serializer: old field names read
    as today's, a username as the primary key of that user here (None when unknown), fields this
    version does not know left out, fields the file does not hold left to their defaults.

    Raises:
        BackupError: a field missing that has no default, or a value of the wrong JSON type.
    """
    record = _with_origin_fields(key, record)
    fields = {}
    for f in backed_up_fields(model):
        name = f.name if f.name in record else OLD_FIELD_NAMES.get((key, f.name), f.name)
        if name not in record:
            if _may_be_missing(f):
                continue
            raise broken(f"{key} {record['id']!r}: {f.name}")
        value = record[name]
        if not _fits(f, value):
            raise broken(f"{key} {record['id']!r}: {f.name} = {value!r}"[:200])
        if is_user_fk(f) and value is not None:
            value = getattr(users.get(value), "pk", None)
        fields[f.name] = value
    return {"model": model._meta.label_lower, "pk": record["id"], "fields": fields}


def _with_origin_fields(key: str, record: dict) -> dict:
    """A record of an older file, which kept where a change came from as a sentence ("Tisch 3
    (Tisch-Link)", ``OLD_ORIGIN_TEXTS``), with the fields of today read from it as migration 0018
    read them (:func:`scoring.hall.origin.origin_from_text`); any other record as it is."""
    if key not in OLD_ORIGIN_TEXTS:
        return record
    text_field, prefix = OLD_ORIGIN_TEXTS[key]
    text = record.get(text_field)
    if prefix + "source" in record or not isinstance(text, str) or not text:
        return record
    return {**record, **origin_from_text(text).fields(prefix)}


def _deserialize(key: str, model: type[models.Model], records: list[dict], users: dict[str, Any]) -> list:
    """The records of one model as unsaved instances (``serializers.deserialize``), each field
    checked by the field itself (``clean_fields``: validators, choices, lengths).

    Raises:
        BackupError: ``broken`` for a value the field cannot read, ``invalid_record`` naming the
            record for a value the field refuses.
    """
    try:
        stream = [_serializer_record(key, model, record, users) for record in records]
        objects = [deserialized.object for deserialized in serializers.deserialize("python", stream)]
    except DeserializationError as error:
        raise broken(f"{key}: {error}"[:200]) from None
    fields = backed_up_fields(model)
    relations = [f.name for f in fields if f.is_relation]
    now = timezone.now()
    for obj in objects:
        for f in fields:
            value = getattr(obj, f.attname)
            if value is None and (getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)):
                setattr(obj, f.attname, now)  # not in the file (added later): now, as a save would
            elif isinstance(value, datetime) and timezone.is_naive(value):
                setattr(obj, f.attname, value.replace(tzinfo=UTC))  # not written by the backup: UTC
        try:
            check_values(key, obj, fields)  # first: the same message on every database
            obj.clean_fields(exclude=relations)  # (PostgreSQL's fields add range validators)
        except ValidationError as error:
            raise invalid(key, obj.pk, messages_of(error)) from None
        except OverflowError:  # a moment whose offset takes it beyond the year 9999
            raise broken(f"{key} {obj.pk!r}") from None
    return objects


def _check_table_links(tables: list[Table]) -> None:
    """Raise BackupError naming the table unless its link and code are ones the app makes
    (:func:`scoring.hall.table_links.is_table_token`, :func:`scoring.hall.table_codes.is_table_code`): a crafted
    file must not bring a short, guessable table link into the hall."""
    for table in tables:
        if not is_table_token(table.token):
            raise invalid(
                "tables",
                table.pk,
                DomainError(
                    gettext_noop("Its table link is not one Bruus Turnier makes (%(length)s letters, digits, - or _)."),
                    length=TOKEN_LENGTH,
                ),
            )
        if not table_codes.is_table_code(table.code):
            raise invalid(
                "tables",
                table.pk,
                DomainError(
                    gettext_noop(
                        "Its table code is not one Bruus Turnier makes (%(length)s capital letters of %(alphabet)s)."
                    ),
                    length=table_codes.LENGTH,
                    alphabet=table_codes.ALPHABET,
                ),
            )


def _check_references(objects: dict[str, list]) -> None:
    """Raise BackupError unless every reference points to a record of the file."""
    ids = {key: {obj.pk for obj in objs} for key, objs in objects.items()}
    for key, model, _ in MODELS:
        for f in backed_up_fields(model):
            if not f.is_relation or f.related_model is None or is_user_fk(f):
                continue
            targets = ids[KEY_OF_MODEL[f.related_model]]
            for obj in objects[key]:
                value = getattr(obj, f.attname)
                if value is not None and value not in targets:
                    raise broken(f"{key} {obj.pk!r}: {f.name} → {value!r}")


#: The models' check constraints that the checks in Python cover (``game``, ``values``, the
#: restore's ordering of pairs): checked without a query per record. A constraint added later
#: and not named here is checked record by record with the database (:func:`_check_constraints`).
CHECKED_IN_PYTHON = frozenset(
    {"exclusion_pair_ordered", "two_different_teams", "deal_number_positive", "winner_is_a_team_or_bock"}
)


def _check_constraints(objects: dict[str, list]) -> None:
    """The models' check constraints not covered in Python (:data:`CHECKED_IN_PYTHON`), on the
    records of the file (a query each: none today)."""
    for key, model, _ in MODELS:
        for constraint in model._meta.constraints:
            if not isinstance(constraint, models.CheckConstraint) or constraint.name in CHECKED_IN_PYTHON:
                continue
            for obj in objects[key]:
                try:
                    constraint.validate(model, obj)
                except ValidationError as error:
                    raise invalid(key, obj.pk, messages_of(error)) from None
