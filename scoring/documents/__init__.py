"""Printed documents of an evening, as PDF made with reportlab.

- :mod:`.pdf_text`: fonts (DejaVu Sans, embedded), styles, cells and the words of the pages;
- :mod:`.pdf_base`: the page decoration ("Seite X von Y", printed date and time) and the layouts
  with cut lines (re-exports :mod:`.pdf_text`, so builders use ``pdf_base as base`` alone);
- :mod:`.data`: plain data the builders print, and the loaders that query the database for it;
- :mod:`.ranking`, :mod:`.score_sheets`, :mod:`.table_lists`, :mod:`.route_cards`: the builders.
  Each takes already-loaded data and returns the PDF as bytes; none of them queries the database.
"""
