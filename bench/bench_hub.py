"""Load benchmark of the results site (the hub) served as on a server: PostgreSQL, Redis, two
gunicorn app processes and nginx in front (``scripts/hub-stack.sh``, docs/hub-serving.md).

Run: ``make bench`` or ``.venv/bin/python bench/bench_hub.py [--clubs 50] [--viewers 5000]
[--seconds 60]``. Outside the stack it starts it (``scripts/hub-stack.sh`` around itself, nginx on
``HUB_STACK_PORT``, default 8480) and it is removed afterwards.

What it does, bounded in time (every request has a time-out, every phase its length):

1. Makes ``--clubs`` clubs on the hub (its service, in this process, against the stack's
   database) and posts each one's live evening once: 26 players, 3 sessions of 4 rounds, 6 tables
   with 4 deals a round (two players sit out).
2. Two phases of ``--seconds`` each:

   - every club publishes its live evening through nginx (``POST /api/v1/snapshots/`` with its
     key) every ``--publish-every`` seconds (a random moment in the first interval, then
     regularly): the version one higher each time, a round more every second snapshot (up to
     12 rounds, some 35 kB of JSON);
   - ``--viewers`` viewers, spread evenly over the clubs, each poll their club's evening page
     every ``--poll-every`` seconds (each at a random moment of the first interval), with the
     ETag they hold in ``If-None-Match`` as a browser does;
   - phase 2 only: in its middle the first app process is killed (``SIGKILL`` to its process
     group: master and workers, an app server that crashes).

3. Prints for each phase: the viewers' answers (count, 200/304, p50/p95/max in ms, errors), the
   snapshots (posted, applied, errors, p50/p95 of the POST), and how long until a snapshot is
   visible on the page the viewers get (the version in the page's ETag: posted → first seen by a
   viewer, p50/p95/max in s), how nginx's cache answered (X-Cache), and how late the load
   generator's own event loop woke. Targets (issue 40; docs/performance.md "Results online"):
   with two app processes viewers' p95 ≤ 100 ms, 0 errors, every snapshot seen within 5 s; with
   one killed, 0 errors seen by the viewers. Exit status 1 when a target is missed.

The load generator is one asyncio process (aiohttp, requirements-dev.txt): 333 requests a second
take it a fraction of one core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 26
SESSIONS = 3
ROUNDS_PER_SESSION = 4
DEALS = 4
TABLES = PLAYERS // 4
#: The version in the hub's ETag of an evening page: "hub-<id>-<version>-<edits>-<language>-<release>"
#: (scoring/hub/views.py).
ETAG_VERSION = re.compile(r'"hub-\d+-(\d+)-')
TIMEOUT = 10.0  # seconds, every request
#: How late the load generator's event loop woke, in ms (lag_monitor).
LAGS: list[float] = []


# --- The snapshots ------------------------------------------------------------------------------


def snapshot(club: int, version: int, rounds: int) -> dict:
    """Club ``club``'s live evening at ``version`` with ``rounds`` confirmed rounds (format 1,
    docs/results-online.md): 26 players, 6 tables of two teams of two, 4 deals a table."""
    rng = random.Random(club * 1000 + rounds)
    players = [{"key": f"p-{club:03d}{n:03d}x", "name": f"Spieler {n} Club {club}"} for n in range(PLAYERS)]
    keys = [p["key"] for p in players]
    totals = {key: 0 for key in keys}
    per_session = {key: [0] * SESSIONS for key in keys}
    played: list[dict] = []
    for number in range(rounds):
        session, round_no = divmod(number, ROUNDS_PER_SESSION)
        seated = random.Random(club * 7919 + number).sample(keys, TABLES * 4)
        tables = []
        for table in range(TABLES):
            a, b = seated[table * 4 : table * 4 + 2], seated[table * 4 + 2 : table * 4 + 4]
            deals = [
                {"number": d + 1, "points_a": rng.randint(0, 9), "points_b": rng.randint(0, 9)} for d in range(DEALS)
            ]
            points_a, points_b = sum(d["points_a"] for d in deals), sum(d["points_b"] for d in deals)
            for key in a:
                totals[key] += points_a
                per_session[key][session] += points_a
            for key in b:
                totals[key] += points_b
                per_session[key][session] += points_b
            tables.append(
                {
                    "table": table + 1,
                    "team_a": a,
                    "team_b": b,
                    "points_a": points_a,
                    "points_b": points_b,
                    "deals": deals,
                }
            )
        played.append({"session": session + 1, "round": round_no + 1, "tables": tables})
    order = sorted(keys, key=lambda key: -totals[key])
    ranking, place = [], 0
    for index, key in enumerate(order):
        if index == 0 or totals[key] != totals[order[index - 1]]:
            place = index + 1
        sessions_done = min(SESSIONS, rounds // ROUNDS_PER_SESSION + 1)
        ranking.append(
            {
                "place": place,
                "player": key,
                "total": str(totals[key]),
                "sessions": [str(points) for points in per_session[key][:sessions_done]],
            }
        )
    return {
        "format": "bruus-snapshot",
        "format_version": 1,
        "evening": {
            "uid": f"bench-{club:03d}-1",
            "version": version,
            "name": f"Bruus-Abend Club {club}",
            "date": "2026-11-27",
            "venue": "Dörpshus",
            "rule_set": "schwesing",
            "language": "de",
            "sessions_count": SESSIONS,
            "rounds_per_session": ROUNDS_PER_SESSION,
            "deals_per_round": DEALS,
            "state": "live",
            "ranking_hidden": False,
            "sent_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        },
        "players": players,
        "ranking": ranking,
        "rounds": played,
    }


_bodies: dict[tuple[int, int], tuple[bytes, bytes]] = {}


def body_of(club: int, version: int) -> bytes:
    """The request body of club ``club``'s snapshot at ``version``: a round more every second
    version, up to 12. Built once per round and club (the load generator stays light)."""
    rounds = min(SESSIONS * ROUNDS_PER_SESSION, 1 + version // 2)
    if (club, rounds) not in _bodies:
        text = json.dumps(snapshot(club, 0, rounds)).encode()
        head, _, tail = text.partition(b'"version": 0,')
        _bodies[club, rounds] = (head, tail)
    head, tail = _bodies[club, rounds]
    return head + b'"version": %d,' % version + tail


# --- Measurements -------------------------------------------------------------------------------


@dataclass
class Club:
    number: int
    key: str
    url: str  # the evening page's path
    version: int = 1
    posted: dict[int, float] = field(default_factory=dict)  # version -> when its POST was sent
    seen: int = 0  # the highest version a viewer has seen


@dataclass
class Phase:
    name: str
    viewer_ms: list[float] = field(default_factory=list)
    viewer_status: dict[str, int] = field(default_factory=dict)
    cache_status: dict[str, int] = field(default_factory=dict)  # nginx's X-Cache: HIT, STALE, ...
    viewer_errors: list[str] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)
    posts: int = 0
    applied: int = 0
    post_errors: list[str] = field(default_factory=list)
    visible_s: list[float] = field(default_factory=list)
    killed_at: float | None = None


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --- The load -----------------------------------------------------------------------------------


async def viewer(session, base: str, club: Club, phase_box: list[Phase], every: float, until: float) -> None:
    """One browser on a live evening's page: every ``every`` seconds, with the ETag it holds."""
    etag = None
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        started = time.monotonic()
        phase = phase_box[0]
        headers = {"If-None-Match": etag} if etag else {}
        try:
            async with session.get(base + club.url, headers=headers) as answer:
                await answer.read()
                status = answer.status
                tag = answer.headers.get("ETag")
                cached = answer.headers.get("X-Cache", "-")
            phase.cache_status[cached] = phase.cache_status.get(cached, 0) + 1
        except Exception as error:  # noqa: BLE001  (every failure is counted)
            phase.viewer_errors.append(type(error).__name__)
        else:
            now = time.monotonic()
            phase.viewer_ms.append((now - started) * 1000)
            phase.viewer_status[str(status)] = phase.viewer_status.get(str(status), 0) + 1
            if status not in (200, 304):
                phase.viewer_errors.append(f"HTTP {status}")
            elif tag:
                etag = tag
                match = ETAG_VERSION.match(tag)
                version = int(match.group(1)) if match else 0
                for v in range(club.seen + 1, version + 1):
                    if v in club.posted:
                        phase.visible_s.append(now - club.posted.pop(v))
                club.seen = max(club.seen, version)
        await asyncio.sleep(max(0.0, started + every - time.monotonic()))


