"""Seasons (Jahreswertung): create and edit a season, and which evenings belong to it."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction

from scoring.domain import season as season_domain
from scoring.domain.errors import gettext_noop
from scoring.domain.tiebreaks import chain_text, parse_chain
from scoring.models import Evening, Season, SeasonEvening
from scoring.services.base import ServiceError, evening_changed


@transaction.atomic
def save_season(
    *,
    season: Season | None = None,
    name: str,
    year: int,
    scoring: str,
    placement_points: Sequence[int] = season_domain.DEFAULT_PLACEMENT_POINTS,
    best_of: int | None = None,
    min_evenings: int = 1,
    planned_evenings: int = 12,
    tie_break: str = "",
    public_player_pages: bool = False,
    evening_ids: Sequence[int] = (),
) -> Season:
    """Create a season (``season`` None) or change one, with the evenings that belong to it
    (the list replaces the previous one; evenings left out leave the season).

    Amounts: ``placement_points`` are points for place 1, 2, ...; ``best_of`` (None: every
    evening counts) and ``min_evenings`` count evenings.

    Raises:
        ServiceError / SeasonRuleError: an empty name, a bad placement table (gaps, negative or
            rising values), best N or the minimum outside 1 .. planned evenings, more evenings
            than planned, an evening that does not exist or belongs to another season, a
            tie-break chain (``tie_break``: stored criteria joined by commas, as an evening's)
            with an unknown or repeated criterion. Nothing is saved then.
    """
    name = name.strip()
    if not name:
        raise ServiceError(gettext_noop("Please give the season a name."), code="name")
    rules = _checked_rules(scoring, placement_points, best_of, min_evenings, planned_evenings)
    tie_break = chain_text(parse_chain(tie_break))
    wanted = sorted(set(evening_ids))
    _check_evenings(season, wanted, planned_evenings)
    if season is None:
        season = Season()
    else:
        season = Season.objects.select_for_update().get(pk=season.pk)
    season.name = name
    season.year = year
    season.scoring = scoring
    season.placement_points = list(rules.placement_points)
    season.best_of = best_of
    season.min_evenings = min_evenings
    season.planned_evenings = planned_evenings
    season.tie_break = tie_break
    season.public_player_pages = public_player_pages
    try:
        season.full_clean(exclude=["evenings"])
    except ValidationError as error:
        raise ServiceError(gettext_noop("Please check the season's settings."), code="invalid") from error
    season.save()
    _set_evenings(season, wanted)
    return season


def _checked_rules(
    scoring: str, placement_points: Sequence[int], best_of: int | None, min_evenings: int, planned_evenings: int
) -> season_domain.SeasonRules:
    """The season's rules, once they fit the ``planned_evenings`` (1 to 100).

    Raises ServiceError (``planned_evenings``) / SeasonRuleError (:func:`season_domain.check_rules`)."""
    rules = season_domain.SeasonRules(
        scoring=scoring,
        placement_points=tuple(placement_points),
        best_of=best_of,
        min_evenings=min_evenings,
    )
    if not 1 <= planned_evenings <= 100:
        raise ServiceError(
            gettext_noop("The number of evenings planned must be between 1 and 100."), code="planned_evenings"
        )
    season_domain.check_rules(rules, planned_evenings)
    return rules


def _check_evenings(season: Season | None, wanted: Sequence[int], planned_evenings: int) -> None:
    """Lock the evenings chosen for the season (ids ``wanted``, sorted, distinct) and raise
    ServiceError (``evening_missing``, ``too_many_evenings``, ``evening_taken``) unless they all
    exist, are no more than planned and belong to no other season."""
    evenings = {e.pk: e for e in Evening.objects.select_for_update().filter(pk__in=wanted)}
    if len(evenings) != len(wanted):
        raise ServiceError(gettext_noop("One of the evenings chosen no longer exists."), code="evening_missing")
    if len(wanted) > planned_evenings:
        raise ServiceError(
            gettext_noop(
                "%(count)s evenings chosen but only %(planned)s planned: raise the number of evenings planned."
            ),
            code="too_many_evenings",
            count=len(wanted),
            planned=planned_evenings,
        )
    taken = SeasonEvening.objects.filter(evening_id__in=wanted).select_related("season", "evening")
    if season is not None and season.pk:
        taken = taken.exclude(season=season)
    other = taken.first()
    if other is not None:
        raise ServiceError(
            gettext_noop(
                "“%(evening)s” already belongs to the season “%(season)s”. An evening can be in one season only."
            ),
            code="evening_taken",
            evening=other.evening.name,
            season=other.season.name,
        )


def _set_evenings(season: Season, wanted: Sequence[int]) -> None:
    """Make ``wanted`` (evening ids) the season's evenings; every evening leaving, joining or
    staying counts as changed (the season's name is on their pages)."""
    before = set(SeasonEvening.objects.filter(season=season).values_list("evening_id", flat=True))
    SeasonEvening.objects.filter(season=season).exclude(evening_id__in=wanted).delete()
    have = set(SeasonEvening.objects.filter(season=season).values_list("evening_id", flat=True))
    SeasonEvening.objects.bulk_create([SeasonEvening(season=season, evening_id=pk) for pk in wanted if pk not in have])
    evening_changed(pk__in=before | set(wanted))


@transaction.atomic
def add_evening_to_season(*, season: Season, evening: Evening) -> Season:
    """Put one more evening into a season (e.g. from the evening's page), with the same checks
    as :func:`save_season` (another season, more than planned)."""
    current = list(SeasonEvening.objects.filter(season=season).values_list("evening_id", flat=True))
    return save_season(
        season=season,
        name=season.name,
        year=season.year,
        scoring=season.scoring,
        placement_points=season.placement_points or season_domain.DEFAULT_PLACEMENT_POINTS,
        best_of=season.best_of,
        min_evenings=season.min_evenings,
        planned_evenings=season.planned_evenings,
        tie_break=season.tie_break,
        public_player_pages=season.public_player_pages,
        evening_ids=[*current, evening.pk],
    )
