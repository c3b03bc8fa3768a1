"""``make organiser`` / ``manage.py organiser``: create an organiser login or give it a new
password, interactively (the password is typed twice and never shown).

Django's password validators apply and the demo password is refused. The login becomes active
and gets the role Turnierleitung (``--helper``: Helfer). Its failed-login lock (django-axes) is
lifted. Nothing is saved when anything is refused.
"""

from __future__ import annotations

import getpass

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scoring.hall.roles import HELPER, LEADER
from scoring.services import accounts

#: Said when the input ends (Ctrl+D, Ctrl+Z on Windows, an empty standard input) before a question is answered.
NO_INPUT = (
    "Keine Eingabe (Strg+D oder leere Eingabe): nichts geändert. / "
    "No input (Ctrl+D or an empty standard input): nothing changed."
)


def _ask(prompt: str, secret: bool = False) -> str:
    """One answer typed in (``secret``: not shown); CommandError :data:`NO_INPUT` when the input ends."""
    try:
        return getpass.getpass(prompt) if secret else input(prompt)
    except EOFError:
        print()  # the prompt's line ends here, not in the message
        raise CommandError(NO_INPUT) from None


class Command(BaseCommand):
    help = "Create an organiser login or reset its password (interactive)."

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", help="user name (asked when left out)")
        parser.add_argument("--helper", action="store_true", help="role Helfer instead of Turnierleitung")

    def handle(self, *args, username=None, helper=False, **options):
        self.stdout.write(
            "Anmeldung für die Turnierleitung anlegen oder Passwort neu setzen.\n"
            "Create an organiser login or set a new password."
        )
        if not username:
            username = _ask("Benutzername / user name [turnierleitung]: ").strip() or "turnierleitung"
        for _attempt in range(3):
            password = _ask("Neues Passwort / new password: ", secret=True)
            again = _ask("Noch einmal / again: ", secret=True)
            if password != again:
                self.stderr.write("Die Passwörter sind verschieden. / The passwords differ.")
                continue
            try:
                user, created = accounts.save_login(
                    username=username, password=password, role=HELPER if helper else LEADER
                )
            except ValidationError as error:
                self.stderr.write("\n".join(error.messages))
                continue
            except accounts.LoginError as error:
                raise CommandError(str(error)) from None
            break
        else:
            raise CommandError("Nichts geändert. / Nothing changed.")
        try:
            from axes.utils import reset

            reset(username=user.get_username())
        except ImportError:  # pragma: no cover (axes is a requirement)
            pass
        done = "angelegt / created" if created else "neues Passwort / new password set"
        role = HELPER if helper else LEADER
        self.stdout.write(self.style.SUCCESS(f"{user.get_username()} ({role}): {done}."))
