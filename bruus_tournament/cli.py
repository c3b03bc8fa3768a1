"""``bruus-turnier``: the command line of Bruus Turnier (also ``python -m bruus_tournament``; the
Makefile's ``run``, ``serve`` and ``organiser`` call the same code).

Commands (``bruus-turnier --help``; ``bruus-turnier COMMAND --help`` for the options of each, which
may come in any order):

- ``run``: the demo evening in a data folder of its own (``<data folder>/demo``, SQLite; the club's
  database is never touched): checks the address and port first, then migrates, loads the demo
  once, serves on 127.0.0.1:8000 with Django's development server (DEBUG on) and prints where to
  click, how to log in and the demo's folder.
- ``serve``: the hall's network: DEBUG off; refuses a database with the demo password or without
  an organiser login; collects the static files hashed and compressed; prints the address for the
  tablets; serves with gunicorn (where it runs) or waitress (pure Python: Windows, or on request).
- ``hub``: the results site (docs/results-online.md) on this machine, as ``run`` (development
  server, DEBUG on, 127.0.0.1:8001), in the data folder's ``hub`` folder unless ``BRUUS_ROLE=hub``
  is set (a results site's own machine: its data folder as it is); ``hub club add|key|imprint|list``
  and ``hub association add|season`` manage its clubs, keys and associations.
- ``organiser``, ``backup``, ``restore``, ``import-players``: the management commands of the same
  names with their options; ``settings`` (``set KEY VALUE``, ``unset KEY``): the settings and
  where each comes from (bruus_tournament/envfile.py); ``manage NAME ARGS…``: any management command.

Every command that uses the database brings it up to date first (``migrate``, quietly) and refuses
a database that a newer version migrated (scoring/setup/schema_version.py). Settings come from the
environment, the data folder's ``settings.env`` and the checkout's ``.env``
(``bruus_tournament.settings``); ``LISTEN_ADDRESS``, ``PORT``, ``SERVER``, ``WORKERS`` and
``THREADS`` are read here. Whatever a person can get wrong (an option, a setting, a data folder
that cannot be written, a port in use, a database that cannot be opened or is too new, what a
management command refuses, the input ended by Ctrl+D) ends with one line ``bruus-turnier: …`` on
standard error and exit status 2, never a traceback or a usage text (``serve`` first waits for a
port in use, saying so in one line); a refused ``serve`` (demo password, a data folder or database
that fails the start checks) with its explanation and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bruus_tournament.hub_cli import add_hub_parser, command_hub
from bruus_tournament.start_checks import (
    PORT_WAIT_SECONDS,
    StartError,
    check_port_free,
    hall_addresses,
    listen_address,
    port_number,
    switch_interval,
    url_host,
    worker_count,
)

#: Exit status of a start that could not happen (a setting, the data folder, the port, the database).
EXIT_START_ERROR = 2
SERVERS = ("auto", "gunicorn", "waitress")


def _version() -> str:
    from bruus_tournament import __version__

    return __version__


def setup_django() -> None:
    """Settings read and Django set up; a wrong setting or data folder raises :class:`StartError`."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except ImproperlyConfigured as error:
        raise StartError(f"Configuration error: {error}") from None


def _database_error(error: Exception) -> StartError:
    from django.conf import settings

    database = settings.DATABASES["default"]
    where = database["NAME"] if "sqlite" in database["ENGINE"] else f"{database.get('HOST') or 'localhost'}"
    return StartError(f"The database ({where}) cannot be used: {str(error).strip().splitlines()[0]}")


def compile_translations_in_checkout() -> None:
    """In a checkout, compile the ``.po`` files whose ``.mo`` is missing or older (a wheel carries
    them compiled)."""
    from django.conf import settings

    if not settings.INSTALLED_FROM_WHEEL:
        from bruus_tournament.translations import compile_stale

        try:
            compile_stale(settings.RESOURCE_DIR / "locale")
        except OSError as error:
            raise StartError(f"The translations cannot be compiled: {error}") from None


