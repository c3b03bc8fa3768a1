"""What every part of the backup shares: the backed-up models in restore order, the renamed fields, the
error and its messages, the checksum."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models

from scoring.domain.errors import DomainError, gettext_noop
from scoring.hub import models as hub_models
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
    RoundEvent,
    Season,
    SeasonEvening,
    Seating,
    Session,
    Substitution,
    Table,
)
from scoring.publishing.models import EveningPublishing, PlayerPublishing, PublishingConfig, Withdrawal

FORMAT = "bruus-turnier-backup"


VERSION = 1


SCOPES = ("evening", "database")


#: The backed-up models in restore order (every foreign key points to a model earlier in the
#: list), with the key in ``data`` and the path from the model to its evening (None: players,
#: which are shared by all evenings, and their online names, backed up with the players).
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
    # The round's history besides its deals: finished, disputed, reopened, confirmed, locked.
    ("round_events", RoundEvent, "round__session__evening"),
    # A season comes with the backup of any of its evenings (its settings), the links of the
    # evenings backed up with them; the backup of the database holds every season.
    ("seasons", Season, "links__evening"),
    ("season_evenings", SeasonEvening, "evening"),
    # A player's online name (docs/publishing.md): with the players the backup holds (path None:
    # exported with them); on restore the more private of the file's and this database's choice.
    ("player_publishing", PlayerPublishing, None),
)


KEY_OF_MODEL = {model: key for key, model, _ in MODELS}


#: Models left out on purpose: failed-attempt counters live for minutes (``scoring.hall.throttle``);
#: the results site's tables are not the hall's (a hub is backed up as its database, docs/results-online.md).
# Publishing (scoring.publishing): the hall's installation id and secret, the queue and the evenings'
# publish modes are this laptop's, not the evening's; a restore starts them afresh (docs/publishing.md).
# The players' online names are backed up (``player_publishing``).
NOT_BACKED_UP: tuple[type[models.Model], ...] = (
    AttemptCounter,
    EveningPublishing,
    PublishingConfig,
    Withdrawal,
)
NOT_BACKED_UP += (hub_models.Association, hub_models.Club, hub_models.HubEvening, hub_models.HubPlayer)
NOT_BACKED_UP += (hub_models.HubResult, hub_models.HubSeason)


#: Models added after files of format version 1 were first written: a file without them has none.
ADDED_LATER: tuple[str, ...] = ("partner_exclusions", "substitutions", "seasons", "season_evenings", "drawn_deals")
ADDED_LATER += ("round_events", "player_publishing")


#: Fields renamed after files of format version 1 were first written: (key, today's name) ->
#: the name in older files, which are still read.
OLD_FIELD_NAMES: dict[tuple[str, str], str] = {
    ("seatings", "entered_at"): "finished_at",
    ("seatings", "entered_by"): "finished_by",
    ("seatings", "confirmed_at"): "completed_at",
}


#: Where a change came from, kept before as a sentence: key -> (the field of
#: older files, the prefix of today's fields). Read with scoring.hall.origin.origin_from_text, as
#: migration 0018 read the database.
OLD_ORIGIN_TEXTS: dict[str, tuple[str, str]] = {
    "deal_changes": ("via", ""),
    "drawn_deals": ("via", ""),
    "seatings": ("confirmed_via", "confirmed_"),
}


class BackupError(DomainError):
    """A backup file that cannot be restored (foreign, damaged, newer, contradicting the
    database), or a backup that cannot be written. ``message`` is an English msgid."""


def backed_up_fields(model: type[models.Model]) -> list[models.Field]:
    """The concrete fields of ``model`` that a backup holds: all but the primary key."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def is_user_fk(f: models.Field) -> bool:
    return f.is_relation and f.related_model is get_user_model()


def canonical_json(data: Any) -> bytes:
    """The canonical form the checksum is computed over: sorted keys, no spaces, UTF-8."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def checksum(data: Any) -> str:
    return hashlib.sha256(canonical_json(data)).hexdigest()


def counts(document: dict) -> dict[str, int]:
    """Number of records per model in a backup."""
    return {key: len(document["data"].get(key, [])) for key, _, _ in MODELS}


def foreign(code: str = "foreign") -> BackupError:
    return BackupError(gettext_noop("This file is not a Bruus Turnier backup."), code=code)


def broken(detail: str) -> BackupError:
    return BackupError(
        gettext_noop("The backup file is damaged: %(detail)s. Nothing was restored."), code="broken", detail=detail
    )


class _Reason:
    """A domain error's message inside a refusal, translated when the refusal is shown."""

    def __init__(self, error: DomainError) -> None:
        self.error = error

    def __str__(self) -> str:
        from scoring.web.messages import translate

        return translate(self.error)


def invalid(key: str, record_id: Any, reason: DomainError | str) -> BackupError:
    """A record that passes the file checks but breaks a rule of the game or of its model."""
    return BackupError(
        gettext_noop("The backup cannot be restored: record %(record)s: %(reason)s Nothing was restored."),
        code="invalid_record",
        record=f"{key} {record_id!r}",
        reason=_Reason(reason) if isinstance(reason, DomainError) else reason,
    )


def messages_of(error: ValidationError) -> str:
    """The messages of a model's ValidationError on one line, each after its field's name."""
    if not hasattr(error, "error_dict"):
        return " ".join(error.messages)[:300]
    return " ".join(f"{name}: {' '.join(str(m) for m in errors)}" for name, errors in error.message_dict.items())[:300]


#: Values of one ``__in`` filter at a time: far below SQLite's limit of variables in a statement
#: (999 before SQLite 3.32), so a restore of any size never meets "too many SQL variables".
IN_CHUNK = 500


def chunks(values: list, size: int = IN_CHUNK) -> list[list]:
    """``values`` in lists of at most ``size`` (for ``__in`` filters)."""
    return [values[i : i + size] for i in range(0, len(values), size)]
