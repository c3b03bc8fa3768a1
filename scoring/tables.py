"""django-tables2 tables."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

import django_tables2 as tables
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.timezone import localtime
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django_tables2 import utils as tables_utils

from scoring.domain.names import person_key, sort_text
from scoring.domain.ranking import PROVISIONAL_MARK, one_decimal
from scoring.domain.rulesets import RuleSet
from scoring.domain.tiebreaks import Criterion
from scoring.templatetags.bruus import format_matchsticks
from scoring.web import tiebreak_labels

_signature = tables_utils.signature


@lru_cache(maxsize=1024)
def _cached_signature(function, bound: bool):
    return _signature(function.__get__(object()) if bound else function)


def _signature_once(fn):
    """django-tables2 asks ``inspect.signature`` for every cell it renders (the ranking of 1,000
    players: 7,000 cells, 28 % of the page's time); a function's signature does not
    change, so it is computed once per function (bound methods: per underlying function)."""
    function = getattr(fn, "__func__", None)
    try:
        return _cached_signature(function, True) if function is not None else _cached_signature(fn, False)
    except TypeError:  # unhashable callable
        return _signature(fn)


tables_utils.signature = _signature_once

#: Export formats whose cells hold numbers (the others get the formatted text of the page).
NUMERIC_EXPORTS = frozenset({"xlsx", "ods"})


def matchsticks_number(value) -> int | float | None:
    """Matchsticks as a spreadsheet number: whole numbers as int, sit-out averages rounded to
    the one decimal the page shows (half up, :func:`one_decimal`)."""
    if value is None:
        return None
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(one_decimal(value))


class MatchstickColumn(tables.Column):
    """A column of matchsticks (int or Fraction): sorts by value, shows one decimal when needed."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        kwargs.setdefault("default", "–")  # a session not drawn yet (None), as on the printed ranking
        kwargs.setdefault("empty_values", ())  # None reaches render() and value(): "–" on the page and in CSV
        super().__init__(*args, **kwargs)

    def render(self, value, record, bound_column):
        """The value ("–" for a session not drawn yet), with
        :data:`~scoring.domain.ranking.PROVISIONAL_MARK` when the record lists the column in
        ``provisional`` (a sit-out credit of a running round)."""
        if value is None:
            return self.default
        text = format_matchsticks(value)
        if isinstance(record, dict) and bound_column.name in record.get("provisional", ()):
            return f"{text}{PROVISIONAL_MARK}"
        return text

    def value(self, value, table=None):
        """CSV: the text of the page (``6,2`` in German); XLSX: a number (one decimal)."""
        if getattr(table, "export_format", None) in NUMERIC_EXPORTS:
            return matchsticks_number(value)  # None (not drawn yet): an empty cell
        return self.default if value is None else format_matchsticks(value)


class RankingTable(tables.Table):
    """The individual ranking: place (shared places marked), name, club, one column per session,
    total, and with a tie-break chain one column per criterion used and the note which rule
    separated two players (``tiebreak``).

    Data: dicts with keys ``place``, ``shared``, ``name``, ``club``, ``s1`` .. ``sN`` (matchsticks),
    ``total``, ``tb_<criterion>`` and ``tiebreak`` (see :func:`ranking_rows`).
    """

    place = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}})
    # Sorting by name or club follows the one German order (scoring.domain.names.person_key).
    name = tables.Column(verbose_name=_("Name"), order_by=("name_key",))
    club = tables.Column(verbose_name=_("Club"), order_by=("club_key",))

    class Meta:
        orderable = True
        attrs = {"class": "ranking"}
        sequence = ("place", "name", "club", "...")
        template_name = "tables/lean.html"

    def __init__(
        self, data, session_count: int, criteria: Sequence[Criterion] = (), rules: RuleSet | None = None, **kwargs
    ):
        """``criteria``: the tie-break columns to show after the total
        (:func:`scoring.domain.tiebreaks.criteria_used`); with any, a last column says which
        rule put a player ahead of the next one. ``rules``: the evening's rule set, whose words
        name the bonus criterion."""
        extra = [
            (f"s{n}", MatchstickColumn(verbose_name=gettext("Session %(number)s") % {"number": n}))
            for n in range(1, session_count + 1)
        ]
        extra.append(("total", MatchstickColumn(verbose_name=_("Total"), attrs={"td": {"class": "num total"}})))
        extra += [
            (f"tb_{c.value}", MatchstickColumn(verbose_name=tiebreak_labels.column(c, rules), default=""))
            for c in criteria
        ]
        if criteria:  # exported as a column; on the page under the name (render_name)
            extra.append(
                ("tiebreak", tables.Column(verbose_name=_("Tie-break"), orderable=False, default="", visible=False))
            )
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_name(self, value, record):
        """The name, and below it the tie-break note ("vor Bernd Jensen durch besten Durchgang")."""
        if record.get("tiebreak"):
            return format_html('{}<small class="tiebreak">{}</small>', value, record["tiebreak"])
        return value

    def value_name(self, value):
        return value

    def render_place(self, value, record):
        return f"{value}." if not record["shared"] else f"{value}.*"

    def value_place(self, value, record):
        return value