def migrate() -> None:
    """Bring the database up to date, quietly; a database made by a newer version of the program
    (applied migrations this one does not know) is refused in one line naming that version
    (:mod:`scoring.setup.schema_version`), before anything is written."""
    from django.core.management import call_command
    from django.db import DatabaseError

    from scoring.setup.schema_version import newer_database_problem

    try:
        problem = newer_database_problem(_version())
        if problem:
            raise StartError(problem)
        call_command("migrate", interactive=False, verbosity=0)
    except DatabaseError as error:
        raise _database_error(error) from None


#: The demo's data folder, inside the club's data folder: ``run`` never touches the club's database.
DEMO_FOLDER = "demo"


def demo_data_dir() -> Path:
    """Where ``run`` keeps the demo: ``<data folder>/demo`` (``var/demo`` in a checkout)."""
    from bruus_tournament import envfile

    return envfile.data_dir() / DEMO_FOLDER


def command_run(args: argparse.Namespace) -> int:
    """``run``: the demo evening on this machine (development server, DEBUG on), in a data folder
    of its own (:func:`demo_data_dir`, SQLite), never the club's."""
    from django.utils.autoreload import DJANGO_AUTORELOAD_ENV

    os.environ["DEBUG"] = "true"
    address = listen_address(args.address or os.environ.get("LISTEN_ADDRESS") or "127.0.0.1")
    port = port_number(args.port or os.environ.get("PORT") or 8000)
    reloading = os.environ.get(DJANGO_AUTORELOAD_ENV) == "true"
    if not reloading:  # the reloader's child: the parent did all this already (and set DATA_DIR)
        check_port_free(address, port)  # before anything is written
        demo = demo_data_dir()
        os.environ["DATA_DIR"] = str(demo)
        os.environ["DATABASE_URL"] = f"sqlite:///{demo / 'bruus.sqlite3'}"
    setup_django()
    from django.conf import settings
    from django.core.management import call_command

    if not reloading:
        compile_translations_in_checkout()
        migrate()
        try:
            call_command("load_demo")
        except OSError as error:
            raise StartError(f"The demo roster cannot be read: {error}") from None
        call_command("demo_info", host=url_host(address), port=str(port))
    call_command(
        "runserver",
        f"{url_host(address)}:{port}",
        use_ipv6=":" in address,
        use_reloader=not settings.INSTALLED_FROM_WHEEL and not args.noreload,
    )
    return 0


def _hall_environment(address: str, port: int) -> list[str]:
    """Set ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS and PUBLIC_BASE_URL for the hall (unless set in the
    environment or ``.env``); returns the addresses the tablets can use."""
    from bruus_tournament.envfile import read_env_file

    read_env_file()
    if address in ("0.0.0.0", "::"):
        addresses = hall_addresses()
    elif address.startswith("127.") or address == "::1":
        addresses = []
    else:
        addresses = [address]
    hosts = ["localhost", "127.0.0.1", *addresses]
    origins = [f"http://localhost:{port}", f"http://127.0.0.1:{port}"] + [f"http://{a}:{port}" for a in addresses]
    public = os.environ.get("PUBLIC_BASE_URL", "").strip()
    if not public and addresses:
        public = f"http://{addresses[0]}:{port}"
    if public:
        os.environ["PUBLIC_BASE_URL"] = public
        from urllib.parse import urlsplit

        public_host = urlsplit(public).hostname or ""
        if public_host and public_host not in hosts:
            hosts.append(public_host)
        origins.append(public.rstrip("/"))
    os.environ.setdefault("ALLOWED_HOSTS", ",".join(hosts))
    os.environ.setdefault("CSRF_TRUSTED_ORIGINS", ",".join(origins))
    return addresses


def _server_name(name: str) -> str:
    if name.strip().lower() not in SERVERS:
        raise StartError(f"SERVER must be one of {', '.join(SERVERS)}, not {name!r}.")
    return name.strip().lower()


