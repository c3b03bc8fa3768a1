"""``make draw-plans`` (scripts/draw_plans.py): it writes a file the draw reads, the same file for
the same command, and replaces a field's plan only by a better one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from scoring.domain.draw import History, evening_repeats, plan_fits
from scoring.domain.draw.evening import plan_from_json

ROOT = Path(__file__).resolve().parents[2]


def run(out: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "scripts/draw_plans.py", "--jobs", "1", "--out", str(out), *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)


def test_the_script_writes_valid_plans_and_keeps_only_better_ones(tmp_path):
    out = tmp_path / "plans.json"
    result = run(out, "--players", "12,9-10", "--iterations", "3000")
    assert "12 players: " in result.stdout and "(kept)" in result.stdout
    document = json.loads(out.read_text())
    assert (document["rounds"], document["sessions"], document["team_size"]) == (4, 3, 2)
    assert list(document["plans"]) == ["9", "10", "12"]
    for size, item in document["plans"].items():
        draws = plan_from_json(item["sessions"])
        players = list(range(int(size)))
        assert plan_fits(draws, players, [0] * len(players), set(), 4, 3, 2)
        assert evening_repeats(History(), draws) == item["repeats"]
    written = out.read_text()
    run(out, "--players", "12,9-10", "--iterations", "3000")  # the same command: nothing better
    assert out.read_text() == written
    document["plans"]["12"]["repeats"] = 10_000  # a worse plan on file is replaced
    out.write_text(json.dumps(document))
    run(out, "--players", "12", "--iterations", "3000")
    assert json.loads(out.read_text())["plans"]["12"]["repeats"] < 10_000
