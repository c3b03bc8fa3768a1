"""Table scorer URLs: private per-table links, no login, under /t/<token>/."""

from django.urls import path

from scoring.views import scorer as views
from scoring.views.tablets import remember_table

app_name = "scorer"

urlpatterns = [
    # The tablet keeps its table (cookie) for /tablet/ and the home-screen icon.
    path("<str:token>/", remember_table(views.table_page), name="table"),
    path("<str:token>/stand/", views.table_poll, name="poll"),
    path("<str:token>/spiel/<int:number>/", views.table_deal, name="deal"),
    path("<str:token>/fertig/", views.table_finish, name="finish"),
    path("<str:token>/bestaetigen/", views.table_confirm, name="confirm"),
    path("<str:token>/einspruch/", views.table_reopen, name="reopen"),
]
