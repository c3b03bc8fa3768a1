"""The hall keeps playing during a restore: tablets enter deals through the
server while the organiser checks (preview) and restores a club database of ten years.

Run: ``make bench`` or ``.venv/bin/python bench/bench_restore.py [--records 150000]``.

1. A temporary DATA_DIR with a fresh SQLite database (WAL, as in the hall) and an evening being
   played (``bench_load.SETUP``: 40 players, 10 tables, deals to enter).
2. A backup of a whole club database of about ``--records`` records, made up record by record
   (evenings of 8 players at two tables, four rounds of four deals each with its history,
   sharing a register of 300 players), scored by the rules, written as ``.json.gz``.
3. gunicorn as ``bruus-turnier serve`` starts it; one thread per table enters its deals as the
   page's script does, one every ``--deal-every`` seconds.
4. Meanwhile, in a process of its own as the organiser's page or ``bruus-turnier restore`` does:
   the file is read and checked, the preview computed (:func:`scoring.backup.preview`), then
   restored (:func:`scoring.backup.restore`).

Prints the time of the preview and of the restore, and the tablets' deal latencies (p50/p95/max)
during the preview and during the restore, and their errors. Exit status 1 when a deal failed or
the p95 during either is above 1 s (the issue's bar). Not part of the test suite.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_load  # noqa: E402
from bench_load import ROOT, RULES, Tablet, free_port, percentile  # noqa: E402

from scoring.domain.rules import DealResult  # noqa: E402  (pure Python)

TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
CODE_ALPHABET = "ABCDEFGHJKMNPRSTUVWX"
#: Records of one made-up evening: itself, 8 participants, 2 tables, a session, 4 partnerships,
#: 4 rounds, 8 seatings, 32 deals and 32 history entries.
PER_EVENING = 1 + 8 + 2 + 1 + 4 + 4 + 8 + 32 + 32

RESTORE = """
import json, sys, time, django
django.setup()
from scoring import backup
started = time.monotonic()
document = backup.read_backup(sys.argv[1], check=False)
checked = time.monotonic()
print(json.dumps({"event": "preview-start"}), flush=True)
outcome = backup.preview(document)
print(json.dumps({"event": "preview-end", "read": checked - started, "preview": time.monotonic() - checked,
                  "players_new": outcome.players_new}), flush=True)
started = time.monotonic()
document = backup.read_backup(sys.argv[1], check=False)
print(json.dumps({"event": "restore-start"}), flush=True)
outcome = backup.restore(document)
print(json.dumps({"event": "restore-end", "restore": time.monotonic() - started,
                  "evenings": len(outcome.evenings), "deals": outcome.deals}), flush=True)
"""


def club_database(records: int) -> dict:
    """A backup of the whole database of a club: evenings of :data:`PER_EVENING` records until
    ``records`` are reached, and a register of 300 players."""
    keys = "players evenings participants partner_exclusions tables sessions partnerships rounds seatings"
    keys += " substitutions deals deal_changes drawn_deals seasons season_evenings"
    data: dict[str, list] = {key: [] for key in keys.split()}
    data["players"] = [
        {
            "id": n,
            "name": f"Spieler {n:03d}",
            "club": "Archiv",
            "match_key": "",
            "created_at": "2016-01-01T18:00:00+00:00",
        }
        for n in range(1, 301)
    ]
    ids = dict.fromkeys(data, 0)

    def add(key: str, record: dict) -> int:
        ids[key] += 1
        data[key].append({"id": ids[key], **record})
        return ids[key]

    count = 0
    while count + PER_EVENING <= records:
        number = len(data["evenings"])
        day = f"{2016 + number // 160}-{1 + number % 12:02d}-{1 + number % 28:02d}"
        moment = f"{day}T20:00:00+00:00"
        evening = add(
            "evenings",
            {"name": f"Abend {number + 1}", "date": day, "sessions_count": 1, "rounds_per_session": 4}
            | {"deals_per_round": 4},
        )
        players = [1 + (number * 8 + i) % 300 for i in range(8)]
        for player in players:
            add("participants", {"evening": evening, "player": player})
        tables = [
            add(
                "tables",
                {"evening": evening, "number": n, "token": "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(32))}
                | {"code": "".join(secrets.choice(CODE_ALPHABET) for _ in range(6))},
            )
            for n in (1, 2)
        ]
        session = add("sessions", {"evening": evening, "number": 1, "seed": number, "drawn_at": moment})
        teams = [
            add("partnerships", {"session": session, "number": n + 1, "player_1": players[2 * n]}) for n in range(4)
        ]
        for n, team in enumerate(teams):
            data["partnerships"][team - 1]["player_2"] = players[2 * n + 1]
        games = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)), ((0, 1), (2, 3))]
        for round_number, pairs in enumerate(games, 1):
            round_ = add("rounds", {"session": session, "number": round_number, "locked": False})
            for table, (a, b) in zip(tables, pairs, strict=True):
                seating = add(
                    "seatings",
                    {"round": round_, "table": table, "team_a": teams[a], "team_b": teams[b], "confirmed_at": moment},
                )
                for deal_number in range(1, 5):
                    result = DealResult("AB"[(number + deal_number) % 2], False, deal_number % 2, 0)
                    score = RULES.score_deal(result, 0)
                    deal = add(
                        "deals",
                        {"seating": seating, "number": deal_number, "winner": result.winner, "to_nil": False}
                        | {"bonus_a": result.bonus_a, "bonus_b": 0, "points_a": score.a, "points_b": score.b}
                        | {"override_reason": "", "version": 1, "updated_at": moment},
                    )
                    add(
                        "deal_changes",
                        {"deal": deal, "changed_at": moment, "source": "table", "table_number": 1, "team": "A"}
                        | {"new": {"winner": result.winner}, "previous": None, "reason": ""},
                    )
        count += PER_EVENING
    import hashlib

    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return {
        "format": "bruus-turnier-backup",
        "version": 1,
        "scope": "database",
        "sha256": hashlib.sha256(canonical).hexdigest(),
        "data": data,
    }


class TimedTablet(Tablet):
    """A tablet that notes when each deal was sent, and how long its answer took."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.timed: list[tuple[float, float]] = []  # (sent at, latency), seconds

    def request(self, method: str, path: str, data: dict | None = None) -> tuple[int, str]:
        start = time.monotonic()
        answer = super().request(method, path, data)
        if method == "POST" and "/spiel/" in path:
            self.timed.append((start, time.monotonic() - start))
        return answer