def _choose_server(name: str) -> str:
    _server_name(name)
    if name == "auto":
        return "waitress" if os.name == "nt" else "gunicorn"
    if name == "gunicorn" and os.name == "nt":
        raise StartError("gunicorn does not run on Windows; use SERVER=waitress (or auto).")
    return name


def command_serve(args: argparse.Namespace) -> int:
    """``serve``: the hall's network (DEBUG off, gunicorn or waitress)."""
    from bruus_tournament import envfile, servers

    os.environ["DEBUG"] = "false"
    address = listen_address(args.address or os.environ.get("LISTEN_ADDRESS") or "0.0.0.0")
    port = port_number(args.port or os.environ.get("PORT") or 8000)
    server = _choose_server((args.server or os.environ.get("SERVER") or "auto").strip().lower())
    workers = worker_count("WORKERS", args.workers or os.environ.get("WORKERS") or 4)
    threads = worker_count("THREADS", args.threads or os.environ.get("THREADS") or (4 if server == "gunicorn" else 8))
    addresses = _hall_environment(address, port)
    setup_django()
    from django.conf import settings
    from django.core.management import CommandError, call_command

    compile_translations_in_checkout()
    migrate()
    try:  # a real club database is never the demo
        call_command("startcheck", verbosity=0)
    except CommandError as error:
        sys.stderr.write(f"{error}\n")
        return 1
    servers.collect_static()
    check_port_free(address, port, wait=PORT_WAIT_SECONDS)
    lines = ["=" * 72, "Bruus Turnier für das Hallennetz / for the hall's network:"]
    for hall in addresses or [address if address not in ("0.0.0.0", "::") else "127.0.0.1"]:
        lines.append(f"  Tablets:            http://{url_host(hall)}:{port}/tablet/")
    hub = settings.BRUUS_ROLE == "hub"
    if hub:  # the results site (docs/results-online.md)
        lines = ["=" * 72, "Bruus Turnier: Ergebnisseite / results site (hub)"]
        lines += [f"  http://{url_host(hall)}:{port}/" for hall in addresses or [address]]
    public = settings.PUBLIC_BASE_URL or "Adresse des Browsers / address of the browser"
    lines += [
        "" if hub else f"  Links und QR-Codes / links and QR codes: {public}",
        f"  Auf diesem Rechner: http://127.0.0.1:{port}/organiser/"
        if address in ("0.0.0.0", "127.0.0.1") and not hub
        else "",
        f"  Daten / data: {settings.DATA_DIR}",
        f"  (Microsoft Store Python: {really})" if (really := envfile.store_python_folder(settings.DATA_DIR)) else "",
        f"  Server: {server}, Version {_version()}",
        "  Stoppen / stop: Strg+C / Ctrl+C",
        "=" * 72,
    ]
    print("\n".join(line for line in lines if line), flush=True)
    return servers.start(server, address, port, workers=workers, threads=threads)


def _call_command(name: str, *args: object, **options: object) -> None:
    """The management command ``name``; its refusal (CommandError) becomes one :class:`StartError` line."""
    from django.core.management import CommandError, call_command

    try:
        call_command(name, *args, **options)
    except CommandError as error:
        raise StartError(str(error).strip()) from None


def _management(name: str, positional: tuple[str, ...] = ()):
    """The handler of a subcommand that is the management command ``name``: Django set up, the
    database brought up to date, then the command with the options the subcommand's parser read
    (``positional``: those passed by position)."""

    def command(args: argparse.Namespace) -> int:
        setup_django()
        compile_translations_in_checkout()
        migrate()
        options = {k: v for k, v in vars(args).items() if k not in ("command", "handler", *positional)}
        _call_command(name, *(str(getattr(args, p)) for p in positional), **options)
        return 0

    return command


