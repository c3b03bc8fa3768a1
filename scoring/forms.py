"""Forms of the organiser and scorer pages; errors are translated German/English messages."""

from __future__ import annotations

import uuid

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.domain.rules import MAX_BONUS, DealResult, ImpossibleResult
from scoring.domain.rulesets import DEFAULT, RuleSet, rule_set
from scoring.messages import translate
from scoring.models import Evening, TeamLetter
from scoring.validators import validate_no_bidi_controls

BONUS_CHOICES = [(n, str(n)) for n in range(MAX_BONUS + 1)]


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
        # A form without the language (an older page still open) gets the default.
        self.fields["language"].required = False
        self.fields["rule_set"].required = False
        for name in ("sessions_count", "rounds_per_session", "deals_per_round"):
            field = self.fields[name]
            limits = [
                v
                for v in Evening._meta.get_field(name).validators
                if isinstance(v, (MinValueValidator, MaxValueValidator))
            ]
            field.validators = [v for v in field.validators if not isinstance(v, MinValueValidator)] + limits
            for validator in limits:
                attr = "min" if isinstance(validator, MinValueValidator) else "max"
                field.widget.attrs[attr] = validator.limit_value

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or Evening._meta.get_field("language").default

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
        winner = self.fields["winner"]
        if rules.no_winner:
            winner.choices = [*TeamLetter.choices, (rules.no_winner, gettext(wording.no_winner))]
        if rules.code != DEFAULT:
            winner.label = gettext(wording.winner_question)
            winner.error_messages["required"] = gettext("Please choose who won the deal.")
            self.fields["to_nil"].label = gettext(wording.to_nil)
        if not rules.has_bonus:
            del self.fields["bonus_a"], self.fields["bonus_b"]
        elif rules.code != DEFAULT:
            for team in TeamLetter:
                field = self.fields[f"bonus_{team.value.lower()}"]
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
        data = super().clean()
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
