"""Organiser URLs (login required), under /organiser/."""

from django.urls import path

from scoring.views import documents, draw, live, logins, players, projector, seasons, tablets
from scoring.views import organiser as views

app_name = "organiser"

urlpatterns = [
    path("", views.evening_list, name="evening_list"),
    path("abende/neu/", views.evening_create, name="evening_create"),
    path("abende/<int:pk>/", views.evening_detail, name="evening_detail"),
    path("abende/<int:pk>/sprache/", views.evening_language, name="evening_language"),
    path("abende/<int:pk>/gleichstand/", views.evening_tiebreaks, name="evening_tiebreaks"),
    path("abende/<int:pk>/regeln/", views.evening_rule_set, name="evening_rule_set"),
    path("abende/<int:pk>/spieler/", views.evening_players, name="evening_players"),
    path("abende/<int:pk>/spieler/<int:player_pk>/anwesend/", views.check_in, name="check_in"),
    path("abende/<int:pk>/auslosen/", views.session_draw, name="session_draw"),
    path("abende/<int:pk>/tisch/<int:number>/neuer-link/", views.table_link_regenerate, name="table_link_regenerate"),
    path("abende/<int:pk>/durchgang/<int:number>/", views.session_detail, name="session_detail"),
    path("abende/<int:pk>/rangliste/", views.ranking, name="ranking"),
    path("abende/<int:pk>/spiele/", views.deal_results, name="deal_results"),
    path("tischrunde/<int:pk>/", views.seating_detail, name="seating_detail"),
    # The room during the evening: live state of every table, locks, confirmation on a team's behalf
    path("abende/<int:pk>/live/", live.live_dashboard, name="live"),
    path("abende/<int:pk>/runde/<int:round_pk>/sperren/", live.round_lock, name="round_lock"),
    path("abende/<int:pk>/durchgang/<int:number>/schliessen/", live.session_close, name="session_close"),
    path("abende/<int:pk>/rangliste-anzeige/", live.ranking_visibility, name="ranking_visibility"),
    path("abende/<int:pk>/beamer/", projector.projector_mode, name="projector_mode"),
    path("tischrunde/<int:pk>/bestaetigen/", live.seating_confirm, name="seating_confirm"),
    # The draw: wishes, changes to a drawn session, fairness report
    path("abende/<int:pk>/spieler/<int:player_pk>/ersatz/", draw.stand_in, name="stand_in"),
    path("abende/<int:pk>/vereine-mischen/", draw.mix_clubs, name="mix_clubs"),
    path("abende/<int:pk>/nicht-zusammen/", draw.exclusion_add, name="exclusion_add"),
    path("abende/<int:pk>/nicht-zusammen/<int:exclusion_pk>/loeschen/", draw.exclusion_remove, name="exclusion_remove"),
    path("abende/<int:pk>/durchgang/<int:number>/neu-auslosen/", draw.session_redraw, name="session_redraw"),
    path("abende/<int:pk>/durchgang/<int:number>/tauschen/", draw.session_swap, name="session_swap"),
    path("abende/<int:pk>/durchgang/<int:number>/ersetzen/", draw.session_replace, name="session_replace"),
    path("abende/<int:pk>/fairness/", draw.fairness, name="fairness"),
    # Tablets: QR codes and short codes of the tables, locked tables, table cards
    path("abende/<int:pk>/tablets/", tablets.tablets_setup, name="tablets"),
    path("abende/<int:pk>/tablets/entsperren/", tablets.tablet_unlock, name="tablet_unlock"),
    path("abende/<int:pk>/tischkarten.pdf", tablets.table_cards_pdf, name="table_cards_pdf"),
    # Organiser logins and their roles (Turnierleitung only)
    path("anmeldungen/", logins.login_list, name="logins"),
    path("anmeldungen/<int:user_pk>/passwort/", logins.login_password, name="login_password"),
    path("anmeldungen/<int:user_pk>/rolle/", logins.login_role, name="login_role"),
    path("anmeldungen/<int:user_pk>/aktiv/", logins.login_active, name="login_active"),
    path("spieler/", views.player_list, name="player_list"),
    path("spieler/<int:player_pk>/", views.player_edit, name="player_edit"),
    path("spieler/import/", views.player_import, name="player_import"),
    # Seasons (Jahreswertung): settings, evenings, the season ranking (page, CSV/XLSX, PDF)
    path("saisons/", seasons.season_list, name="season_list"),
    path("saisons/neu/", seasons.season_create, name="season_create"),
    path("saisons/<int:season_pk>/", seasons.season_detail, name="season_detail"),
    path("saisons/<int:season_pk>/bearbeiten/", seasons.season_edit, name="season_edit"),
    path("saisons/<int:season_pk>/rangliste.pdf", seasons.season_pdf, name="season_pdf"),
    # The register across evenings: a player's page, merging two entries of one person
    path("spieler/<int:player_pk>/abende/", players.player_detail, name="player_detail"),
    path("spieler/zusammenfuehren/", players.player_merge, name="player_merge"),
    # Printed documents (PDF)
    path("abende/<int:pk>/rangliste.pdf", documents.ranking_pdf, name="ranking_pdf"),
    path("abende/<int:pk>/durchgang/<int:number>/spielzettel.pdf", documents.score_sheets_pdf, name="score_sheets_pdf"),
    path("abende/<int:pk>/durchgang/<int:number>/tischliste.pdf", documents.table_list_pdf, name="table_list_pdf"),
    path("abende/<int:pk>/durchgang/<int:number>/laufzettel.pdf", documents.route_cards_pdf, name="route_cards_pdf"),
]
