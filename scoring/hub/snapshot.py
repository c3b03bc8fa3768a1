"""The snapshots a hall sends to the results site, checked as a restore checks a backup: the hub
trusts nothing (docs/results-online.md, "What travels"). Pure Python, no Django.

:func:`parse` turns the request body (bytes) into a JSON value, refusing what is not plain JSON
(NaN, a key twice, nesting beyond the parser's limit). :func:`check` validates one value completely and returns a
:class:`Checked`: its ``kind`` (``"evening"``, ``"season"`` or ``"withdraw"``) and ``data``, a new
value built only of the checked fields (unknown fields are dropped), or :class:`Refused` with every
reason found (``"evening.version: not a whole number"``), in English: the hall shows them to the
organiser as they are.
"""

from __future__ import annotations

import datetime
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from scoring.domain.rulesets import RULE_SETS

FORMATS = {"bruus-snapshot": "evening", "bruus-season": "season", "bruus-withdraw": "withdraw"}
FORMAT_VERSION = 1
LANGUAGES = ("de", "en", "da", "sv")
STATES = ("live", "final")
#: Limits on counts (an evening of the hall has at most 6 sessions of 8 rounds of 8 deals).
MAX_PLAYERS = 1000
MAX_SESSIONS = 6
MAX_ROUNDS = 8
MAX_DEALS = 8
#: Deals listed at one table: the deals plus Bräus draws recorded (which use up no deal).
MAX_DEAL_ENTRIES = 64
MAX_TABLES = 500
MAX_TEAM = 3
MAX_EVENINGS = 1000
MAX_POINTS = 100_000
MAX_VERSION = 2**63 - 1
NAME_LENGTH = 120
#: An evening's or season's uid and a player's key: letters, digits and ``. _ : -``.
UID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,99}")
KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
#: Matchsticks as the hall prints them: a whole number, or one decimal with a dot.
MATCHSTICKS = re.compile(r"(0|[1-9][0-9]{0,6})(\.[0-9])?")


#: What :meth:`_Checker.field` returns for a missing field (already reported): readers pass it over.
MISSING: Any = object()


class _Absent(dict):
    """An object that is missing or not an object (reported once): its fields are not reported."""


ABSENT: dict[str, Any] = _Absent()


class Refused(Exception):
    """A snapshot that is not taken; ``errors`` says why (one line each, at most 20)."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors[:20]


@dataclass(frozen=True)
class Checked:
    """A checked snapshot: its kind and its value rebuilt from the checked fields only."""

    kind: str
    data: dict[str, Any]


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("a key twice in one object")
    return dict(pairs)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def parse(body: bytes) -> Any:
    """The JSON value of ``body`` (UTF-8); :class:`Refused` for anything else."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(["body: not UTF-8"]) from None
    try:
        return json.loads(text, object_pairs_hook=_no_twice, parse_constant=_no_constant)
    except RecursionError:  # the parser's own limit (some 1,000 levels); what it takes, check() drops
        raise Refused(["body: not JSON (nested too deep)"]) from None
    except ValueError as error:
        raise Refused([f"body: not JSON ({str(error)[:80]})"]) from None


