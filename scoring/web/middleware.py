"""The evening's language for the room: printouts, public screens and tablets.

An evening has a language (``Evening.language``, German by default). Every page for the room
is rendered in it, whatever the browser asks for (``Accept-Language``) or the organiser has chosen
for their own pages (the language buttons):

- the table scorer's pages (``/t/<token>/...``, namespace ``scorer``);
- the public screens of an evening (``/abend/<pk>/...``: ranking, "Wo sitze ich?");
- the organiser's printouts: every PDF (a URL ending in ``.pdf``), the results for the club's
  website (``.html``) and the CSV/Excel downloads (``?_export=``).

The organiser's other pages keep the organiser's language (Django's LocaleMiddleware). Pages
that belong to no evening (home, help, login) too.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import ResolverMatch
from django.utils import translation

from scoring.models import Evening, Table

#: The largest primary key the database can hold (64-bit); larger numbers in a URL match nothing.
MAX_ID = 2**63 - 1
#: Organiser pages whose ``?_export=`` download is a printout (besides every ``….pdf`` URL).
EXPORTS = frozenset({"ranking", "deal_results"})


def evening_language(match: ResolverMatch | None, query, request: HttpRequest | None = None) -> str | None:
    """The language a request must be answered in, or None for the usual choice (browser,
    organiser). One small query for the pages of the room; none for the others. It also reads
    the whole evening and sets ``request.room_evening`` (None for an unknown one), which the
    public screens use for their ETag and page (``scoring.web.screen_cache.room_evening``); for a
    table link it loads the table with its evening and sets ``request.scorer_table`` (None for
    an unknown link), which the scorer's views use instead of a query of their own."""
    if match is None:
        return None
    kwargs = match.kwargs
    if not 0 < kwargs.get("pk", 1) <= MAX_ID:
        return None  # no such evening (the view answers 404); the database is not asked
    if match.namespace == "scorer" and "token" in kwargs:
        # The whole table with its evening: the scorer's view uses it (request.scorer_table)
        # instead of asking the database again.
        table = Table.objects.select_related("evening").filter(token=kwargs["token"]).first()
        if request is not None:
            request.scorer_table = table  # type: ignore[attr-defined]
        if table is None:
            return None
        return _usable(table.evening.language)
    room_page = match.namespace == "public" or (
        match.namespace == "organiser"
        and (match.route.endswith((".pdf", ".html")) or (match.url_name in EXPORTS and query.get("_export")))
    )
    if "pk" not in kwargs or not room_page:
        return None
    evening = Evening.objects.filter(pk=kwargs["pk"]).first()
    if request is not None:
        # The whole evening: the public screens read its version (ETag) and, when they answer
        # with a page (most polls while deals arrive), the rest of it, without another query.
        request.room_evening = evening  # type: ignore[attr-defined]
    return None if evening is None else _usable(evening.language)


def _usable(language: str) -> str | None:
    return language if language and translation.check_for_language(language) else None


class EveningLanguageMiddleware:
    """Answer the pages of the room in the evening's language (see the module docstring).

    Comes after ``LocaleMiddleware``; sets ``request.evening_language`` (the templates then hide
    the language buttons, which would change nothing there) and ``Content-Language``.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        before = translation.get_language()
        response = self.get_response(request)
        language = getattr(request, "evening_language", None)
        if language:
            response.headers["Content-Language"] = language
            translation.activate(before)
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        language = evening_language(request.resolver_match, request.GET, request)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
            request.evening_language = language  # type: ignore[attr-defined]
