"""Public pages (no login): start page, help, the organiser's guide, and each evening's screens for the room."""

from django.urls import path
from django.views.generic import TemplateView

from scoring.views import clock, projector, screens, seasons, tablets
from scoring.views import public as views

app_name = "public"

urlpatterns = [
    path("", TemplateView.as_view(template_name="public/home.html"), name="home"),
    path("hilfe/", views.help_page, name="help"),
    # The organiser's guide (docs/organiser-guide.de.md / .en.md) rendered in the app.
    path("hilfe/leitfaden/", views.guide_page, name="guide"),
    # The short address for the tablets: table number + table code (printed on the table cards).
    path("tablet/", tablets.tablet_join, name="tablet_join"),
    # The web app manifest (the tablet's home-screen icon) in each language of the site.
    path("tablet/app.<str:language>.webmanifest", tablets.web_app_manifest, name="manifest"),
    # An evening's screens for the room: ranking (projector) and "Where do I sit?" (phones).
    path("abend/<int:pk>/rangliste/", screens.ranking_screen, name="ranking_screen"),
    # The projector page: the organiser chooses on the live overview what it shows.
    path("abend/<int:pk>/beamer/", projector.projector, name="projector"),
    path("abend/<int:pk>/platz/", screens.seat_finder, name="seat_finder"),
    path("abend/<int:pk>/platz/<int:player_pk>/", screens.seat, name="seat"),
    # The round clock alone (its own poll where the page around it does not poll).
    path("abend/<int:pk>/uhr/", clock.clock_fragment, name="round_clock"),
    # A season's ranking for the projector.
    path("saison/<int:season_pk>/rangliste/", seasons.season_screen, name="season_screen"),
    # A player's evenings of the season, when the organiser allows players' pages for it.
    path("saison/<int:season_pk>/spieler/<int:player_pk>/", seasons.season_player, name="season_player"),
]