#: ``manage`` commands that work on the migrations themselves: not brought up to date first.
MIGRATION_COMMANDS = {
    "migrate",
    "makemigrations",
    "showmigrations",
    "sqlmigrate",
    "squashmigrations",
    "optimizemigration",
}


def command_manage(args: argparse.Namespace) -> int:
    """``manage NAME ARGS…``: any management command, its own options parsed by its own parser;
    its errors, and a mistake in its options, one line with exit status 2."""
    setup_django()
    from django.core.management import BaseCommand, CommandError, ManagementUtility, get_commands, load_command_class
    from django.db import connections

    rest = list(args.rest)
    if not rest or rest[0] in ("help", "-h", "--help"):
        ManagementUtility(["bruus-turnier manage", "help", *rest[1:2]]).execute()
        return 0
    name, argv = rest[0], rest[1:]
    found = get_commands().get(name)
    if found is None:
        raise StartError(f"unknown command {name!r} (bruus-turnier manage help lists them)")
    command = found if isinstance(found, BaseCommand) else load_command_class(found, name)
    parser = command.create_parser("bruus-turnier manage", name)  # refuses with CommandError, not exit
    try:
        options = vars(parser.parse_args(argv))
    except CommandError as error:
        raise StartError(f"{str(error).removeprefix('Error: ')} (see: bruus-turnier manage {name} --help)") from None
    compile_translations_in_checkout()
    if name not in MIGRATION_COMMANDS:
        migrate()
    positional = options.pop("args", ())
    try:
        command.execute(*positional, **options)
    except CommandError as error:
        raise StartError(str(error).strip()) from None
    finally:
        connections.close_all()
    return 0


def _show_value(key: str, value: str) -> str:
    if key in ("SECRET_KEY", "PUBLISH_KEY"):
        return "(gesetzt, verborgen / set, hidden)"
    if key == "DATABASE_URL" and "@" in value and ":" in value.split("@", 1)[0].split("//", 1)[-1]:
        head, tail = value.split("@", 1)
        return f"{head.rsplit(':', 1)[0]}:***@{tail}"
    return value


def _check_setting(key: str, value: str) -> None:
    """:class:`StartError` when ``value`` is not a valid ``key``: the command line's own settings by
    their rules here, the others by reading the settings with it (a copy of the environment)."""
    from bruus_tournament import envfile

    if key not in envfile.KNOWN:
        raise StartError(f"{key!r} is not a setting of Bruus Turnier; known: {', '.join(envfile.KNOWN)}.")
    if key == "DATA_DIR":
        raise StartError(
            "DATA_DIR cannot be kept inside the data folder; set it in the environment (or a checkout's .env)."
        )
    checks = {
        "PORT": port_number,
        "LISTEN_ADDRESS": listen_address,
        "WORKERS": lambda v: worker_count("WORKERS", v),
        "THREADS": lambda v: worker_count("THREADS", v),
        "SERVER": _server_name,
        "GIL_SWITCH_INTERVAL": switch_interval,
    }
    if key in checks:
        checks[key](value)
        return
    # The settings read with the value in a process of their own (nothing here is changed by it).
    code = (
        "try:\n    import bruus_tournament.settings\n"
        "except Exception as error:\n    print(error)\n    raise SystemExit(3)\n"
    )
    package_parent = str(Path(__file__).resolve().parent.parent)
    environment = {**os.environ, key: value}
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [package_parent, environment.get("PYTHONPATH")]))
    checked = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True)
    if checked.returncode == 3:
        raise StartError(f"Configuration error: {checked.stdout.strip()} Nothing was written.")


