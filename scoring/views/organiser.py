"""Organiser pages (login required): evenings, players, check-in, draw, table lists, progress,
ranking and corrections. Views are thin: forms validate, services write, selectors read."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_tables2 import RequestConfig

from scoring import links, screen_cache, selectors, services, tiebreak_labels
from scoring.client_address import client_address
from scoring.domain.errors import DomainError
from scoring.domain.player_import import ParsedPlayer, PlayerFileError
from scoring.domain.rulesets import DRAW
from scoring.domain.tiebreaks import Criterion
from scoring.exports import EXPORT_FORMATS, export_response
from scoring.forms import DealNumberForm, EveningForm, ImportForm, OrganiserDealForm, PlayerForm
from scoring.messages import translate
from scoring.models import Evening, Participant, Player, RuleSetChoice, Seating
from scoring.origin import Origin
from scoring.parsing import ascii_int
from scoring.player_files import parse_player_file
from scoring.roles import RUN_PERM
from scoring.selectors.duplicates import register_duplicates
from scoring.tables import DealResultTable, RankingTable, ranking_rows
from scoring.views import check_in as check_in_views
from scoring.views.access import helper_required, leader_required
from scoring.views.common import evening_or_404 as _evening

IMPORT_SESSION_KEY = "player_import"


@helper_required
def evening_list(request: HttpRequest) -> HttpResponse:
    evenings = Evening.objects.annotate(
        player_count=Count("participants", filter=Q(participants__checked_in=True), distinct=True),
        session_count=Count("sessions", distinct=True),
    ).order_by("-date", "-pk")  # newest first (a query with Count ignores Meta.ordering)
    return render(request, "organiser/evening_list.html", {"evenings": evenings})


@leader_required
def evening_create(request: HttpRequest) -> HttpResponse:
    form = EveningForm(request.POST or None, initial={"date": timezone.localdate()})  # most are made that day
    if request.method == "POST" and form.is_valid():
        evening = services.create_evening(**form.cleaned_data)
        messages.success(request, _("Evening created. Now check in the players."))
        return redirect("organiser:evening_players", pk=evening.pk)
    return render(request, "organiser/evening_form.html", {"form": form})


def conditional(view):
    """An organiser page with an ETag from the evening version (scoring.screen_cache): 304 while
    the evening, the login and its messages are as they were. Goes below the access check."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int) -> HttpResponse:
        version = screen_cache.evening_version(request, pk)
        variant = screen_cache.organiser_variant(request)
        if version is not None and (unchanged := screen_cache.not_modified(request, version, variant, private=True)):
            return unchanged
        response = view(request, pk)
        return screen_cache.tagged(response, version or 0, variant, private=True)

    return wrapper


@helper_required
@require_safe
@conditional
def evening_detail(request: HttpRequest, pk: int) -> HttpResponse:
    evening = _evening(pk)
    sessions = screen_cache.computed(
        "progress", evening.pk, evening.version, lambda: selectors.evening_progress(evening)
    ).value
    drawn = list(evening.sessions.order_by("number"))
    return render(
        request,
        "organiser/evening_detail.html",
        {
            "evening": evening,
            "sessions": sessions,
            "can_draw": services.can_draw_next_session(evening, drawn),
            "next_number": len(sessions) + 1,
            "checked_in": selectors.checked_in_count(evening),
            "table_links": _table_links(request, evening),
            "complete": selectors.evening_is_confirmed(evening),
            "tiebreaks": _tiebreak_slots(evening),
            "has_deals": selectors.evening_has_deals(evening),
            "rule_set_choices": RuleSetChoice.choices,
        },
    )


def _tiebreak_slots(evening: Evening) -> dict:
    """The evening's chain for its settings card: one choice per position (the chosen value or "")
    and the criteria offered."""
    chain = [criterion.value for criterion in selectors.evening_chain(evening)]
    slots = [(n, chain[n - 1] if n <= len(chain) else "") for n in range(1, len(Criterion) + 1)]
    return {
        "slots": slots,
        "choices": tiebreak_labels.choices(),
        "chain": [tiebreak_labels.LABELS[c] for c in selectors.evening_chain(evening)],
    }


def _table_links(request: HttpRequest, evening: Evening) -> list[tuple[int, str, str]]:
    """(table number, the table's link for the tablet, the form's address for a new link) per
    table; each address reversed once and filled in per table (250 tables at 1,000 players)."""
    base = links.base_url(request)
    scorer = reverse("scorer:table", args=["TOKEN"])
    renew = reverse("organiser:table_link_regenerate", args=[evening.pk, 987654321])
    return [
        (number, base + scorer.replace("TOKEN", token), renew.replace("987654321", str(number)))
        for number, token in evening.tables.order_by("number").values_list("number", "token")
    ]


