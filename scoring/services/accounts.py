"""Organiser logins: the writes behind the page "Anmeldungen" and ``make organiser``.

One transaction each. Every password goes through Django's password validators
(``AUTH_PASSWORD_VALIDATORS``) and may never be the demo password. The last active
Turnierleitung login can be neither demoted nor deactivated, and nobody deactivates their own
login: the club never locks itself out.

A login has the rights of its role and no more: giving a login a role (here, on the page or with
``make organiser``) takes away Django's superuser and staff flags. (Django grants an active
superuser every permission before any group is asked, so a superuser "made Helfer" would keep
every right; and the demo login of earlier versions was a superuser.) A superuser made outside the
app (``manage.py createsuperuser``, for ``/admin/`` with ``ADMIN_ENABLED``) counts as
Turnierleitung until it is given a role here.

Errors: :class:`LoginError` (a DomainError with a translatable message) for refused changes;
``django.core.exceptions.ValidationError`` (the validators' messages) for a weak password.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext

from scoring.domain.errors import DomainError, gettext_noop
from scoring.hall.roles import LEADER, ROLE_CHOICES, ensure_groups, role_of
from scoring.setup.demo import DEMO_PASSWORD
from scoring.validators import validate_no_bidi_controls


class LoginError(DomainError):
    """A change to the logins that is refused (last Turnierleitung, own login, unknown role)."""


def check_new_password(password: str, user) -> None:
    """Raise ValidationError unless ``password`` passes the validators and is not the demo one."""
    if password == DEMO_PASSWORD:
        raise ValidationError(gettext("This is the demo password. Choose a password of your own."))
    validate_password(password, user)


def _set_role(user, role: str) -> None:
    """Give the login exactly ``role``: its group, and neither superuser nor staff."""
    if role not in ROLE_CHOICES:
        raise LoginError(gettext_noop("Unknown role."), code="role")
    ensure_groups()
    if user.is_superuser or user.is_staff:
        user.is_superuser = user.is_staff = False
        user.save(update_fields=["is_superuser", "is_staff"])
    user.groups.remove(*Group.objects.filter(name__in=ROLE_CHOICES))
    user.groups.add(Group.objects.get(name=role))


def _other_leaders(user) -> bool:
    """Whether an active Turnierleitung login other than ``user`` exists."""
    return (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(Q(is_superuser=True) | Q(groups__name=LEADER))
        .exclude(pk=user.pk)
        .exists()
    )


def _keep_a_leader(user, role: str) -> None:
    """Refuse to turn the last active Turnierleitung login (a superuser too) into a Helfer."""
    if role != LEADER and role_of(user) == LEADER and not _other_leaders(user):
        raise LoginError(gettext_noop("This is the last Turnierleitung login: it keeps its role."), code="last")


@transaction.atomic
def save_login(*, username: str, password: str, role: str, user=None):
    """Create the login ``username`` (or, if it exists, reset its password and role) and make it
    active. Returns ``(user, created)``. Raises ValidationError (weak or demo password, bad user
    name) or LoginError; nothing is saved then."""
    user_model = get_user_model()
    username = username.strip()
    existing = user_model.objects.select_for_update().filter(username=username).first()
    target = existing or user_model(username=username)
    if existing is None:
        try:  # the clear message for a zero-width space, before Django's "letters, digits ..."
            validate_no_bidi_controls(username)
        except ValidationError as error:
            raise ValidationError({"username": error.error_list}) from None
        target.full_clean(exclude=["password"])
    check_new_password(password, target)
    if existing is not None:
        _keep_a_leader(existing, role)
    target.set_password(password)
    target.is_active = True
    target.save()
    _set_role(target, role)
    return target, existing is None


@transaction.atomic
def reset_password(*, user_id: int, password: str) -> None:
    """Give the login a new password (validators apply). Raises ValidationError, DoesNotExist."""
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    check_new_password(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])


@transaction.atomic
def change_role(*, user_id: int, role: str) -> None:
    """Make the login Turnierleitung or Helfer (and no superuser). Raises LoginError for the last
    Turnierleitung."""
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    _keep_a_leader(user, role)
    _set_role(user, role)


@transaction.atomic
def set_active(*, user_id: int, active: bool, by) -> None:
    """Deactivate (no more login) or reactivate a login. Nobody deactivates their own login, and
    the last active Turnierleitung stays active. Raises LoginError."""
    user = get_user_model().objects.select_for_update().get(pk=user_id)
    if not active:
        if user.pk == by.pk:
            raise LoginError(gettext_noop("You cannot deactivate your own login."), code="self")
        if role_of(user) == LEADER and not _other_leaders(user):
            raise LoginError(gettext_noop("This is the last Turnierleitung login: it stays active."), code="last")
    user.is_active = active
    user.save(update_fields=["is_active"])
