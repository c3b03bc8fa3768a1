"""The README and docs/ stay true: the rule-to-function map names code that exists, the README
stays a quick start, nothing points outside the repository, and every relative link leads to a
file. No database: the map's names are imported, nothing is queried."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
ARCHITECTURE = DOCS / "architecture.md"
MAP_HEADING = "## Rule-to-function map"
README_MAX_LINES = 250

#: A dotted Python name of this project in backticks: `scoring.domain.rulesets.RuleSet.legal_results`.
DOTTED_NAME = re.compile(r"`((?:scoring|bruus_tournament)(?:\.\w+)+)`")
#: What names a place outside the repository (the workshop folder, its brief, its rule texts).
OUTSIDE = re.compile(r"\.\./shared|/w[o]rk/|shared/DOMAIN|seeds/|\b\d{3}_[0-9a-f]{16}\.txt\b")
#: A markdown link or image: ](target) or ](target "title").
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def _section(text: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same or a higher level."""
    level = heading.split(" ", 1)[0]
    start = text.find(f"\n{heading}\n")
    if start < 0:
        return ""
    body = text[start + len(heading) + 2 :]
    stop = re.search(rf"^#{{1,{len(level)}}} ", body, re.MULTILINE)
    return body[: stop.start()] if stop else body


def resolve(name: str) -> object:
    """Import the longest module prefix of ``name``, then getattr the rest.

    Raises:
        ImportError: no prefix of ``name`` is a module, or a module fails to import for another reason.
        AttributeError: the module has no such attribute.
    """
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            found = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is not None and module_name.startswith(error.name):
                continue  # this prefix is not a module: try a shorter one
            raise  # a module that exists imports something missing
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ImportError(f"no module in {name!r}")


def map_names() -> list[str]:
    section = _section(ARCHITECTURE.read_text(encoding="utf-8"), MAP_HEADING)
    return sorted(set(DOTTED_NAME.findall(section)))


def doc_files() -> list[Path]:
    """README.md, CHANGELOG.md (if present) and every file under docs/."""
    files = [README, ROOT / "CHANGELOG.md"]
    files += sorted(p for p in DOCS.rglob("*") if p.is_file())
    return [p for p in files if p.exists()]


def linked_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def relative_links(text: str) -> list[str]:
    """The link targets in ``text`` that name a file of the repository (no web address, no anchor
    alone), without their #anchor."""
    targets = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("#"):
            continue  # http:, https:, mailto: …; an anchor in the same file
        targets.append(target.split("#", 1)[0])
    return targets


def test_map_names_exist():
    names = map_names()
    assert len(names) >= 30, f"{ARCHITECTURE.name} has no '{MAP_HEADING}' with the rules' functions"
    missing = []
    for name in names:
        try:
            resolve(name)
        except (ImportError, AttributeError) as error:
            missing.append(f"{name}: {error}")
    assert not missing, "names in the rule-to-function map that do not exist:\n" + "\n".join(missing)


def test_resolve_refuses_what_does_not_exist():
    assert resolve("scoring.domain.rulesets.RuleSet.legal_results")
    with pytest.raises(AttributeError):
        resolve("scoring.domain.rules.no_such_function")
    with pytest.raises(ImportError):
        resolve("scoring_nowhere.module")


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines, at most {README_MAX_LINES}"


def test_no_path_outside_the_repository():
    files = doc_files()
    assert README in files and len(files) > 5
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if match := OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_relative_links_lead_to_files():
    broken = []
    checked = 0
    for path in linked_files():
        for target in relative_links(path.read_text(encoding="utf-8")):
            if not target:
                continue
            checked += 1
            resolved = (path.parent / target).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert checked >= 10, "README.md and docs/ link to fewer than 10 files: is the link pattern broken?"
    assert not broken, "links to files that do not exist:\n" + "\n".join(broken)


def test_link_pattern():
    text = '[a](docs/install.md) [b](rules.md#bock "Bock") [c](https://example.org/x) [d](#top) ![e](i.png)'
    assert relative_links(text) == ["docs/install.md", "rules.md", "i.png"]