@helper_required
def evening_players(request: HttpRequest, pk: int) -> HttpResponse:
    """Check-in: every player of the register, with a button to check in or out."""
    evening = _evening(pk)
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and (added := _add_player(form)):
        player, created = added
        services.set_checked_in(evening=evening, player=player, checked_in=True)
        if request.POST.get("stand_in") == "1":
            services.set_stand_in(evening=evening, player=player, stand_in=True)
        if created:
            messages.success(request, _("%(name)s added and checked in.") % {"name": player.name})
        else:
            messages.info(
                request,
                _("%(name)s was already in the register and is now checked in.") % {"name": player.name},
            )
        check_in_views.late_arrival_note(request, evening, player)
        return redirect("organiser:evening_players", pk=evening.pk)
    present = set(Participant.objects.filter(evening=evening, checked_in=True).values_list("player_id", flat=True))
    query = request.GET.get("q", "").strip()
    players = selectors.search_players(query)
    return render(
        request,
        "organiser/evening_players.html",
        {
            "evening": evening,
            "players": players,
            "present": present,
            "form": form,
            "count": len(present),
            "query": query,
            "wishes": selectors.draw_wishes(evening),
            **check_in_views.check_in_page_context(request, evening, present),
        },
    )


@helper_required
@require_POST
def check_in(request: HttpRequest, pk: int, player_pk: int) -> HttpResponse:
    evening = _evening(pk)
    player = get_object_or_404(Player, pk=player_pk)
    services.set_checked_in(evening=evening, player=player, checked_in=request.POST.get("present") == "1")
    if request.POST.get("present") == "1":
        check_in_views.late_arrival_note(request, evening, player)
    url = reverse("organiser:evening_players", kwargs={"pk": evening.pk})
    if request.POST.get("q"):
        url += "?" + urlencode({"q": request.POST["q"]})
    return redirect(f"{url}#p{player.pk}")


@leader_required
@require_POST
def evening_language(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the language of the evening's printouts, public screens and tablets."""
    evening = _evening(pk)
    try:
        evening = services.set_evening_language(evening_id=evening.pk, language=request.POST.get("language", ""))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request,
            _("Printouts, public screens and tablets of this evening are now in %(language)s.")
            % {"language": evening.get_language_display()},
        )
    return redirect("organiser:evening_detail", pk=evening.pk)


@leader_required
@require_POST
def evening_tiebreaks(request: HttpRequest, pk: int) -> HttpResponse:
    """Set the evening's tie-break chain (first, second ... tie-break; "none" skipped)."""
    evening = _evening(pk)
    try:
        evening = services.set_evening_tiebreaks(evening_id=evening.pk, criteria=request.POST.getlist("tiebreak"))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        chain = selectors.evening_chain(evening)
        if chain:
            messages.success(
                request,
                _("Equal totals are now separated by: %(chain)s.")
                % {"chain": ", ".join(str(tiebreak_labels.LABELS[c]) for c in chain)},
            )
        else:
            messages.success(request, _("Equal totals now share a place (no tie-breaks)."))
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": evening.pk}) + "#tiebreaks")


@leader_required
@require_POST
def evening_rule_set(request: HttpRequest, pk: int) -> HttpResponse:
    """Change the evening's rule set (only while no deal is entered)."""
    evening = _evening(pk)
    try:
        evening = services.set_evening_rule_set(evening_id=evening.pk, rule_set=request.POST.get("rule_set", ""))
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(
            request, _("This evening is played by the rules of %(name)s.") % {"name": evening.get_rule_set_display()}
        )
    return redirect("organiser:evening_detail", pk=evening.pk)


