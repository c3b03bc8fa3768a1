"""The results site's reads: one function per page, each a fixed number of queries whatever the
number of evenings, players and rounds (tests/hub/test_queries.py). ``None`` for a page that does
not exist (the view answers 404).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from scoring.hub.models import Association, Club, HubEvening, HubPlayer, HubResult, HubSeason


@dataclass(frozen=True)
class Person:
    """A name as a page shows it: ``key`` None (and ``name`` empty) for a player not published."""

    key: str | None
    name: str


@dataclass(frozen=True)
class RankRow:
    place: int
    shared: bool
    person: Person
    total: str
    parts: list[str]


@dataclass(frozen=True)
class TableRow:
    table: int
    team_a: list[Person]
    team_b: list[Person]
    points_a: int
    points_b: int
    deals: list[dict[str, int]]


@dataclass
class RoundBlock:
    number: int
    tables: list[TableRow]


@dataclass
class SessionBlock:
    number: int
    rounds: list[RoundBlock] = field(default_factory=list)


@dataclass(frozen=True)
class EveningPage:
    club: Club
    evening: HubEvening
    head: dict[str, Any]
    ranking: list[RankRow]
    sessions: list[SessionBlock]


def home() -> tuple[list[Club], list[Association]]:
    """Every club (with its association) and every association, by name: two queries."""
    return list(Club.objects.select_related("association").only("name", "slug", "association__name")), list(
        Association.objects.all()
    )


def club_page(slug: str) -> tuple[Club, list[HubEvening], list[HubSeason]] | None:
    """A club, its evenings newest first (without their snapshots) and its seasons: three queries."""
    club = Club.objects.select_related("association").filter(slug=slug).first()
    if club is None:
        return None
    evenings = list(
        HubEvening.objects.filter(club=club, withdrawn=False)
        .only("uid", "name", "date", "state", "ranking_hidden", "club_id")
        .order_by("-date", "-received_at")
    )
    seasons = list(HubSeason.objects.filter(club=club).only("uid", "name", "club_id").order_by("-version"))
    return club, evenings, seasons


def evening_tag(slug: str, uid: str) -> tuple[int, int, int, str] | None:
    """What an evening page's ETag and caching rest on: (row id, version, edits, state); one
    small query (the snapshot is not read)."""
    row = (
        HubEvening.objects.filter(club__slug=slug, uid=uid, withdrawn=False)
        .values_list("pk", "version", "edits", "state")
        .first()
    )
    return (row[0], row[1], row[2], row[3]) if row else None


def _people(players: list[dict[str, str]]) -> dict[str | None, Person]:
    people: dict[str | None, Person] = {p["key"]: Person(p["key"], p["name"]) for p in players}
    people[None] = Person(None, "")
    return people


def _ranking(rows: list[dict[str, Any]], people: dict[str | None, Person], parts: str) -> list[RankRow]:
    count = Counter(row["place"] for row in rows)
    return [
        RankRow(
            place=row["place"],
            shared=count[row["place"]] > 1,
            person=people.get(row["player"], people[None]),
            total=row["total"],
            parts=row.get(parts, []) if parts == "sessions" else [str(row.get(parts, ""))],
        )
        for row in rows
    ]


def evening_page(slug: str, uid: str) -> EveningPage | None:
    """An evening as its club's hall last published it: one query."""
    evening = HubEvening.objects.select_related("club").filter(club__slug=slug, uid=uid, withdrawn=False).first()
    if evening is None:
        return None
    data = evening.snapshot
    people = _people(data.get("players", []))
    sessions: dict[int, SessionBlock] = {}
    for round_ in sorted(data.get("rounds", []), key=lambda r: (r["session"], r["round"])):
        block = sessions.setdefault(round_["session"], SessionBlock(round_["session"]))
        tables = [
            TableRow(
                table=t["table"],
                team_a=[people.get(key, people[None]) for key in t["team_a"]],
                team_b=[people.get(key, people[None]) for key in t["team_b"]],
                points_a=t["points_a"],
                points_b=t["points_b"],
                deals=t["deals"],
            )
            for t in sorted(round_["tables"], key=lambda t: t["table"])
        ]
        block.rounds.append(RoundBlock(round_["round"], tables))
    return EveningPage(
        club=evening.club,
        evening=evening,
        head=data.get("evening", {}),
        ranking=_ranking(data.get("ranking", []), people, "sessions"),
        sessions=list(sessions.values()),
    )


