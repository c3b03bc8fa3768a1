"""The results site's writes, one transaction each: clubs, keys and associations (the command
line), and the snapshots the halls send (the API). docs/results-online.md is the contract.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify

from scoring.hub import keys
from scoring.hub.models import Association, Club, HubEvening, HubPlayer, HubResult, HubSeason
from scoring.hub.snapshot import Checked, is_initials


class HubError(Exception):
    """A command the hub's state does not allow; the message is the one line the person reads."""


@dataclass(frozen=True)
class Applied:
    """The API's answer to a snapshot: ``status`` ``"applied"`` or ``"unchanged"``, and the
    version the hub now holds (None for a withdrawal)."""

    status: str
    version: int | None


def _slug(name: str, model: type[Club] | type[Association]) -> str:
    # Slugs stand below /verein/ and /verband/ only: no word of the hub's own is in the way.
    base = (slugify(name.replace("ß", "ss").replace("ø", "o").replace("æ", "ae")) or "verein")[:50]
    slug, number = base, 1
    while model.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name or len(name) > 120 or not name.isprintable():
        raise HubError(f"A name of 1 to 120 visible characters, please (got {name[:130]!r}).")
    return name


def _club(name: str) -> Club:
    club = Club.objects.filter(name=" ".join(name.split())).first()
    if club is None:
        raise HubError(f"No club {name!r} on this hub (bruus-turnier hub club list).")
    return club


def _set_key(club: Club) -> str:
    while True:
        key = keys.new_key()
        if not Club.objects.filter(key_prefix=keys.prefix(key)).exclude(pk=club.pk).exists():
            club.key_prefix, club.key_hash = keys.prefix(key), keys.hashed(key)
            return key


@transaction.atomic
def create_club(name: str, imprint: str = "") -> tuple[Club, str]:
    """A new club and its upload key (shown once; only its hash is kept). HubError for a name taken."""
    name = _clean_name(name)
    if Club.objects.filter(name=name).exists():
        raise HubError(f"The club {name!r} exists already; a new key: bruus-turnier hub club key {name!r}.")
    club = Club(name=name, slug=_slug(name, Club), imprint=imprint[:4000])
    key = _set_key(club)
    club.save()
    return club, key


@transaction.atomic
def renew_club_key(name: str) -> tuple[Club, str]:
    """A new key for the club ``name``; the old one stops working at once."""
    club = _club(name)
    key = _set_key(club)
    club.save(update_fields=["key_prefix", "key_hash"])
    return club, key


def club_holdings(name: str) -> tuple[int, int]:
    """(evenings, players) the club ``name`` has on the hub. HubError when there is no such club."""
    club = _club(name)
    return club.evenings.count(), club.players.count()


@transaction.atomic
def delete_club(name: str) -> tuple[int, int]:
    """Take the club ``name`` off the hub: its key, evenings, players and seasons, in one
    transaction; its association keeps its other clubs. Returns (evenings, players) deleted
    (:func:`club_holdings`). HubError when there is no such club."""
    counts = club_holdings(name)
    _club(name).delete()
    return counts


@transaction.atomic
def set_club_imprint(name: str, imprint: str) -> Club:
    """The imprint/contact text shown on the club's pages (at most 4000 characters)."""
    club = _club(name)
    if len(imprint) > 4000:
        raise HubError("The imprint may be at most 4000 characters long.")
    club.imprint = imprint
    club.save(update_fields=["imprint"])
    return club


@transaction.atomic
def create_association(name: str, club_names: list[str]) -> Association:
    """An association of the clubs named (each club belongs to one association at most; a club
    named here leaves its former one). An existing association gets the clubs added."""
    name = _clean_name(name)
    clubs = [_club(club_name) for club_name in club_names]
    association = Association.objects.filter(name=name).first()
    if association is None:
        association = Association.objects.create(name=name, slug=_slug(name, Association))
    Club.objects.filter(pk__in=[club.pk for club in clubs]).update(association=association)
    return association


@transaction.atomic
def add_association_season(association_name: str, name: str, starts: str, ends: str) -> HubSeason:
    """A season of an association: every final evening of its clubs from ``starts`` to ``ends``
    (ISO dates, both included) counts."""
    association = Association.objects.filter(name=" ".join(association_name.split())).first()
    if association is None:
        raise HubError(f"No association {association_name!r} on this hub.")
    try:
        first, last = datetime.date.fromisoformat(starts), datetime.date.fromisoformat(ends)
    except ValueError:
        raise HubError("Dates as YYYY-MM-DD, please.") from None
    if last < first:
        raise HubError("The season ends before it starts.")
    return HubSeason.objects.create(association=association, name=_clean_name(name), starts=first, ends=last)


def club_for_key(key: str | None) -> Club | None:
    """The club whose upload key is ``key``; None for no key or an unknown one."""
    if not key:
        return None
    club = Club.objects.filter(key_prefix=keys.prefix(key)).first()
    return club if club is not None and keys.matches(key, club.key_hash) else None


def apply(club: Club, checked: Checked) -> Applied:
    """Apply a checked snapshot to ``club``'s results, in one transaction (docs/results-online.md)."""
    with transaction.atomic():
        if checked.kind == "evening":
            return _apply_evening(club, checked.data)
        if checked.kind == "season":
            return _apply_season(club, checked.data)
        _withdraw(club, checked.data)
        return Applied("applied", None)


def _locked_evening(club: Club, uid: str) -> HubEvening | None:
    return HubEvening.objects.select_for_update().filter(club=club, uid=uid).first()