@leader_required
@require_POST
def table_link_regenerate(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Replace a table's private link and code (lost tablet): the old ones stop working at once."""
    evening = _evening(pk)
    table = get_object_or_404(evening.tables, number=number)
    services.regenerate_table_link(table_id=table.pk)
    messages.success(
        request,
        _("Table %(number)s has a new link and code. The old ones no longer work; open the new link on the tablet.")
        % {"number": number},
    )
    if request.POST.get("next") == "tablets":
        return redirect(reverse("organiser:tablets", kwargs={"pk": evening.pk}) + f"#tisch-{number}")
    return redirect(reverse("organiser:evening_detail", kwargs={"pk": evening.pk}) + "#links")


@helper_required
def player_import(request: HttpRequest) -> HttpResponse:
    """Upload a spreadsheet, see a preview with the bad rows, then import (or cancel)."""
    evening = None
    evening_pk = ascii_int(request.GET.get("evening") or request.POST.get("evening"))
    if evening_pk is not None:
        evening = Evening.objects.filter(pk=evening_pk).first()
    form = ImportForm(request.POST or None, request.FILES or None)
    preview = None
    if request.method == "POST" and "confirm" in request.POST:
        stored = request.session.pop(IMPORT_SESSION_KEY, None)
        if not stored:
            messages.error(request, _("The preview has expired. Please upload the file again."))
            return redirect(request.get_full_path())
        rows = [ParsedPlayer(**row) for row in stored]
        outcome = services.import_players(rows, check_in_to=evening)
        messages.success(
            request,
            _("%(created)s players added, %(existing)s were already in the register.")
            % {"created": outcome.created, "existing": outcome.existing},
        )
        if evening:
            return redirect("organiser:evening_players", pk=evening.pk)
        return redirect("organiser:player_list")
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            parsed = parse_player_file(upload.read(), upload.name)
        except PlayerFileError as error:
            form.add_error("file", translate(error))
        else:
            preview = selectors.import_preview(parsed)
            request.session[IMPORT_SESSION_KEY] = [
                {"line": p.line, "name": p.name, "club": p.club} for p in parsed.players
            ]
    return render(request, "organiser/player_import.html", {"form": form, "preview": preview, "evening": evening})


def _add_player(form: PlayerForm) -> tuple[Player, bool] | None:
    """(player, created) for a valid form: added to the register, or found there with the same
    name and club. None when the form is invalid or the service refuses (the error is on the form)."""
    if not form.is_valid():
        return None
    try:
        return services.add_player(**form.cleaned_data)
    except DomainError as error:
        form.add_error(None, translate(error))
        return None


@helper_required
def player_list(request: HttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and (added := _add_player(form)):
        player, created = added
        if created:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
        else:
            messages.info(request, _("%(name)s is already in the register.") % {"name": player.name})
        return redirect("organiser:player_list")
    query = request.GET.get("q", "").strip()
    players = selectors.search_players(query)
    return render(
        request,
        "organiser/player_list.html",
        {"players": players, "form": form, "query": query, "duplicates": register_duplicates()},
    )


@helper_required
def player_edit(request: HttpRequest, player_pk: int) -> HttpResponse:
    """Correct a player's name or club in the register."""
    player = get_object_or_404(Player, pk=player_pk)
    form = PlayerForm(request.POST or None, initial={"name": player.name, "club": player.club})
    if request.method == "POST" and form.is_valid():
        try:
            services.update_player(player_id=player.pk, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, translate(error))
        else:
            messages.success(request, _("%(name)s saved.") % {"name": form.cleaned_data["name"]})
            return redirect("organiser:player_list")
    return render(request, "organiser/player_edit.html", {"player": player, "form": form})


@leader_required
@require_POST
def session_draw(request: HttpRequest, pk: int) -> HttpResponse:
    evening = _evening(pk)
    try:
        session = services.draw_session(
            evening=evening, user=request.user, number=ascii_int(request.POST.get("number"))
        )
    except DomainError as error:
        messages.error(request, translate(error))
        return redirect("organiser:evening_detail", pk=evening.pk)
    messages.success(
        request,
        _("Session %(number)s drawn (random seed %(seed)s).") % {"number": session.number, "seed": session.seed},
    )
    return redirect("organiser:session_detail", pk=evening.pk, number=session.number)


@helper_required
def session_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The table list of one session: every round, every table, who sits out."""
    evening = _evening(pk)
    sessions = selectors.sessions_with_rounds(evening)
    session = next((s for s in sessions if s.number == number), None)
    if session is None:
        messages.error(request, _("Session %(number)s has not been drawn yet.") % {"number": number})
        return redirect("organiser:evening_detail", pk=evening.pk)
    return render(
        request,
        "organiser/session_detail.html",
        {"evening": evening, "session": session, "changes": selectors.session_changes(session)},
    )


def _rules_column(evening: Evening) -> tuple[str, str]:
    """The exports' last column: the rule set the evening's deals were scored by."""
    return _("Rules"), evening.get_rule_set_display()


def _ranking_records(evening: Evening) -> tuple[list[dict], bool, tuple[Criterion, ...]]:
    """The ranking page's records (:func:`scoring.tables.ranking_rows`, with their sort keys),
    whether a sit-out credit is provisional, and the tie-break columns shown: computed once per
    evening version and language, for the shared cache (scoring.screen_cache)."""
    rows = selectors.evening_ranking(evening)
    criteria = selectors.tiebreak_columns(evening, rows)
    names = selectors.evening_display_names(evening.pk) if criteria else None
    records = ranking_rows(
        rows, evening.sessions_count, sessions_drawn=evening.sessions.count(), criteria=criteria, names=names
    )
    return records, any(r.provisional for r in rows), tuple(criteria)


@helper_required
@require_safe
@conditional
def ranking(request: HttpRequest, pk: int) -> HttpResponse:
    evening = _evening(pk)
    session_count = evening.sessions_count
    records, provisional_credit, criteria = screen_cache.computed(
        "ranking", evening.pk, evening.version, lambda: _ranking_records(evening), variant=get_language()
    ).value
    table = RankingTable(records, session_count, criteria=criteria)
    RequestConfig(request, paginate=False).configure(table)
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        name = _("Ranking-%(name)s") % {"name": evening.name}
        return export_response(table, export_format, name, title=_("Ranking"), constant=_rules_column(evening))
    return render(
        request,
        "organiser/ranking.html",
        {
            "evening": evening,
            "table": table,
            "complete": selectors.evening_is_confirmed(evening),
            "provisional_credit": provisional_credit,
            "chain": [tiebreak_labels.LABELS[c] for c in selectors.evening_chain(evening)],
        },
    )


@helper_required
def deal_results(request: HttpRequest, pk: int) -> HttpResponse:
    """Every entered deal of the evening, one row each (page, CSV and XLSX)."""
    evening = _evening(pk)
    table = DealResultTable(selectors.evening_deals(evening), names=selectors.evening_display_names(evening.pk))
    export_format = request.GET.get("_export")
    if export_format in EXPORT_FORMATS:
        RequestConfig(request, paginate=False).configure(table)
        name = _("Deals-%(name)s") % {"name": evening.name}
        return export_response(table, export_format, name, title=_("Deals"), constant=_rules_column(evening))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(request, "organiser/deal_results.html", {"evening": evening, "table": table})


def _record_draw(request: HttpRequest, seating: Seating, number: int, form) -> HttpResponse:
    """The correction form's "draw" (Bräus): recorded as on the tablet, the deal is dealt again."""
    try:
        services.record_draw(
            seating_id=seating.pk,
            number=number,
            origin=Origin.organiser(request.user),
            user=request.user,
            key=form.cleaned_data["key"],
            client=client_address(request),
        )
    except DomainError as error:
        messages.error(request, translate(error))
    else:
        messages.success(request, _("Draw of deal %(number)s recorded: the table deals it again.") % {"number": number})
    return redirect("organiser:seating_detail", pk=seating.pk)


@helper_required
def seating_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's view of one table in one round: deals, corrections, history."""
    seating = get_object_or_404(
        Seating.objects.select_related("round__session__evening", "table", *selectors.PARTNERSHIP_PLAYERS),
        pk=pk,
    )
    evening = seating.round.session.evening
    sheet = selectors.seating_sheet(seating, evening.deals_per_round)
    choice = DealNumberForm(request, deals_per_round=evening.deals_per_round)
    if not choice.is_valid():
        messages.error(request, choice.errors["number"][0])
    number_int = choice.deal
    form = None
    # A confirmed round: the Turnierleitung's correction needs a reason. A Helfer never changes a
    # confirmed round nor accepts an "impossible" result: the service refuses that (it checks with
    # the round locked; a round read here may be confirmed before the service runs).
    reason_required = seating.confirmed_at is not None and request.user.has_perm(RUN_PERM)
    if request.method == "POST":
        form = OrganiserDealForm(request.POST, reason_required=reason_required, rules=evening.rules)
        if form.is_valid() and form.result().winner == DRAW:
            return _record_draw(request, seating, number_int, form)
        if form.is_valid():
            try:
                services.enter_deal(
                    seating_id=seating.pk,
                    number=number_int,
                    result=form.result(),
                    origin=Origin.organiser(request.user),
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                    accept_impossible=form.cleaned_data["accept_impossible"],
                    key=form.cleaned_data["key"],
                    based_on_version=form.cleaned_data["version"],
                    client=client_address(request),
                )
            except DomainError as error:
                form.add_error(None, translate(error))
            else:
                messages.success(request, _("Deal %(number)s saved.") % {"number": number_int})
                return redirect("organiser:seating_detail", pk=seating.pk)
    if form is None and number_int:
        form = OrganiserDealForm.for_deal(seating, sheet.deals.get(number_int), reason_required=reason_required)
    return render(
        request,
        "organiser/seating_detail.html",
        {
            "evening": evening,
            "seating": seating,
            "rows": sheet.rows,
            "history": sheet.history,
            "form": form,
            "edit_number": number_int or "",
            "total_a": sheet.total_a,
            "total_b": sheet.total_b,
            "state": sheet.state,
            "all_entered": sheet.all_entered,
            "names": selectors.evening_display_names(evening.pk),
        },
    )
