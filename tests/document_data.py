"""In-memory data for the document builders (no database): an evening, its ranking and a drawn
session with every deal entered, for any number of players, with names and clubs of varying
length (up to 30 characters each) and evening names up to 60 characters.

The builders take loaded data and return bytes (``scoring/documents/``), so tests can build
every document for every field size quickly.
"""

from __future__ import annotations

import random
from datetime import date
from fractions import Fraction

from scoring.documents import data
from scoring.documents.data import DealLine, PlayerRef, SessionPlan
from scoring.domain.ranking import PlayerScore, rank
from scoring.models import Evening, Player
from scoring.selectors import RankingRow
from scoring.selectors.history import EveningHistory, PartnershipHistory, RoundHistory, TableHistory

FIRST = [
    "Hauke",
    "Gönke",
    "Broder",
    "Ingwer",
    "Frauke",
    "Momme",
    "Swantje",
    "Jürgen",
    "Dörte",
    "Sönke",
    "Hans-Peter",
    "Anna-Katharina Marlene",
    "Jo",
    "Spielerin",
]
LAST = [
    "Petersen",
    "Hansen",
    "Ketelsen",
    "Sönnichsen",
    "Carstensen",
    "Feddersen",
    "Thomsen",
    "Lützen",
    "O'Neill-Süderstapel",
    "Groß",
    "Ärger",
    "Brodersen-Christiansen",
]
CLUBS = [
    "Schwesing",
    "Oster-Ohrstedt",
    "Treia",
    "Ahrenviöl",
    "Immenstedt",
    "Husum",
    "",
    "Bruusfreunde Oster-Ohrstedt e.V",
    "SV Hattstedtermarsch 1921 e.V.",
]
LONG_EVENING = "Schwesinger Bruus-Abend zum Jahresabschluss im Dörpshus 2026"  # 60 characters
LONG_NAME = "Anna-Katharina Süderstapel-Ho"  # 30 characters with the number below
LONG_CLUB = "SV Oster-Ohrstedt-Hattstedt e."  # 30 characters


def evening(name: str = "Schwesinger Bruus-Abend", sessions: int = 3) -> Evening:
    return Evening(name=name, date=date(2026, 11, 21), venue="Dörpshus Schwesing", sessions_count=sessions)


def people(count: int, rnd: random.Random, *, long: bool = False) -> list[Player]:
    """``count`` players; ``long``: every name and club exactly 30 characters."""
    result = []
    for i in range(1, count + 1):
        if long:
            name, club = f"{LONG_NAME}{i % 10}", LONG_CLUB
        else:
            name = f"{rnd.choice(FIRST)} {i:04d} {rnd.choice(LAST)}"[:30]
            club = rnd.choice(CLUBS)
        result.append(Player(pk=i, name=name, club=club))
    return result


def ranking_rows(players: list[Player], rnd: random.Random, sessions: int = 3) -> list[RankingRow]:
    by_id = {p.pk: p for p in players}
    scores = [
        PlayerScore(p.pk, tuple(Fraction(rnd.randint(0, 400), rnd.choice((1, 1, 2, 4, 6))) for _ in range(sessions)))
        for p in players
    ]
    return [
        RankingRow(
            place=line.place,
            shared=line.shared,
            player=by_id[line.score.player],
            sessions=line.score.sessions,
            total=line.score.total,
        )
        for line in rank(scores, name_key=lambda s: by_id[s.player].name)
    ]


def session_plan(
    players: list[Player],
    rnd: random.Random,
    *,
    rounds: int = 4,
    deals: int = 4,
    filled: bool = True,
    team_size: int = 2,
) -> SessionPlan:
    """A drawn session: partnerships (of ``team_size`` players: 2, or 3 for six-handed Bräus),
    tables, a sit-out team per round when the number of teams is odd, the players left over by the
    teams sitting out the whole session. Built as the app builds it: an in-memory evening history
    (:mod:`scoring.selectors.history`) made into a plan by :func:`scoring.documents.data.session_plan`."""
    people = {p.pk: PlayerRef(p.pk, p.name, p.club) for p in players}
    ids = list(people)
    rnd.shuffle(ids)
    sitters = tuple(ids.pop() for _ in range(len(ids) % team_size))
    teams = [
        PartnershipHistory(k + 1, 1, k + 1, tuple(ids[team_size * k : team_size * (k + 1)]))
        for k in range(len(ids) // team_size)
    ]
    history_rounds = []
    lines: dict[int, tuple[DealLine, ...]] = {}
    for number in range(1, rounds + 1):
        order = teams[:]
        rnd.shuffle(order)
        sitout = order.pop() if len(order) % 2 else None
        tables = []
        for t in range(len(order) // 2):
            seating = number * 1000 + t + 1
            if filled:
                lines[seating] = tuple(
                    DealLine(
                        d, w, nil, 0, 0, (2 if nil else 1) if w == "A" else 0, (2 if nil else 1) if w == "B" else 0
                    )
                    for d, w, nil in ((d, rnd.choice("AB"), rnd.random() < 0.2) for d in range(1, deals + 1))
                )
            a, b = order[2 * t], order[2 * t + 1]
            tables.append(
                TableHistory(seating, t + 1, a.id, b.id, a.players, b.players, 0, 0, 0, False, False, f"{t + 1:02d}")
            )
        history_rounds.append(
            RoundHistory(
                id=number,
                session_id=1,
                session=1,
                number=number,
                tables=tuple(tables),
                sitout_team=sitout.players if sitout else None,
                session_sitters=sitters,
                sitout_team_id=sitout.id if sitout else None,
            )
        )
    history = EveningHistory(
        sessions={1: 1},
        teams={t.id: t.players for t in teams},
        rounds=tuple(history_rounds),
        partnerships=tuple(teams),
        sitters={1: sitters},
    )
    plan = data.session_plan(
        history,
        1,
        people=people,
        deals_per_round=deals,
        scorer_url=lambda token: f"http://127.0.0.1:8000/t/{token}{'Ab3_' * 7}x2/",
        deals=lines,
    )
    assert plan is not None
    return plan


ALPHABET = "abcdefghijklmnopqrstuvwxyzäöüßABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ -'.&<>\"øæåéčłç"


def varied_people(count: int, rnd: random.Random, *, name_max: int = 30, club_max: int = 30) -> list[Player]:
    """``count`` players whose names (1..name_max characters, often two words) and clubs
    (0..club_max) vary in length and characters, markup and quotes included."""

    def text(low: int, high: int) -> str:
        length = rnd.randint(low, max(low, high))
        chars = "".join(rnd.choice(ALPHABET) for _ in range(length))
        return " ".join(chars.split()) or "X"

    result = []
    for i in range(1, count + 1):
        name = text(1, name_max)
        if rnd.random() < 0.7 and len(name) < name_max - 3:
            name = f"{name[: name_max // 2]} {text(1, name_max - name_max // 2 - 1)}"[:name_max]
        club = text(0, club_max)[:club_max] if club_max and rnd.random() < 0.9 else ""
        result.append(Player(pk=i, name=name, club=club))
    return result
