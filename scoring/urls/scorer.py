"""Table scorer URLs: private per-table links, no login, under /t/<token>/."""

from django.urls import path

from scoring.views import scorer as views

app_name = "scorer"

urlpatterns = [
    path("<str:token>/", views.table_page, name="table"),
    path("<str:token>/spiel/<int:number>/", views.table_deal, name="deal"),
    path("<str:token>/fertig/", views.table_complete, name="complete"),
]