class _Checker:
    """Collects the reasons while the fields are read; each reader returns a usable value."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def fail(self, where: str, why: str) -> None:
        self.errors.append(f"{where}: {why}")

    def obj(self, value: Any, where: str) -> dict[str, Any]:
        if value is MISSING:
            return ABSENT
        if not isinstance(value, dict):
            self.fail(where, "not an object")
            return ABSENT
        return value

    def field(self, container: dict[str, Any], name: str, where: str) -> Any:
        if container is ABSENT:
            return MISSING  # the object itself was reported
        if name not in container:
            self.fail(f"{where}.{name}" if where else name, "missing")
            return MISSING
        return container[name]

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        if value is MISSING:
            return low
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(where, "not a whole number")
            return low
        if not low <= value <= high:
            self.fail(where, f"out of range ({low} to {high})")
            return low
        return value

    def text(self, value: Any, where: str, *, length: int = NAME_LENGTH, blank: bool = False) -> str:
        if value is MISSING:
            return ""
        if not isinstance(value, str):
            self.fail(where, "not a text")
            return ""
        if len(value) > length:
            self.fail(where, f"longer than {length} characters")
            return ""
        if not blank and not value.strip():
            self.fail(where, "empty")
            return ""
        for char in value:
            if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
                self.fail(where, f"a control or invisible character (U+{ord(char):04X})")
                return ""
        return value

    def pattern(self, value: Any, where: str, regex: re.Pattern[str], what: str) -> str:
        if value is MISSING:
            return ""
        if not isinstance(value, str) or not regex.fullmatch(value):
            self.fail(where, f"not {what}")
            return ""
        return value

    def choice(self, value: Any, where: str, choices: tuple[str, ...] | list[str]) -> str:
        if value is MISSING:
            return choices[0]
        if not isinstance(value, str) or value not in choices:
            self.fail(where, f"not one of {', '.join(choices)}")
            return choices[0]
        return value

    def flag(self, value: Any, where: str) -> bool:
        if value is MISSING:
            return False
        if not isinstance(value, bool):
            self.fail(where, "not true or false")
            return False
        return value

    def items(self, value: Any, where: str, most: int) -> list[Any]:
        if value is MISSING:
            return []
        if not isinstance(value, list):
            self.fail(where, "not a list")
            return []
        if len(value) > most:
            self.fail(where, f"more than {most} entries")
            return []
        return value

    def date(self, value: Any, where: str) -> str:
        if value is MISSING:
            return "2000-01-01"
        if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
            self.fail(where, "not a date (YYYY-MM-DD)")
            return "2000-01-01"
        try:
            day = datetime.date.fromisoformat(value)
        except ValueError:
            self.fail(where, "not a date (YYYY-MM-DD)")
            return "2000-01-01"
        if not 2000 <= day.year <= 2200:
            self.fail(where, "out of range (years 2000 to 2200)")
        return value

    def moment(self, value: Any, where: str) -> str:
        if value is MISSING:
            return ""
        if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z", value):
            self.fail(where, "not a time in UTC (YYYY-MM-DDTHH:MM:SSZ)")
            return ""
        try:
            datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            self.fail(where, "not a time in UTC (YYYY-MM-DDTHH:MM:SSZ)")
            return ""
        return value

    def matchsticks(self, value: Any, where: str) -> str:
        return self.pattern(value, where, MATCHSTICKS, 'matchsticks ("54" or "54.6")') or "0"

    def players(self, value: Any, where: str) -> dict[str, str]:
        """The published players: key -> name."""
        named: dict[str, str] = {}
        for index, item in enumerate(self.items(value, where, MAX_PLAYERS)):
            here = f"{where}[{index}]"
            entry = self.obj(item, here)
            key = self.pattern(self.field(entry, "key", here), f"{here}.key", KEY, "a player key")
            name = self.text(self.field(entry, "name", here), f"{here}.name")
            if key in named:
                self.fail(f"{here}.key", "named twice")
            elif key and name:
                named[key] = name
        return named

    def player_ref(self, value: Any, where: str, named: dict[str, str]) -> str | None:
        if value is MISSING:
            return None
        if value is None:
            return None
        if not isinstance(value, str) or value not in named:
            self.fail(where, "a player that players does not name")
            return None
        return value

    def head(self, value: dict[str, Any]) -> None:
        if value.get("format_version") != FORMAT_VERSION or isinstance(value.get("format_version"), bool):
            self.fail("format_version", f"not {FORMAT_VERSION}")


def _refuse_if(checker: _Checker) -> None:
    if checker.errors:
        raise Refused(checker.errors)


def check(value: Any) -> Checked:
    """``value`` checked whole (docs/results-online.md): a :class:`Checked`, or :class:`Refused`."""
    if not isinstance(value, dict):
        raise Refused(["body: not a JSON object"])
    name = value.get("format")
    kind = FORMATS.get(name) if isinstance(name, str) else None
    if kind is None:
        raise Refused([f"format: not one of {', '.join(FORMATS)}"])
    checker = _Checker()
    checker.head(value)
    _refuse_if(checker)
    data = {"evening": _evening, "season": _season, "withdraw": _withdraw}[kind](checker, value)
    _refuse_if(checker)
    return Checked(kind, data)


def _ranking_rows(c: _Checker, value: Any, named: dict[str, str], extra: str, sessions: int) -> list[dict]:
    rows: list[dict] = []
    listed = c.items(value, "ranking", MAX_PLAYERS)
    seen: set[str] = set()
    for index, item in enumerate(listed):
        here = f"ranking[{index}]"
        entry = c.obj(item, here)
        row: dict[str, Any] = {
            "place": c.integer(c.field(entry, "place", here), f"{here}.place", 1, max(1, len(listed))),
            "player": c.player_ref(c.field(entry, "player", here), f"{here}.player", named),
            "total": c.matchsticks(c.field(entry, "total", here), f"{here}.total"),
        }
        if row["player"] is not None:
            if row["player"] in seen:
                c.fail(f"{here}.player", "ranked twice")
            seen.add(row["player"])
        if extra == "sessions":
            parts = c.items(c.field(entry, "sessions", here), f"{here}.sessions", sessions)
            row["sessions"] = [c.matchsticks(part, f"{here}.sessions[{n}]") for n, part in enumerate(parts)]
        else:
            row["evenings"] = c.integer(c.field(entry, "evenings", here), f"{here}.evenings", 0, MAX_EVENINGS)
        rows.append(row)
    places = [row["place"] for row in rows]
    if places != sorted(places):
        c.fail("ranking", "places not in order")
    return rows


def _evening(c: _Checker, value: dict[str, Any]) -> dict[str, Any]:
    head = c.obj(c.field(value, "evening", ""), "evening")
    f = lambda name: c.field(head, name, "evening")  # noqa: E731
    evening: dict[str, Any] = {
        "uid": c.pattern(f("uid"), "evening.uid", UID, "an evening uid"),
        "version": c.integer(f("version"), "evening.version", 0, MAX_VERSION),
        "name": c.text(f("name"), "evening.name"),
        "date": c.date(f("date"), "evening.date"),
        "venue": c.text(f("venue"), "evening.venue", blank=True),
        "rule_set": c.choice(f("rule_set"), "evening.rule_set", list(RULE_SETS)),
        "language": c.choice(f("language"), "evening.language", LANGUAGES),
        "sessions_count": c.integer(f("sessions_count"), "evening.sessions_count", 1, MAX_SESSIONS),
        "rounds_per_session": c.integer(f("rounds_per_session"), "evening.rounds_per_session", 1, MAX_ROUNDS),
        "deals_per_round": c.integer(f("deals_per_round"), "evening.deals_per_round", 1, MAX_DEALS),
        "state": c.choice(f("state"), "evening.state", STATES),
        "ranking_hidden": c.flag(f("ranking_hidden"), "evening.ranking_hidden"),
        "sent_at": c.moment(f("sent_at"), "evening.sent_at"),
    }
    named = c.players(c.field(value, "players", ""), "players")
    ranking = _ranking_rows(c, c.field(value, "ranking", ""), named, "sessions", evening["sessions_count"])
    rounds = _rounds(c, c.field(value, "rounds", ""), named, evening)
    if evening["ranking_hidden"] and (ranking or rounds):
        c.fail("ranking", "not empty while the ranking is hidden")
    players = [{"key": key, "name": name} for key, name in named.items()]
    return {"evening": evening, "players": players, "ranking": ranking, "rounds": rounds}


def _team(c: _Checker, value: Any, where: str, named: dict[str, str]) -> list[str | None]:
    members = c.items(value, where, MAX_TEAM)
    if isinstance(value, list) and not members:
        c.fail(where, "empty")
    return [c.player_ref(member, f"{where}[{n}]", named) for n, member in enumerate(members)]


def _rounds(c: _Checker, value: Any, named: dict[str, str], evening: dict[str, Any]) -> list[dict]:
    rounds: list[dict] = []
    seen: set[tuple[int, int]] = set()
    for index, item in enumerate(c.items(value, "rounds", MAX_SESSIONS * MAX_ROUNDS)):
        here = f"rounds[{index}]"
        entry = c.obj(item, here)
        session = c.integer(c.field(entry, "session", here), f"{here}.session", 1, evening["sessions_count"])
        number = c.integer(c.field(entry, "round", here), f"{here}.round", 1, evening["rounds_per_session"])
        if (session, number) in seen:
            c.fail(here, "this round twice")
        seen.add((session, number))
        tables = []
        table_numbers: set[int] = set()
        for t_index, t_item in enumerate(c.items(c.field(entry, "tables", here), f"{here}.tables", MAX_TABLES)):
            where = f"{here}.tables[{t_index}]"
            table = c.obj(t_item, where)
            table_number = c.integer(c.field(table, "table", where), f"{where}.table", 1, MAX_TABLES)
            if table_number in table_numbers:
                c.fail(f"{where}.table", "this table twice in the round")
            table_numbers.add(table_number)
            deals = []
            for d_index, d_item in enumerate(
                c.items(c.field(table, "deals", where), f"{where}.deals", MAX_DEAL_ENTRIES)
            ):
                d_where = f"{where}.deals[{d_index}]"
                deal = c.obj(d_item, d_where)
                deals.append(
                    {
                        "number": c.integer(c.field(deal, "number", d_where), f"{d_where}.number", 1, MAX_DEAL_ENTRIES),
                        "points_a": c.integer(c.field(deal, "points_a", d_where), f"{d_where}.points_a", 0, MAX_POINTS),
                        "points_b": c.integer(c.field(deal, "points_b", d_where), f"{d_where}.points_b", 0, MAX_POINTS),
                    }
                )
            tables.append(
                {
                    "table": table_number,
                    "team_a": _team(c, c.field(table, "team_a", where), f"{where}.team_a", named),
                    "team_b": _team(c, c.field(table, "team_b", where), f"{where}.team_b", named),
                    "points_a": c.integer(c.field(table, "points_a", where), f"{where}.points_a", 0, MAX_POINTS),
                    "points_b": c.integer(c.field(table, "points_b", where), f"{where}.points_b", 0, MAX_POINTS),
                    "deals": deals,
                }
            )
        rounds.append({"session": session, "round": number, "tables": tables})
    return rounds


def _season(c: _Checker, value: dict[str, Any]) -> dict[str, Any]:
    head = c.obj(c.field(value, "season", ""), "season")
    season = {
        "uid": c.pattern(c.field(head, "uid", "season"), "season.uid", UID, "a season uid"),
        "version": c.integer(c.field(head, "version", "season"), "season.version", 0, MAX_VERSION),
        "name": c.text(c.field(head, "name", "season"), "season.name"),
    }
    evenings = [
        c.pattern(uid, f"evenings[{n}]", UID, "an evening uid")
        for n, uid in enumerate(c.items(c.field(value, "evenings", ""), "evenings", MAX_EVENINGS))
    ]
    named = c.players(c.field(value, "players", ""), "players")
    ranking = _ranking_rows(c, c.field(value, "ranking", ""), named, "evenings", 0)
    players = [{"key": key, "name": name} for key, name in named.items()]
    return {"season": season, "evenings": evenings, "players": players, "ranking": ranking}


def _withdraw(c: _Checker, value: dict[str, Any]) -> dict[str, Any]:
    keys = [
        c.pattern(key, f"players[{n}]", KEY, "a player key")
        for n, key in enumerate(c.items(c.field(value, "players", ""), "players", MAX_PLAYERS))
    ]
    uids = [
        c.pattern(uid, f"evenings[{n}]", UID, "an evening uid")
        for n, uid in enumerate(c.items(c.field(value, "evenings", ""), "evenings", MAX_EVENINGS))
    ]
    return {"players": sorted(set(keys)), "evenings": sorted(set(uids))}


def is_initials(name: str) -> bool:
    """Whether a published name is initials as the hall builds them (``"H. J."``): every word one
    or two letters and a dot. Such players are matched across evenings of their own club only."""
    words = name.split()
    return bool(words) and all(re.fullmatch(r"\w{1,2}\.", word) for word in words)
