"""The tie-break criteria (:mod:`scoring.domain.tiebreaks`) in the user's language: names for the
settings, column headings for rankings and exports, and the note that says which rule put one
player ahead of another ("vor Bernd Jensen durch besten Durchgang").

The pure domain keeps English names only (``Criterion.label``, ``Criterion.column``); the same
English texts are the msgids here (a test checks that they agree). The bonus criterion speaks in
the words of the evening's rule set (``RuleSet.wording.tiebreak_*``, msgids marked in the domain):
Danish Brus and Ringkøbing speak of chancing and smacking, not of the German game's daring and
striking.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.domain.rulesets import RuleSet
from scoring.domain.tiebreaks import Criterion
from scoring.templatetags.bruus import format_matchsticks

LABELS = {
    Criterion.BEST_SESSION: _("best single session"),
    Criterion.DEALS_WON: _("most deals won"),
    Criterion.BONUS_STICKS: _("most matchsticks from daring and striking"),
    Criterion.FEWEST_SITOUTS: _("fewest rounds sat out"),
}

COLUMNS = {
    Criterion.BEST_SESSION: pgettext_lazy("tie-break column", "Best session"),
    Criterion.DEALS_WON: pgettext_lazy("tie-break column", "Deals won"),
    Criterion.BONUS_STICKS: pgettext_lazy("tie-break column", "Daring and striking"),
    Criterion.FEWEST_SITOUTS: pgettext_lazy("tie-break column", "Sat out"),
}

_AHEAD = {
    Criterion.BEST_SESSION: _("ahead of %(name)s by the best single session"),
    Criterion.DEALS_WON: _("ahead of %(name)s by more deals won"),
    Criterion.BONUS_STICKS: _("ahead of %(name)s by more matchsticks from daring and striking"),
    Criterion.FEWEST_SITOUTS: _("ahead of %(name)s by fewer rounds sat out"),
}


def label(criterion: Criterion, rules: RuleSet | None = None) -> str:
    """The criterion's name (translated), in the words of the evening's rule set ``rules``."""
    if criterion is Criterion.BONUS_STICKS and rules is not None:
        return gettext(rules.wording.tiebreak_label)
    return str(LABELS[criterion])


def column(criterion: Criterion, rules: RuleSet | None = None) -> str:
    """The criterion's column heading (translated), in the words of the evening's rule set."""
    if criterion is Criterion.BONUS_STICKS and rules is not None:
        return gettext(rules.wording.tiebreak_column)
    return str(COLUMNS[criterion])


def ahead_note(criterion: Criterion | None, name: str, rules: RuleSet | None = None) -> str:
    """ "ahead of <name> by <rule>" in the active language (the evening's rule set's words); ""
    without a criterion."""
    if criterion is None:
        return ""
    if criterion is Criterion.BONUS_STICKS and rules is not None:
        return gettext(rules.wording.tiebreak_ahead) % {"name": name}
    return str(_AHEAD[criterion]) % {"name": name}


def tie_notes(
    rows, criteria: Sequence[Criterion], names: dict[int, str] | None = None, rules: RuleSet | None = None
) -> dict[int, str]:
    """Player id -> a short line for the public screen, for every player whose total equals a
    neighbour's: the values of the tie-break ``criteria`` ("Bester Durchgang 33 · Gewonnene Spiele
    9") and, where the chain put them ahead, "ahead of <name> by <rule>". Empty without criteria.

    ``rows``: :class:`scoring.selectors.RankingRow` in ranking order.
    """
    if not criteria:
        return {}
    notes = {}
    for index, row in enumerate(rows):
        neighbours = rows[max(index - 1, 0) : index] + rows[index + 1 : index + 2]
        if not any(other.total == row.total for other in neighbours):
            continue
        parts = [f"{column(c, rules)} {format_matchsticks(row.tiebreaks[c])}" for c in criteria]
        if row.ahead_by is not None and row.ahead_of is not None:
            parts.append(ahead_note(row.ahead_by, (names or {}).get(row.ahead_of.pk, row.ahead_of.name), rules))
        notes[row.player.pk] = " · ".join(parts)
    return notes


def choices(rules: RuleSet | None = None) -> list[tuple[str, str]]:
    """(stored value, translated name) of every criterion, in the order of docs/rules.md, "Equal totals" (the bonus
    criterion in the words of ``rules``, the evening's rule set; generic without one)."""
    return [(criterion.value, label(criterion, rules)) for criterion in Criterion]
