"""Forms of the organiser and scorer pages; errors are translated German/English messages."""

from __future__ import annotations

import uuid
from typing import Any, cast

from django import forms
from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Field as ModelField
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.domain.languages import suggested_language
from scoring.domain.numbers import ascii_int
from scoring.domain.rules import DealResult, ImpossibleResult
from scoring.domain.rulesets import DEFAULT, RuleSet, rule_set
from scoring.domain.season import DEFAULT_PLACEMENT_POINTS, SeasonRuleError, parse_placement_points
from scoring.models import Evening, Season, TeamLetter
from scoring.validators import validate_no_bidi_controls
from scoring.web import tiebreak_labels
from scoring.web.messages import translate

#: The bonus choices of the default rule set (DealForm sets those of the others).
BONUS_CHOICES = [(n, str(n)) for n in range(rule_set(DEFAULT).max_bonus + 1)]


class EveningForm(forms.ModelForm):
    class Meta:
        model = Evening
        fields = [
            "name",
            "date",
            "venue",
            "rule_set",
            "sessions_count",
            "rounds_per_session",
            "deals_per_round",
            "language",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The model's limits (e.g. 1 to 6 sessions) also in the browser (min/max) and in the form,
        # so a wrong number is refused at its own field.
        # The language: first offered as the rule set's (Danish Brus in Danish, Bräus
        # in Swedish); a form without it (an older page still open) gets that one too.
        language = cast(forms.ChoiceField, self.fields["language"])
        language.required = False
        language.choices = [("", _("The rule set's language"))] + list(settings.LANGUAGES)
        language.help_text = _(
            "The rule set's language: Danish for Danish Brus, Swedish for Bräus, German for Schwesing "
            "and Treia. Printouts, the public screens and the tablets use this language, whatever "
            "language a browser or the organiser's own pages are set to."
        )
        if self.instance._state.adding:  # a new evening: the rule set's language until chosen
            self.initial["language"] = ""
        self.fields["rule_set"].required = False
        for name in ("sessions_count", "rounds_per_session", "deals_per_round"):
            field = self.fields[name]
            limits = [
                v
                for v in cast(ModelField, Evening._meta.get_field(name)).validators
                if isinstance(v, (MinValueValidator, MaxValueValidator))
            ]
            field.validators = [v for v in field.validators if not isinstance(v, MinValueValidator)]
            field.validators += limits
            for validator in limits:
                attr = "min" if isinstance(validator, MinValueValidator) else "max"
                field.widget.attrs[attr] = validator.limit_value

    def clean_language(self) -> str:
        # The rule set (cleaned before: it comes first in Meta.fields) suggests the language.
        return self.cleaned_data.get("language") or suggested_language(
            self.cleaned_data.get("rule_set"), dict(settings.LANGUAGES)
        )

    def clean_rule_set(self) -> str:
        return self.cleaned_data.get("rule_set") or Evening._meta.get_field("rule_set").default


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, validators=[validate_no_bidi_controls])
    club = forms.CharField(
        label=_("Club or village"), max_length=100, required=False, validators=[validate_no_bidi_controls]
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Spreadsheet (.xlsx or .csv)"),
        help_text=_("First row: column headers, e.g. Name and Verein."),
    )


class DealNumberForm(forms.Form):
    """Which deal of a round the organiser opens or saves: ``number`` from the form sent, else
    ``deal`` from the link; 1 to the evening's deals per round, ASCII digits only
    (:func:`scoring.domain.numbers.ascii_int`). Nothing given is valid (no deal chosen, ``number`` 0)."""

    number = forms.CharField(required=False, strip=False)

    def __init__(self, request, *, deals_per_round: int):
        raw = request.POST.get("number") or request.GET.get("deal") or ""
        super().__init__({"number": raw})
        self.deals_per_round = deals_per_round

    def clean_number(self) -> int:
        raw = self.cleaned_data["number"]
        if not raw:
            return 0
        number = ascii_int(raw, minimum=1, maximum=self.deals_per_round)
        if number is None:
            raise forms.ValidationError(
                _("There is no deal %(number)s: a round has deals 1 to %(count)s."),
                code="no_such_deal",
                params={"number": raw, "count": self.deals_per_round},
            )
        return number

    @property
    def deal(self) -> int:
        """The chosen deal's number, 0 for none or an invalid one."""
        return self.cleaned_data.get("number", 0) if self.is_valid() else 0


