"""Public pages: no login, read-only."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scoring.domain.rulesets import SCHWESING, rule_set
from scoring.templatetags.languages import language_name
from scoring.views.tablets import code_arithmetic
from scoring.web.guide import GUIDE_FILES, LANGUAGE_PARAMETER, guide_language, load_guide


@require_safe
def help_page(request: HttpRequest) -> HttpResponse:
    """The in-app help: how to run an evening, scoring, our decisions (docs/rules.md), and the
    arithmetic of the table codes."""
    schwesing_pairs = rule_set(SCHWESING).bonus_pairs
    pairs = ", ".join(f"{a}:{b}" for a, b in sorted(schwesing_pairs, key=lambda p: (p[0] + p[1], -p[0])))
    return render(request, "public/help.html", {"bonus_pairs": pairs, "codes": code_arithmetic()})


@require_safe
def guide_page(request: HttpRequest) -> HttpResponse:
    """The organiser's guide (``docs/organiser-guide.<language>.md``, :mod:`scoring.web.guide`) in the
    app's layout: in the reader's language, or the one asked for (``?sprache=en``, the guide's
    links between its languages); 404 when the docs hold no guide."""
    asked = request.GET.get(LANGUAGE_PARAMETER)
    language = asked if asked in GUIDE_FILES else get_language()
    guide = load_guide(language, settings.DOCS_DIR, reverse("public:guide"))
    if guide is None:
        raise Http404("The docs hold no organiser's guide.")
    # The reader's language has no guide yet: say in which language it is shown instead.
    fallback = language_name(guide.language) if guide.language != guide_language(language) else None
    return render(request, "public/guide.html", {"guide": guide, "fallback": fallback})
