"""The web layer's helpers, used by views, templates and middleware: addresses and QR codes for the
hall (``links``, ``qr``), cached and conditional screens (``screen_cache``, ``caches``), the evening's
language (``middleware``), numbers from requests (``parsing``), domain errors in the user's language
(``messages``), the request type of htmx (``htmx``), tie-break labels, the place chart and the
organiser's guide rendered in the app."""
