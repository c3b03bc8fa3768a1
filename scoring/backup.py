"""Backup and restore of a whole evening, or of the whole database, as one JSON file.

The file (UTF-8 JSON; gzip-compressed when its name ends in ``.gz``)::

    {
      "format": "bruus-turnier-backup",
      "version": 1,
      "scope": "evening" | "database",
      "created": "2026-11-21T22:41:07.123456+00:00",
      "sha256": "<hex digest of the canonical JSON of data>",
      "data": {"players": [...], "evenings": [...], "participants": [...], "tables": [...],
               "sessions": [...], "partnerships": [...], "rounds": [...], "seatings": [...],
               "deals": [...], "deal_changes": [...]}
    }

Each record is a plain dict: ``id`` (the primary key in the database it came from, used only
for references inside the file) and every concrete field of its model. A foreign key holds the
``id`` of the referenced record in the file; a foreign key to a user holds the username (users
are not backed up).

**Django's serializers do the field work.** Writing, ``serializers.serialize("python", ...)``
reads every field of a model (fields added later are backed up without changing this module);
reading, ``serializers.deserialize("python", ...)`` turns each record back into an unsaved model
instance (``to_python`` of every field, defaults for fields the file does not hold), and the
instances are inserted with a raw save, as ``loaddata`` does, so automatic dates (``created_at``,
``updated_at``, ``changed_at``) keep their backed-up values.

**Why the file keeps the shape of format version 1** and is converted at the edges
(:func:`_file_record` and :func:`_serializer_record`), rather than written in the serializer's
``{"model", "pk", "fields"}`` shape as a version 2: every file written so far is version 1 and
must keep restoring, so a version 2 would need two readers for one gain (the shape). Converting
costs a few lines, and one shape keeps one checksum, one set of checks and files a person can
read (records grouped by model, a login by its name). Two things the serializers do not do as
the file needs: the ``json`` serializer cuts datetimes to milliseconds (hence the ``python``
one and :func:`_plain`), and a natural key of an unknown user fails (hence the user mapping).

On top of the serializers this module holds what the app needs:

- the envelope (format, version, scope, checksum) and the refusal of foreign, damaged and
  newer files with translated messages, before anything is written;
- the rules of the game (session, round and deal numbers within the evening's format, every
  deal scored as the rules score it) and the models' uniqueness within the file;
- players are matched by :attr:`Player.match_key` (same name and club, ignoring case and
  spacing): players already in the register are reused, never duplicated;
- everything else is created new with fresh primary keys, so an evening can be restored into a
  database that holds other evenings;
- table links (tokens) are kept unless already used in the target database, then new ones are
  made (and reported: those tables need their new link or QR code);
- users are matched by username, else left empty and reported (the history's ``via`` text
  still names them); fields this version does not know are ignored and reported;
- an evening with the same name and date as one in the target is refused unless duplicates
  are allowed; the whole restore is one transaction.

A damaged or foreign file raises :class:`BackupError` with a translatable message and changes
nothing.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import tempfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.serializers.base import DeserializationError, DeserializedObject
from django.db import DatabaseError, models, transaction
from django.utils import timezone

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import match_key
from scoring.domain.rules import DealResult, ImpossibleResult, score_accepted, score_deal
from scoring.models import (
    AttemptCounter,
    Deal,
    DealChange,
    Evening,
    Participant,
    PartnerExclusion,
    Partnership,
    Player,
    Round,
    Seating,
    Session,
    Substitution,
    Table,
)

FORMAT = "bruus-turnier-backup"
VERSION = 1
SCOPES = ("evening", "database")

#: The backed-up models in restore order (every foreign key points to a model earlier in the
#: list), with the key in ``data`` and the path from the model to its evening (None: players,
#: which are shared by all evenings).
MODELS: tuple[tuple[str, type[models.Model], str | None], ...] = (
    ("players", Player, None),
    ("evenings", Evening, ""),
    ("participants", Participant, "evening"),
    ("partner_exclusions", PartnerExclusion, "evening"),
    ("tables", Table, "evening"),
    ("sessions", Session, "evening"),
    ("partnerships", Partnership, "session__evening"),
    ("rounds", Round, "session__evening"),
    ("seatings", Seating, "round__session__evening"),
    ("substitutions", Substitution, "session__evening"),
    ("deals", Deal, "seating__round__session__evening"),
    ("deal_changes", DealChange, "deal__seating__round__session__evening"),
)
KEY_OF_MODEL = {model: key for key, model, _ in MODELS}
#: Models left out on purpose: failed-attempt counters live for minutes (``scoring.throttle``).
NOT_BACKED_UP: tuple[type[models.Model], ...] = (AttemptCounter,)
#: Models added after files of format version 1 were first written: a file without them has none.
ADDED_LATER = ("partner_exclusions", "substitutions")
#: Fields renamed after files of format version 1 were first written: (key, today's name) ->
#: the name in older files, which are still read.
OLD_FIELD_NAMES: dict[tuple[str, str], str] = {
    ("seatings", "entered_at"): "finished_at",
    ("seatings", "entered_by"): "finished_by",
    ("seatings", "confirmed_at"): "completed_at",
}
#: Pairs stored smaller id first (a database check constraint): ordered again after new ids.
ORDERED_PAIRS: dict[type[models.Model], tuple[str, str]] = {PartnerExclusion: ("player_a_id", "player_b_id")}


class BackupError(DomainError):
    """A backup file that cannot be restored (foreign, damaged, newer, contradicting the
    database), or a backup that cannot be written. ``message`` is an English msgid."""


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


def _fields(model: type[models.Model]) -> list[models.Field]:
    """The concrete fields of ``model`` that a backup holds: all but the primary key."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _is_user_fk(f: models.Field) -> bool:
    return f.is_relation and f.related_model is get_user_model()


