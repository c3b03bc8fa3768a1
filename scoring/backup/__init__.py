"""Backup and restore of a whole evening, or of the whole database, as one JSON file.

The file (UTF-8 JSON; gzip-compressed when its name ends in ``.gz``)::

    {
      "format": "bruus-turnier-backup",
      "version": 1,
      "app_version": "0.9.0",
      "scope": "evening" | "database",
      "created": "2026-11-21T22:41:07.123456+00:00",
      "sha256": "<hex digest of the canonical JSON of data>",
      "data": {"players": [...], "evenings": [...], "participants": [...], "tables": [...],
               "sessions": [...], "partnerships": [...], "rounds": [...], "seatings": [...],
               "deals": [...], "deal_changes": [...], ..., "player_publishing": [...]}
    }

``version`` is the version of the file's format; ``app_version`` the version of Bruus Turnier
that wrote it (``bruus_tournament.__version__``), for people and the restore's summary only:
files written before 0.9.0 have none and restore as before, it is outside the checksum, and older
programs ignore it (so the format stays version 1).

Each record is a plain dict: ``id`` (the primary key in the database it came from, used only
for references inside the file) and every concrete field of its model. A foreign key holds the
``id`` of the referenced record in the file; a foreign key to a user holds the username (users
are not backed up).

**Django's serializers do the field work.** Writing, ``serializers.serialize("python", ...)``
reads every field of a model (fields added later are backed up without changing this package);
reading, ``serializers.deserialize("python", ...)`` turns each record back into an unsaved model
instance (``to_python`` of every field, defaults for fields the file does not hold), and the
instances are inserted with a raw save, as ``loaddata`` does, so automatic dates (``created_at``,
``updated_at``, ``changed_at``) keep their backed-up values.

**Why the file keeps the shape of format version 1**, converted at the edges
(``export._file_record``, ``contents._serializer_record``), rather than the serializer's
``{"model", "pk", "fields"}`` records as a version 2: every file written so far is version 1
and must keep restoring, so a version 2 would need two readers and two sets of checks for no gain
to the user. One shape keeps one checksum, one reader and files a person can read (records
grouped by model, a login by its name). Two things the serializers do not do as the file needs:
the ``json`` serializer cuts datetimes to milliseconds (hence the ``python`` one and
``export._plain``), and a natural key of a user who is not in the target database fails the
whole load (hence the mapping by username, unknown users left empty).

On top of the serializers this package holds what the app needs:

- the envelope (format, version, scope, checksum) and the refusal of foreign, damaged and
  newer files with translated messages, before anything is written;
- the rules of the game (session, round and deal numbers within the evening's format, every
  deal scored as the rules score it) and the models' uniqueness within the file;
- players are matched by :attr:`Player.match_key` (same name and club, ignoring case and
  spacing): players already in the register are reused, never duplicated;
- a player's online name (``player_publishing``, docs/publishing.md) comes with the player: a
  player created gets the file's choice, a player reused keeps the more private of the two;
- everything else is created new with fresh primary keys, so an evening can be restored into a
  database that holds other evenings;
- table links (tokens) and codes are kept unless either is already used in the target
  database, then both are made new (and reported: those tables need their new link, QR code or
  code); an evening restored as a copy is named "NAME (copy)" (translated);
- users are matched by username, else left empty and reported (the history keeps the name the
  login had, ``scoring.hall.origin``); fields this version does not know are ignored and reported;
- files written before where a change came from was data (``via``, ``confirmed_via``: a
  sentence) are read as migration 0018 read the database (``OLD_ORIGIN_TEXTS``);
- an evening with the same name and date as one in the target is refused unless duplicates
  are allowed;
- every record is checked in memory before anything is written (``values``: times, counters,
  enumerations, texts; ``game``: the graph of partnerships, seatings and rounds and the rules of
  the game); the preview only reads; the restore writes bulk inserts in short transactions
  (all or nothing: a failure deletes what was written).

A damaged or foreign file raises :class:`BackupError` with a translatable message and changes
nothing.

The modules: ``base`` (models in restore order, renamed fields, the error, the checksum),
``export``, ``files`` (writing and reading the file), ``contents`` (the envelope and the records
checked and deserialized), ``values`` (each value as the app would write it), ``game`` (the
graph, the rules of the game and uniqueness within the file), ``merge`` (the preview and the restore).
"""

from scoring.backup.base import (
    ADDED_LATER,
    FORMAT,
    KEY_OF_MODEL,
    MODELS,
    NOT_BACKED_UP,
    OLD_FIELD_NAMES,
    SCOPES,
    VERSION,
    BackupError,
    canonical_json,
    checksum,
    counts,
)
from scoring.backup.contents import validate
from scoring.backup.export import export_database, export_evening
from scoring.backup.files import encode_backup, parse_backup, read_backup, write_backup
from scoring.backup.merge import RestoreOutcome, preview, restore

__all__ = [
    "ADDED_LATER",
    "FORMAT",
    "KEY_OF_MODEL",
    "MODELS",
    "NOT_BACKED_UP",
    "OLD_FIELD_NAMES",
    "SCOPES",
    "VERSION",
    "BackupError",
    "RestoreOutcome",
    "canonical_json",
    "checksum",
    "counts",
    "encode_backup",
    "export_database",
    "export_evening",
    "parse_backup",
    "preview",
    "read_backup",
    "restore",
    "validate",
    "write_backup",
]
