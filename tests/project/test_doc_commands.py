"""The docs are tested: every command line that README.md and docs/*.md teach (in fenced
code blocks and in inline code, ``bruus-turnier …`` and ``make …``) is read by the real parser
(and, for ``manage``, by the management command's own), the safe ones are run (backup, restore,
import-players, settings, --version, --help) on the test database and a temporary data folder, and
every ``make`` line is a target the Makefile has (``make -n``). A changed option breaks this suite,
not the organiser's evening. Every document is listed in docs/README.md.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from bruus_tournament import cli, envfile
from tests.project.test_docs import LINK

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: A fenced code block (``` or ~~~), its body.
FENCE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1", re.MULTILINE | re.DOTALL)
#: Inline code (a span may wrap onto the next line, as markdown allows).
INLINE = re.compile(r"(?<!`)`([^`\n]+(?:\n[^`\n]+)?)`(?!`)")
#: A command line: an optional prompt, environment settings (POSIX or PowerShell) and a path to the
#: program in front, then the program and its arguments.
COMMAND = re.compile(
    r"^(?:\$ |PS> )?(?:\$env:\w+=\"[^\"]*\";\s*|[A-Z_]+=\S+\s+)*(?:&\s*)?"
    r"(?:\S*[/\\](?:bin|Scripts)[/\\])?(?P<program>bruus-turnier|make)(?P<args>(?:\s.*)?)$"
)
#: The words of a synopsis that stand for a value, and what this test puts in.
PLACEHOLDERS = {
    "COMMAND": "backup",
    "KEY": "WIFI_NAME",
    "VALUE": "Vereinsheim",
    "ID": "1",
    "N": "2",
    "<number>": "1",
    "<Nummer>": "1",
    "<nummer>": "1",
    "<nummer>.": "1",
}


def command_lines(text: str) -> list[str]:
    """The ``bruus-turnier …`` and ``make …`` lines of a markdown text (code blocks and inline code),
    with prompts, environment settings, program paths and trailing comments taken off."""
    found = []
    candidates = []
    for match in FENCE.finditer(text):
        candidates += match.group(2).splitlines()
    without_blocks = FENCE.sub("", text)
    candidates += [" ".join(span.split()) for span in INLINE.findall(without_blocks)]
    for candidate in candidates:
        line = re.sub(r"\s+#.*$", "", candidate.strip())
        if match := COMMAND.match(line):
            found.append(f"{match.group('program')}{match.group('args')}".strip())
    return found


def synopsis_to_argv(args: str) -> list[str]:
    """The words of a documented command, a synopsis made concrete: ``[--port 8000]`` taken as
    given, ``a|b`` as its first choice, ``ARGS…`` left out, placeholders filled in."""
    text = args.replace("[", " ").replace("]", " ")
    text = re.sub(r"(\S+?)\\?\|\S+", r"\1", text)
    words = []
    for word in shlex.split(text, posix=False):
        if word.endswith("…") or word == "...":
            continue
        words.append(PLACEHOLDERS.get(word, word.strip('"')))
    return words


def documented() -> list[tuple[str, str]]:
    """(file, command line) of every command the docs teach, each once."""
    seen: dict[str, str] = {}
    for path in DOCS:
        for line in command_lines(path.read_text(encoding="utf-8")):
            seen.setdefault(line, path.relative_to(ROOT).as_posix())
    return sorted((where, line) for line, where in seen.items())


COMMANDS = documented()
PROGRAM = [(where, line) for where, line in COMMANDS if line.startswith("bruus-turnier")]
MAKE = [(where, line) for where, line in COMMANDS if line.startswith("make")]


def test_the_docs_teach_the_commands():
    words = {line.split()[1] for _, line in PROGRAM if len(line.split()) > 1}
    assert {"run", "serve", "organiser", "backup", "restore", "import-players", "settings", "manage"} <= words
    assert any("--evening" in line for _, line in PROGRAM if line.startswith("bruus-turnier backup"))
    assert {"make run", "make test", "make serve"} <= {line for _, line in MAKE}


def test_the_extraction():
    text = (
        "Run `bruus-turnier backup --evening 1` now, or `bruus-turnier backup\n--evening 2` later.\n"
        "```\n$ DATA_DIR=~/x bruus-turnier run   # the demo\n"
        "& $HOME\\bruus\\Scripts\\bruus-turnier --version\ncd bruus-turnier\nSERVER=waitress make serve\n```\n"
        "The folder `~/.local/share/bruus-turnier` and `make`."
    )
    assert command_lines(text) == [
        "bruus-turnier run",
        "bruus-turnier --version",
        "make serve",
        "bruus-turnier backup --evening 1",
        "bruus-turnier backup --evening 2",
        "make",
    ]
    assert synopsis_to_argv(" serve [--server auto\\|gunicorn\\|waitress] [--workers N]") == [
        "serve",
        "--server",
        "auto",
        "--workers",
        "2",
    ]
    assert synopsis_to_argv(" manage ARGS…") == ["manage"]


def _parse(argv: list[str]) -> object:
    """The namespace the real parser makes of ``argv``; a refusal fails the test with its line."""
    try:
        return cli.build_parser().parse_args(argv)
    except SystemExit as done:
        if done.code == 0:  # --help, --version
            return None
        raise AssertionError("refused by the parser") from None


@pytest.mark.parametrize(("where", "line"), PROGRAM, ids=[line for _, line in PROGRAM])
def test_every_documented_command_is_understood(where, line, capsys):
    argv = synopsis_to_argv(line.removeprefix("bruus-turnier"))
    try:
        parsed = _parse(argv)
    except AssertionError:
        pytest.fail(f"{where}: `{line}` is refused: {capsys.readouterr().err.strip()}")
    if parsed is not None and getattr(parsed, "command", None) == "manage" and parsed.rest:
        from django.core.management import CommandError, get_commands, load_command_class

        name, *rest = parsed.rest
        if name == "help":
            return
        assert name in get_commands(), f"{where}: `{line}`: no management command {name!r}"
        command = load_command_class(get_commands()[name], name)
        try:
            command.create_parser("bruus-turnier manage", name).parse_args(rest)
        except CommandError as error:
            pytest.fail(f"{where}: `{line}`: {error}")


@pytest.fixture
def data_folder(tmp_path, monkeypatch, settings) -> Path:
    """A temporary data folder, in the environment and in the settings."""
    environ = {k: v for k, v in os.environ.items() if k not in envfile.KNOWN}
    environ["DATA_DIR"] = str(tmp_path)
    monkeypatch.setattr(os, "environ", environ)
    monkeypatch.setattr(envfile, "_loaded", {})
    settings.DATA_DIR = tmp_path
    return tmp_path


#: The commands that are run, not only parsed (the others start servers or ask for passwords).
RUN = ("backup", "restore", "import-players", "settings", "--version", "--help")


@pytest.mark.django_db
def test_the_safe_documented_commands_run(data_folder, capsys, monkeypatch):
    """Each documented backup, restore, import-players, settings, --version and --help line, run as
    written, with its files made to exist in the temporary folder (a backup's output there)."""
    from django.db import connections

    from scoring import services
    from scoring.setup.builders import evening_with_players
    from tests.conftest import ROSTER

    monkeypatch.setattr(connections, "close_all", lambda: None)
    evening = evening_with_players(8)
    services.create_evening(name="Zweiter Abend", date="2026-11-22", venue="")
    made = data_folder / "made.json"
    assert cli.main(["backup", "--output", str(made)]) == 0
    ran = []
    for where, line in PROGRAM:
        argv = synopsis_to_argv(line.removeprefix("bruus-turnier"))
        if not argv or argv[0] not in RUN:
            continue
        argv = [str(evening.pk) if word == "1" else word for word in argv]
        for index, word in enumerate(argv):
            if index and argv[index - 1] == "--output":
                argv[index] = str(data_folder / Path(word.replace("\\", "/")).name)
        if argv[0] == "restore":  # the documented file is the backup made above
            argv = ["restore", str(made), *[w for w in argv[2:] if w.startswith("-") or w in ("de", "en", "da", "sv")]]
        if argv[0] == "import-players":  # the documented list is the club roster of the demo
            argv = [str(ROSTER) if w == "FILE" or w.endswith((".xlsx", ".csv")) else w for w in argv]
        if argv[0] == "restore":
            argv.append("--allow-duplicates")  # the backup's evenings are in the test database
        status = cli.main(argv)
        captured = capsys.readouterr()
        assert status == 0, f"{where}: `{line}` ran as {argv}: exit {status}\n{captured.err}"
        ran.append(argv[0])
    assert {"backup", "restore", "import-players", "--version"} <= set(ran)


#: The results site's actions in the order they can run (a club before its key, an association
#: before its season); ``hub`` alone starts a server and is only parsed.
HUB_ORDER = ("club add", "club key", "club imprint", "club list", "association add", "association season")


@pytest.mark.django_db
def test_the_documented_hub_commands_run(data_folder, capsys, monkeypatch):
    """Each documented ``hub club …`` and ``hub association …`` line, run as written on the test
    database: the club is NAME (CLUB in an association), the association NAME."""
    from django.db import connections

    monkeypatch.setattr(connections, "close_all", lambda: None)
    lines = []
    for where, line in PROGRAM:
        argv = synopsis_to_argv(line.removeprefix("bruus-turnier"))
        if argv[:1] == ["hub"] and " ".join(argv[1:3]) in HUB_ORDER:
            lines.append((HUB_ORDER.index(" ".join(argv[1:3])), where, line, argv))
    ran = []
    for _, where, line, argv in sorted(lines):
        if argv[1] == "association":
            dates = {"FROM": "2026-09-01", "TO": "2027-04-30"}
            argv = [*argv[:4], *("NAME" if word == "CLUB" else dates.get(word, word) for word in argv[4:])]
        status = cli.main(argv)
        captured = capsys.readouterr()
        assert status == 0, f"{where}: `{line}` ran as {argv}: exit {status}\n{captured.err}"
        ran.append(" ".join(argv[1:3]))
    assert set(ran) == set(HUB_ORDER)


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.parametrize(("where", "line"), MAKE, ids=[line for _, line in MAKE])
def test_every_documented_make_line_is_a_target(where, line):
    words = shlex.split(line)[1:]
    result = subprocess.run(["make", "-n", *words], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"{where}: `{line}`: {result.stderr.strip()}"


def test_every_document_is_listed_in_the_docs_index():
    index = ROOT / "docs" / "README.md"
    listed = {target.split("#")[0] for target in LINK.findall(index.read_text(encoding="utf-8"))}
    missing = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if p.name != "README.md" and p.name not in listed]
    assert not missing, f"docs/README.md does not list: {missing}"
    assert "docs/README.md" in LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
