"""Restoring a checked backup into a database that may hold other evenings: players reused, new
primary keys, table links and codes kept unless taken, users by username, short transactions.

The hall keeps playing during a restore: the file is checked completely in
memory (:func:`scoring.backup.contents.read_contents`, no transaction, no query per record); the
preview (:func:`preview`) only reads; the restore writes bulk inserts (in statements below SQLite's
limit of variables) in short transactions of at most :data:`ROWS_PER_TRANSACTION` rows, so SQLite's
write lock, which every transaction takes at its start (``transaction_mode`` IMMEDIATE), is free
again after a fraction of a second, and the restore pauses after each (:data:`PAUSE`) so that the
tablets' deals waiting for it go in between. Should a later batch
fail, the rows written before are deleted again (newest first), so nothing is left behind; for
the seconds a big restore takes, the evenings it adds are visible while they fill."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import cast

from django.db import DatabaseError, connection, models, transaction
from django.utils.translation import gettext

from bruus_tournament.storage_failures import is_storage_failure
from scoring.backup.base import KEY_OF_MODEL, MODELS, BackupError, backed_up_fields, chunks, invalid, is_user_fk
from scoring.backup.contents import Contents, read_contents
from scoring.domain.errors import DomainError, gettext_noop
from scoring.domain.names import match_key
from scoring.models import Evening, PartnerExclusion, Player, Season, Table
from scoring.publishing import privacy, queue
from scoring.publishing.models import PlayerPublishing

#: Pairs stored smaller id first (a database check constraint): ordered again after new ids.
#: Rows inserted in one transaction: some tens of milliseconds of SQLite's write lock.
ROWS_PER_TRANSACTION = 500
#: After each transaction the restore waits as long as it held the lock, at least this long
#: (seconds): a tablet's write waiting for the lock retries every few up to 100 ms (SQLite's busy
#: handler) and would otherwise find the restore holding it again every time.
PAUSE = 0.05

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
    new_tokens: int = 0  # tables that got a new link and code
    copies: int = 0  # evenings restored as a copy, under a name of their own
    unknown_users: list[str] = field(default_factory=list)  # usernames not in this database
    ignored_fields: list[str] = field(default_factory=list)  # "model.field" not in this version
    app_version: str | None = None  # the Bruus Turnier that wrote the file (None: before 0.9.0)


def _outcome(contents: Contents) -> RestoreOutcome:
    return RestoreOutcome(
        scope=contents.scope,
        unknown_users=contents.unknown_users,
        ignored_fields=contents.ignored_fields,
        app_version=contents.app_version,
        deals=len(contents.objects["deals"]),
        deal_changes=len(contents.objects["deal_changes"]),
    )


def preview(document: dict, *, allow_duplicates: bool = False) -> RestoreOutcome:
    """What :func:`restore` would add, computed from the checked file and a few reading queries:
    nothing is written and no transaction is opened, so the tablets keep entering deals. The
    evenings are unsaved (no ``pk``), under the names they would get.

    Raises:
        BackupError: as :func:`restore`, except for what only the database can refuse.
    """
    contents = read_contents(document)
    outcome = _outcome(contents)
    objects = contents.objects
    evenings = cast(list[Evening], objects["evenings"])
    names = _evening_names(evenings, allow_duplicates, outcome)
    outcome.evenings = [Evening(name=name, date=e.date) for name, e in zip(names, evenings, strict=True)]
    keys = [match_key(player.name, player.club) for player in cast(list[Player], objects["players"])]
    existing = _existing(Player, "match_key", keys)
    outcome.players_reused = sum(key in existing for key in keys)
    outcome.players_new = len({key for key in keys if key not in existing})
    outcome.new_tokens = _fresh_table_links([_copy_link(t) for t in cast(list[Table], objects["tables"])])
    return outcome


def _copy_link(table: Table) -> Table:
    return Table(token=table.token, code=table.code)


def restore(document: dict, *, allow_duplicates: bool = False) -> RestoreOutcome:
    """Restore a checked backup (see :func:`read_backup`) in short transactions (see the module):
    all of it, or nothing (what was written before a failure is deleted again).

    With ``allow_duplicates``, an evening whose name and date are here already is restored as a
    copy named "NAME (copy)" (in the active language; "NAME (copy 2)" and so on when that is
    taken too).

    Raises:
        BackupError: the file does not pass :func:`validate`, an evening with the same name and
            date exists already (unless ``allow_duplicates``), or the database refuses the data
            (then everything is rolled back). A storage failure (disk full, read-only, I/O error:
            :func:`bruus_tournament.storage_failures.is_storage_failure`) is raised as it is.
    """
    contents = read_contents(document)
    outcome = _outcome(contents)
    _evening_names(
        cast(list[Evening], contents.objects["evenings"]), allow_duplicates, RestoreOutcome(scope=contents.scope)
    )
    written: list[tuple[type[models.Model], list[int]]] = []
    try:
        _restore(contents.objects, allow_duplicates, outcome, written)
    except BaseException as error:
        _undo(written)
        if not isinstance(error, DatabaseError) or is_storage_failure(error):
            raise
        raise BackupError(
            gettext_noop("The backup does not fit into this database (%(detail)s). Nothing was restored."),
            code="integrity",
            detail=str(error)[:200],
        ) from None
    return outcome


def _undo(written: list[tuple[type[models.Model], list[int]]]) -> None:
    """Delete the rows a failed restore wrote, newest first (children before their parents), in
    short transactions."""
    for model, pks in reversed(written):
        for part in chunks(pks):
            with transaction.atomic():
                model._base_manager.filter(pk__in=part).delete()


def _existing(model: type[models.Model], name: str, values: list) -> set:
    """The values of ``values`` that field ``name`` of some ``model`` record holds here (in
    chunks: any number of values)."""
    found: set = set()
    for part in chunks(sorted(set(values))):
        found.update(model._default_manager.filter(**{f"{name}__in": part}).values_list(name, flat=True))
    return found


def duplicate_error(name: str, day) -> BackupError:
    return BackupError(
        gettext_noop(
            'The evening "%(name)s" of %(date)s is already in this database. '
            "Nothing was restored. To restore it a second time, allow duplicates "
            "(restore --allow-duplicates)."
        ),
        code="duplicate_evening",
        name=name,
        date=day.isoformat(),
    )


def _evening_names(evenings: list[Evening], allow_duplicates: bool, outcome: RestoreOutcome) -> list[str]:
    """The name each evening of the file gets here: its own, or, when an evening of the same
    name and date is here and duplicates are allowed, "NAME (copy)" (counted in ``outcome.copies``).

    Raises:
        BackupError: ``duplicate_evening`` for the first evening already here, unless allowed.
    """
    taken: set[tuple[str, object]] = set()
    for part in chunks(sorted({e.date for e in evenings})):
        taken.update(Evening.objects.filter(date__in=part).values_list("name", "date"))
    names = []
    limit = cast(int, Evening._meta.get_field("name").max_length)
    for evening in evenings:
        name = evening.name
        if (name, evening.date) in taken:
            if not allow_duplicates:
                raise duplicate_error(name, evening.date)
            outcome.copies += 1
            number = 1
            while (name, evening.date) in taken:
                suffix = gettext(" (copy)") if number == 1 else gettext(" (copy %(number)s)") % {"number": number}
                name = evening.name[: limit - len(suffix)].rstrip() + suffix
                number += 1
        taken.add((name, evening.date))
        names.append(name)
    return names


def _restore(objects: dict[str, list], allow_duplicates: bool, outcome: RestoreOutcome, written: list) -> None:
    originals = [Evening(name=e.name, date=e.date) for e in objects["evenings"]]  # before a copy's new name
    for name, evening in zip(
        _evening_names(objects["evenings"], allow_duplicates, outcome), objects["evenings"], strict=True
    ):
        evening.name = name
    player_ids, created = _reuse_or_insert_players(objects["players"], outcome, written)
    new_ids = {"players": player_ids}
    for key, model, _ in MODELS[1:]:
        file_ids = [obj.pk for obj in objects[key]]
        for file_id, obj in zip(file_ids, objects[key], strict=True):
            _renumber_references(obj, new_ids)
            _order_pair(key, file_id, obj)
        if model is PlayerPublishing:
            _merge_online_names(cast(list[PlayerPublishing], objects[key]), created, written)
            continue
        if model is Season:
            new_ids[key] = _reuse_or_insert_seasons(objects[key], originals, written)
            continue
        if model is Table:
            outcome.new_tokens = _fresh_table_links(objects[key])
        _bulk_insert(model, objects[key], written)
        new_ids[key] = {file_id: obj.pk for file_id, obj in zip(file_ids, objects[key], strict=True)}
    outcome.evenings = objects["evenings"]


def _merge_online_names(rows: list[PlayerPublishing], created: set[int], written: list) -> None:
    """Bring the online names of the file (references already this database's players) in: a
    player the restore created gets the file's choice; a player who was here keeps the more
    private of the two (:func:`scoring.publishing.privacy.more_private`, as merging two register
    entries does), so a restore never publishes what a player may not show. A player here who
    goes "not online" by it gets a withdrawal of their key when anything was published, and the
    published evenings they played in are sent again (as ``set_online_name`` does). The last
    writes of the restore: the new rows are noted in ``written``, the changed ones are changed in
    one transaction."""
    if not rows:
        return
    default = queue.club_default()
    here: dict[int, str | None] = {}
    for part in chunks(sorted({row.player_id for row in rows} - created)):
        here.update(PlayerPublishing.objects.filter(player_id__in=part).values_list("player_id", "online_name"))
    new: dict[int, PlayerPublishing] = {}
    changed: dict[int, str] = {}  # player here -> the choice the restore gives them
    for row in rows:
        if row.player_id in created:  # the same person twice in the file: the more private
            first = new.setdefault(row.player_id, row)
            first.online_name = cast(str, privacy.more_private(first.online_name, row.online_name, default))
            continue
        before = changed.get(row.player_id, here.get(row.player_id))
        after = privacy.more_private(before, row.online_name, default)
        if after != before and after is not None:
            changed[row.player_id] = after
    _bulk_insert(PlayerPublishing, list(new.values()), written)
    if not changed:
        return
    hidden = [
        pid
        for pid, choice in changed.items()
        if privacy.effective_choice(choice, default) == privacy.HIDDEN
        and privacy.effective_choice(here.get(pid), default) != privacy.HIDDEN
    ]
    # Imported here: scoring.services imports this package (housekeeping names its files).
    from scoring.services.base import evening_changed

    with transaction.atomic():
        for pid, choice in changed.items():
            PlayerPublishing.objects.update_or_create(player_id=pid, defaults={"online_name": choice})
        if hidden and queue.anything_sent():
            secret = queue.config().secret
            queue.queue_withdrawal(players=[privacy.player_key(secret, pid) for pid in hidden])
        evening_changed(participants__player__in=list(changed))


def _renumber_references(obj: models.Model, new_ids: dict[str, dict[int, int]]) -> None:
    """Point the references of ``obj`` (ids of the file) to the records as saved here (users
    are this database's already)."""
    for f in backed_up_fields(type(obj)):
        if f.is_relation and not is_user_fk(f) and getattr(obj, f.attname) is not None:
            setattr(
                obj,
                f.attname,
                new_ids[KEY_OF_MODEL[cast(type[models.Model], f.related_model)]][getattr(obj, f.attname)],
            )


def _reuse_or_insert_players(
    players: list[Player], outcome: RestoreOutcome, written: list
) -> tuple[dict[int, int], set[int]]:
    """File id -> primary key here of every player of the file: the player of the register with
    the same :attr:`Player.match_key`, else a new one (once, however often the file holds them);
    and the primary keys of the players created."""
    keys = [match_key(player.name, player.club) for player in players]
    existing: dict[str, int] = {}
    for part in chunks(sorted(set(keys))):
        existing.update(Player.objects.filter(match_key__in=part).values_list("match_key", "pk"))
    created: dict[str, Player] = {}
    for player, key in zip(players, keys, strict=True):
        if key in existing:
            outcome.players_reused += 1
        elif key not in created:  # else: the same person twice in the file, created once
            player.match_key = key
            created[key] = player
            outcome.players_new += 1
    file_ids = [player.pk for player in players]
    _bulk_insert(Player, list(created.values()), written)
    return {
        file_id: existing[key] if key in existing else created[key].pk
        for file_id, key in zip(file_ids, keys, strict=True)
    }, {player.pk for player in created.values()}


def _reuse_or_insert_seasons(seasons: list[Season], evenings: list[Evening], written: list) -> dict[int, int]:
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
            _bulk_insert(Season, [season], written)
            existing = season
        new_ids[file_id] = existing.pk
    return new_ids


def _bulk_insert(model: type[models.Model], objects: list[models.Model], written: list) -> None:
    """Insert ``objects`` under new primary keys exactly as they are: statements of as many rows
    as one may take (SQLite's limit of variables), transactions of :data:`ROWS_PER_TRANSACTION`
    rows; a raw insert, as ``loaddata`` does, so automatic dates keep their backed-up values
    (``bulk_create`` would set them to now). The new primary keys are set on the objects and
    noted in ``written`` (model, keys) as each transaction commits."""
    if not objects:
        return
    fields = backed_up_fields(model)
    for obj in objects:
        obj.pk = None
    size = max(1, connection.ops.bulk_batch_size(fields, objects))
    returning = model._meta.db_returning_fields
    pause = not connection.in_atomic_block  # inside a caller's transaction nobody gets in anyway
    for first in range(0, len(objects), ROWS_PER_TRANSACTION):
        group = objects[first : first + ROWS_PER_TRANSACTION]
        started = time.monotonic()
        with transaction.atomic():
            for start in range(0, len(group), size):
                batch = group[start : start + size]
                # Django's own insert (what bulk_create calls): keeps the backed-up dates, which
                # bulk_create would set to now (auto_now); the stubs do not know the private method.
                rows = model._base_manager._insert(  # type: ignore[attr-defined]
                    batch, fields=fields, returning_fields=returning, raw=True
                )
                for obj, row in zip(batch, rows, strict=True):
                    obj.pk = row[0]
                    obj._state.adding = False
        written.append((model, [obj.pk for obj in group]))
        if pause:
            time.sleep(max(PAUSE, time.monotonic() - started))


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


def _fresh_table_links(tables: list[Table]) -> int:
    """Keep each table's link and code unless this database (or an earlier table of the file)
    uses either already; then the table gets a new link and a new code together (a tablet that
    rejoins an evening here by the code of its original must never open the copy). Returns how
    many tables got new ones."""
    tokens = _existing(Table, "token", [t.token for t in tables])
    codes = _existing(Table, "code", [t.code for t in tables])
    renewed = 0
    for table in tables:
        if table.token in tokens or table.code in codes:
            renewed += 1
            while table.token in tokens or table.code in codes:
                table.token = Table._meta.get_field("token").get_default()
                table.code = Table._meta.get_field("code").get_default()
        tokens.add(table.token)  # unique: a second table of the file must not take it
    return renewed
