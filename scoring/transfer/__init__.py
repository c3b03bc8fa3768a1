"""Files in and out: player lists read from Excel or CSV (``player_files``), spreadsheet downloads of
tables (``exports``) and the download file names (``filenames``). Printed documents are in
:mod:`scoring.documents`, backups in :mod:`scoring.backup`."""
