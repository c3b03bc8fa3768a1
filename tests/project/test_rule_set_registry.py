"""A rule set speaks for itself: the model's choices come from ``RULE_SETS`` (and the migrations
agree), and a new rule set registered in the domain is picked up by the pages, forms and
tie-break words without a change anywhere else (docs/architecture.md, "Adding a rule set")."""

from __future__ import annotations

import dataclasses

import pytest
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.domain import rulesets
from scoring.domain.languages import suggested_language
from scoring.domain.rulesets import DEFAULT, RULE_SETS, rule_set
from scoring.domain.tiebreaks import Criterion
from scoring.forms import DealForm
from scoring.models import Evening, RuleSetChoice
from scoring.web import tiebreak_labels


def test_rule_set_choices_agree_with_rule_sets_in_codes_order_and_names():
    assert [code for code, _ in RuleSetChoice.choices] == list(RULE_SETS)
    with translation.override("en"):
        assert [str(name) for _, name in RuleSetChoice.choices] == [rules.name for rules in RULE_SETS.values()]
    with translation.override("de"):
        assert dict(RuleSetChoice.choices)["danish"] == "Dänisches Brus"


def test_the_migrations_know_every_rule_set_and_the_default(db):
    state = MigrationLoader(None, ignore_no_migrations=True).project_state()
    field = state.models["scoring", "evening"].fields["rule_set"]
    assert [code for code, _ in field.choices] == list(RULE_SETS)
    assert field.default == DEFAULT == Evening._meta.get_field("rule_set").default


def test_exactly_one_rule_set_is_the_default_and_rule_set_of_nothing_is_it():
    assert [code for code, rules in RULE_SETS.items() if rules.is_default] == [DEFAULT]
    assert rule_set("") is RULE_SETS[DEFAULT]


# --- walking "Adding a rule set" with a toy ------------------------------------------------------

TOY = dataclasses.replace(
    rulesets.braeus.BRAEUS_RULES,
    code="toy",
    name="Toy Brus",
    language="sv",
    wording=dataclasses.replace(
        rulesets.danish.DANISH_RULES.wording,
        winner_question="Who won the toy deal?",
        to_nil="Toy to nil",
        tiebreak_label="most toy sticks",
        tiebreak_column="Toy sticks",
        tiebreak_ahead="ahead of %(name)s by more toy sticks",
        tiebreak_help="Toy tie-breaks: equal totals only.",
    ),
    derive_pairs=lambda: frozenset({(0, 0), (1, 0), (0, 1)}),
    no_winner="",
)


@pytest.fixture
def toy(monkeypatch):
    """The toy registered as step 2 of the recipe does it: one entry more in ``RULE_SETS``."""
    monkeypatch.setitem(RULE_SETS, TOY.code, TOY)
    return TOY


def test_a_toy_rule_set_brings_its_rules_words_and_language(toy):
    assert rule_set("toy") is toy
    assert suggested_language("toy") == "sv"
    assert toy.has_bonus and toy.max_bonus == 1 and not toy.is_default
    with translation.override("en"):
        assert tiebreak_labels.label(Criterion.BONUS_STICKS, toy) == "most toy sticks"
        assert tiebreak_labels.column(Criterion.BONUS_STICKS, toy) == "Toy sticks"
        assert tiebreak_labels.ahead_note(Criterion.BONUS_STICKS, "Bernd", toy) == "ahead of Bernd by more toy sticks"
        form = DealForm(rules=toy)
        assert form.fields["winner"].label == "Who won the toy deal?"
        assert form.fields["to_nil"].label == "Toy to nil"
        assert [value for value, _ in form.fields["bonus_a"].choices] == [0, 1]
        refused = DealForm({"winner": "A", "bonus_a": "1", "bonus_b": "1", "seating": "1", "version": "0"}, rules=toy)
        assert not refused.is_valid()


@pytest.mark.django_db
def test_the_organiser_page_asks_the_toy_rule_set_for_its_words(toy, organiser_client, evening_factory):
    evening = evening_factory(8)
    services.set_evening_rule_set(evening_id=evening.pk, rule_set="toy")
    evening.refresh_from_db()
    assert evening.rules is toy
    with translation.override("en"):
        page = organiser_client.get(reverse("organiser:evening_detail", args=[evening.pk])).content.decode()
    assert "Toy tie-breaks: equal totals only." in page
    assert "most toy sticks" in page


@pytest.mark.parametrize("language", ["de", "da", "sv"])
def test_every_word_of_every_rule_set_is_in_the_catalogue(language):
    """The domain's msgids (names, tablet and sheet words, refusals, tie-break words) are translated."""
    catalogue = translation.trans_real.translation(language)._catalog
    missing = []
    for rules in RULE_SETS.values():
        wording = rules.wording
        words = [rules.name] + [
            value for f in dataclasses.fields(wording) if isinstance(value := getattr(wording, f.name), str)
        ]
        words += [getattr(wording.bonus_messages, f.name) for f in dataclasses.fields(wording.bonus_messages)]
        missing += [word for word in words if word and word not in catalogue]
    assert missing == []
