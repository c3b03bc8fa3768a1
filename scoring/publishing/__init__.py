"""Publishing from the hall to the results site (the hub): docs/publishing.md.

- :mod:`.models`: the evening's publish mode and queue state, each player's online name, the
  hall's installation id and secret, withdrawals waiting to be sent (registered by
  ``scoring.models``);
- :mod:`.privacy`: online names, initials, player keys and evening uids (pure);
- :mod:`.snapshot`: the snapshots the hub receives (a selector: reads only);
- :mod:`.queue`: the writes: marking an evening waiting (from ``evening_changed``), the
  organiser's choices, recording what the sender did;
- :mod:`.sender`: the sender (a thread of ``run``/``serve``, or ``bruus-turnier publish``);
- :mod:`.transport`: the HTTP POST to the hub (urllib), the address check;
- :mod:`.status`: what the organiser's pages show ("Online: aktuell" …).
"""
