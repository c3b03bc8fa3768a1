"""The language a rule set's players speak: an evening of that rule set suggests it
for its printouts, public screens and tablets.

- Schwesing and Treia (North Frisia, the German game): German.
- Danish Brus and Danish Brus as in Ringkøbing (West Jutland; *Brus* (encyclopedia)): Danish.
- Bräus for four and for six (*Bräus* (Gotland)): Swedish.

Pure Python: the language codes are those of ``settings.LANGUAGES`` (``"de"``, ``"en"``, ``"da"``,
``"sv"``); the caller offers only languages the site has.
"""

from __future__ import annotations

from typing import Final

from scoring.domain.rulesets import BRAEUS, BRAEUS6, DANISH, DEFAULT, RINGKOBING, SCHWESING, TREIA

#: The suggested language of an evening of each rule set.
RULE_SET_LANGUAGES: Final[dict[str, str]] = {
    SCHWESING: "de",
    TREIA: "de",
    DANISH: "da",
    RINGKOBING: "da",
    BRAEUS: "sv",
    BRAEUS6: "sv",
}
#: The language of a rule set without one of its own.
DEFAULT_LANGUAGE: Final = "de"


def suggested_language(rule_set: str | None, available=None) -> str:
    """The language an evening of ``rule_set`` (a code of ``RULE_SETS``; empty: the default rule
    set) is suggested in: :data:`RULE_SET_LANGUAGES`, German for an unknown code, and German too
    when ``available`` (language codes, e.g. of ``settings.LANGUAGES``) does not hold it."""
    language = RULE_SET_LANGUAGES.get(rule_set or DEFAULT, DEFAULT_LANGUAGE)
    if available is not None and language not in available:
        return DEFAULT_LANGUAGE
    return language
