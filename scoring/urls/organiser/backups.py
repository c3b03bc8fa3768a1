"""Organiser URLs of backup and restore, Turnierleitung only (included by
``scoring.urls.organiser``, so the names are ``organiser:…``)."""

from django.urls import path

from scoring.views import backups

urlpatterns = [
    path("sicherung/", backups.backup_page, name="backups"),
    path("sicherung/alles.json", backups.backup_all, name="backup_all"),
    path("abende/<int:pk>/sicherung.json", backups.backup_evening, name="backup_evening"),
    path("sicherung/wiederherstellen/", backups.backup_restore, name="backup_restore"),
    path("sicherung/wiederherstellen/bestaetigen/", backups.backup_restore_confirm, name="backup_restore_confirm"),
]