def command_settings(args: argparse.Namespace) -> int:
    """``settings``: the data folder, its settings file and every setting with where its value came
    from; ``settings set KEY VALUE`` / ``settings unset KEY``: change the data folder's file."""
    from bruus_tournament import envfile

    before = dict(os.environ)
    envfile.read_env_file()
    folder = envfile.data_dir()
    file = envfile.settings_file(folder)
    if args.action in ("set", "unset"):
        value = args.value if args.action == "set" else None
        if value is not None:
            _check_setting(args.key, value)
        elif args.key not in envfile.KNOWN:
            raise StartError(f"{args.key!r} is not a setting of Bruus Turnier; known: {', '.join(envfile.KNOWN)}.")
        try:
            envfile.write_setting(args.key, value, folder)
        except OSError as error:
            raise StartError(f"The settings file {file} cannot be written: {error.strerror or error}.") from None
        print(f"{args.key}={value} -> {file}" if value is not None else f"{args.key} entfernt / removed: {file}")
        if args.key in before:
            print(f"Hinweis / note: {args.key} is also set in the environment of this window, which wins.")
        return 0
    print(f"Datenordner / data folder:        {folder}  ({envfile.source('DATA_DIR')})")
    if really := envfile.store_python_folder(folder):
        print(f"  Microsoft Store Python: Windows keeps it in / liegt wirklich in {really}")
    print(f"Einstellungsdatei / settings file: {file}" + ("" if file.is_file() else "  (noch keine / none yet)"))
    print(f"Demo (bruus-turnier run):          {folder / DEMO_FOLDER}")
    print("Vorrang / precedence: environment > data folder file > checkout .env > default")
    for key in envfile.KNOWN[1:]:
        value = os.environ.get(key)
        shown = _show_value(key, value) if value is not None else "-"
        print(f"  {key:<21} {shown}  ({envfile.source(key)})")
    return 0