def _window(tablets: list[TimedTablet], start: float, end: float) -> list[float]:
    return [latency for t in tablets for sent, latency in t.timed if start <= sent + latency and sent <= end]


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no deal sent"
    return (
        f"{name}: {len(values)} deals, p50 {percentile(values, 0.5) * 1000:.0f} ms, "
        f"p95 {percentile(values, 0.95) * 1000:.0f} ms, max {max(values) * 1000:.0f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=150_000, help="records of the restored database")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--deal-every", type=float, default=2.0, help="seconds between a tablet's deals")
    args = parser.parse_args()
    data_dir = Path(tempfile.mkdtemp(prefix="bruus-bench-restore-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL",)}
    env.update(DATA_DIR=str(data_dir), DJANGO_SETTINGS_MODULE="bruus_tournament.settings", DEBUG="false")
    env.update(ALLOWED_HOSTS="127.0.0.1,localhost", PYTHONPATH=str(ROOT))
    server = None
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
        setup = bench_load.SETUP.format(rounds=8, deals=8, players=4 * args.tables)
        made = json.loads(
            subprocess.run(
                [sys.executable, "-c", setup], cwd=ROOT, env=env, check=True, capture_output=True, text=True
            ).stdout
        )
        started = time.monotonic()
        document = club_database(args.records)
        path = data_dir / "verein.json.gz"
        path.write_bytes(gzip.compress(json.dumps(document).encode(), compresslevel=6))
        records = sum(len(v) for v in document["data"].values())
        print(
            f"Backup of a club database: {records:,} records ({len(document['data']['evenings'])} evenings), "
            f"{path.stat().st_size / 1e6:.1f} MB packed, made in {time.monotonic() - started:.1f} s"
        )
        del document
        port = free_port()
        server = bench_load._start_server(
            env, port, data_dir / "server.log", argparse.Namespace(server="gunicorn", workers=4, threads=4)
        )
        if not bench_load._wait_until_up(port, server):
            print("the server did not start")
            return 1
        tablets = [
            TimedTablet(int(number), token, port, think=args.deal_every) for number, token in made["tokens"].items()
        ]
        ready = threading.Barrier(len(tablets) + 1)
        deadline = time.monotonic() + 900
        threads = [threading.Thread(target=t.run, args=(ready, 8, 8, deadline), daemon=True) for t in tablets]
        for thread in threads:
            thread.start()
        ready.wait(timeout=120)
        time.sleep(3 * args.deal_every)  # the tablets at their pace
        events: dict[str, float] = {}
        figures: dict = {}
        restore_env = env  # the default limits: 24 MB and some 1.5 million values unpacked
        with subprocess.Popen(
            [sys.executable, "-c", RESTORE, str(path)], cwd=ROOT, env=restore_env, stdout=subprocess.PIPE, text=True
        ) as restoring:
            for line in restoring.stdout:
                said = json.loads(line)
                events[said.pop("event")] = time.monotonic()
                figures |= said
        if restoring.returncode != 0 or "restore-end" not in events:
            print("the restore failed")
            return 1
        time.sleep(3 * args.deal_every)
        for tablet in tablets:
            tablet.think = 0.0  # the rest of the evening as fast as possible, then stop
        deadline_join = time.monotonic() + 120
        for thread in threads:
            thread.join(timeout=max(0.0, deadline_join - time.monotonic()))
        during_preview = _window(tablets, events["preview-start"], events["preview-end"])
        during_restore = _window(tablets, events["restore-start"], events["restore-end"])
        failures = [f for t in tablets for f in t.failures if "run time-out" not in f]
        print(
            f"Read in {figures['read']:.1f} s, preview (checked and counted) {figures['preview']:.1f} s, "
            f"restore (read, checked and written) {figures['restore']:.1f} s: "
            f"{figures['evenings']} evenings, {figures['deals']:,} deals"
        )
        print(_line("Tablets during the preview", during_preview))
        print(_line("Tablets during the restore", during_restore))
        print(f"Failed deals: {len(failures)}" + (f" ({failures[:3]})" if failures else ""))
        locked = "database is locked" in (data_dir / "server.log").read_text()
        print(f"'database is locked' in the server's log: {'yes' if locked else 'no'}")
        slow = any(values and percentile(values, 0.95) > 1.0 for values in (during_preview, during_restore))
        return 1 if failures or locked or slow else 0
    finally:
        if server is not None:
            bench_load._stop(server)
        import shutil

        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
