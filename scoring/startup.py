"""The start refusal of a served app (DEBUG off, ``make serve``, gunicorn): a real club database
is never the demo.

The app does not start while any active login still has the demo password (``bruus-demo``, see
``scoring.demo``) or while no active organiser login (Turnierleitung or superuser) exists. The
message is German and English and says what to do (``bruus-turnier organiser`` or
``make organiser``). ``make run`` (DEBUG on) is not affected.

Called by ``bruus_tournament/wsgi.py`` (every gunicorn worker, and ``runserver``) when DEBUG is
off, and by ``manage.py startcheck`` (``scripts/serve.sh`` runs it before gunicorn, so the
message is shown once and clearly).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import check_password
from django.core.exceptions import ImproperlyConfigured
from django.db.models import Q

from scoring.demo import DEMO_PASSWORD
from scoring.roles import LEADER


def start_problems() -> list[str]:
    """Why the app must not be served, each reason in German and English; [] when it may."""
    users = get_user_model().objects.filter(is_active=True)
    problems = []
    for user in users.only("username", "password"):
        if check_password(DEMO_PASSWORD, user.password):
            problems.append(
                f"Das Konto „{user.username}“ hat noch das Demo-Passwort. Neues Passwort setzen: "
                f"bruus-turnier organiser oder make organiser (Benutzername {user.username}).\n"
                f'  The login "{user.username}" still has the demo password. Set a new one: '
                f"bruus-turnier organiser or make organiser (user name {user.username})."
            )
    if not users.filter(Q(is_superuser=True) | Q(groups__name=LEADER)).exists():
        problems.append(
            "Es gibt noch kein Konto der Turnierleitung. Anlegen: bruus-turnier organiser oder make organiser.\n"
            "  There is no organiser (Turnierleitung) login yet. Create one: bruus-turnier organiser or make organiser."
        )
    return problems


def refusal_text(problems: list[str]) -> str:
    """The whole message for the terminal."""
    head = "Bruus Turnier startet nicht für das Hallennetz / will not start for the hall's network:"
    return "\n".join([head, *(f"- {problem}" for problem in problems)])


def refuse_unsafe_start() -> None:
    """Raise ImproperlyConfigured with :func:`refusal_text` when there is any problem."""
    problems = start_problems()
    if problems:
        raise ImproperlyConfigured(refusal_text(problems))
