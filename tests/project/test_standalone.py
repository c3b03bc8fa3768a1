"""The repository stands alone and installs like a Python application.

- Nothing outside the checkout is read (tests/checkout_guard.py guards every test; no tracked file
  names such a path).
- ``pip install`` of the built wheel gives the command ``bruus-turnier``: version, ``serve`` with
  waitress and ``run`` from the wheel alone (templates, static files, compiled translations, docs
  and the demo roster inside it), the data in the user's data folder.
- A wrong setting, data folder or port ends with one clear line, never a traceback.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bruus_tournament import __version__, cli, start_checks
from tests import checkout_guard

ROOT = checkout_guard.CHECKOUT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- Nothing outside the checkout ----------------------------------------------------------------


def test_a_file_beside_the_checkout_cannot_be_opened_by_a_test():
    beside = ROOT.parent / "a-workshop-folder" / "brief.md"
    if not checkout_guard.guarded(beside):
        pytest.skip(f"the checkout's parent {ROOT.parent} is a temporary or Python folder: not guarded")
    with pytest.raises(checkout_guard.OutsideCheckoutError, match="outside the checkout"):
        beside.open(encoding="utf-8")
    assert not checkout_guard.guarded(ROOT / "scoring" / "data" / "players-schwesing.csv")


# A path leaving the checkout: the workshop folder beside it, a machine's absolute path, or code
# climbing above the repository from a file inside it.
OUTSIDE = re.compile(r"\.\./shared|[\"']shared[\"']\s*/|/w[o]rk/|parent\.parent\.parent|BASE_DIR\.parent")


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [ROOT / name for name in listed.stdout.decode().split("\0") if name]


def test_no_file_of_the_repository_names_a_path_outside_it():
    own = {Path(__file__).resolve(), ROOT / "tests" / "project" / "test_docs.py"}
    found = []
    for path in tracked_files():
        if path in own or path.suffix in {".ttf", ".ico", ".png", ".po", ".csv", ".xlsx"} or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_demo_roster_is_part_of_the_repository():
    from django.conf import settings

    roster = Path(settings.DEMO_PLAYERS_FILE)
    assert roster.resolve().is_relative_to(ROOT)
    assert roster.relative_to(ROOT).as_posix() in {p.relative_to(ROOT).as_posix() for p in tracked_files()}
    assert len(roster.read_text(encoding="utf-8").splitlines()) == 27  # heading + 26 players


# --- One clear line for what a person gets wrong --------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--port", "80a"], "PORT must be a number from 1 to 65535, not '80a'."),
        (["serve", "--port", "70000"], "PORT must be a number from 1 to 65535, not '70000'."),
        (["run", "--address", "hall"], "LISTEN_ADDRESS must be an IP address such as 127.0.0.1 or 0.0.0.0"),
        (["serve", "--server", "apache"], "SERVER must be one of auto, gunicorn, waitress, not 'apache'."),
        (["serve", "--workers", "0"], "WORKERS must be a whole number from 1 to 64, not '0'."),
    ],
)
def test_a_wrong_option_gets_one_line_and_exit_status_2(argv, message, capsys, monkeypatch):
    environment = dict(os.environ)
    monkeypatch.setattr(os, "environ", environment)  # nothing the command sets leaks into other tests
    assert cli.main(argv) == cli.EXIT_START_ERROR
    err = capsys.readouterr().err
    assert err.startswith("bruus-turnier: " + message)
    assert err.count("\n") == 1


def test_a_port_in_use_is_named():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(start_checks.StartError, match=f"Port {port} ist belegt / is in use on 127.0.0.1"):
            start_checks.check_port_free("127.0.0.1", port)
    start_checks.check_port_free("127.0.0.1", port)  # free again: no error


class FakeClock:
    """``start_checks``'s clock in a test: ``sleep`` moves ``monotonic`` on at once and runs ``on_sleep``
    (what happens elsewhere meanwhile); ``sleeps`` lists the seconds asked for."""

    def __init__(self, on_sleep=lambda: None):
        self.now = 1000.0
        self.sleeps: list[float] = []
        self.on_sleep = on_sleep

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds
        self.on_sleep()


def test_a_port_in_use_is_waited_for_then_named_with_who_holds_it(capsys, monkeypatch):
    """``serve`` waits (start_checks.PORT_WAIT_SECONDS, here 2 s) and says so in one line; the refusal then
    names the process listening there where the system tells (on Linux: this test's own). The
    wait is counted on a fake clock: tried again every half second for the whole wait, no longer."""
    clock = FakeClock()
    monkeypatch.setattr(start_checks, "time", clock)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(start_checks.StartError) as error:
            start_checks.check_port_free("127.0.0.1", port, wait=2)
        assert clock.sleeps == [0.5, 0.5, 0.5, 0.5]
    assert str(error.value).startswith(f"Port {port} ist belegt / is in use on 127.0.0.1")
    if sys.platform.startswith("linux"):
        assert f"Prozess / process {os.getpid()}: " in str(error.value)
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"bruus-turnier: Port {port} ist noch belegt, warte bis zu 2 s / is still in use, waiting")


def test_a_port_freed_while_waiting_is_taken(capsys, monkeypatch):
    """The other program stops during the second half-second of waiting: the port is taken at the
    next try, long before the 30 s are up."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    clock = FakeClock(on_sleep=lambda: len(clock.sleeps) == 2 and taken.close())
    monkeypatch.setattr(start_checks, "time", clock)
    start_checks.check_port_free("127.0.0.1", port, wait=30)
    assert clock.sleeps == [0.5, 0.5]
    assert capsys.readouterr().err.count("\n") == 1


def run_cli(args: list[str], env: dict, cwd: Path = ROOT, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bruus_tournament", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SETTINGS_MODULE", "DATABASE_URL", "DATA_DIR"}}
    return {**env, **extra}


