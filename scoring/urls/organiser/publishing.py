"""Publishing to the results site (scoring.views.publishing)."""

from django.urls import path

from scoring.views import publishing

urlpatterns = [
    path("online/", publishing.online, name="online"),
    path("abende/<int:pk>/online/", publishing.evening_publish_mode, name="evening_publish_mode"),
    path("abende/<int:pk>/online/erneut/", publishing.evening_send_again, name="evening_send_again"),
    path("spieler/<int:player_pk>/online/", publishing.player_online_name, name="player_online_name"),
]