async def publisher(session, base: str, club: Club, phase_box: list[Phase], every: float, until: float) -> None:
    """One hall publishing its live evening: a new version every ``every`` seconds."""
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        started = time.monotonic()
        phase = phase_box[0]
        club.version += 1
        body = body_of(club.number, club.version)
        club.posted[club.version] = started
        headers = {"Authorization": f"Bearer {club.key}", "Content-Type": "application/json"}
        phase.posts += 1
        try:
            async with session.post(base + "/api/v1/snapshots/", data=body, headers=headers) as answer:
                status = answer.status
                text = await answer.text()
            reply = json.loads(text) if answer.headers.get("Content-Type", "").startswith("application/json") else {}
        except Exception as error:  # noqa: BLE001
            phase.post_errors.append(type(error).__name__)
            club.posted.pop(club.version, None)  # the hall's sender would send it again
        else:
            phase.post_ms.append((time.monotonic() - started) * 1000)
            if status == 200 and reply.get("status") == "applied":
                phase.applied += 1
            else:
                # 502: the POST was under way in the process that was killed; nginx does not send
                # a POST twice, the hall's sender sends it again (its next version here).
                phase.post_errors.append(f"HTTP {status} {reply.get('status', '')}".strip())
                club.posted.pop(club.version, None)
        await asyncio.sleep(max(0.0, started + every - time.monotonic()))