@pytest.mark.parametrize("how", ["cli", "manage.py"])
def test_a_data_folder_that_cannot_be_made_or_written_is_named_in_one_line(tmp_path, how):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    read_only = tmp_path / "read-only"
    read_only.mkdir()
    read_only.chmod(0o555)
    cases = [str(blocker / "data")]
    if os.geteuid() != 0:  # root writes anyway
        cases.append(str(read_only))
    for data_dir in cases:
        env = clean_env(DATA_DIR=data_dir)
        if how == "cli":
            result = run_cli(["manage", "check"], env)
        else:
            result = subprocess.run(
                [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
            )
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert f"DATA_DIR {data_dir}" in result.stderr
        assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("make", "reason"), [("folder", "Is a directory"), ("short", "is damaged (shorter than 50 characters)")]
)
def test_an_unusable_secret_key_file_is_named_in_one_line(tmp_path, make, reason):
    key_file = tmp_path / "secret_key"
    if make == "folder":
        key_file.mkdir()
    else:
        key_file.write_text("short")
    result = run_cli(["manage", "check"], clean_env(DATA_DIR=str(tmp_path)))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"bruus-turnier: Configuration error: The secret key file {key_file}")
    assert reason in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_wrong_setting_is_named_in_one_line_by_run_and_serve(tmp_path):
    for command, setting in (("run", {"CONN_MAX_AGE": "soon"}), ("serve", {"DATABASE_URL": "mysql://x"})):
        result = run_cli([command, "--port", str(free_port())], clean_env(DATA_DIR=str(tmp_path), **setting))
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith("bruus-turnier: Configuration error: ")
        assert next(iter(setting)) in result.stderr
        assert result.stderr.count("\n") == 1


def test_a_database_that_cannot_be_opened_is_named_in_one_line(tmp_path):
    broken = tmp_path / "bruus.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    result = run_cli(["serve", "--port", str(free_port())], clean_env(DATA_DIR=str(tmp_path)))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"bruus-turnier: The database ({broken}) cannot be used: ")
    assert result.stderr.count("\n") == 1


