"""Run inside ``scripts/hub-stack.sh`` by tests/hub_stack/test_hub_stack.py: what a hall and the
viewers notice of the served results site, printed as one JSON object for the test to judge.

Standard library only (it runs as the stack's command, with the hub's settings exported). Every
request has a time-out; the viewers' loop is bounded in time.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
URL = urllib.parse.urlsplit(os.environ["HUB_URL"])


def request(method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    """(status, headers, body) of one request through nginx."""
    connection = http.client.HTTPConnection(URL.hostname, URL.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def snapshot(version: int, rounds: int) -> dict:
    """A live evening of 8 players, two tables, at ``version`` with ``rounds`` rounds confirmed."""
    players = [{"key": f"p-stack{n}", "name": f"Stapel Spieler {n}"} for n in range(8)]
    keys = [p["key"] for p in players]
    played = [
        {
            "session": 1,
            "round": r + 1,
            "tables": [
                {
                    "table": t + 1,
                    "team_a": keys[t * 4 : t * 4 + 2],
                    "team_b": keys[t * 4 + 2 : t * 4 + 4],
                    "points_a": 5 + r,
                    "points_b": 3,
                    "deals": [{"number": 1, "points_a": 5 + r, "points_b": 3}],
                }
                for t in range(2)
            ],
        }
        for r in range(rounds)
    ]
    ranking = [
        {
            "place": 1 if n % 4 < 2 else 5,
            "player": key,
            "total": str((5 + rounds) * rounds if n % 4 < 2 else 3 * rounds),
            "sessions": ["1"],
        }
        for n, key in enumerate(keys)
    ]
    ranking.sort(key=lambda row: row["place"])
    return {
        "format": "bruus-snapshot",
        "format_version": 1,
        "evening": {
            "uid": "stack-1",
            "version": version,
            "name": "Abend im Stapel",
            "date": "2026-11-27",
            "venue": "Dörpshus",
            "rule_set": "schwesing",
            "language": "de",
            "sessions_count": 1,
            "rounds_per_session": 4,
            "deals_per_round": 1,
            "state": "live",
            "ranking_hidden": False,
            "sent_at": "2026-11-27T20:14:03Z",
        },
        "players": players,
        "ranking": ranking,
        "rounds": played,
    }


def post(key: str, version: int, rounds: int):
    body = json.dumps(snapshot(version, rounds)).encode()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    status, _, answer = request("POST", "/api/v1/snapshots/", body, headers)
    return status, json.loads(answer)


def viewers(path: str, seconds: float, outcome: dict) -> None:
    """Four viewers asking for the page as fast as they are answered, each request past the
    shared cache (a query string of its own), for ``seconds``; answers and errors counted."""
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def one(n: int) -> None:
        i = 0
        while time.monotonic() < deadline:
            i += 1
            try:
                status, _, _ = request("GET", f"{path}?viewer={n}-{i}")
                good = status == 200
            except OSError:
                good = False
            with lock:
                outcome["answers" if good else "errors"] += 1

    threads = [threading.Thread(target=one, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def main() -> None:
    seen: dict = {}
    added = subprocess.run(
        [sys.executable, "-m", "bruus_tournament", "hub", "club", "add", "Stapelclub"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    key = added.stdout.strip().splitlines()[-1].split()[-1]

    status, headers, _ = request("GET", "/")
    seen["home"] = [status, headers.get("Server", "")]

    seen["post"] = post(key, 10, 1)
    path = "/verein/stapelclub/abend/stack-1/"
    status, headers, page = request("GET", path)
    seen["page"] = [status, "Stapel Spieler 3" in page.decode(), headers.get("ETag", "")]
    again = request("GET", path)
    seen["again"] = [again[0], again[1].get("X-Cache", "")]
    etag = headers.get("ETag", "")
    seen["conditional"] = request("GET", path, headers={"If-None-Match": etag})[0]

    for n in range(4):  # past nginx's cache, to both app processes in turn
        request("GET", f"{path}?warm={n}")
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    seen["redis_keys"] = sorted({k.decode().split(":")[1] for k in client.scan_iter("bruus:*")})
    seen["redis_clients"] = sum(1 for c in client.client_list() if c.get("cmd") != "client|list")

    # One app process killed (master and workers) while the viewers read.
    outcome = {"answers": 0, "errors": 0}
    reading = threading.Thread(target=viewers, args=(path, 3.0, outcome))
    reading.start()
    time.sleep(1.0)
    first = int(os.environ["HUB_APP_PIDS"].split()[0])
    os.killpg(first, signal.SIGKILL)
    reading.join()
    seen["viewers_with_one_killed"] = outcome
    # A snapshot after the kill reaches the process that is left, and is shown.
    seen["post_after_kill"] = post(key, 11, 2)
    status, headers, page = request("GET", f"{path}?after-kill")
    seen["page_after_kill"] = [status, headers.get("ETag", "")]
    print("STACK-CHECK " + json.dumps(seen))


if __name__ == "__main__":
    main()