# --- Export -----------------------------------------------------------------------------------


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


def _file_record(model: type[models.Model], serialized: dict) -> dict:
    """A record of the ``python`` serializer in the file's shape: ``id`` and the fields beside
    it, a user by username (the natural key of a user is ``(username,)``)."""
    users = {f.name for f in _fields(model) if _is_user_fk(f)}
    record = {"id": serialized["pk"]}
    for name, value in serialized["fields"].items():
        record[name] = (value[0] if value else None) if name in users else _plain(value)
    return record


def _records(model: type[models.Model], queryset) -> list[dict]:
    """The records of ``queryset`` in the file's shape (one query: users joined)."""
    users = [f.name for f in _fields(model) if _is_user_fk(f)]
    queryset = queryset.select_related(*users).order_by("pk")
    return [
        _file_record(model, serialized)
        for serialized in serializers.serialize("python", queryset, use_natural_foreign_keys=True)
    ]


def _export(scope: str, evening: Evening | None) -> dict:
    data: dict[str, list[dict]] = {}
    for key, model, path in MODELS[1:]:
        queryset = model.objects.all()
        if evening is not None:
            queryset = queryset.filter(**{f"{path}__pk" if path else "pk": evening.pk})
        data[key] = _records(model, queryset)
    players = Player.objects.all()
    if evening is not None:  # the players the evening refers to
        players = players.filter(
            pk__in={
                record[f.name]
                for key, model, _ in MODELS[1:]
                for f in _fields(model)
                if f.related_model is Player
                for record in data[key]
                if record[f.name] is not None
            }
        )
    data = {"players": _records(Player, players), **data}
    return {
        "format": FORMAT,
        "version": VERSION,
        "scope": scope,
        "created": timezone.now().isoformat(),
        "sha256": checksum(data),
        "data": data,
    }


def export_evening(evening: Evening) -> dict:
    """A backup of one evening: its players, participants, wishes, tables, sessions,
    partnerships, rounds, seatings, replacements, deals and the history of every deal (one
    query per model)."""
    with transaction.atomic():  # one consistent snapshot, even while tablets keep entering deals
        return _export("evening", evening)


def export_database() -> dict:
    """A backup of every evening and the whole player register."""
    with transaction.atomic():
        return _export("database", None)


