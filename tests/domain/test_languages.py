"""The language an evening suggests from its rule set. Pure Python."""

from __future__ import annotations

from scoring.domain.languages import RULE_SET_LANGUAGES, suggested_language
from scoring.domain.rulesets import RULE_SETS


def test_each_rule_set_suggests_its_players_language():
    assert {code: suggested_language(code) for code in RULE_SETS} == {
        "schwesing": "de",
        "treia": "de",
        "danish": "da",
        "ringkobing": "da",
        "braeus": "sv",
        "braeus6": "sv",
    }
    assert set(RULE_SET_LANGUAGES) == set(RULE_SETS)  # a new rule set must say its language
    assert all(rules.language == RULE_SET_LANGUAGES[code] for code, rules in RULE_SETS.items())


def test_no_rule_set_an_unknown_one_or_a_language_the_site_lacks_suggest_german():
    assert suggested_language("") == suggested_language(None) == "de"
    assert suggested_language("skat") == "de"
    assert suggested_language("braeus", ["de", "en"]) == "de"
    assert suggested_language("braeus", ["de", "en", "sv"]) == "sv"
