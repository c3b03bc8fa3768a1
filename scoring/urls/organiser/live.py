"""The room during the evening: the live state of every table, locks, closing a session, the public
ranking's visibility, confirmation on a team's behalf, what the projector shows and the round
clock."""

from django.urls import path

from scoring.views import clock, live, projector

urlpatterns = [
    path("abende/<int:pk>/live/", live.live_dashboard, name="live"),
    path("abende/<int:pk>/runde/<int:round_pk>/sperren/", live.round_lock, name="round_lock"),
    path("abende/<int:pk>/durchgang/<int:number>/schliessen/", live.session_close, name="session_close"),
    path("abende/<int:pk>/rangliste-anzeige/", live.ranking_visibility, name="ranking_visibility"),
    path("tischrunde/<int:pk>/bestaetigen/", live.seating_confirm, name="seating_confirm"),
    # What the projector shows; the round clock: its buttons and its lengths
    path("abende/<int:pk>/beamer/", projector.projector_mode, name="projector_mode"),
    path("abende/<int:pk>/uhr/", clock.clock_action, name="clock_action"),
    path("abende/<int:pk>/uhr/einstellungen/", clock.clock_settings, name="clock_settings"),
]