async def lag_monitor(lags: list[float], until: float) -> None:
    """How late this process's event loop wakes (ms): a load generator that is itself the
    bottleneck shows here, and its latencies would then be its own."""
    while time.monotonic() < until:
        asked = time.monotonic()
        await asyncio.sleep(0.05)
        lags.append((time.monotonic() - asked - 0.05) * 1000)


async def killer(phase: Phase, pid: int, after: float) -> None:
    """One app process (its master and workers) killed ``after`` seconds into the phase."""
    await asyncio.sleep(after)
    os.killpg(pid, signal.SIGKILL)
    phase.killed_at = after
    print(f"  app process {pid} killed (SIGKILL to its process group) after {after:.0f} s", flush=True)


async def run(args: argparse.Namespace, clubs: list[Club]) -> list[Phase]:
    import aiohttp

    base = os.environ["HUB_URL"]
    connector = aiohttp.TCPConnector(limit=args.connections, force_close=False)
    timeout = aiohttp.ClientTimeout(total=TIMEOUT)
    phases = [Phase("2 app processes"), Phase("1 of 2 app processes killed in the middle")]
    box = [phases[0]]
    async with aiohttp.ClientSession(base_url=None, connector=connector, timeout=timeout) as session:
        # Every club's evening once, so that every page exists.
        for club in clubs:
            body = body_of(club.number, club.version)
            headers = {"Authorization": f"Bearer {club.key}", "Content-Type": "application/json"}
            async with session.post(base + "/api/v1/snapshots/", data=body, headers=headers) as answer:
                reply = await answer.json(content_type=None)
                if answer.status != 200 or reply.get("status") != "applied":
                    raise SystemExit(
                        f"The first snapshot of club {club.number} was not applied: {answer.status} {reply}"
                    )
        # ... and seen once, as a viewer who opened it before the benchmark did.
        for club in clubs:
            async with session.get(base + club.url) as answer:
                await answer.read()
        total = 2 * args.seconds
        until = time.monotonic() + total
        tasks = [
            *(viewer(session, base, clubs[n % len(clubs)], box, args.poll_every, until) for n in range(args.viewers)),
            *(publisher(session, base, club, box, args.publish_every, until) for club in clubs),
        ]
        tasks.append(lag_monitor(LAGS, until))
        runner = asyncio.gather(*tasks)
        print(f"  phase 1: {phases[0].name}, {args.seconds:.0f} s", flush=True)
        await asyncio.sleep(args.seconds)
        box[0] = phases[1]
        print(f"  phase 2: {phases[1].name}, {args.seconds:.0f} s", flush=True)
        app = int(os.environ["HUB_APP_PIDS"].split()[0])
        await asyncio.gather(runner, killer(phases[1], app, args.seconds / 2))
    return phases