class DealForm(forms.Form):
    """One deal as the scorer enters it; checked against the evening's rule set (``rules``): its
    outcomes (the teams, and a Bock or a draw), its name for "to nil", its bonuses (none in
    Bräus: then the form has no bonus fields)."""

    winner = forms.ChoiceField(
        label=_("Who reached five tricks?"),
        choices=TeamLetter.choices,
        widget=forms.RadioSelect,
        error_messages={"required": _("Please choose the team that reached five tricks.")},
    )
    to_nil = forms.BooleanField(label=_("To nil (opponents took no trick)"), required=False)
    bonus_a = forms.TypedChoiceField(
        label=_("Daring and striking, team A"),
        choices=BONUS_CHOICES,
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    bonus_b = forms.TypedChoiceField(
        label=_("Daring and striking, team B"),
        choices=BONUS_CHOICES,
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
    )
    seating = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    # The deal's version the form was made from (0: not entered yet): a deal changed meanwhile on
    # another device is not overwritten silently. Required: a post without it could overwrite.
    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=0,
        max_value=2**31 - 1,
        error_messages={"required": _("This form is out of date. Please reload the page and enter the deal again.")},
    )
    # Made fresh for every form shown: sending the same form twice saves it once.
    key = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, rules: RuleSet | None = None, allow_impossible: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.allow_impossible = allow_impossible
        self.rules = rules = rules or rule_set(DEFAULT)
        wording = rules.wording
        winner = cast(forms.ChoiceField, self.fields["winner"])
        if rules.no_winner:
            winner.choices = [*TeamLetter.choices, (rules.no_winner, gettext(wording.no_winner))]
        if not rules.is_default:
            winner.label = gettext(wording.winner_question)
            winner.error_messages["required"] = gettext("Please choose who won the deal.")
            self.fields["to_nil"].label = gettext(wording.to_nil)
        if not rules.has_bonus:
            del self.fields["bonus_a"], self.fields["bonus_b"]
        elif not rules.is_default:
            for team in TeamLetter:
                field = cast(forms.ChoiceField, self.fields[f"bonus_{team.value.lower()}"])
                field.choices = [(n, str(n)) for n in range(rules.max_bonus + 1)]
                field.label = gettext("%(bonus)s, team %(team)s") % {"bonus": gettext(wording.bonus), "team": team}

    @classmethod
    def for_deal(cls, seating, deal=None, **kwargs):
        """An unbound form for a deal (pre-filled when entered), with a fresh key, under the rule
        set of the seating's evening."""
        initial = {"seating": seating.pk, "bonus_a": 0, "bonus_b": 0, "version": 0, "key": uuid.uuid4()}
        if deal is not None:
            initial.update(
                winner=deal.winner, to_nil=deal.to_nil, bonus_a=deal.bonus_a, bonus_b=deal.bonus_b, version=deal.version
            )
        kwargs.setdefault("rules", seating.round.session.evening.rules)
        return cls(initial=initial, **kwargs)

    def result(self) -> DealResult:
        data = self.cleaned_data
        return DealResult(
            winner=data["winner"],
            to_nil=bool(data["to_nil"]),
            bonus_a=data.get("bonus_a", 0),
            bonus_b=data.get("bonus_b", 0),
        )

    def clean(self):
        data = cast(dict[str, Any], super().clean())  # Form.clean gives cleaned_data (the stubs allow None)
        for name in self.fields:
            if hasattr(self.data, "getlist") and len(self.data.getlist(name)) > 1:
                # e.g. winner=A&winner=B: refuse instead of silently taking the last value.
                raise forms.ValidationError(
                    _("The form was sent with two answers for “%(field)s”. Please choose one and save again."),
                    code="several_values",
                    params={"field": self.fields[name].label or name},
                )
        if self.errors:
            return data
        try:
            self.rules.check_result(self.result())
        except ImpossibleResult as error:
            if not (self.allow_impossible and data.get("accept_impossible")):
                raise forms.ValidationError(translate(error), code=error.code) from None
        return data