def ranking_rows(
    rows,
    session_count: int,
    sessions_drawn: int | None = None,
    criteria: Sequence[Criterion] = (),
    names=None,
    rules: RuleSet | None = None,
) -> list[dict]:
    """:class:`scoring.selectors.RankingRow` objects -> dicts for :class:`RankingTable`.

    ``criteria``: tie-break columns (``tb_best_session`` ...) to fill; with any, ``tiebreak``
    holds the note "ahead of <next player> by <rule>" where the chain separated equal totals
    (``names``: :func:`scoring.selectors.evening_display_names`, for the next player's name).

    Sessions after ``sessions_drawn`` (None: all) have no value: the table shows "–" for them,
    as the printed ranking does, not 0.

    Amounts stay exact (Fractions): they sort by value and are rounded once, half up, when
    shown or exported (:func:`scoring.templatetags.bruus.format_matchsticks`).
    """
    data = []
    for row in rows:
        record = {
            "place": row.place,
            "shared": row.shared,
            "name": row.player.name,
            "name_key": person_key(row.player.name, row.player.club, row.player.pk, get_language()),
            "club_key": (
                sort_text(row.player.club, get_language()),
                person_key(row.player.name, "", row.player.pk, get_language()),
            ),
            "club": row.player.club,
            "total": row.total,
            "provisional": {f"s{i + 1}" for i in row.provisional} | ({"total"} if row.provisional else set()),
        }
        for criterion in criteria:
            record[f"tb_{criterion.value}"] = row.tiebreaks.get(criterion)
        if criteria:
            record["tiebreak"] = ahead_note(row, names, rules)
        for n in range(1, session_count + 1):
            drawn = sessions_drawn is None or n <= sessions_drawn
            if not drawn:
                record[f"s{n}"] = None
            else:
                record[f"s{n}"] = row.sessions[n - 1] if n - 1 < len(row.sessions) else Fraction(0)
        data.append(record)
    return data


def ahead_note(row, names: dict[int, str] | None = None, rules: RuleSet | None = None) -> str:
    """ "ahead of <name> by <rule>" for a :class:`scoring.selectors.RankingRow` that the evening's
    tie-break chain put ahead of the next line ("" otherwise), in the words of ``rules``."""
    if row.ahead_by is None or row.ahead_of is None:
        return ""
    name = (names or {}).get(row.ahead_of.pk, row.ahead_of.name)
    return tiebreak_labels.ahead_note(row.ahead_by, name, rules)


# --- Every deal result ------------------------------------------------------------------------


def team_names(partnership, names: dict[int, str] | None = None) -> str:
    """ "Name & Name" (three names in six-handed Bräus), each as shown in the evening (``names``:
    club added where names collide)."""
    names = names or {}
    return " & ".join(names.get(p.pk, p.name) for p in partnership.players)


