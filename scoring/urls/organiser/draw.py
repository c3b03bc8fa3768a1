"""The draw: drawing a session, its table list, the wishes for the draw, changes to a drawn session
and the fairness report."""

from django.urls import path

from scoring.views import draw

urlpatterns = [
    path("abende/<int:pk>/auslosen/", draw.session_draw, name="session_draw"),
    path("abende/<int:pk>/durchgang/<int:number>/", draw.session_detail, name="session_detail"),
    path("abende/<int:pk>/spieler/<int:player_pk>/ersatz/", draw.stand_in, name="stand_in"),
    path("abende/<int:pk>/vereine-mischen/", draw.mix_clubs, name="mix_clubs"),
    path("abende/<int:pk>/nicht-zusammen/", draw.exclusion_add, name="exclusion_add"),
    path("abende/<int:pk>/nicht-zusammen/<int:exclusion_pk>/loeschen/", draw.exclusion_remove, name="exclusion_remove"),
    path("abende/<int:pk>/durchgang/<int:number>/neu-auslosen/", draw.session_redraw, name="session_redraw"),
    path("abende/<int:pk>/durchgang/<int:number>/tauschen/", draw.session_swap, name="session_swap"),
    path("abende/<int:pk>/durchgang/<int:number>/ersetzen/", draw.session_replace, name="session_replace"),
    path("abende/<int:pk>/fairness/", draw.fairness, name="fairness"),
]
