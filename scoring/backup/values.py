"""The values of a record checked as the forms and services would have made them:
times within a sane range, counters within their columns, enumerations known, texts
within their limits and free of invisible and direction characters. A crafted file with a valid
checksum must not bring into the database what the app itself never writes: a ``changed_at`` of
the year 9999 answered 500 on the round's page for good, a version of 2^63-1 stopped growing.

Everything here is pure Python on the unsaved instances: no query (restore checks a big file
without touching the database)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from scoring.backup.base import invalid, is_user_fk
from scoring.domain import clock
from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import hidden_character
from scoring.models import Evening

#: The earliest and the latest moment (and day) a restored record may hold: before the app and
#: long after it, but far from the end of Python's calendar (9999-12-31 overflows any arithmetic).
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)

#: The largest counter (fields named ``version`` or ``*_version``, which grow by one on every
#: change): 2^53, exact as a JavaScript number and far from the column's end (a counter at
#: 2^63-1 cannot grow; SQLite then stores it as an inexact float).
MAX_COUNTER = 2**53

#: The longest text without a length of its own (a ``TextField``: the reason of a correction is
#: at most 500 characters in its form) and the longest JSON value (a change's ``previous``/``new``).
MAX_TEXT = 2000
MAX_JSON = 4000

#: Enumerations kept as plain text (no ``choices`` on the model): (model, field) -> the values.
ENUMERATIONS: dict[tuple[type[models.Model], str], frozenset[str]] = {
    (Evening, "clock_kind"): frozenset({"", clock.ROUND, clock.BREAK}),
    (Evening, "clock_status"): frozenset({"", clock.RUNNING, clock.PAUSED, clock.ENDED}),
}

#: Fields whose text is made by the app, never typed (links, codes, addresses): checked by their own rules.
_MACHINE_TEXT = {"token", "code", "match_key", "client"}


def _refusal(key: str, obj: models.Model, name: str, message: str, **params: Any):
    return invalid(key, obj.pk, DomainError(message, field=name, **params))


_OUTSIDE_YEARS = gettext_noop("%(field)s = %(value)s lies outside the years 1970 to 2099.")


def check_values(key: str, obj: models.Model, fields: list[models.Field]) -> None:
    """Raise BackupError naming the record and the field unless every value of ``obj`` is one the
    app could have written (see the module). A moment whose offset takes it beyond the year 9999
    raises OverflowError."""
    for f in fields:
        value = getattr(obj, f.attname)
        if value is None or (f.is_relation and not is_user_fk(f)):
            continue
        if isinstance(value, datetime) and not EARLIEST <= value <= LATEST:
            raise _refusal(key, obj, f.name, _OUTSIDE_YEARS, value=value.isoformat())
        if type(value) is date and not EARLIEST.date() <= value < LATEST.date():
            raise _refusal(key, obj, f.name, _OUTSIDE_YEARS, value=value.isoformat())
        if isinstance(f, models.IntegerField):
            _check_integer(key, obj, f, value)
        elif isinstance(f, (models.CharField, models.TextField)):
            _check_text(key, obj, f, value)
        elif isinstance(f, models.JSONField) and len(json.dumps(value, ensure_ascii=False)) > MAX_JSON:
            raise _refusal(
                key, obj, f.name, gettext_noop("%(field)s is longer than %(limit)s characters."), limit=MAX_JSON
            )


def _check_integer(key: str, obj: models.Model, f: models.Field, value: int) -> None:
    low, high = BaseDatabaseOperations.integer_field_ranges.get(f.get_internal_type(), (None, None))
    if f.name == "version" or f.name.endswith("_version"):
        low, high = 0, MAX_COUNTER
    if (low is not None and value < low) or (high is not None and value > high):
        raise _refusal(
            key,
            obj,
            f.name,
            gettext_noop("%(field)s = %(value)s does not fit its column (%(low)s to %(high)s)."),
            value=value,
            low=low,
            high=high,
        )


def _check_text(key: str, obj: models.Model, f: models.Field, value: str) -> None:
    allowed = ENUMERATIONS.get((type(obj), f.name))
    if allowed is not None and value not in allowed:
        raise _refusal(
            key,
            obj,
            f.name,
            gettext_noop("%(field)s = %(value)s is not one of %(allowed)s."),
            value=repr(value[:20]),
            allowed=", ".join(repr(v) for v in sorted(allowed)),
        )
    limit = f.max_length or MAX_TEXT
    if len(value) > limit:
        raise _refusal(key, obj, f.name, gettext_noop("%(field)s is longer than %(limit)s characters."), limit=limit)
    if f.name in _MACHINE_TEXT:
        return
    found = hidden_character(value)
    if found is not None:
        message, _code, character = found
        raise invalid(key, obj.pk, DomainError(message, character=character))