class NumberColumn(tables.Column):
    """A right-aligned whole number."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)


class DealResultTable(tables.Table):
    """Every entered deal of an evening, one row each, in playing order.

    Data: :class:`~scoring.models.Deal` objects with their seating, round, session, table and both
    teams' players loaded (:func:`scoring.selectors.evening_deals`). In an export, the columns are
    plain values: numbers as numbers, the time as the local time (a date cell in XLSX).
    """

    session = NumberColumn(
        verbose_name=pgettext_lazy("deal list column", "Session"), accessor="seating__round__session__number"
    )
    round = NumberColumn(verbose_name=pgettext_lazy("deal list column", "Round"), accessor="seating__round__number")
    table_number = NumberColumn(
        verbose_name=pgettext_lazy("deal list column", "Table"), accessor="seating__table__number"
    )
    number = NumberColumn(verbose_name=pgettext_lazy("deal list column", "Deal"))
    team_a = tables.Column(
        verbose_name=pgettext_lazy("deal list column", "Team A"), accessor="seating__team_a", orderable=False
    )
    team_b = tables.Column(
        verbose_name=pgettext_lazy("deal list column", "Team B"), accessor="seating__team_b", orderable=False
    )
    winner = tables.Column(verbose_name=pgettext_lazy("deal list column", "Five tricks"))
    to_nil = tables.Column(verbose_name=pgettext_lazy("deal list column", "To nil"))
    bonus_a = NumberColumn(verbose_name=pgettext_lazy("deal list column", "Daring and striking A"))
    bonus_b = NumberColumn(verbose_name=pgettext_lazy("deal list column", "Daring and striking B"))
    points_a = NumberColumn(verbose_name=pgettext_lazy("deal list column", "Matchsticks A"))
    points_b = NumberColumn(verbose_name=pgettext_lazy("deal list column", "Matchsticks B"))
    updated_at = tables.Column(verbose_name=pgettext_lazy("deal list column", "Entered or changed"))

    class Meta:
        orderable = True
        attrs = {"class": "list deal-results"}
        empty_text = _("No deal has been entered yet.")

    def __init__(self, data, names: dict[int, str] | None = None, rules: RuleSet | None = None, **kwargs):
        """``names``: :func:`scoring.selectors.evening_display_names` (players with the same name
        are shown with their club). ``rules``: the evening's rule set, whose words head the columns
        (Bräus: "Six tricks"; Danish Brus: "Chancing and smacking"); without bonuses (Bräus) the
        bonus columns are left out."""
        self.names = names or {}
        if rules is not None and not rules.has_bonus:
            kwargs["exclude"] = (*kwargs.get("exclude", ()), "bonus_a", "bonus_b")
        super().__init__(data, **kwargs)
        if rules is not None:
            wording = rules.wording
            self.columns["winner"].column.verbose_name = gettext(wording.won_column)
            self.columns["to_nil"].column.verbose_name = capfirst(gettext(wording.to_nil_short))
            if rules.has_bonus:
                for team in ("A", "B"):
                    column = self.columns[f"bonus_{team.lower()}"].column
                    column.verbose_name = " ".join((gettext(wording.bonus), team))  # "Wagen und Schlagen A"

    def render_team_a(self, value):
        return team_names(value, self.names)

    def render_team_b(self, value):
        return team_names(value, self.names)

    def render_winner(self, record):
        return record.get_winner_display()

    def render_to_nil(self, value):
        return gettext("yes") if value else "–"

    def value_to_nil(self, value):
        return gettext("yes") if value else gettext("no")

    def render_updated_at(self, value):
        return date_format(localtime(value), "SHORT_DATETIME_FORMAT")

    def value_updated_at(self, value):
        if getattr(self, "export_format", None) in NUMERIC_EXPORTS:
            return localtime(value).replace(tzinfo=None, microsecond=0)  # Excel has no time zones
        return self.render_updated_at(value)


class FairnessTable(tables.Table):
    """The fairness report of the draw, one row per player who played (see
    :func:`scoring.selectors.evening_fairness` and :func:`fairness_rows`)."""

    name = tables.Column(verbose_name=_("Name"), order_by=("name_key",))
    partners = tables.Column(verbose_name=_("Partners (session: name)"), orderable=False)
    opponents = tables.Column(verbose_name=_("Different opponents"), attrs={"td": {"class": "num"}})
    repeats = tables.Column(verbose_name=_("Repeated opponents"), attrs={"td": {"class": "num"}})
    repeated = tables.Column(verbose_name=_("Met more than once"), orderable=False)
    sat_out = tables.Column(verbose_name=_("Rounds sat out"), attrs={"td": {"class": "num"}})

    class Meta:
        orderable = True
        attrs = {"class": "fairness"}


def fairness_rows(rows) -> list[dict]:
    """:class:`scoring.selectors.FairnessRow` objects -> dicts for :class:`FairnessTable`."""
    stand_in = gettext("(stand-in)")
    return [
        {
            "name": f"{row.player.name} {stand_in}" if row.stand_in else row.player.name,
            "name_key": person_key(row.player.name, row.player.club, row.player.pk, get_language()),
            "partners": " · ".join(f"{session}: {name}" for session, name in row.partners),
            "opponents": row.opponents,
            "repeats": row.repeats,
            "repeated": ", ".join(f"{name} ×{count}" for name, count in row.repeated),
            "sat_out": row.rounds_sat_out,
        }
        for row in rows
    ]


# --- The season ranking -----------------------------------------------------------------------


def season_evening_heading(season_evening) -> str:
    """A season ranking column's heading: the evening's number and date ("3 · 14.03.")."""
    return f"{season_evening.number} · {date_format(season_evening.evening.date, 'd.m.')}"


def season_export(ranking, export_format: str) -> tuple[list[str], list[list]]:
    """The season ranking as spreadsheet headers and rows: place (empty when below the minimum),
    name, club, one column per evening (empty: not played; a dropped result in brackets, as
    text), evenings played, total. XLSX gets numbers as numbers; CSV the text of the page."""
    numeric = export_format in NUMERIC_EXPORTS

    def number(value):
        return matchsticks_number(value) if numeric else format_matchsticks(value)

    headers = [
        gettext("Place"),
        gettext("Name"),
        gettext("Club"),
        *(season_evening_heading(e) for e in ranking.evenings),
        pgettext("season column", "Evenings"),
        gettext("Total"),
    ]
    rows = []
    for line in ranking.lines:
        cells = []
        for cell in ranking.row(line):
            if cell is None:
                cells.append("")
            elif cell.dropped:
                cells.append(f"({format_matchsticks(cell.value)})")
            else:
                cells.append(number(cell.value))
        place = "" if line.place is None else (line.place if numeric else f"{line.place}.{'*' if line.shared else ''}")
        rows.append([place, line.player.name, line.player.club, *cells, line.played, number(line.total)])
    return headers, rows
