"""Season pages: the organiser's list, settings and season ranking (page, PDF, CSV/XLSX), and
the public season screen. Views are thin: the form validates, the service writes, the selector
reads (:func:`scoring.selectors.season_ranking`)."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scoring import selectors, services
from scoring.documents.season import build_season_ranking, season_ranking_name
from scoring.domain.errors import DomainError
from scoring.domain.season import DEFAULT_PLACEMENT_POINTS
from scoring.forms import SeasonForm
from scoring.models import Evening, Player, Season, SeasonEvening
from scoring.tables import season_evening_heading, season_export
from scoring.transfer.exports import EXPORT_FORMATS, dataset_response
from scoring.views.access import helper_required, leader_required
from scoring.views.documents import pdf_response
from scoring.views.players import player_history_context
from scoring.web import screen_cache
from scoring.web.htmx import HtmxHttpRequest
from scoring.web.messages import translate
from scoring.web.tiebreak_labels import LABELS, ahead_note


@helper_required
def season_list(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.annotate(evening_count=Count("links"))
    return render(request, "organiser/season_list.html", {"seasons": seasons})


def _evening_choices(season: Season | None) -> list[tuple[int, str]]:
    """Every evening (newest first, each once) as a checkbox label; one of another season says
    which. Archived evenings are left out unless the season holds them already (saving the form
    must not drop them: the season goes on counting them)."""
    other = {
        link.evening_id: link.season.name
        for link in SeasonEvening.objects.select_related("season").exclude(season=season)
    }
    current = Q(archived_at__isnull=True)
    if season is not None and season.pk:
        current |= Q(season_link__season=season)
    choices = []
    for evening in Evening.objects.filter(current).order_by("-date", "-pk"):
        label = f"{date_format(evening.date, 'SHORT_DATE_FORMAT')} · {evening.name}"
        if evening.pk in other:
            label += " " + _("(in the season “%(season)s”)") % {"season": other[evening.pk]}
        choices.append((evening.pk, label))
    return choices


def _season_form(request: HttpRequest, season: Season | None) -> HttpResponse:
    initial = {"year": timezone.localdate().year, "scoring": Season.Scoring.SUM, "min_evenings": 1}
    if season is not None:
        initial = {
            "name": season.name,
            "year": season.year,
            "scoring": season.scoring,
            "placement_points": ", ".join(str(p) for p in season.placement_points),
            "best_of": season.best_of,
            "min_evenings": season.min_evenings,
            "planned_evenings": season.planned_evenings,
            "public_player_pages": season.public_player_pages,
            **SeasonForm.tiebreak_initial(season.tie_break),
            "evenings": list(season.links.values_list("evening_id", flat=True)),
        }
    else:
        initial["placement_points"] = ", ".join(str(p) for p in DEFAULT_PLACEMENT_POINTS)
    form = SeasonForm(request.POST or None, initial=initial, evenings=_evening_choices(season))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.save_season(
                season=season,
                name=data["name"],
                year=data["year"],
                scoring=data["scoring"],
                placement_points=data["placement_points"],
                best_of=data["best_of"],
                min_evenings=data["min_evenings"],
                planned_evenings=data["planned_evenings"],
                tie_break=form.tie_break(),
                public_player_pages=data["public_player_pages"],
                evening_ids=data["evenings"],
            )
        except DomainError as error:
            form.add_error(None, translate(error))
        else:
            messages.success(request, _("Season “%(name)s” saved.") % {"name": saved.name})
            return redirect("organiser:season_detail", season_pk=saved.pk)
    return render(request, "organiser/season_form.html", {"form": form, "season": season})


@leader_required
def season_create(request: HttpRequest) -> HttpResponse:
    return _season_form(request, None)


@leader_required
def season_edit(request: HttpRequest, season_pk: int) -> HttpResponse:
    return _season_form(request, get_object_or_404(Season, pk=season_pk))


@helper_required
def season_detail(request: HttpRequest, season_pk: int) -> HttpResponse:
    """The season ranking: one column per evening (dropped results in brackets, struck through),
    evenings played, total; CSV or XLSX with ``?_export=``."""
    season = get_object_or_404(Season, pk=season_pk)
    ranking = selectors.season_ranking(season)
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        headers, rows = season_export(ranking, export_format)
        if selectors.season_chain(season):  # why equal totals have different places
            headers.append(_("Tie-break"))
            for row, (_line, _cells, note) in zip(rows, _ranking_context(ranking)["rows"], strict=True):
                row.append(note)
        name = season_ranking_name(ranking)  # the PDF's name, another extension
        return dataset_response(headers, rows, export_format, name, title=_("Season ranking"))
    return render(request, "organiser/season_detail.html", _ranking_context(ranking))


def _ranking_context(ranking) -> dict:
    """The season ranking for the templates: per line its evening cells (None: not played) and
    the note saying which tie-break put it ahead of the next line ("" for none)."""
    lines = ranking.lines
    notes = [
        ahead_note(line.ahead_by, lines[index + 1].player.name) if line.ahead_by and index + 1 < len(lines) else ""
        for index, line in enumerate(lines)
    ]
    return {
        "season": ranking.season,
        "ranking": ranking,
        "chain": [LABELS[c] for c in selectors.season_chain(ranking.season)],
        "headings": [(e, season_evening_heading(e)) for e in ranking.evenings],
        "rows": [(line, ranking.row(line), note) for line, note in zip(lines, notes, strict=True)],
        # Placement points: each cell shows the evening's place beside its points.
        "placement": ranking.season.scoring == Season.Scoring.POINTS,
    }


@helper_required
def season_pdf(request: HttpRequest, season_pk: int) -> HttpResponseBase:
    """The season ranking as PDF (landscape with many evenings)."""
    season = get_object_or_404(Season, pk=season_pk)
    ranking = selectors.season_ranking(season)
    if not ranking.lines:
        messages.error(request, _("There is no season ranking to print yet: no evening of the season has been played."))
        return redirect("organiser:season_detail", season_pk=season.pk)
    return pdf_response(build_season_ranking(ranking), season_ranking_name(ranking))


#: Seconds between two polls of the season screen (it changes only when an evening does).
SEASON_POLL_SECONDS = 30


@require_safe
def season_screen(request: HtmxHttpRequest, season_pk: int) -> HttpResponse:
    """The season ranking in large type for a projector (public, read-only): fills the screen
    and pages by itself like the evening's projector page, and reloads itself (htmx). A poll
    answers 304 after two small queries while neither the season's settings nor any of its
    evenings (their versions, ``scoring.services.base.evening_changed``) have changed."""
    season = get_object_or_404(Season, pk=season_pk)
    evenings = sorted(Evening.objects.filter(season_link__season=season).values_list("pk", "version"))
    settings_ = [getattr(season, f.attname) for f in Season._meta.concrete_fields]
    variant = screen_cache.public_variant(request, settings_, evenings)
    if unchanged := screen_cache.not_modified(request, 0, variant):
        return unchanged
    context = _ranking_context(selectors.season_ranking(season))
    context["now"] = timezone.now()
    context["poll_seconds"] = SEASON_POLL_SECONDS
    partial = request.htmx and not request.htmx.history_restore_request
    template = "public/_season_screen.html" if partial else "public/season_screen.html"
    return screen_cache.tagged(render(request, template, context), 0, variant)


@require_safe
def season_player(request: HttpRequest, season_pk: int, player_pk: int) -> HttpResponse:
    """A player's evenings of the season, public (no login) only when the organiser allows
    players' pages for this season; else, and for a player who played none of its evenings, 404."""
    season = get_object_or_404(Season, pk=season_pk, public_player_pages=True)
    player = get_object_or_404(Player, pk=player_pk)
    context = player_history_context(player, selectors.season_evenings(season))
    if not context["history"].evenings:
        raise Http404
    return render(request, "public/season_player.html", {"season": season, "player": player, **context})
