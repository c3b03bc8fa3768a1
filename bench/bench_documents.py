"""How long the printed documents take to build, against a bare reportlab document.

Run: ``make bench`` or ``.venv/bin/python bench/bench_documents.py [--repeat N]``.

No database: the data (a 200-player evening: its ranking, and one session of 50 tables x 4
rounds, every deal entered) is built in memory, exactly as the views hand it to the builders.
For each document the script prints the best of N builds of

- ours: the real builder (fonts, styles, page decoration, QR codes, ...);
- bare: a plain SimpleDocTemplate with one Table (repeatRows) holding the same rows as plain
  strings, in the same font, no decoration; for the score sheets also with a QrCodeWidget
  drawing per sheet, as a plain implementation would draw them;

and their ratios, one figure per line. The caches (encoded QR codes, text widths) are emptied
before each build of ours, so every build does all its work; one figure shows the score sheets
with the QR codes already encoded (as when the filled sheets follow the blank ones).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
import time
from datetime import date
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="bruus-bench-"))  # nothing touches var/

import django  # noqa: E402

django.setup()

from django.utils import timezone, translation  # noqa: E402
from reportlab.graphics.barcode.qr import QrCodeWidget  # noqa: E402
from reportlab.graphics.shapes import Drawing  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.units import mm  # noqa: E402
from reportlab.platypus import PageBreak, SimpleDocTemplate, Table, TableStyle  # noqa: E402

from scoring.documents import pdf_base  # noqa: E402
from scoring.documents.data import DealLine, PartnershipRef, PlayerRef, RoundPlan, SessionPlan, TablePlan  # noqa: E402
from scoring.documents.ranking import build_ranking  # noqa: E402
from scoring.documents.score_sheets import build_score_sheets, qr_modules  # noqa: E402
from scoring.documents.table_lists import build_table_list  # noqa: E402
from scoring.domain.names import person_key  # noqa: E402
from scoring.domain.ranking import PlayerScore, rank  # noqa: E402
from scoring.models import Evening, Player  # noqa: E402
from scoring.selectors import RankingRow  # noqa: E402

FIRST = ["Hauke", "Gönke", "Broder", "Ingwer", "Frauke", "Momme", "Swantje", "Jürgen", "Dörte", "Sönke"]
LAST = ["Petersen", "Hansen", "Ketelsen", "Sönnichsen", "Carstensen", "Feddersen", "Thomsen", "Lützen"]
CLUBS = ["Schwesing", "Oster-Ohrstedt", "Treia", "Ahrenviöl", "Immenstedt", "Husum"]


def evening() -> Evening:
    return Evening(name="Schwesinger Bruus-Abend", date=date(2026, 11, 21), venue="Dörpshus Schwesing")


def ranking_rows(players: int, rnd: random.Random) -> list[RankingRow]:
    people = {
        i: Player(pk=i, name=f"{rnd.choice(FIRST)} {rnd.choice(LAST)} {i}", club=rnd.choice(CLUBS))
        for i in range(1, players + 1)
    }
    scores = [
        PlayerScore(i, (Fraction(rnd.randint(4, 40)), Fraction(rnd.randint(40, 400), 10), Fraction(rnd.randint(4, 40))))
        for i in people
    ]
    return [
        RankingRow(
            place=line.place,
            shared=line.shared,
            player=people[line.score.player],
            sessions=line.score.sessions,
            total=line.score.total,
        )
        for line in rank(scores, name_key=lambda s: person_key(people[s.player].name, people[s.player].club, s.player))
    ]


def session_plan(tables: int, rnd: random.Random) -> SessionPlan:
    players = [PlayerRef(i, f"{rnd.choice(FIRST)} {rnd.choice(LAST)} {i}") for i in range(1, 4 * tables + 1)]
    teams = [PartnershipRef(k + 1, (players[2 * k], players[2 * k + 1])) for k in range(2 * tables)]
    rounds = []
    for number in range(1, 5):
        order = teams[:]
        rnd.shuffle(order)
        seats = []
        for t in range(tables):
            deals = tuple(
                DealLine(d, winner, False, 0, 0, 1 if winner == "A" else 0, 1 if winner == "B" else 0)
                for d, winner in ((d, rnd.choice("AB")) for d in range(1, 5))
            )
            url = f"http://192.168.178.20:8000/t/{t + 1:02d}{'Ab3_' * 7}x2/"
            seats.append(TablePlan(t + 1, order[2 * t], order[2 * t + 1], url, deals))
        rounds.append(RoundPlan(number, tuple(seats)))
    return SessionPlan(1, 4, tuple(rounds), tuple(teams))


def bare(tables: list[list[list[str]]], page_break_every: int = 0, qr_urls: list[str] | None = None) -> bytes:
    """A bare reportlab document: the same rows as plain strings, one Table each, same font;
    with ``qr_urls``, a QrCodeWidget drawing before each table (as a plain implementation would)."""
    buffer = io.BytesIO()
    story = []
    for index, rows in enumerate(tables):
        if page_break_every and index and index % page_break_every == 0:
            story.append(PageBreak())
        if qr_urls:
            drawing = Drawing(30 * mm, 30 * mm)
            drawing.add(QrCodeWidget(qr_urls[index], barLevel="M", barWidth=30 * mm, barHeight=30 * mm))
            story.append(drawing)
        story.append(Table(rows, repeatRows=1, style=TableStyle([("FONT", (0, 0), (-1, -1), pdf_base.FONT, 14)])))
    SimpleDocTemplate(buffer, pagesize=A4).build(story)
    return buffer.getvalue()


def ranking_table(rows: list[RankingRow]) -> list[list[str]]:
    head = ["Platz", "Name", "Verein", "1", "2", "3", "Gesamt"]
    return [head] + [
        [
            f"{r.place}.",
            r.player.name,
            r.player.club,
            *map(pdf_base.matchsticks, r.sessions),
            pdf_base.matchsticks(r.total),
        ]
        for r in rows
    ]


def sheet_tables(plan: SessionPlan) -> list[list[list[str]]]:
    out = []
    for round_ in plan.rounds:
        for seat in round_.tables:
            rows = [
                [
                    f"Tisch {seat.table}",
                    f"Runde {round_.number}",
                    seat.team_a.label,
                    seat.team_b.label,
                    "",
                    "",
                    "",
                    "",
                    "",
                ],
                ["Spiel", "5", "0", "W+S", "St", "5", "0", "W+S", "St"],
            ]
            for d in seat.deals:
                rows.append(
                    [
                        str(d.number),
                        d.winner == "A" and "✓" or "",
                        "",
                        str(d.bonus_a),
                        str(d.points_a),
                        d.winner == "B" and "✓" or "",
                        "",
                        str(d.bonus_b),
                        str(d.points_b),
                    ]
                )
            rows.append(
                [
                    "Summe",
                    "",
                    "",
                    "",
                    str(sum(d.points_a for d in seat.deals)),
                    "",
                    "",
                    "",
                    str(sum(d.points_b for d in seat.deals)),
                ]
            )
            out.append(rows)
    return out


def table_list_tables(plan: SessionPlan) -> list[list[list[str]]]:
    """The table list's rows as plain strings: per round table number and the two teams (two
    names on two lines), then the players A to Z with partner and table in every round."""
    out = []
    seats: dict = {}
    partner = {}
    for team in plan.partnerships:
        a, b = team.players
        partner[a], partner[b] = b, a
    for round_ in plan.rounds:
        rows = [["Tisch", "Team A", "Team B"]]
        for seat in round_.tables:
            rows.append(
                [
                    str(seat.table),
                    "\n".join(p.label for p in seat.team_a.players),
                    "\n".join(p.label for p in seat.team_b.players),
                ]
            )
            for player in (*seat.team_a.players, *seat.team_b.players):
                seats.setdefault(player, {})[round_.number] = str(seat.table)
        out.append(rows)
    heads = [f"Runde {r.number}" for r in plan.rounds]
    out.append(
        [["Name", "Partner", *heads]]
        + [
            [p.label, partner[p].label, *[by_round.get(r.number, "setzt aus") for r in plan.rounds]]
            for p, by_round in sorted(seats.items(), key=lambda item: item[0].label)
        ]
    )
    return out


def best(repeat: int, build, cold: bool = True) -> float:
    """The fastest of ``repeat`` builds, in seconds; ``cold`` empties the caches first (encoded
    QR codes, text widths), so that every build does all its work."""
    times = []
    for _ in range(repeat):
        if cold:
            qr_modules.cache_clear()
            pdf_base.text_width.cache_clear()
        start = time.perf_counter()
        build()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="builds per figure; the best counts (default 5)")
    args = parser.parse_args()
    translation.activate("de")
    rnd = random.Random(20261121)
    ev = evening()
    rows = ranking_rows(200, rnd)
    plan = session_plan(50, rnd)
    printed = timezone.now()
    bare_ranking = ranking_table(rows)
    bare_sheets = sheet_tables(plan)

    build_ranking(ev, rows, complete=True, printed_at=printed)  # warm-up: font loading, imports
    ours = best(args.repeat, lambda: build_ranking(ev, rows, complete=False, sessions_drawn=3, printed_at=printed))
    plain = best(args.repeat, lambda: bare([bare_ranking]))
    print(f"ranking 200 players, ours: {ours * 1000:.0f} ms")
    print(f"ranking 200 players, bare reportlab: {plain * 1000:.0f} ms")
    print(f"ranking ratio: {ours / plain:.2f}")

    urls = [seat.scorer_url for round_ in plan.rounds for seat in round_.tables]
    sheets = "score sheets 50 tables x 4 rounds (200 sheets)"
    ours = best(args.repeat, lambda: build_score_sheets(ev, plan, filled=True, printed_at=printed))
    build_score_sheets(ev, plan, filled=False, printed_at=printed)
    warm = best(args.repeat, lambda: build_score_sheets(ev, plan, filled=True, printed_at=printed), cold=False)
    plain = best(args.repeat, lambda: bare(bare_sheets, page_break_every=2))
    plain_qr = best(args.repeat, lambda: bare(bare_sheets, page_break_every=2, qr_urls=urls))
    print(f"{sheets}, ours: {ours * 1000:.0f} ms")
    print(f"{sheets}, ours with the 50 QR codes already encoded: {warm * 1000:.0f} ms")
    print(f"{sheets}, bare reportlab, tables only: {plain * 1000:.0f} ms")
    print(f"{sheets}, bare reportlab, tables and a QrCodeWidget each: {plain_qr * 1000:.0f} ms")
    print(f"score sheets ratio to bare tables only: {ours / plain:.2f}")
    print(f"score sheets ratio to bare tables only, QR codes already encoded: {warm / plain:.2f}")
    print(f"score sheets ratio to bare tables with QR codes: {ours / plain_qr:.2f}")

    big = session_plan(250, rnd)  # 1,000 players (the table list within 1.5x of bare)
    bare_list = table_list_tables(big)
    ours = best(args.repeat, lambda: build_table_list(ev, big, printed_at=printed))
    plain = best(args.repeat, lambda: bare(bare_list, page_break_every=1))
    print(f"table list 1,000 players (250 tables x 4 rounds + A-Z), ours: {ours * 1000:.0f} ms")
    print(f"table list 1,000 players, bare reportlab: {plain * 1000:.0f} ms")
    print(f"table list ratio: {ours / plain:.2f}")


if __name__ == "__main__":
    main()
