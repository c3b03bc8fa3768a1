"""QR codes for the screen: an SVG drawn on the server from the same modules that the printed
score sheets and table cards use (reportlab's QR encoder, error correction M). No script, no CDN."""

from __future__ import annotations

import itertools

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring.documents.score_sheets import QrCode, qr_modules


def qr_svg(url: str, *, label: str) -> SafeString:
    """An inline ``<svg>`` with the QR code of ``url``: one path of dark runs on white, quiet zone
    of 4 modules, scaling to the width of its box. ``label`` is read out by screen readers."""
    modules = qr_modules(url)
    border = QrCode.border
    size = len(modules) + 2 * border
    runs = []
    for r, row in enumerate(modules):
        c = 0
        for dark, run in itertools.groupby(row):
            length = len(list(run))
            if dark:
                runs.append(f"M{c + border} {r + border}h{length}v1h-{length}z")
            c += length
    return mark_safe(
        f'<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" '
        f'aria-label="{escape(label)}" shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d="{"".join(runs)}"/></svg>'
    )
