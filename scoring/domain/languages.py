"""The language a rule set's players speak: an evening of that rule set suggests it
for its printouts, public screens and tablets.

Each rule set says its own language (:attr:`scoring.domain.rulesets.RuleSet.language`):

- Schwesing and Treia (North Frisia, the German game): German.
- Danish Brus and Danish Brus as in Ringkøbing (West Jutland; *Brus* (encyclopedia)): Danish.
- Bräus for four and for six (*Bräus* (Gotland)): Swedish.

Pure Python: the language codes are those of ``settings.LANGUAGES`` (``"de"``, ``"en"``, ``"da"``,
``"sv"``); the caller offers only languages the site has.
"""

from __future__ import annotations

from typing import Final

from scoring.domain.rulesets import DEFAULT, RULE_SETS

#: The suggested language of an evening of each rule set (as the rule sets say it).
RULE_SET_LANGUAGES: Final[dict[str, str]] = {code: rules.language for code, rules in RULE_SETS.items()}
#: The language of a rule set without one of its own.
DEFAULT_LANGUAGE: Final = "de"


def suggested_language(rule_set: str | None, available=None) -> str:
    """The language an evening of ``rule_set`` (a code of ``RULE_SETS``; empty: the default rule
    set) is suggested in: the rule set's :attr:`~scoring.domain.rulesets.RuleSet.language`, German
    for an unknown code, and German too when ``available`` (language codes, e.g. of
    ``settings.LANGUAGES``) does not hold it."""
    rules = RULE_SETS.get(rule_set or DEFAULT)
    language = rules.language if rules is not None else DEFAULT_LANGUAGE
    if available is not None and language not in available:
        return DEFAULT_LANGUAGE
    return language