def canonical_json(data: Any) -> bytes:
    """The canonical form the checksum is computed over: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def checksum(data: Any) -> str:
    return hashlib.sha256(canonical_json(data)).hexdigest()


def write_backup(data: dict, path: str | os.PathLike) -> Path:
    """Write a backup to ``path`` (gzip-compressed when the name ends in ``.gz``).

    The file appears complete or not at all: it is written next to its target and renamed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    content = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    if path.name.endswith(".gz"):
        content = gzip.compress(content, mtime=0)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".bruus-backup-", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


# --- Reading and checking ---------------------------------------------------------------------


def read_backup(path: str | os.PathLike) -> dict:
    """Read and check a backup file; raise :class:`BackupError` unless it can be restored."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise BackupError(gettext_noop("File not found: %(path)s"), code="not_found", path=str(path)) from None
    except OSError as error:
        raise BackupError(
            gettext_noop("The file %(path)s cannot be read: %(reason)s"),
            code="unreadable",
            path=str(path),
            reason=error.strerror or str(error),
        ) from None
    return parse_backup(raw)


def parse_backup(raw: bytes) -> dict:
    """Decode (gzip if compressed) and check the bytes of a backup file."""
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error):
            raise BackupError(
                gettext_noop("The backup file is damaged or incomplete (the compressed data cannot be read)."),
                code="bad_gzip",
            ) from None
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise BackupError(
            gettext_noop("This file is not a Bruus Turnier backup (it is not a text file)."), code="not_json"
        ) from None
    except json.JSONDecodeError:
        raise BackupError(
            gettext_noop("This file is not a Bruus Turnier backup, or it is incomplete (it is not valid JSON)."),
            code="not_json",
        ) from None
    validate(document)
    return document


def _foreign(code: str = "foreign") -> BackupError:
    return BackupError(gettext_noop("This file is not a Bruus Turnier backup."), code=code)


def _broken(detail: str) -> BackupError:
    return BackupError(
        gettext_noop("The backup file is damaged: %(detail)s. Nothing was restored."), code="broken", detail=detail
    )


def validate(document: Any) -> None:
    """Check a decoded backup completely, before anything is written.

    Raises:
        BackupError: a foreign file (Django dumpdata, any other JSON), a newer or unknown
            format version, a checksum that does not match (damaged), missing keys, values
            that do not fit their field, references to records that are not in the file, or
            records that break a rule of the game or of their model.
    """
    _contents(document)


@dataclass
class _Contents:
    """A checked backup: per key of ``data``, unsaved model instances whose primary keys and
    references are still the file's ids (users: already this database's, or None)."""

    scope: str
    objects: dict[str, list[models.Model]]
    unknown_users: list[str]
    ignored_fields: list[str]


def _contents(document: Any) -> _Contents:
    """The checked contents of a decoded backup; see :func:`validate`."""
    _check_envelope(document)
    data = _checked_data(document)
    _check_record_ids(data)
    if document["scope"] == "evening" and not data["evenings"]:
        raise _broken("evenings")
    users = _user_map(data)
    objects = {key: _deserialize(key, model, data[key], users) for key, model, _ in MODELS}
    _check_references(objects)
    _check_game(objects)
    _check_unique_in_file(objects)
    return _Contents(
        scope=document["scope"],
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
        raise _foreign()
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _broken("version")
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
        raise _broken("scope")
    data = document.get("data")
    if not isinstance(data, dict) or not isinstance(document.get("sha256"), str):
        raise _broken("data")
    if checksum(data) != document["sha256"].lower():
        raise BackupError(
            gettext_noop(
                "The backup file is damaged: its checksum does not match its content "
                "(it was changed or only partly copied). Nothing was restored."
            ),
            code="checksum",
        )
    for key in ADDED_LATER:
        data.setdefault(key, [])
    return data


def _check_record_ids(data: dict) -> None:
    """Raise BackupError unless every key holds a list of records, each with its own whole-number
    ``id`` (the primary key it had)."""
    for key, _model, _ in MODELS:
        records = data.get(key)
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise _broken(key)
        seen = set()
        for record in records:
            pk = record.get("id")
            if not isinstance(pk, int) or isinstance(pk, bool) or pk in seen:
                raise _broken(f"{key}: id {pk!r}")
            seen.add(pk)


def _user_map(data: dict) -> dict[str, Any]:
    """Username -> user of this database (None when there is no such user), for every username
    the file names (one query)."""
    user_model = get_user_model()
    names = {
        record.get(f.name) for key, model, _ in MODELS for f in _fields(model) if _is_user_fk(f) for record in data[key]
    }
    names = {name for name in names if name and isinstance(name, str)}
    username = user_model.USERNAME_FIELD
    found = {getattr(u, username): u for u in user_model.objects.filter(**{f"{username}__in": names})}
    return {name: found.get(name) for name in names}


def _known_names(key: str, model: type[models.Model]) -> set[str]:
    """The field names a file may hold for ``model``: today's and those of older files."""
    names = {f.name for f in _fields(model)}
    return names | {OLD_FIELD_NAMES[key, name] for name in names if (key, name) in OLD_FIELD_NAMES}


