"""``bruus-turnier hub``: the results site on this machine (Django's development server, its own
data folder ``<data>/hub`` unless ``BRUUS_ROLE=hub`` is set) and ``hub club …`` / ``hub association
…``: its clubs, upload keys and associations (docs/results-online.md). Called by
:mod:`bruus_tournament.cli`, whose start-up steps (Django, translations, migrations) it shares.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from bruus_tournament.start_checks import StartError, check_port_free, listen_address, port_number, url_host

#: Where ``hub`` keeps the results site inside the data folder (unless ``BRUUS_ROLE=hub`` is set).
HUB_FOLDER = "hub"


def _hub_environment() -> None:
    """The results site's role and data folder (see the module), set before Django reads them."""
    from bruus_tournament import envfile

    envfile.read_env_file()
    if os.environ.get("BRUUS_ROLE", "").strip().lower() != "hub":
        folder = envfile.data_dir() / HUB_FOLDER
        os.environ["DATA_DIR"] = str(folder)
        os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / 'bruus.sqlite3'}")
    os.environ["BRUUS_ROLE"] = "hub"


def command_hub(args: argparse.Namespace) -> int:
    """``hub``: the results site on this machine (development server), or ``hub club …`` and
    ``hub association …``: its clubs, keys and associations (one line each on standard output)."""
    from django.utils.autoreload import DJANGO_AUTORELOAD_ENV

    reloading = os.environ.get(DJANGO_AUTORELOAD_ENV) == "true"
    serving = not args.hub_action
    if serving:
        os.environ["DEBUG"] = "true"
        address = listen_address(args.address or os.environ.get("LISTEN_ADDRESS") or "127.0.0.1")
        port = port_number(args.port or 8001)
        if not reloading:
            check_port_free(address, port)
    if not reloading:
        _hub_environment()
    from bruus_tournament import cli

    cli.setup_django()
    if not reloading:
        cli.compile_translations_in_checkout()
        cli.migrate()
    if not serving:
        return _hub_admin(args)
    from django.conf import settings
    from django.core.management import call_command

    if not reloading:
        base = f"http://{url_host(address)}:{port}"
        lines = ["=" * 72, "Bruus Turnier: Ergebnisseite / results site (hub)", f"  Startseite / home:  {base}/"]
        lines += [
            f"  Schnittstelle / API: {base}/api/v1/snapshots/",
            '  Neuer Verein / new club: bruus-turnier hub club add "NAME"',
            f"  Daten / data: {settings.DATA_DIR}",
            "  Stoppen / stop: Strg+C / Ctrl+C",
            "=" * 72,
        ]
        print("\n".join(lines), flush=True)
    call_command(
        "runserver",
        f"{url_host(address)}:{port}",
        use_ipv6=":" in address,
        use_reloader=not settings.INSTALLED_FROM_WHEEL and not args.noreload,
    )
    return 0


def _association_slug(season: Any) -> str:
    return season.association.slug if season.association else ""


def _hub_admin(args: argparse.Namespace) -> int:
    """``hub club …`` and ``hub association …``."""
    from scoring.hub import services
    from scoring.hub.models import Club

    try:
        if args.hub_action == "club" and args.club_action == "list":
            for club in Club.objects.select_related("association").order_by("name"):
                group = f" · {club.association.name}" if club.association else ""
                print(f"{club.name} · /verein/{club.slug}/{group}")
        elif args.hub_action == "club" and args.club_action in ("add", "key"):
            made = services.create_club if args.club_action == "add" else services.renew_club_key
            club, key = made(args.name)
            print(f"{club.name} · /verein/{club.slug}/ · Schlüssel / key: {key}")
        elif args.hub_action == "club" and args.club_action == "delete":
            return _delete_club(args.name, args.yes)
        elif args.hub_action == "club":  # imprint
            club = services.set_club_imprint(args.name, args.text)
            print(f"{club.name} · Impressum / imprint: {len(club.imprint)} Zeichen / characters")
        elif args.association_action == "add":
            association = services.create_association(args.name, args.clubs)
            print(f"{association.name} · /verband/{association.slug}/ · {len(args.clubs)} Vereine / clubs")
        else:  # season
            season = services.add_association_season(args.name, args.season, args.starts, args.ends)
            print(f"{season.name} · /verband/{_association_slug(season)}/saison/{season.pk}/")
    except services.HubError as error:
        raise StartError(str(error)) from None
    return 0


def _delete_club(name: str, confirmed: bool) -> int:
    """``hub club delete NAME [--yes]``: without ``--yes`` it says what would go and deletes nothing."""
    from scoring.hub import services

    if not confirmed:
        evenings, players = services.club_holdings(name)
        raise StartError(
            f"{name}: {evenings} Abende / evenings, {players} Spieler / players würden gelöscht / would be"
            f" deleted. Nochmals mit --yes / again with --yes: bruus-turnier hub club delete {name!r} --yes"
        )
    evenings, players = services.delete_club(name)
    print(f"{name} gelöscht / deleted: {evenings} Abende / evenings, {players} Spieler / players")
    return 0


def add_hub_parser(commands: Any, handler: Any) -> None:
    """``hub`` and its actions (docs/results-online.md)."""
    hub = commands.add_parser(
        "hub", help="the results site (hub) on this machine: http://127.0.0.1:8001; hub club …, hub association …"
    )
    hub.add_argument("--address", help="address to listen on (LISTEN_ADDRESS; default 127.0.0.1)")
    hub.add_argument("--port", help="port (default 8001)")
    hub.add_argument("--noreload", action="store_true", help="do not restart when the code changes")
    hub.set_defaults(handler=handler)
    actions = hub.add_subparsers(dest="hub_action", metavar="ACTION")
    club = actions.add_parser("club", help="the clubs: add, key, imprint, list, delete")
    club_actions = club.add_subparsers(dest="club_action", metavar="ACTION", required=True)
    add = club_actions.add_parser("add", help="a new club; prints its upload key (shown once)")
    add.add_argument("name", metavar="NAME")
    key = club_actions.add_parser("key", help="a new upload key for the club (the old one stops working)")
    key.add_argument("name", metavar="NAME")
    imprint = club_actions.add_parser("imprint", help="the club's imprint/contact text on its pages")
    imprint.add_argument("name", metavar="NAME")
    imprint.add_argument("text", metavar="TEXT")
    club_actions.add_parser("list", help="the clubs and their addresses")
    delete = club_actions.add_parser("delete", help="take a club off the hub: its key, evenings, players, seasons")
    delete.add_argument("name", metavar="NAME")
    delete.add_argument("--yes", action="store_true", help="really delete (without it: what would be deleted)")
    association = actions.add_parser("association", help="associations of clubs: add, season")
    association_actions = association.add_subparsers(dest="association_action", metavar="ACTION", required=True)
    group = association_actions.add_parser("add", help="an association of the clubs named (or clubs added to it)")
    group.add_argument("name", metavar="NAME")
    group.add_argument("clubs", metavar="CLUB", nargs="+")
    season = association_actions.add_parser("season", help="a season of the association: its name and dates")
    season.add_argument("name", metavar="NAME")
    season.add_argument("season", metavar="SEASON")
    season.add_argument("starts", metavar="FROM", help="first day, YYYY-MM-DD")
    season.add_argument("ends", metavar="TO", help="last day, YYYY-MM-DD")
