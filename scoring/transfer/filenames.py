"""File names of downloads (PDF, CSV, XLSX): one scheme for all (:func:`download_name`), in the
language of the download, exact, and safe for every browser."""

from __future__ import annotations

import re
from datetime import date

from django.utils.http import content_disposition_header
from django.utils.text import slugify

UNSAFE_IN_FILENAMES = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')
GERMAN_LETTERS = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"}
    # Danish and Swedish names: slugify would drop æ and ø, and make å a plain a.
    | {"æ": "ae", "ø": "oe", "å": "aa", "Æ": "Ae", "Ø": "Oe", "Å": "Aa"}
)


def download_name(kind: str, name: str, on: date | None = None, detail: str = "") -> str:
    """The title and file name (without extension) of every download of an evening or a season:
    "<kind> <detail> – <name> – <date>", e.g. "Rangliste – Schwesinger Bruus-Abend – 2026-11-21",
    "Spielzettel Durchgang 1 (leer) – … – 2026-11-21"; the PDF, the CSV and the XLSX of one
    thing differ only in their extension. ``name`` empty: "Bruus"; ``on`` None: no date (a
    season, whose name carries its year)."""
    parts = [f"{kind} {detail}".strip(), name.strip() or "Bruus"]
    if on is not None:
        parts.append(on.isoformat())
    return " – ".join(parts)


def content_disposition(filename: str, *, as_attachment: bool, default: str = "export") -> str:
    """A Content-Disposition value with the exact UTF-8 name (RFC 5987 ``filename*``, from Django's
    ``content_disposition_header``) and a slugified ASCII fallback for old clients, e.g.
    ``inline; filename="rangliste-schwesing-2026-11-21.pdf"; filename*=utf-8''Rangliste%20%E2%80%93…``.

    Args:
        filename: the German file name with its extension; characters no file system accepts
            become "-".
        as_attachment: ``attachment`` (save) or ``inline`` (show, e.g. a PDF to print).
        default: the stem used when nothing of the name is left.
    """
    filename = UNSAFE_IN_FILENAMES.sub("-", filename).strip() or default
    header = content_disposition_header(as_attachment=as_attachment, filename=filename) or ""
    if "filename*=" not in header:  # an ASCII name: Django wrote filename="…" already
        return header
    stem, dot, extension = filename.rpartition(".")
    fallback = slugify((stem or filename).translate(GERMAN_LETTERS))[:150] or default
    if dot:
        fallback = f"{fallback}.{extension}"
    kind = "attachment" if as_attachment else "inline"
    return f'{kind}; filename="{fallback}"; {header.split("; ", 1)[1]}'
