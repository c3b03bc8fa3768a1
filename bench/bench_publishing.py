"""A deal's answer with publishing: the same with the results site unreachable, slow or not used.

Run: ``make bench`` or ``.venv/bin/python bench/bench_publishing.py [--players N]``.

In a throw-away SQLite database (``DATA_DIR`` a temporary folder), three evenings of ``--players``
players (default 24: six tables), each played through one session of four rounds of four deals
through the services (``scoring.services.enter_deal``, then the round finished and confirmed), as
the tablets do. Prints the median and 95th percentile of one deal's service call, in milliseconds:

- ``off``: the evening "not online" (no sender);
- ``refused``: the evening "live", the sender running as a thread of this process and sending to
  a port on 127.0.0.1 where nothing listens (connection refused, the backoff of docs/publishing.md);
- ``slow``: the evening "live", the sender sending to a stand-in results site on 127.0.0.1 that
  answers after 2 seconds (the sender holds no database lock while it waits).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bench_settings"
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="bruus-bench-publishing-")
os.environ["DEBUG"] = "false"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from scoring import services  # noqa: E402
from scoring.hall.origin import Origin  # noqa: E402
from scoring.models import Seating  # noqa: E402
from scoring.publishing import services as publishing  # noqa: E402
from scoring.publishing.sender import Sender  # noqa: E402
from scoring.publishing.transport import HttpTransport  # noqa: E402
from scoring.setup import builders  # noqa: E402


class SlowHub(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        time.sleep(2)
        version = json.loads(body).get("evening", {}).get("version")
        answer = json.dumps({"status": "applied", "version": version}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def play(players: int, name: str, mode: str) -> list[float]:
    """One evening played; the seconds of every enter_deal call."""
    evening = builders.evening_with_players(players, name=name, sessions_count=1)
    publishing.set_publish_mode(evening_id=evening.pk, mode=mode)
    session = services.draw_session(evening=evening, seed=1)
    times = []
    rng = random.Random(7)
    for number in range(1, evening.rounds_per_session + 1):
        seatings = Seating.objects.filter(round__session=session, round__number=number).select_related("table")
        for seating in seatings:
            for deal in range(1, evening.deals_per_round + 1):
                started = time.perf_counter()
                services.enter_deal(
                    seating_id=seating.pk,
                    number=deal,
                    result=builders.random_result(rng),
                    origin=Origin.demo(),
                    table=seating.table,
                )
                times.append(time.perf_counter() - started)
            services.enter_and_confirm_seating(seating_id=seating.pk, table=seating.table)
    return times


def with_sender(url: str, players: int, name: str) -> list[float]:
    stop = threading.Event()
    sender = Sender(HttpTransport(url, "bench-key", timeout=10))
    thread = threading.Thread(target=sender.loop, args=(stop, 0.2), daemon=True)
    thread.start()
    try:
        times = play(players, name, "live")
    finally:
        stop.set()
        thread.join(timeout=15)
    return times


def report(label: str, times: list[float]) -> None:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    print(f"{label:8} deals {len(ms):4}  median {statistics.median(ms):6.2f} ms  p95 {p95:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=24)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    play(args.players, "Warm-up", "off")  # imports, caches
    report("off", play(args.players, "Aus", "off"))
    report("refused", with_sender(f"http://127.0.0.1:{closed_port()}", args.players, "Keine Verbindung"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), SlowHub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        report("slow", with_sender(f"http://127.0.0.1:{server.server_address[1]}", args.players, "Langsam"))
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