def player_page(slug: str, key: str) -> tuple[HubPlayer, list[HubResult]] | None:
    """A published player of a club and their evenings there, newest first: two queries."""
    player = HubPlayer.objects.select_related("club").filter(club__slug=slug, key=key).first()
    if player is None:
        return None
    results = list(
        HubResult.objects.filter(player=player, evening__withdrawn=False)
        .select_related("evening")
        .only("place", "total", "evening__uid", "evening__name", "evening__date", "evening__state")
        .order_by("-evening__date", "-evening__received_at")
    )
    return player, results


@dataclass(frozen=True)
class SeasonPage:
    club: Club
    season: HubSeason
    ranking: list[RankRow]
    evenings: list[HubEvening]


def club_season_page(slug: str, uid: str) -> SeasonPage | None:
    """A club's season as its hall computed it, and its evenings held here: two queries."""
    season = HubSeason.objects.select_related("club").filter(club__slug=slug, uid=uid).first()
    if season is None or season.club is None:
        return None
    data = season.snapshot
    evenings = list(
        HubEvening.objects.filter(club=season.club, uid__in=data.get("evenings", []), withdrawn=False)
        .only("uid", "name", "date", "state", "club_id")
        .order_by("date")
    )
    ranking = _ranking(data.get("ranking", []), _people(data.get("players", [])), "evenings")
    return SeasonPage(season.club, season, ranking, evenings)


def association_page(slug: str) -> tuple[Association, list[Club], list[HubSeason]] | None:
    """An association, its clubs and its seasons (newest first): three queries."""
    association = Association.objects.filter(slug=slug).first()
    if association is None:
        return None
    clubs = list(Club.objects.filter(association=association).only("name", "slug", "association_id"))
    seasons = list(HubSeason.objects.filter(association=association).order_by("-starts", "name"))
    return association, clubs, seasons


@dataclass(frozen=True)
class AssociationRow:
    place: int
    shared: bool
    name: str
    clubs: list[Club]
    total: Decimal
    evenings: int


def association_season(slug: str, pk: int) -> tuple[HubSeason, list[AssociationRow]] | None:
    """An association's season ranking across its clubs: the sum of matchsticks of every final
    evening of its clubs within the season's dates. A player published by full name is one
    person across clubs (the same name is the same person); one published by initials counts
    per club. Two queries."""
    season = HubSeason.objects.select_related("association").filter(association__slug=slug, pk=pk).first()
    if season is None or season.association is None:
        return None
    results = (
        HubResult.objects.filter(
            evening__club__association=season.association,
            evening__date__gte=season.starts,
            evening__date__lte=season.ends,
            evening__state="final",
            evening__withdrawn=False,
        )
        .select_related("player", "evening__club")
        .only("total", "player__name", "player__initials", "evening__club__name", "evening__club__slug")
    )
    people: dict[tuple, dict[str, Any]] = {}
    for result in results:
        player, club = result.player, result.evening.club
        who = ("club", club.pk, player.pk) if player.initials else ("name", " ".join(player.name.casefold().split()))
        entry = people.setdefault(who, {"name": player.name, "clubs": {}, "total": Decimal(0), "evenings": 0})
        entry["clubs"][club.pk] = club
        entry["total"] += result.total
        entry["evenings"] += 1
    ordered = sorted(people.values(), key=lambda e: (-e["total"], -e["evenings"], e["name"].casefold()))
    rows: list[AssociationRow] = []
    for index, entry in enumerate(ordered):
        place = rows[-1].place if rows and rows[-1].total == entry["total"] else index + 1
        clubs = list(entry["clubs"].values())
        rows.append(AssociationRow(place, False, entry["name"], clubs, entry["total"], entry["evenings"]))
    count = Counter(row.place for row in rows)
    rows = [AssociationRow(r.place, count[r.place] > 1, r.name, r.clubs, r.total, r.evenings) for r in rows]
    return season, rows