#: The commands of ``bruus-turnier``.
COMMANDS = ("run", "serve", "hub", "organiser", "backup", "restore", "import-players", "publish", "settings", "manage")


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one line for a mistake (``bruus-turnier: …``, exit status 2) instead of the
    usage text; ``--help`` of every command as usual."""

    #: The command named on the command line (``main`` sets it): a mistake the main parser finds
    #: after the command (an unknown option) points to that command's help.
    command_named = ""

    def error(self, message: str):
        prog = f"{self.prog} {self.command_named}" if self.command_named and " " not in self.prog else self.prog
        self.exit(EXIT_START_ERROR, f"bruus-turnier: {message} (see: {prog} --help)\n")


def build_parser() -> ArgumentParser:
    """The command line: one subparser per command, each with its own options (in any order)."""
    parser = ArgumentParser(
        prog="bruus-turnier",
        description="Bruus Turnier: Turniere für Bruus, Brus und Bräus / tournaments for Bruus, Brus and Bräus.",
        epilog="bruus-turnier COMMAND --help: the options of each command (in any order).",
    )
    parser.add_argument("--version", action="version", version=f"bruus-turnier {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_server_commands(commands)
    _add_data_commands(commands)
    settings = commands.add_parser(
        "settings", help="show the settings and where each comes from; settings set KEY VALUE keeps one"
    )
    actions = settings.add_subparsers(dest="action", metavar="ACTION")
    setting = actions.add_parser("set", help="keep KEY=VALUE in the data folder's settings.env")
    setting.add_argument("key", metavar="KEY")
    setting.add_argument("value", metavar="VALUE")
    unset = actions.add_parser("unset", help="remove KEY from the data folder's settings.env")
    unset.add_argument("key", metavar="KEY")
    settings.set_defaults(handler=command_settings)

    manage = commands.add_parser(
        "manage", help="any Django management command (bruus-turnier manage help lists them)", add_help=False
    )
    manage.add_argument("rest", nargs=argparse.REMAINDER)
    manage.set_defaults(handler=command_manage)
    return parser


def _add_server_commands(commands) -> None:
    """``run`` (the demo on this machine) and ``serve`` (the hall's network) with their options."""
    run = commands.add_parser(
        "run", help="demo evening on this machine: http://127.0.0.1:8000 (DEBUG on; its own data folder <data>/demo)"
    )
    run.add_argument("--address", help="address to listen on (LISTEN_ADDRESS; default 127.0.0.1)")
    run.add_argument("--port", help="port (PORT; default 8000)")
    run.add_argument("--noreload", action="store_true", help="do not restart when the code changes")
    run.set_defaults(handler=command_run)
    serve = commands.add_parser("serve", help="serve the hall's network (tablets, phones, projector)")
    serve.add_argument("--address", help="address to listen on (LISTEN_ADDRESS; default 0.0.0.0: every network)")
    serve.add_argument("--port", help="port (PORT; default 8000)")
    serve.add_argument("--server", help="auto (default), gunicorn or waitress (SERVER)")
    serve.add_argument("--workers", help="gunicorn worker processes (WORKERS; default 4)")
    serve.add_argument("--threads", help="threads per worker (THREADS; gunicorn 4, waitress 8)")
    serve.set_defaults(handler=command_serve)
    add_hub_parser(commands, command_hub)


def _add_data_commands(commands) -> None:
    """``organiser``, ``backup``, ``restore`` and ``import-players``: management commands of the
    same names, with their options."""
    language: dict[str, Any] = {
        "default": "de",
        "choices": ("de", "en", "da", "sv"),
        "help": "language of the messages (default de)",
    }

    organiser = commands.add_parser(
        "organiser", help="create an organiser login (Turnierleitung) or set its password (asks for it twice)"
    )
    organiser.add_argument("username", nargs="?", help="user name (asked when left out)")
    organiser.add_argument("--helper", action="store_true", help="role Helfer instead of Turnierleitung")
    organiser.set_defaults(handler=_management("organiser"))

    backup = commands.add_parser("backup", help="write one evening, or the whole database, into one backup file")
    backup.add_argument("--evening", type=int, metavar="ID", help="only this evening (its number); default: everything")
    backup.add_argument(
        "--output", type=Path, metavar="FILE", help="the file (.json, or .json.gz compressed); default: <data>/backups/"
    )
    backup.add_argument("--language", **language)
    backup.set_defaults(handler=_management("backup"))

    restore = commands.add_parser("restore", help="read a backup file into this database")
    restore.add_argument("file", type=Path, metavar="FILE", help="the backup file (.json or .json.gz)")
    restore.add_argument(
        "--allow-duplicates", action="store_true", help="restore an evening even if one with its name and date exists"
    )
    restore.add_argument("--language", **language)
    restore.set_defaults(handler=_management("restore", positional=("file",)))

    players = commands.add_parser("import-players", help="import players from an Excel (.xlsx) or CSV file")
    players.add_argument("file", type=Path, metavar="FILE", help="the player list (.xlsx or .csv)")
    players.add_argument("--evening", type=int, metavar="ID", help="also check them in for this evening (its number)")
    players.add_argument("--dry-run", action="store_true", help="only show what would be imported; change nothing")
    players.add_argument("--language", **language)
    players.set_defaults(handler=_management("import_players", positional=("file",)))

    publish = commands.add_parser(
        "publish", help="send the waiting evenings to the results site (PUBLISH_URL), then keep watching"
    )
    publish.add_argument("--once", action="store_true", help="send what waits now, then stop")
    publish.set_defaults(handler=_management("publish"))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command in ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = build_parser()
    given = list(sys.argv[1:] if argv is None else argv)
    parser.command_named = next((word for word in given if not word.startswith("-")), "")
    if parser.command_named not in COMMANDS:
        parser.command_named = ""
    try:
        args = parser.parse_args(given)
    except SystemExit as done:  # --help, --version (0) or a mistake in the options (2, one line)
        return done.code if isinstance(done.code, int) else EXIT_START_ERROR
    if not getattr(args, "handler", None):
        parser.print_help()
        return 0
    try:
        return args.handler(args)
    except StartError as error:
        sys.stderr.write(f"bruus-turnier: {error}\n")
        return EXIT_START_ERROR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