def report(args: argparse.Namespace, phases: list[Phase]) -> bool:
    ok = True
    for phase in phases:
        ms = phase.viewer_ms
        statuses = ", ".join(f"{count} x {status}" for status, count in sorted(phase.viewer_status.items()))
        print(f"\n{phase.name}:")
        print(
            f"  viewers:   {len(ms)} answers ({len(ms) / args.seconds:.0f}/s; {statuses}), "
            f"p50 {percentile(ms, 0.5):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, max {max(ms, default=0):.0f} ms, "
            f"errors {len(phase.viewer_errors)}"
            + (f" ({', '.join(sorted(set(phase.viewer_errors)))})" if phase.viewer_errors else "")
        )
        cache = ", ".join(f"{count} {status}" for status, count in sorted(phase.cache_status.items()))
        print(f"  nginx's cache: {cache}")
        print(
            f"  snapshots: {phase.posts} posted, {phase.applied} applied, p50 {percentile(phase.post_ms, 0.5):.0f} ms, "
            f"p95 {percentile(phase.post_ms, 0.95):.0f} ms, errors {len(phase.post_errors)}"
            + (f" ({', '.join(sorted(set(phase.post_errors)))})" if phase.post_errors else "")
        )
        vis = phase.visible_s
        print(
            f"  posted -> seen by the viewers: {len(vis)} versions, p50 {percentile(vis, 0.5):.1f} s, "
            f"p95 {percentile(vis, 0.95):.1f} s, max {max(vis, default=0):.1f} s"
        )
        # Issue 40: p95 <= 100 ms, 0 errors and seen within 5 s; with one app process killed, 0
        # errors seen by the viewers (its p95 and delays are printed, not judged).
        ok &= not phase.viewer_errors
        if phase.killed_at is None:
            ok &= percentile(ms, 0.95) <= 100 and max(vis, default=0) <= 5.0
    lag = f"p50 {percentile(LAGS, 0.5):.1f} ms, p95 {percentile(LAGS, 0.95):.1f} ms, max {max(LAGS, default=0):.0f} ms"
    load = f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)"
    print(f"\nLoad generator's event loop late by {lag}; machine load average at the end {load}")
    print(
        "\nTargets (2 app processes: viewers' p95 <= 100 ms, 0 errors, seen within 5 s; one killed: "
        f"0 errors seen by the viewers): {'met' if ok else 'MISSED'}"
    )
    return ok


def make_clubs(count: int) -> list[Club]:
    """``count`` clubs on the hub, each with its key (the hub's own service, in this process)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
    import django

    django.setup()
    from django.db import connections

    from scoring.hub import services

    clubs = []
    for number in range(1, count + 1):
        club, key = services.create_club(f"Bench-Club {number:03d}")
        clubs.append(Club(number, key, f"/verein/{club.slug}/abend/bench-{number:03d}-1/"))
    connections.close_all()
    return clubs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=60, help="length of each of the two phases")
    parser.add_argument("--publish-every", type=float, default=3.0, help="seconds between a club's snapshots")
    parser.add_argument("--poll-every", type=float, default=15.0, help="seconds between a viewer's polls")
    parser.add_argument("--connections", type=int, default=256, help="connections the viewers share")
    args = parser.parse_args()
    if "HUB_URL" not in os.environ:  # the stack around this benchmark, removed afterwards
        return subprocess.call([str(ROOT / "scripts" / "hub-stack.sh"), sys.executable, *sys.argv])
    print(
        f"Results site: {args.clubs} clubs publishing live evenings every {args.publish_every:g} s, "
        f"{args.viewers} viewers polling every {args.poll_every:g} s "
        f"({args.viewers / args.poll_every:.0f} requests/s), 2 phases of {args.seconds:g} s",
        flush=True,
    )
    clubs = make_clubs(args.clubs)
    phases = asyncio.run(run(args, clubs))
    return 0 if report(args, phases) else 1


if __name__ == "__main__":
    sys.exit(main())
