"""WSGI entry point (gunicorn ``bruus_tournament.wsgi``; also what ``runserver`` loads).

With DEBUG off the hall refuses to start while a login still has the demo password or no
organiser login exists (``scoring.setup.startup``); the results site (``BRUUS_ROLE=hub``) has no
logins to check.
"""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bruus_tournament.settings")
application = get_wsgi_application()

if not settings.DEBUG and settings.BRUUS_ROLE == "hall":
    from django.db import connections

    from scoring.setup.startup import refuse_unsafe_start

    try:
        refuse_unsafe_start()
    finally:
        connections.close_all()

# The sender of the results site (docs/publishing.md): a daemon thread in each app process when
# PUBLISH_URL is set; one of them holds the lease and sends. Never in the way of a request.
from scoring.publishing.sender import start_background_sender  # noqa: E402

start_background_sender()