# --- Installed from the wheel ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """The wheel built from this checkout and installed into a folder of its own (its dependencies
    are this environment's); returns the environment to run ``bruus-turnier`` in, outside the
    checkout, with a home folder of its own and no DATA_DIR."""
    base = tmp_path_factory.mktemp("installed")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(base / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = (base / "dist").glob("bruus_turnier-*.whl")
    target = base / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    home = base / "home"
    home.mkdir()
    env = clean_env(HOME=str(home), PYTHONPATH=str(target), DEBUG="false")
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "PUBLIC_BASE_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS"):
        env.pop(name, None)
    return {"env": env, "command": str(target / "bin" / "bruus-turnier"), "cwd": base, "home": home, "wheel": wheel}


def bruus(installed, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [installed["command"], *args],
        cwd=installed["cwd"],
        env={**installed["env"], **kwargs.pop("env", {})},
        capture_output=True,
        text=True,
        timeout=kwargs.pop("timeout", 300),
        **kwargs,
    )


def start(installed, *args: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = subprocess.Popen(
        [installed["command"], *args, "--port", str(port)],
        cwd=installed["cwd"],
        env=installed["env"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"bruus-turnier {args[0]} stopped: {process.stdout.read()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/hilfe/", timeout=2)
            return process, port
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.3)
    stop(process)
    pytest.fail(f"bruus-turnier {args[0]} did not answer within two minutes")


def stop(process: subprocess.Popen) -> str:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
    return output


def get(port: int, path: str, **headers: str):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, dict(response.headers), response.read()


def test_the_wheel_carries_what_the_app_reads(installed):
    import zipfile

    names = set(zipfile.ZipFile(installed["wheel"]).namelist())
    resources = "bruus_tournament/resources/"
    for needed in (
        f"{resources}templates/base.html",
        f"{resources}static/css/bruus.css",
        f"{resources}locale/de/LC_MESSAGES/django.mo",
        f"{resources}locale/da/LC_MESSAGES/django.mo",
        f"{resources}docs/organiser-guide.de.md",
        f"{resources}docs/organiser-guide.da.md",
        "scoring/data/players-schwesing.csv",
        "scoring/fonts/DejaVuSans.ttf",
        "scoring/migrations/0001_initial.py",
    ):
        assert needed in names, needed
    assert not [name for name in names if name.startswith(("tests/", "bench/")) or "__pycache__" in name]


def test_installed_command_says_its_version(installed):
    result = bruus(installed, "--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"bruus-turnier {__version__}"


def test_installed_serve_with_waitress_keeps_its_data_in_the_users_folder(installed):
    data = installed["home"] / ".local" / "share" / "bruus-turnier"
    refused = bruus(installed, "serve", "--server", "waitress", "--port", str(free_port()))
    assert refused.returncode == 1  # no organiser login yet: said in German and English
    assert "Es gibt noch kein Konto der Turnierleitung" in refused.stderr
    assert "There is no organiser (Turnierleitung) login yet" in refused.stderr
    made = bruus(
        installed,
        "manage",
        "createsuperuser",
        "--noinput",
        "--username",
        "anna",
        "--email",
        "anna@example.org",
        env={"DJANGO_SUPERUSER_PASSWORD": "Ein-sehr-gutes-Passwort-7"},
    )
    assert made.returncode == 0, made.stderr
    server, port = start(installed, "serve", "--server", "waitress", "--address", "127.0.0.1")
    try:
        status, headers, body = get(port, "/organiser/", **{"Accept-Language": "de"})
        page = body.decode()
        assert status == 200
        assert "Anmeldung Turnierleitung" in page  # German from the wheel's compiled translations
        assert f"Bruus Turnier {__version__}" in page
        assert "Server" not in headers
        stylesheet = re.search(r'href="(/static/css/bruus\.[0-9a-f]{12}\.css)"', page)
        assert stylesheet, "static files are served under hashed names"
        status, headers, _ = get(port, stylesheet.group(1), **{"Accept-Encoding": "gzip"})
        assert status == 200
        assert headers.get("Content-Encoding") == "gzip"
        assert "immutable" in headers.get("Cache-Control", "")
    finally:
        output = stop(server)
    assert "Server: waitress" in output
    assert (data / "bruus.sqlite3").is_file()
    assert (data / "static" / "staticfiles.json").is_file()
    assert not list(Path(installed["env"]["PYTHONPATH"]).glob("**/*.sqlite3"))  # never inside the package


def test_installed_run_serves_the_demo_evening(installed, tmp_path):
    env_data = {"DATA_DIR": str(tmp_path)}
    installed = {**installed, "env": {**installed["env"], **env_data}}
    server, port = start(installed, "run")
    try:
        status, _, body = get(port, "/hilfe/")
        assert status == 200
    finally:
        output = stop(server)
    assert "turnierleitung / bruus-demo" in output
    assert "Demo-Abend / demo evening:" in output
    assert f"Demo-Daten / demo data:       {tmp_path / 'demo'}" in output
    assert (tmp_path / "demo" / "bruus.sqlite3").is_file()  # the demo's own folder
    assert not (tmp_path / "bruus.sqlite3").exists()  # the club's data folder never gets the demo
