"""Public pages: no login, read-only."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.domain.rules import POSSIBLE_BONUS_PAIRS
from scoring.views.tablets import code_arithmetic


@require_safe
def help_page(request: HttpRequest) -> HttpResponse:
    """The in-app help: how to run an evening, scoring, our decisions (DOMAIN.md), and the
    arithmetic of the table codes."""
    pairs = ", ".join(f"{a}:{b}" for a, b in sorted(POSSIBLE_BONUS_PAIRS, key=lambda p: (p[0] + p[1], -p[0])))
    return render(request, "public/help.html", {"bonus_pairs": pairs, "codes": code_arithmetic()})
