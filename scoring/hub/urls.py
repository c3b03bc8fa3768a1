"""The results site's URLs: the ``ROOT_URLCONF`` in the hub role (``BRUUS_ROLE=hub``). The hall's
pages are not here, and the hall's URLconf (``bruus_tournament.urls``) does not include these.

German pages without a prefix, English, Danish and Swedish under ``/en/``, ``/da/``, ``/sv/``
(``scoring.hub.middleware``); the API has none.
"""

from django.conf.urls.i18n import i18n_patterns
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from scoring.hub import views


class FaviconView(RedirectView):
    """/favicon.ico: the static icon (as the hall's)."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.ico")


#: The pages, in the namespace ``hub`` (``{% url 'hub:evening' club.slug evening.uid %}``).
pages = [
    path("", views.home, name="home"),
    path("verein/<slug:slug>/", views.club, name="club"),
    path("verein/<slug:slug>/abend/<str:uid>/", views.evening, name="evening"),
    path("verein/<slug:slug>/spieler/<str:key>/", views.player, name="player"),
    path("verein/<slug:slug>/saison/<str:uid>/", views.club_season, name="club_season"),
    path("verband/<slug:slug>/", views.association, name="association"),
    path("verband/<slug:slug>/saison/<int:pk>/", views.association_season, name="association_season"),
]

urlpatterns = [
    path("api/v1/snapshots/", views.snapshots, name="hub_snapshots"),
    path("favicon.ico", FaviconView.as_view()),
    *i18n_patterns(path("", include((pages, "hub"))), prefix_default_language=False),
]

handler404 = "scoring.hub.views.not_found"
handler500 = "scoring.hub.views.server_error"