def _apply_evening(club: Club, data: dict[str, Any]) -> Applied:
    head = data["evening"]
    held = _locked_evening(club, head["uid"])
    if held is not None and held.version >= head["version"]:
        return Applied("unchanged", held.version)
    if head["ranking_hidden"] and held is not None and not held.withdrawn:
        # The last rounds are hidden: keep what was shown, with the names it needs.
        shown = held.snapshot
        names = {p["key"]: p["name"] for p in shown.get("players", [])}
        names.update({p["key"]: p["name"] for p in data["players"]})
        data = {**data, "ranking": shown.get("ranking", []), "rounds": shown.get("rounds", [])}
        data["players"] = [{"key": key, "name": name} for key, name in names.items()]
    fields = {
        "version": head["version"],
        "snapshot": data,
        "name": head["name"],
        "date": datetime.date.fromisoformat(head["date"]),
        "state": head["state"],
        "ranking_hidden": head["ranking_hidden"],
        "withdrawn": False,
        "received_at": timezone.now(),
    }
    created = False
    if held is None:
        try:
            with transaction.atomic():
                held, created = HubEvening.objects.create(club=club, uid=head["uid"], **fields), True
        except IntegrityError:  # the same evening's first snapshot arrived twice at once
            held = _locked_evening(club, head["uid"])
            if held is None or held.version >= head["version"]:
                return Applied("unchanged", held.version if held else head["version"])
    if not created:
        for name, value in fields.items():
            setattr(held, name, value)
        held.save()
    players = _players(club, data["players"])
    if not head["ranking_hidden"]:
        HubResult.objects.filter(evening=held).delete()
        HubResult.objects.bulk_create(
            HubResult(evening=held, player=players[row["player"]], place=row["place"], total=Decimal(row["total"]))
            for row in data["ranking"]
            if row["player"] is not None
        )
    return Applied("applied", head["version"])


def _players(club: Club, published: list[dict[str, str]]) -> dict[str, HubPlayer]:
    """The club's players with these keys, created or renamed as published: key -> row."""
    wanted = {p["key"]: p["name"] for p in published}
    rows = {player.key: player for player in HubPlayer.objects.filter(club=club, key__in=list(wanted))}
    changed = []
    for key, name in wanted.items():
        row = rows.get(key)
        if row is None:
            continue
        if row.name != name:
            row.name, row.initials = name, is_initials(name)
            changed.append(row)
    if changed:
        HubPlayer.objects.bulk_update(changed, ["name", "initials"])
    new = [
        HubPlayer(club=club, key=key, name=name, initials=is_initials(name))
        for key, name in wanted.items()
        if key not in rows
    ]
    if new:  # another snapshot of the club may create the same player at the same moment
        HubPlayer.objects.bulk_create(new, ignore_conflicts=True)
        rows.update({p.key: p for p in HubPlayer.objects.filter(club=club, key__in=[p.key for p in new])})
    return rows


def _apply_season(club: Club, data: dict[str, Any]) -> Applied:
    head = data["season"]
    held = HubSeason.objects.select_for_update().filter(club=club, uid=head["uid"]).first()
    if held is not None and held.version >= head["version"]:
        return Applied("unchanged", held.version)
    if held is None:
        held = HubSeason(club=club, uid=head["uid"])
    held.version, held.name, held.snapshot = head["version"], head["name"], data
    held.save()
    _players(club, data["players"])
    return Applied("applied", head["version"])


def _blank(snapshot: dict[str, Any], withdrawn: set[str]) -> dict[str, Any]:
    """``snapshot`` with the players ``withdrawn`` shown as not published."""

    def one(key: str | None) -> str | None:
        return None if key in withdrawn else key

    for row in snapshot.get("ranking", []):
        row["player"] = one(row["player"])
    for round_ in snapshot.get("rounds", []):
        for table in round_["tables"]:
            table["team_a"] = [one(key) for key in table["team_a"]]
            table["team_b"] = [one(key) for key in table["team_b"]]
    snapshot["players"] = [p for p in snapshot.get("players", []) if p["key"] not in withdrawn]
    return snapshot


def _withdraw(club: Club, data: dict[str, Any]) -> None:
    """Blank the players in every evening and season of the club, remove their rows (their pages
    go), and empty the evenings withdrawn (their rows stay, so a replay stays unchanged)."""
    withdrawn = set(data["players"])
    if withdrawn:
        evenings = list(HubEvening.objects.select_for_update().filter(club=club, withdrawn=False))
        for evening in evenings:
            held = {p["key"] for p in evening.snapshot.get("players", [])}
            if held & withdrawn:
                evening.snapshot = _blank(evening.snapshot, withdrawn)
                evening.edits += 1
                evening.save(update_fields=["snapshot", "edits"])
        for season in HubSeason.objects.select_for_update().filter(club=club):
            if {p["key"] for p in season.snapshot.get("players", [])} & withdrawn:
                season.snapshot = _blank(season.snapshot, withdrawn)
                season.save(update_fields=["snapshot"])
        HubPlayer.objects.filter(club=club, key__in=sorted(withdrawn)).delete()
    if data["evenings"]:
        gone = HubEvening.objects.filter(club=club, uid__in=data["evenings"])
        HubResult.objects.filter(evening__in=gone).delete()
        for evening in gone.select_for_update():
            evening.snapshot, evening.withdrawn, evening.edits = {}, True, evening.edits + 1
            evening.save(update_fields=["snapshot", "withdrawn", "edits"])