def _may_be_missing(f: models.Field) -> bool:
    """A field the record may leave out (added after the backup was made: its default)."""
    if f.has_default() or f.null or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
        return True
    return isinstance(f, (models.CharField, models.TextField)) and f.blank


def _fits(f: models.Field, value: Any) -> bool:
    """Whether a value of the file has the JSON type the backup writes for ``f``. Stricter than
    ``to_python``, which would read ``1`` as True, ``true`` as 1 and a number as a name."""
    if value is None:
        return f.null or _is_user_fk(f)
    if _is_user_fk(f) or isinstance(f, (models.CharField, models.TextField)):
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
    fields = {}
    for f in _fields(model):
        name = f.name if f.name in record else OLD_FIELD_NAMES.get((key, f.name), f.name)
        if name not in record:
            if _may_be_missing(f):
                continue
            raise _broken(f"{key} {record['id']!r}: {f.name}")
        value = record[name]
        if not _fits(f, value):
            raise _broken(f"{key} {record['id']!r}: {f.name} = {value!r}"[:200])
        if _is_user_fk(f) and value is not None:
            value = getattr(users.get(value), "pk", None)
        fields[f.name] = value
    return {"model": model._meta.label_lower, "pk": record["id"], "fields": fields}


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
        raise _broken(f"{key}: {error}"[:200]) from None
    relations = [f.name for f in _fields(model) if f.is_relation]
    for obj in objects:
        for f in _fields(model):  # a time without zone (not written by the backup) is UTC
            value = getattr(obj, f.attname)
            if isinstance(value, datetime) and timezone.is_naive(value):
                setattr(obj, f.attname, value.replace(tzinfo=UTC))
        try:
            obj.clean_fields(exclude=relations)
        except ValidationError as error:
            raise _invalid(key, obj.pk, _text(error)) from None
    return objects


def _check_references(objects: dict[str, list]) -> None:
    """Raise BackupError unless every reference points to a record of the file."""
    ids = {key: {obj.pk for obj in objs} for key, objs in objects.items()}
    for key, model, _ in MODELS:
        for f in _fields(model):
            if not f.is_relation or _is_user_fk(f):
                continue
            targets = ids[KEY_OF_MODEL[f.related_model]]
            for obj in objects[key]:
                value = getattr(obj, f.attname)
                if value is not None and value not in targets:
                    raise _broken(f"{key} {obj.pk!r}: {f.name} → {value!r}")


# --- The rules of the game and the models' own constraints -------------------------------------


class _Reason:
    """A domain error's message inside a refusal, translated when the refusal is shown."""

    def __init__(self, error: DomainError) -> None:
        self.error = error

    def __str__(self) -> str:
        from scoring.messages import translate

        return translate(self.error)


def _invalid(key: str, record_id: Any, reason: DomainError | str) -> BackupError:
    """A record that passes the file checks but breaks a rule of the game or of its model."""
    return BackupError(
        gettext_noop("The backup cannot be restored: record %(record)s: %(reason)s Nothing was restored."),
        code="invalid_record",
        record=f"{key} {record_id!r}",
        reason=_Reason(reason) if isinstance(reason, DomainError) else reason,
    )


