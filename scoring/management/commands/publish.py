"""``bruus-turnier publish``: the sender in the foreground (docs/publishing.md): sends what waits to
the results site (``PUBLISH_URL``) and keeps watching the queue until stopped; ``--once``: send what
waits now and stop (exit status 1 when something could not be sent)."""

import threading

from django.core.management.base import BaseCommand, CommandError

from scoring.publishing.queue import release_lease
from scoring.publishing.sender import Sender, configured_transport
from scoring.publishing.transport import address_problem


class Command(BaseCommand):
    help = "Send the waiting evenings to the results site (PUBLISH_URL); --once: what waits now, then stop."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="send what waits now, then stop")

    def handle(self, *args, once: bool = False, **options):
        from django.conf import settings

        transport = configured_transport()
        if transport is None:
            raise CommandError("PUBLISH_URL is not set: there is no results site to publish to.")
        problem = address_problem(settings.PUBLISH_URL, settings.PUBLISH_ALLOW_HTTP)
        if problem:
            raise CommandError(problem)
        sender = Sender(transport)
        if not once:
            self.stdout.write(f"Publishing to {settings.PUBLISH_URL} (Ctrl+C: stop)")
            stop = threading.Event()
            try:
                sender.loop(stop)
            except KeyboardInterrupt:
                stop.set()
            return
        done = sender.send_waiting()
        release_lease(sender.holder)
        if not done.leased:
            raise CommandError("Another sender (bruus-turnier serve or publish) is publishing now.")
        self.stdout.write(
            f"Sent {len(done.sent)} evening(s), {done.seasons} season(s), {done.withdrawals} withdrawal(s); "
            f"{done.failed} not reached, {done.refused} refused."
        )
        if done.failed or done.refused:
            raise CommandError("Not everything could be sent; the organiser's evening page says why.")
