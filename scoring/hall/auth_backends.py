"""The login backend: Django's ``ModelBackend`` with the login read from a copy in files and
the permissions read in one query.

Every organiser page checks a permission (``scoring.views.access``), and the polls of the live
overview put the login's permissions into their ETag (``scoring.web.screen_cache``). Django's
``ModelBackend`` reads the login (one query) and its permissions (two more: its own and its
groups') on every request. This backend reads the permissions in one query and keeps the login
with its permissions in the short-lived file cache of the sessions (``scoring.web.caches``, at most
:data:`scoring.web.caches.MAX_AGE_SECONDS`), so a poll that finds nothing changed (304) costs one
query: the evening's version.

Every change of a login, of its roles or of a role's permissions deletes the copies of the
logins concerned (:func:`forget_logins`, connected to the model signals in
``scoring.apps``), at once and again when the transaction commits: on this machine a new
password, a deactivated login or a changed role counts with the next request. A second
machine behind the same database has its own copies; there it counts within
:data:`scoring.web.caches.MAX_AGE_SECONDS`, as a logout does.

Answers are the same as Django's: a set of ``"app_label.codename"`` strings, empty for an
inactive or anonymous login, every permission for a superuser.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group, Permission
from django.core.cache import caches
from django.db import transaction
from django.db.models import Q


def _copies():
    return caches[settings.SESSION_CACHE_ALIAS]


def login_key(user_id) -> str:
    """The cache key of a login's copy (``user_id``: its primary key)."""
    return f"organiser-login:{user_id}"


class OrganiserBackend(ModelBackend):
    """``ModelBackend`` whose :meth:`get_user` reads a copy of the login and its permissions
    (no query while the copy lives) and whose :meth:`get_all_permissions` takes one query
    (cached on the user object, as Django does)."""

    def get_user(self, user_id):
        """The active login with primary key ``user_id``, its permissions already read, or
        ``None`` (no such login, or inactive). No query while its copy lives; two to make it."""
        copies = _copies()
        key = login_key(user_id)
        user = copies.get(key)
        if user is None:
            user = super().get_user(user_id)
            if user is None:
                return None
            self.get_all_permissions(user)
            copies.set(key, user)
        return user

    def get_all_permissions(self, user_obj, obj=None) -> set[str]:
        """The login's permissions, own and through its groups: ``{"scoring.run_evening", ...}``.

        Empty for an inactive or anonymous login and for object permissions (``obj``), as in
        Django. One query the first time for a user object, none after.
        """
        if not user_obj.is_active or user_obj.is_anonymous or obj is not None:
            return set()
        if not hasattr(user_obj, "_perm_cache"):
            permissions = Permission.objects.all()
            if not user_obj.is_superuser:
                permissions = permissions.filter(Q(user=user_obj) | Q(group__user=user_obj))
            rows = permissions.values_list("content_type__app_label", "codename").order_by().distinct()
            user_obj._perm_cache = {f"{app_label}.{codename}" for app_label, codename in rows}
        return user_obj._perm_cache


def forget_logins(user_ids: Iterable[int] | None = None) -> None:
    """Delete the copies of the logins ``user_ids`` (``None``: of every login), now and once
    more when the current transaction commits (a request in between may have copied the old
    row)."""

    def forget() -> None:
        ids = get_user_model().objects.values_list("pk", flat=True) if user_ids is None else user_ids
        _copies().delete_many([login_key(pk) for pk in ids])

    forget()
    transaction.on_commit(forget)


def _login_changed(sender, instance, **kwargs) -> None:
    forget_logins([instance.pk])


def _roles_changed(sender, instance, action, pk_set, **kwargs) -> None:
    if not action.startswith("post_"):
        return
    if isinstance(instance, get_user_model()):
        forget_logins([instance.pk])
    elif sender is Group.permissions.through or not pk_set:
        forget_logins()  # a role's permissions changed, or a role or permission lost all its logins
    else:
        forget_logins(pk_set)  # the logins given or taken a role or a permission


def _every_login_changed(sender, **kwargs) -> None:
    forget_logins()


def connect_signals() -> None:
    """Connect :func:`forget_logins` to every change of a login, its roles and permissions."""
    from django.db.models.signals import m2m_changed, post_delete, post_save

    user_model = get_user_model()
    post_save.connect(_login_changed, sender=user_model, dispatch_uid="forget-login-saved")
    post_delete.connect(_login_changed, sender=user_model, dispatch_uid="forget-login-deleted")
    for through in (user_model.groups.through, user_model.user_permissions.through, Group.permissions.through):
        m2m_changed.connect(_roles_changed, sender=through, dispatch_uid=f"forget-logins-{through.__name__}")
    for model in (Group, Permission):
        post_save.connect(_every_login_changed, sender=model, dispatch_uid=f"forget-logins-{model.__name__}-saved")
        post_delete.connect(_every_login_changed, sender=model, dispatch_uid=f"forget-logins-{model.__name__}-del")