class OrganiserDealForm(DealForm):
    """The organiser's correction: with a reason, and able to accept an 'impossible' result."""

    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=500,
        widget=forms.TextInput(attrs={"size": 40}),
    )
    accept_impossible = forms.BooleanField(
        label=_("Accept although the rules call it impossible (local custom)"), required=False
    )

    def __init__(self, *args, reason_required: bool = False, **kwargs):
        super().__init__(*args, allow_impossible=True, **kwargs)
        if reason_required:  # a confirmed round: the service refuses a correction without reason
            self.fields["reason"].required = True
            self.fields["reason"].label = _("Reason for the correction (required: the round is confirmed)")


class WholeNumberField(forms.IntegerField):
    """A whole number typed in ASCII digits only (``scoring.domain.numbers.ascii_int``): "²" or "٣"
    is refused at the field, not read as a number."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        number = ascii_int(str(value))
        if number is None:
            raise forms.ValidationError(_("Please enter a whole number (digits 0 to 9)."), code="invalid")
        return number


class SeasonForm(forms.Form):
    """A season's settings and its evenings; the checks of the season rules are the service's
    (:func:`scoring.services.save_season`), shown on this form."""

    name = forms.CharField(label=_("Name"), max_length=120, validators=[validate_no_bidi_controls])
    year = WholeNumberField(label=_("Year"), min_value=1900, max_value=2200)
    scoring = forms.ChoiceField(
        label=_("How the season is scored"), choices=Season.Scoring.choices, widget=forms.RadioSelect
    )
    placement_points = forms.CharField(
        label=_("Placement points (place 1, 2, 3, …)"),
        required=False,
        help_text=_(
            "Only for placement points: the points for place 1, 2, 3 … separated by commas. "
            "Places further down get 0. No gaps, no negative numbers, never more for a worse place."
        ),
    )
    best_of = WholeNumberField(
        label=_("Best evenings that count"),
        required=False,
        min_value=1,
        help_text=_("Streichergebnisse: only a player's best N evenings count, the worst are dropped. Empty: all."),
    )
    min_evenings = WholeNumberField(
        label=_("Minimum evenings to be ranked"),
        min_value=1,
        initial=1,
        help_text=_("Players with fewer evenings are listed below the ranking, without a place."),
    )
    planned_evenings = WholeNumberField(
        label=_("Evenings planned"),
        min_value=1,
        max_value=100,
        initial=12,
        help_text=_("The season ranking is provisional until this many evenings are in the season and all confirmed."),
    )
    tiebreak_1 = forms.ChoiceField(label=_("Equal season values: tie-break 1"), required=False)
    tiebreak_2 = forms.ChoiceField(label=_("Tie-break 2"), required=False)
    tiebreak_3 = forms.ChoiceField(label=_("Tie-break 3"), required=False)
    tiebreak_4 = forms.ChoiceField(
        label=_("Tie-break 4"),
        required=False,
        help_text=_(
            "None: equal values share a place. The criteria count over the evenings that count: "
            "the best single session of them, the sums of deals won, daring and striking, rounds sat out."
        ),
    )
    public_player_pages = forms.BooleanField(label=_("Players' pages may be shown publicly"), required=False)
    evenings = forms.TypedMultipleChoiceField(
        label=_("Evenings of this season"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("An evening belongs to one season at most."),
    )

    def __init__(self, *args, evenings=(), **kwargs):
        """``evenings``: (id, label) of the evenings to offer."""
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["evenings"]).choices = list(evenings)
        for name in self.TIEBREAKS:
            cast(forms.ChoiceField, self.fields[name]).choices = [("", _("none")), *tiebreak_labels.choices()]

    TIEBREAKS = ("tiebreak_1", "tiebreak_2", "tiebreak_3", "tiebreak_4")

    def tie_break(self) -> str:
        """The chosen chain as stored (criteria joined by commas; "" for none)."""
        return ",".join(self.cleaned_data[name] for name in self.TIEBREAKS if self.cleaned_data.get(name))

    @classmethod
    def tiebreak_initial(cls, stored: str) -> dict:
        values = [v for v in stored.split(",") if v]
        return {name: values[i] if i < len(values) else "" for i, name in enumerate(cls.TIEBREAKS)}

    def clean_placement_points(self):
        text = self.cleaned_data.get("placement_points", "")
        if self.cleaned_data.get("scoring") != Season.Scoring.POINTS and not text.strip():
            return list(DEFAULT_PLACEMENT_POINTS)
        try:
            return list(parse_placement_points(text))
        except SeasonRuleError as error:
            raise forms.ValidationError(translate(error)) from error
