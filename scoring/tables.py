"""django-tables2 tables."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.templatetags.bruus import format_matchsticks


class MatchstickColumn(tables.Column):
    """A column of matchsticks (int or Fraction): sorts by value, shows one decimal when needed."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)

    def render(self, value):
        return format_matchsticks(value)

    def value(self, value):
        return format_matchsticks(value)


class RankingTable(tables.Table):
    """The individual ranking: place (shared places marked), name, club, one column per session, total.

    Data: dicts with keys ``place``, ``shared``, ``name``, ``club``, ``s1`` .. ``sN`` (matchsticks)
    and ``total`` (see :func:`ranking_rows`).
    """

    place = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "num"}})
    name = tables.Column(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Club"))
    total = MatchstickColumn(verbose_name=_("Total"), attrs={"td": {"class": "num total"}})

    class Meta:
        orderable = True
        attrs = {"class": "ranking"}
        sequence = ("place", "name", "club", "...", "total")

    def __init__(self, data, session_count: int, **kwargs):
        extra = [
            (f"s{n}", MatchstickColumn(verbose_name=gettext("Session %(number)s") % {"number": n}))
            for n in range(1, session_count + 1)
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_place(self, value, record):
        return f"{value}." if not record["shared"] else f"{value}.*"

    def value_place(self, value, record):
        return value


def ranking_rows(rows, session_count: int) -> list[dict]:
    """:class:`scoring.selectors.RankingRow` objects -> dicts for :class:`RankingTable`."""
    data = []
    for row in rows:
        record = {
            "place": row.place,
            "shared": row.shared,
            "name": row.player.name,
            "club": row.player.club,
            "total": row.total,
        }
        for n in range(1, session_count + 1):
            record[f"s{n}"] = row.sessions[n - 1] if n - 1 < len(row.sessions) else 0
        data.append(record)
    return data
