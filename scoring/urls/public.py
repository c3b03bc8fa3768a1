"""Public pages (no login): start page and help."""

from django.urls import path
from django.views.generic import TemplateView

from scoring.views import public as views

app_name = "public"

urlpatterns = [
    path("", TemplateView.as_view(template_name="public/home.html"), name="home"),
    path("hilfe/", views.help_page, name="help"),
]
