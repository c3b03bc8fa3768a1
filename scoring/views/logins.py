"""Anmeldungen (Turnierleitung only): the club's organiser logins and their roles.

Create a login (name, password twice, role), give a login a new password, change its role
(Turnierleitung or Helfer), deactivate or reactivate it. Writes go through ``scoring.services.accounts``;
Django's password validators apply; the club cannot lock itself out (the last Turnierleitung
stays). A refused change shows why and changes nothing.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from scoring.hall.roles import HELPER, LEADER, role_of
from scoring.services import accounts
from scoring.validators import validate_no_bidi_controls
from scoring.views.access import logins_required
from scoring.web.messages import translate

ROLE_FIELD_CHOICES = [
    (LEADER, gettext_lazy("Turnierleitung (everything)")),
    (HELPER, gettext_lazy("Helfer (check-in, deals from paper, printing)")),
]


class PasswordForm(forms.Form):
    password1 = forms.CharField(
        label=gettext_lazy("New password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=gettext_lazy("New password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        data = cast(dict[str, Any], super().clean())  # Form.clean gives cleaned_data (the stubs allow None)
        if data.get("password1") and data.get("password2") and data["password1"] != data["password2"]:
            raise ValidationError(_("The two passwords differ."))
        return data


class NewLoginForm(PasswordForm):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150, validators=[validate_no_bidi_controls])
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=ROLE_FIELD_CHOICES, initial=HELPER)
    field_order = ["username", "role", "password1", "password2"]


def _page(
    request: HttpRequest, form: NewLoginForm, password_forms: dict | None = None, status: int = 200
) -> HttpResponse:
    users = get_user_model().objects.prefetch_related("groups").order_by("-is_active", "username")
    password_forms = password_forms or {}
    rows = [
        {
            "user": user,
            "role": role_of(user) if user.is_active else _role_ignoring_active(user),
            "password_form": password_forms.get(user.pk) or PasswordForm(prefix=f"u{user.pk}"),
        }
        for user in users
    ]
    return render(request, "logins/list.html", {"form": form, "rows": rows, "roles": ROLE_FIELD_CHOICES}, status=status)


def _role_ignoring_active(user) -> str | None:
    names = {group.name for group in user.groups.all()}
    return LEADER if user.is_superuser or LEADER in names else HELPER if HELPER in names else None


@logins_required
def login_list(request: HttpRequest) -> HttpResponse:
    """Every login with its role; the form for a new login."""
    form = NewLoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        username = form.cleaned_data["username"]
        if get_user_model().objects.filter(username=username.strip()).exists():
            form.add_error("username", _("This login exists already: give it a new password below."))
        else:
            try:
                accounts.save_login(
                    username=username, password=form.cleaned_data["password1"], role=form.cleaned_data["role"]
                )
            except ValidationError as error:  # user name (per field) or password (a list)
                form.add_error(None if hasattr(error, "error_dict") else "password1", error)
            except accounts.LoginError as error:
                form.add_error(None, translate(error))
            else:
                messages.success(request, _("Login %(name)s created.") % {"name": username.strip()})
                return redirect("organiser:logins")
    return _page(request, form, status=422 if request.method == "POST" else 200)


@logins_required
@require_POST
def login_password(request: HttpRequest, user_pk: int) -> HttpResponse:
    """A new password for one login."""
    user = get_object_or_404(get_user_model(), pk=user_pk)
    form = PasswordForm(request.POST, prefix=f"u{user.pk}")
    if form.is_valid():
        try:
            accounts.reset_password(user_id=user.pk, password=form.cleaned_data["password1"])
        except ValidationError as error:
            form.add_error("password1", error)
        else:
            messages.success(request, _("%(name)s has a new password.") % {"name": user.get_username()})
            return redirect("organiser:logins")
    return _page(request, NewLoginForm(), {user.pk: form}, status=422)


@logins_required
@require_POST
def login_role(request: HttpRequest, user_pk: int) -> HttpResponse:
    """Make a login Turnierleitung or Helfer."""
    user = get_object_or_404(get_user_model(), pk=user_pk)
    role = request.POST.get("role", "")
    try:
        accounts.change_role(user_id=user.pk, role=role)
    except accounts.LoginError as error:
        messages.error(request, translate(error))
    else:
        label = dict(ROLE_FIELD_CHOICES)[role]
        messages.success(request, _("%(name)s: %(role)s.") % {"name": user.get_username(), "role": label})
    return redirect("organiser:logins")


@logins_required
@require_POST
def login_active(request: HttpRequest, user_pk: int) -> HttpResponse:
    """Deactivate a login (it can no longer log in) or reactivate it."""
    user = get_object_or_404(get_user_model(), pk=user_pk)
    active = request.POST.get("active") == "1"
    try:
        accounts.set_active(user_id=user.pk, active=active, by=request.user)
    except accounts.LoginError as error:
        messages.error(request, translate(error))
    else:
        text = _("%(name)s can log in again.") if active else _("%(name)s can no longer log in.")
        messages.success(request, text % {"name": user.get_username()})
    return redirect("organiser:logins")
