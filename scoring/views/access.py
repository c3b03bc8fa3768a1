"""Who may open which organiser page (roles in ``scoring.hall.roles``).

Every organiser view carries exactly one of these decorators:

- :func:`helper_required`: Helfer and Turnierleitung (check-in, players, deals on a team's
  behalf, unlocking a tablet stopped after wrong table codes, reading, printing);
- :func:`leader_required`: Turnierleitung only (draw, changes to a drawn session, locks,
  corrections of confirmed rounds, table links and codes);
- :func:`logins_required`: Turnierleitung only, the page of the logins.

Not logged in: the login page (then back). Logged in without the permission: the friendly 403
page, which names the role needed. The decorator stores the permission on the view
(``required_permission``), so a test can check every organiser URL.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from scoring.hall.roles import ASSIST_PERM, MANAGE_LOGINS_PERM, RUN_PERM


def _requires(permission: str):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not request.user.has_perm(permission):
                raise PermissionDenied(permission)
            return view(request, *args, **kwargs)

        wrapped.required_permission = permission  # type: ignore[attr-defined]  # mypy types no function attributes
        return wrapped

    return decorator


helper_required = _requires(ASSIST_PERM)
leader_required = _requires(RUN_PERM)
logins_required = _requires(MANAGE_LOGINS_PERM)
