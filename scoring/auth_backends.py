"""The login backend: Django's ``ModelBackend`` with the permissions read in one query.

Every organiser page checks a permission (``scoring.views.access``), and the polls of the live
overview put the login's permissions into their ETag (``scoring.screen_cache``). Django's
``ModelBackend`` reads them with two queries (the login's own permissions and its groups'); this
backend reads both at once, so a poll that finds nothing changed (304) costs one query less.
Answers are the same as Django's: a set of ``"app_label.codename"`` strings, empty for an
inactive or anonymous login, every permission for a superuser.
"""

from __future__ import annotations

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Permission
from django.db.models import Q


class OrganiserBackend(ModelBackend):
    """``ModelBackend`` whose :meth:`get_all_permissions` takes one query (cached on the user
    object for the request, as Django does)."""

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
