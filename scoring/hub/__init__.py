"""The results site (the hub): clubs, their keys, the snapshots their halls publish, the API and
the public pages. docs/results-online.md is the contract with the hall (``scoring/publishing/``).

- ``models.py``: the tables (imported by ``scoring.models``); ``keys.py``: upload keys, hashed;
- ``snapshot.py``: a snapshot checked whole (pure Python); ``services.py``: the writes;
  ``selectors.py``: the pages' reads; ``views.py``, ``urls.py`` (the hub's ``ROOT_URLCONF``),
  ``middleware.py`` (the language from the URL).
"""
