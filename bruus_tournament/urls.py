"""URLs of Bruus Turnier, split by role: public, organiser (login), scorer (table links)."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView


class FaviconView(RedirectView):
    """/favicon.ico: the static icon (its name may carry a hash once collected)."""

    permanent = True

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.ico")


urlpatterns = [
    path("", include("scoring.urls.public")),
    path("organiser/", include("scoring.urls.organiser")),
    path("t/", include("scoring.urls.scorer")),
    path("anmelden/", auth_views.LoginView.as_view(), name="login"),
    path("abmelden/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # Browsers ask for /favicon.ico where a page names no icon (PDFs, downloads).
    path("favicon.ico", FaviconView.as_view()),
]
if settings.ADMIN_ENABLED:  # off by default (settings.py): it bypasses the app's rules
    urlpatterns.append(path("admin/", admin.site.urls))

handler403 = "scoring.views.errors.forbidden"
handler404 = "scoring.views.errors.not_found"
handler500 = "scoring.views.errors.server_error"
