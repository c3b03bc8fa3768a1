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
for references inside the file) and every concrete field of its model, read generically from
``_meta.concrete_fields``, so fields added to the models later are backed up and restored
without changing this module. A foreign key holds the ``id`` of the referenced record in the
file; a foreign key to a user holds the username (users are not backed up).

Restoring runs in one transaction and checks the whole file before it writes anything:

- players are matched by :attr:`Player.match_key` (same name and club, ignoring case and
  spacing): players already in the register are reused, never duplicated;
- everything else is created new with fresh primary keys, so an evening can be restored into a
  database that holds other evenings;
- table links (tokens) are kept unless already used in the target database, then new ones are
  made (and reported: those tables need their new link or QR code);
- users are matched by username, else left empty (the history's ``via`` text still names them);
- an evening with the same name and date as one in the target is refused unless duplicates
  are allowed.

A damaged or foreign file raises :class:`BackupError` with a translatable message and changes
nothing.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import hashlib
import json
import os
import tempfile
import zlib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone
from django.utils.duration import duration_iso_string

from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import match_key
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.domain.rulesets import rule_set
from scoring.models import (
    AttemptCounter,
    Deal,
    DealChange,
    DrawnDeal,
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
    ("drawn_deals", DrawnDeal, "seating__round__session__evening"),
)
KEY_OF_MODEL = {model: key for key, model, _ in MODELS}
#: Models left out on purpose: failed-attempt counters live for minutes (``scoring.throttle``).
NOT_BACKED_UP: tuple[type[models.Model], ...] = (AttemptCounter,)
#: Models added after files of format version 1 were first written: a file without them has none.
ADDED_LATER = ("partner_exclusions", "substitutions", "drawn_deals")
#: Fields renamed after files of format version 1 were first written: (key, today's name) ->
#: the name in older files, which are still read.
OLD_FIELD_NAMES: dict[tuple[str, str], str] = {
    ("seatings", "entered_at"): "finished_at",
    ("seatings", "entered_by"): "finished_by",
    ("seatings", "confirmed_at"): "completed_at",
}


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


# --- Fields -------------------------------------------------------------------------------------


def _user_model():
    return get_user_model()


def _fields(model: type[models.Model]) -> list[models.Field]:
    """The concrete fields of ``model`` that a backup holds: all but the primary key."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _is_user_fk(f: models.Field) -> bool:
    return f.is_relation and f.related_model is _user_model()


def _dump(f: models.Field, value: Any) -> Any:
    """A field value as plain JSON (exact: datetimes keep their microseconds)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        if timezone.is_aware(value):
            value = value.astimezone(UTC)
        return value.isoformat()
    if isinstance(value, (date, time)):
        return value.isoformat()
    if isinstance(value, timedelta):
        return duration_iso_string(value)
    if isinstance(value, (Decimal, UUID)):
        return str(value)
    if isinstance(value, (bytes, memoryview)):
        return base64.b64encode(bytes(value)).decode("ascii")
    return value


def _check_supported(model: type[models.Model]) -> None:
    """Every foreign key of a backed-up model must point to a backed-up model or to a user."""
    for f in _fields(model):
        if f.is_relation and not _is_user_fk(f) and f.related_model not in KEY_OF_MODEL:
            raise RuntimeError(f"{model.__name__}.{f.name} refers to {f.related_model}, which is not backed up")


# --- Export -----------------------------------------------------------------------------------


def _rows(model: type[models.Model], queryset) -> list[dict]:
    """The records of ``queryset`` as plain dicts (one query)."""
    _check_supported(model)
    fields = _fields(model)
    username = _user_model().USERNAME_FIELD
    columns = ["pk"]
    for f in fields:
        columns.append(f"{f.name}__{username}" if _is_user_fk(f) else f.attname)
    records = []
    for values in queryset.order_by("pk").values(*columns):
        record = {"id": values["pk"]}
        for f, column in zip(fields, columns[1:], strict=True):
            value = values[column]
            record[f.name] = value if f.is_relation else _dump(f, value)
        records.append(record)
    return records


def _export(scope: str, evening_filter: dict | None) -> dict:
    data: dict[str, list[dict]] = {}
    for key, model, path in MODELS:
        if path is None:
            continue
        queryset = model.objects.all()
        if evening_filter is not None:
            lookup = f"{path}__pk" if path else "pk"
            queryset = queryset.filter(**{lookup: evening_filter["pk"]})
        data[key] = _rows(model, queryset)
    players = Player.objects.all()
    if evening_filter is not None:
        ids = {
            record[f.name]
            for key, model, _ in MODELS
            if key in data
            for f in _fields(model)
            if f.is_relation and f.related_model is Player
            for record in data[key]
            if record[f.name] is not None
        }
        players = players.filter(pk__in=ids)
    data["players"] = _rows(Player, players.order_by("pk"))
    data = {key: data[key] for key, _, _ in MODELS}
    return {
        "format": FORMAT,
        "version": VERSION,
        "scope": scope,
        "created": timezone.now().isoformat(),
        "sha256": checksum(data),
        "data": data,
    }


def export_evening(evening: Evening) -> dict:
    """A backup of one evening: its players, participants, tables, sessions, partnerships,
    rounds, seatings, deals and the history of every deal (one query per model)."""
    with transaction.atomic():  # one consistent snapshot, even while tablets keep entering deals
        return _export("evening", {"pk": evening.pk})


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
            that do not fit their field, or references to records that are not in the file.
    """
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
    data = _checked_data(document)
    ids = _record_ids(data)
    if document["scope"] == "evening" and not data["evenings"]:
        raise _broken("evenings")
    converted = {key: [_convert(key, model, r, ids) for r in data[key]] for key, model, _ in MODELS}
    _check_game(data, converted)
    _check_unique_in_file(data, converted)


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


def _record_ids(data: dict) -> dict[str, set]:
    """Per model key, the file's record ids.

    Raises:
        BackupError: a key that is not a list of records, or an id that is missing, of the
            wrong type, or given twice.
    """
    ids: dict[str, set] = {}
    for key, _model, _ in MODELS:
        records = data.get(key)
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise _broken(key)
        seen = set()
        for record in records:
            pk = record.get("id")
            if not isinstance(pk, (int, str)) or isinstance(pk, bool) or pk in seen:
                raise _broken(f"{key}: id {pk!r}")
            seen.add(pk)
        ids[key] = seen
    return ids


def _may_be_missing(f: models.Field) -> bool:
    """A field the record may leave out (added after the backup was made: its default)."""
    if f.has_default() or f.null or getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
        return True
    return isinstance(f, (models.CharField, models.TextField)) and f.blank


def _python_value(f: models.Field, value: Any) -> Any:
    """``value`` from the file as the Python value of the (non-relation) field ``f``.

    Raises:
        ValidationError, ValueError, TypeError, binascii.Error: a value that does not fit the field.
    """
    if isinstance(f, models.JSONField):
        return value
    if isinstance(f, models.BinaryField):
        return base64.b64decode(value, validate=True)
    if isinstance(f, (models.IntegerField, models.FloatField)) and isinstance(value, bool):
        raise ValidationError("bool")
    if isinstance(f, models.BooleanField) and not isinstance(value, bool):
        raise ValidationError("not a bool")
    if isinstance(f, (models.CharField, models.TextField)) and not isinstance(value, str):
        raise ValidationError("not a string")
    python = f.to_python(value)
    if isinstance(f, models.DateTimeField) and isinstance(python, datetime) and timezone.is_naive(python):
        python = timezone.make_aware(python, UTC)
    return python


def _convert(key: str, model: type[models.Model], record: dict, ids: dict[str, set] | None) -> dict:
    """The field values of ``record`` for ``model`` (by attname; references still the file's ids).

    With ``ids``, references are checked against the records in the file.
    """
    values: dict[str, Any] = {}
    where = f"{key} {record.get('id')!r}"
    for f in _fields(model):
        name = f.name if f.name in record else OLD_FIELD_NAMES.get((key, f.name), f.name)
        if name not in record:
            if _may_be_missing(f):
                continue
            raise _broken(f"{where}: {f.name}")
        value = record[name]
        if value is None:
            if not f.null and not (f.is_relation and _is_user_fk(f)):
                raise _broken(f"{where}: {f.name}")
            values[f.attname] = None
            continue
        if f.is_relation:
            if _is_user_fk(f):
                if not isinstance(value, str):
                    raise _broken(f"{where}: {f.name}")
            elif ids is not None and value not in ids[KEY_OF_MODEL[f.related_model]]:
                raise _broken(f"{where}: {f.name} → {value!r}")
            values[f.attname] = value
            continue
        try:
            python = _python_value(f, value)
        except (ValidationError, ValueError, TypeError, binascii.Error):
            raise _broken(f"{where}: {f.name} = {value!r}"[:200]) from None
        try:
            f.run_validators(python)
        except ValidationError as error:
            raise _invalid(key, record.get("id"), f"{f.name}: {' '.join(error.messages)}"[:300]) from None
        values[f.attname] = python
    return values


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


def _value(values: dict, model: type[models.Model], name: str) -> Any:
    """A converted field value, or the field's default when the file does not hold it."""
    f = model._meta.get_field(name)
    return values[f.attname] if f.attname in values else f.get_default()


_NO_SUCH_SESSION = gettext_noop("There is no session %(number)s: the evening has sessions 1 to %(count)s.")
_NO_SUCH_ROUND = gettext_noop("There is no round %(number)s: a session has rounds 1 to %(count)s.")
_NO_SUCH_DEAL = gettext_noop("There is no deal %(number)s: a round has deals 1 to %(count)s.")


def _check_number(key: str, record: dict, values: dict, count: int, message: str) -> None:
    """BackupError naming the record unless its ``number`` lies in 1..``count``."""
    if not 1 <= values["number"] <= count:
        raise _invalid(key, record["id"], DomainError(message, number=values["number"], count=count))


def _check_game(data: dict, converted: dict[str, list[dict]]) -> None:
    """Raise BackupError (naming the record) unless every session, round and deal fits its
    evening and every deal is scored as the rules score it (``scoring.domain.rules``): a result
    the rules call impossible needs the organiser's stored reason, as in the app."""

    def by_id(key):
        return {r["id"]: v for r, v in zip(data[key], converted[key], strict=True)}

    evenings, sessions, rounds, seatings = by_id("evenings"), by_id("sessions"), by_id("rounds"), by_id("seatings")
    for record, values in zip(data["sessions"], converted["sessions"], strict=True):
        count = _value(evenings[values["evening_id"]], Evening, "sessions_count")
        _check_number("sessions", record, values, count, _NO_SUCH_SESSION)
    for record, values in zip(data["rounds"], converted["rounds"], strict=True):
        evening = evenings[sessions[values["session_id"]]["evening_id"]]
        _check_number("rounds", record, values, _value(evening, Evening, "rounds_per_session"), _NO_SUCH_ROUND)

    def result_of(values: dict) -> DealResult:
        return DealResult(*(_value(values, Deal, name) for name in ("winner", "to_nil", "bonus_a", "bonus_b")))

    results: dict[Any, dict[int, DealResult]] = {}  # seating -> deal number -> result (Bocks carry)
    for values in converted["deals"]:
        results.setdefault(values["seating_id"], {})[values["number"]] = result_of(values)
    for record, values in zip(data["deals"], converted["deals"], strict=True):
        session = sessions[rounds[seatings[values["seating_id"]]["round_id"]]["session_id"]]
        evening = evenings[session["evening_id"]]
        count = _value(evening, Evening, "deals_per_round")
        _check_number("deals", record, values, count, _NO_SUCH_DEAL)
        rules = rule_set(_value(evening, Evening, "rule_set"))
        result = result_of(values)
        carried = rules.carried_into(results[values["seating_id"]], values["number"])
        try:
            score = rules.score_deal(result, carried)
        except ImpossibleResult as error:
            if not str(_value(values, Deal, "override_reason")).strip():
                raise _invalid("deals", record["id"], error) from None
            try:
                score = rules.score_accepted(result, carried)
            except ImpossibleResult as error:
                raise _invalid("deals", record["id"], error) from None
        points = (values["points_a"], values["points_b"])
        if points != (score.a, score.b):
            raise _invalid(
                "deals",
                record["id"],
                DomainError(
                    gettext_noop(
                        "The deal holds %(points_a)s:%(points_b)s matchsticks, but the rules give "
                        "%(rule_a)s:%(rule_b)s for what was entered."
                    ),
                    points_a=points[0],
                    points_b=points[1],
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


def _check_unique_in_file(data: dict, converted: dict[str, list[dict]]) -> None:
    """Two records of the file that the database would take for the same (two tables number 1
    of an evening, two results of one deal): BackupError naming the second one. Players (matched
    by name and club) and table links (replaced when taken) are handled by the restore."""
    for key, model, _ in MODELS[1:]:
        for names in _unique_sets(model):
            fields = [f for f in _fields(model) if f.attname in names]
            if any(f.has_default() and callable(f.default) for f in fields):
                continue  # a generated value (table link): made fresh when it is taken
            seen: dict[tuple, Any] = {}
            for record, values in zip(data[key], converted[key], strict=True):
                value = tuple(values.get(name) for name in names)
                if None in value:
                    continue
                if value in seen:
                    raise _invalid(
                        key,
                        record["id"],
                        DomainError(
                            gettext_noop("It repeats %(fields)s of record %(first)s."),
                            fields=", ".join(n.removesuffix("_id") for n in names),
                            first=seen[value],
                        ),
                    )
                seen[value] = record["id"]


def _check_model(key: str, record_id: Any, obj: models.Model) -> None:
    """The model's own field checks and check constraints (Django's ``full_clean`` without the
    queries for references and uniqueness, which the file checks and the restore cover)."""
    model = type(obj)
    try:
        obj.clean_fields(exclude=[f.name for f in _fields(model) if f.is_relation])
        for constraint in model._meta.constraints:
            if isinstance(constraint, models.CheckConstraint):
                constraint.validate(model, obj)
    except ValidationError as error:
        messages = (
            error.messages
            if not hasattr(error, "error_dict")
            else [f"{name}: {' '.join(str(m) for m in errors)}" for name, errors in error.message_dict.items()]
        )
        raise _invalid(key, record_id, " ".join(messages)[:300]) from None


# --- Restore ----------------------------------------------------------------------------------


def _known_names(key: str, model: type[models.Model]) -> set[str]:
    """The field names a file may hold for ``model``: today's and those of older files."""
    names = {f.name for f in _fields(model)}
    return names | {OLD_FIELD_NAMES[key, name] for name in names if (key, name) in OLD_FIELD_NAMES}


def restore(document: dict, *, allow_duplicates: bool = False) -> RestoreOutcome:
    """Restore a checked backup (see :func:`read_backup`) in one transaction.

    Raises:
        BackupError: the file does not pass :func:`validate`, an evening with the same name and
            date exists already (unless ``allow_duplicates``), or the database refuses the data
            (then everything is rolled back).
    """
    validate(document)
    data = document["data"]
    converted = {key: [_convert(key, model, r, None) for r in data[key]] for key, model, _ in MODELS}
    ignored = sorted(
        {
            f"{key}.{name}"
            for key, model, _ in MODELS
            for record in data[key]
            for name in record
            if name != "id" and name not in _known_names(key, model)
        }
    )
    outcome = RestoreOutcome(scope=document["scope"], ignored_fields=ignored)
    try:
        with transaction.atomic():
            if not allow_duplicates:
                _refuse_duplicate_evenings(converted["evenings"])
            _restore(data, converted, outcome)
    except DatabaseError as error:
        raise BackupError(
            gettext_noop("The backup does not fit into this database (%(detail)s). Nothing was restored."),
            code="integrity",
            detail=str(error)[:200],
        ) from None
    return outcome


def _refuse_duplicate_evenings(evenings: list[dict]) -> None:
    for values in evenings:
        if Evening.objects.filter(name=values["name"], date=values["date"]).exists():
            raise BackupError(
                gettext_noop(
                    'The evening "%(name)s" of %(date)s is already in this database. '
                    "Nothing was restored. To restore it a second time, allow duplicates "
                    "(restore --allow-duplicates)."
                ),
                code="duplicate_evening",
                name=values["name"],
                date=values["date"].isoformat(),
            )


def _restore(data: dict, converted: dict[str, list[dict]], outcome: RestoreOutcome) -> None:
    new_ids: dict[str, dict] = {}
    users = _user_map(converted)
    outcome.unknown_users = sorted(name for name, user in users.items() if user is None)

    # Players: matched by their match key, never duplicated.
    keys = [match_key(v["name"], v.get("club", "")) for v in converted["players"]]
    existing = {p.match_key: p.pk for p in Player.objects.filter(match_key__in=keys)}
    new_ids["players"] = {}
    created: dict[str, Player] = {}
    for record, values, key in zip(data["players"], converted["players"], keys, strict=True):
        if key in existing:
            new_ids["players"][record["id"]] = existing[key]
            outcome.players_reused += 1
        elif key in created:  # the same person twice in the file
            new_ids["players"][record["id"]] = created[key].pk
        else:
            player = Player(**values)
            player.save()
            _keep_auto_dates(Player, [player], [values])
            created[key] = player
            new_ids["players"][record["id"]] = player.pk
            outcome.players_new += 1

    for key, model, _ in MODELS[1:]:
        objects = []
        for record, values in zip(data[key], converted[key], strict=True):
            values = dict(values)
            for f in _fields(model):
                if not f.is_relation or f.attname not in values or values[f.attname] is None:
                    continue
                if _is_user_fk(f):
                    user = users.get(values[f.attname])
                    values[f.attname] = user.pk if user is not None else None
                else:
                    values[f.attname] = new_ids[KEY_OF_MODEL[f.related_model]][values[f.attname]]
            _order_pair(model, key, record["id"], values)
            objects.append(model(**values))
        outcome.new_tokens += _fresh_unique_values(model, objects, converted[key])
        for record, obj in zip(data[key], objects, strict=True):
            _check_model(key, record["id"], obj)
        saved = _create(model, objects)
        _keep_auto_dates(model, saved, converted[key])
        new_ids[key] = {record["id"]: obj.pk for record, obj in zip(data[key], saved, strict=True)}
        if model is Evening:
            outcome.evenings = saved
    outcome.deals = len(converted["deals"])
    outcome.deal_changes = len(converted["deal_changes"])


#: Pairs stored smaller id first (a database check constraint): ordered again after new ids.
ORDERED_PAIRS: dict[type[models.Model], tuple[str, str]] = {PartnerExclusion: ("player_a_id", "player_b_id")}


def _order_pair(model: type[models.Model], key: str, record_id: Any, values: dict) -> None:
    """Put an ordered pair of references (a wish "not together") back in order after the
    players got new ids, which may have flipped it; one player twice is refused."""
    if model not in ORDERED_PAIRS:
        return
    first, second = ORDERED_PAIRS[model]
    if values[first] == values[second]:
        raise _invalid(
            key, record_id, DomainError(gettext_noop("Both players of the pair are the same player in this database."))
        )
    if values[first] > values[second]:
        values[first], values[second] = values[second], values[first]


def _user_map(converted: dict[str, list[dict]]) -> dict[str, Any]:
    """Username -> user of this database (None when there is no such user)."""
    names = {
        values[f.attname]
        for key, model, _ in MODELS
        for f in _fields(model)
        if _is_user_fk(f)
        for values in converted[key]
        if values.get(f.attname)
    }
    user_model = _user_model()
    found = {
        getattr(u, user_model.USERNAME_FIELD): u
        for u in user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__in": names})
    }
    return {name: found.get(name) for name in names}


def _fresh_unique_values(model, objects: list, values: list[dict]) -> int:
    """Unique fields with a generated default (table tokens): keep the backed-up value unless
    the target database (or an earlier record of the file) uses it already; then generate a
    new one. Returns how many objects got a new value."""
    changed: set[int] = set()
    for f in _fields(model):
        if not (f.unique and callable(f.default)):
            continue
        wanted = [getattr(obj, f.attname) for obj in objects]
        taken = set(model.objects.filter(**{f"{f.attname}__in": wanted}).values_list(f.attname, flat=True))
        for i, (obj, value) in enumerate(zip(objects, wanted, strict=True)):
            if value in taken or f.attname not in values[i]:
                new = f.get_default()
                while new in taken:
                    new = f.get_default()
                setattr(obj, f.attname, new)
                if f.attname in values[i]:
                    changed.add(i)
                value = new
            taken.add(value)
    return len(changed)


def _create(model, objects: list) -> list:
    """Insert ``objects`` and return them with their new primary keys."""
    if not objects:
        return []
    if connection.features.can_return_rows_from_bulk_insert:
        return model.objects.bulk_create(objects, batch_size=500)
    for obj in objects:
        obj.save(force_insert=True)
    return objects


def _keep_auto_dates(model, objects: list, values: list[dict]) -> None:
    """Put back the backed-up times of ``auto_now``/``auto_now_add`` fields, which saving
    replaced by the current time."""
    names = [f.attname for f in _fields(model) if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)]
    changed = []
    for obj, vals in zip(objects, values, strict=True):
        if any(name in vals for name in names):
            for name in names:
                if name in vals:
                    setattr(obj, name, vals[name])
            changed.append(obj)
    fields = [n for n in names if any(n in v for v in values)]
    if changed and fields:
        model.objects.bulk_update(changed, fields, batch_size=500)


# --- Summaries ----------------------------------------------------------------------------------


def counts(document: dict) -> dict[str, int]:
    """Number of records per model in a backup."""
    return {key: len(document["data"].get(key, [])) for key, _, _ in MODELS}
