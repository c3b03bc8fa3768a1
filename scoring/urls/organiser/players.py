"""The players: the register (list, edit, import), an evening's check-in, a player's evenings and
merging two entries of one person."""

from django.urls import path

from scoring.views import check_in, players

urlpatterns = [
    path("abende/<int:pk>/spieler/", players.evening_players, name="evening_players"),
    path("abende/<int:pk>/spieler/<int:player_pk>/anwesend/", players.check_in, name="check_in"),
    path("abende/<int:pk>/alle-anwesend/", check_in.check_in_all, name="check_in_all"),
    path("abende/<int:pk>/wie-letzter-abend/", check_in.check_in_last, name="check_in_last"),
    path("abende/<int:pk>/anwesend-rueckgaengig/", check_in.check_in_undo, name="check_in_undo"),
    path("spieler/", players.player_list, name="player_list"),
    path("spieler/<int:player_pk>/", players.player_edit, name="player_edit"),
    path("spieler/import/", players.player_import, name="player_import"),
    path("spieler/<int:player_pk>/abende/", players.player_detail, name="player_detail"),
    path("spieler/zusammenfuehren/", players.player_merge, name="player_merge"),
]
