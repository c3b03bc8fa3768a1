"""The organiser logins and their roles (Turnierleitung only)."""

from django.urls import path

from scoring.views import logins

urlpatterns = [
    path("anmeldungen/", logins.login_list, name="logins"),
    path("anmeldungen/<int:user_pk>/passwort/", logins.login_password, name="login_password"),
    path("anmeldungen/<int:user_pk>/rolle/", logins.login_role, name="login_role"),
    path("anmeldungen/<int:user_pk>/aktiv/", logins.login_active, name="login_active"),
]