def _text(error: ValidationError) -> str:
    """The messages of a model's ValidationError on one line, each after its field's name."""
    if not hasattr(error, "error_dict"):
        return " ".join(error.messages)[:300]
    return " ".join(f"{name}: {' '.join(str(m) for m in errors)}" for name, errors in error.message_dict.items())[:300]


_NO_SUCH_SESSION = gettext_noop("There is no session %(number)s: the evening has sessions 1 to %(count)s.")
_NO_SUCH_ROUND = gettext_noop("There is no round %(number)s: a session has rounds 1 to %(count)s.")
_NO_SUCH_DEAL = gettext_noop("There is no deal %(number)s: a round has deals 1 to %(count)s.")


def _check_number(key: str, obj: Any, count: int, message: str) -> None:
    """BackupError naming the record unless its ``number`` lies in 1..``count``."""
    if not 1 <= obj.number <= count:
        raise _invalid(key, obj.pk, DomainError(message, number=obj.number, count=count))


def _check_game(objects: dict[str, list]) -> None:
    """Raise BackupError (naming the record) unless every session, round and deal fits its
    evening and every deal is scored as the rules score it (``scoring.domain.rules``): a result
    the rules call impossible needs the organiser's stored reason, as in the app."""
    evenings, sessions, rounds, seatings = (
        {obj.pk: obj for obj in objects[key]} for key in ("evenings", "sessions", "rounds", "seatings")
    )
    for session in objects["sessions"]:
        _check_number("sessions", session, evenings[session.evening_id].sessions_count, _NO_SUCH_SESSION)
    for round_ in objects["rounds"]:
        evening = evenings[sessions[round_.session_id].evening_id]
        _check_number("rounds", round_, evening.rounds_per_session, _NO_SUCH_ROUND)
    for deal in objects["deals"]:
        evening = evenings[sessions[rounds[seatings[deal.seating_id].round_id].session_id].evening_id]
        _check_number("deals", deal, evening.deals_per_round, _NO_SUCH_DEAL)
        _check_score(deal)


def _check_score(deal: Deal) -> None:
    """Raise BackupError unless the deal's matchsticks are what the rules give for its result."""
    result = DealResult(deal.winner, deal.to_nil, deal.bonus_a, deal.bonus_b)
    try:
        score = score_deal(result)
    except ImpossibleResult as error:
        if not deal.override_reason.strip():
            raise _invalid("deals", deal.pk, error) from None
        try:
            score = score_accepted(result)
        except ImpossibleResult as error:
            raise _invalid("deals", deal.pk, error) from None
    if (deal.points_a, deal.points_b) != (score.a, score.b):
        raise _invalid(
            "deals",
            deal.pk,
            DomainError(
                gettext_noop(
                    "The deal holds %(points_a)s:%(points_b)s matchsticks, but the rules give "
                    "%(rule_a)s:%(rule_b)s for what was entered."
                ),
                points_a=deal.points_a,
                points_b=deal.points_b,
                rule_a=score.a,
                rule_b=score.b,
            ),
        )


def _unique_sets(model: type[models.Model]) -> list[tuple[str, ...]]:
    """Attnames of each unique field or unconditional unique constraint of ``model``."""
    sets = [(f.attname,) for f in _fields(model) if f.unique]
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.UniqueConstraint) and constraint.fields and constraint.condition is None:
            sets.append(tuple(model._meta.get_field(name).attname for name in constraint.fields))
    return sets


def _check_unique_in_file(objects: dict[str, list]) -> None:
    """Two records of the file that the database would take for the same (two tables number 1
    of an evening, two results of one deal): BackupError naming the second one. Players (matched
    by name and club) and table links (replaced when taken) are handled by the restore."""
    for key, model, _ in MODELS[1:]:
        for names in _unique_sets(model):
            fields = [f for f in _fields(model) if f.attname in names]
            if any(f.has_default() and callable(f.default) for f in fields):
                continue  # a generated value (table link): made fresh when it is taken
            seen: dict[tuple, Any] = {}
            for obj in objects[key]:
                value = tuple(getattr(obj, name) for name in names)
                if None in value:
                    continue
                if value in seen:
                    raise _invalid(
                        key,
                        obj.pk,
                        DomainError(
                            gettext_noop("It repeats %(fields)s of record %(first)s."),
                            fields=", ".join(n.removesuffix("_id") for n in names),
                            first=seen[value],
                        ),
                    )
                seen[value] = obj.pk


def _check_constraints(key: str, record_id: int, obj: models.Model) -> None:
    """The model's check constraints, on the record as it will be saved (with its new ids)."""
    model = type(obj)
    for constraint in model._meta.constraints:
        if isinstance(constraint, models.CheckConstraint):
            try:
                constraint.validate(model, obj)
            except ValidationError as error:
                raise _invalid(key, record_id, _text(error)) from None


# --- Restore ----------------------------------------------------------------------------------


def restore(document: dict, *, allow_duplicates: bool = False) -> RestoreOutcome:
    """Restore a checked backup (see :func:`read_backup`) in one transaction.

    Raises:
        BackupError: the file does not pass :func:`validate`, an evening with the same name and
            date exists already (unless ``allow_duplicates``), or the database refuses the data
            (then everything is rolled back).
    """
    contents = _contents(document)
    outcome = RestoreOutcome(
        scope=contents.scope, unknown_users=contents.unknown_users, ignored_fields=contents.ignored_fields
    )
    try:
        with transaction.atomic():
            if not allow_duplicates:
                _refuse_duplicate_evenings(contents.objects["evenings"])
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


def _insert(obj: models.Model) -> None:
    """Insert ``obj`` under a new primary key exactly as it is: a raw save, as ``loaddata``
    does, so automatic dates keep their backed-up values."""
    obj.pk = None
    DeserializedObject(obj).save()


def _restore(objects: dict[str, list], outcome: RestoreOutcome) -> None:
    new_ids = {"players": _reuse_or_insert_players(objects["players"], outcome)}
    for key, model, _ in MODELS[1:]:
        file_ids = [obj.pk for obj in objects[key]]
        for file_id, obj in zip(file_ids, objects[key], strict=True):
            for f in _fields(model):
                if f.is_relation and not _is_user_fk(f) and getattr(obj, f.attname) is not None:
                    setattr(obj, f.attname, new_ids[KEY_OF_MODEL[f.related_model]][getattr(obj, f.attname)])
            _order_pair(key, file_id, obj)
            _check_constraints(key, file_id, obj)
        outcome.new_tokens += _fresh_unique_values(model, objects[key])
        for obj in objects[key]:
            _insert(obj)
        new_ids[key] = {file_id: obj.pk for file_id, obj in zip(file_ids, objects[key], strict=True)}
    outcome.evenings = objects["evenings"]
    outcome.deals = len(objects["deals"])
    outcome.deal_changes = len(objects["deal_changes"])


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
            new_ids[file_id] = existing[key]
            outcome.players_reused += 1
        elif key not in created:  # else: the same person twice in the file
            player.match_key = key
            _insert(player)
            created[key] = player.pk
            outcome.players_new += 1
        new_ids[file_id] = existing.get(key) or created[key]
    return new_ids


def _order_pair(key: str, record_id: int, obj: models.Model) -> None:
    """Put an ordered pair of references (a wish "not together") back in order after the
    players got new ids, which may have flipped it; one player twice is refused."""
    if type(obj) not in ORDERED_PAIRS:
        return
    first, second = ORDERED_PAIRS[type(obj)]
    a, b = getattr(obj, first), getattr(obj, second)
    if a == b:
        raise _invalid(
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
    for f in _fields(model):
        if not (f.unique and callable(f.default)):
            continue
        wanted = [getattr(obj, f.attname) for obj in objects]
        taken = set(model.objects.filter(**{f"{f.attname}__in": wanted}).values_list(f.attname, flat=True))
        for i, obj in enumerate(objects):
            while getattr(obj, f.attname) in taken:
                setattr(obj, f.attname, f.get_default())
                changed.add(i)
            taken.add(getattr(obj, f.attname))
    return len(changed)


# --- Summaries ----------------------------------------------------------------------------------


def counts(document: dict) -> dict[str, int]:
    """Number of records per model in a backup."""
    return {key: len(document["data"].get(key, [])) for key, _, _ in MODELS}
