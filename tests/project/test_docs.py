"""The README and docs/ stay true: the rule-to-function map names code that exists, the README
stays a quick start, nothing in the repository (code, templates, tests, docs) points outside it,
and every relative link leads to a file. No database: the map's names are imported, nothing is
queried."""

from __future__ import annotations

import importlib
import re
import subprocess
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
#: What names a place outside the repository (the workshop folder, its brief, its rule texts by their
#: file names, even shortened to the number and an ellipsis). Written so that this line does not match itself.
OUTSIDE = re.compile(r"\.\./shared|/w[o]rk/|shared[/]|DOMAIN[.]md|seeds[/]|\b\d{3}_(?:[0-9a-f]{16}|…|\.\.\.)")
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


def tracked_files() -> list[str]:
    """Every file git tracks in the checkout, as paths relative to it (code, templates, tests, docs,
    data); without git (an unpacked archive), every file under the checkout but git's and the
    virtual environment's."""
    try:
        listing = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout.decode("utf-8")
        return sorted(name for name in listing.split("\0") if name)
    except (OSError, subprocess.SubprocessError):
        skip = {".git", ".venv", "node_modules", "var", "__pycache__"}
        return sorted(
            str(p.relative_to(ROOT))
            for p in ROOT.rglob("*")
            if p.is_file() and not skip.intersection(p.relative_to(ROOT).parts)
        )


def outside_references(name: str, text: str) -> list[str]:
    """``"name:line: what"`` for every line of ``text`` that names a place outside the repository,
    but the line defining :data:`OUTSIDE` itself."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("OUTSIDE = re.compile("):
            continue
        if match := OUTSIDE.search(line):
            found.append(f"{name}:{number}: {match.group(0)}")
    return found


def test_no_path_outside_the_repository():
    """Code (*.py), templates (*.html, *.js, *.css, *.txt), tests and docs: every text file git
    tracks."""
    files = tracked_files()
    assert "README.md" in files and "scoring/models.py" in files and len(files) > 100
    found: list[str] = []
    for name in files:
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue  # a font, an image (or a file deleted but not yet committed)
        found += outside_references(name, text)
    assert not found, "references to files outside the repository:\n" + "\n".join(found)


def test_outside_references_are_caught():
    """The scan finds each kind of reference (and not this file's pattern line, nor ordinary words)."""
    examples = [
        'see "' + "DOMAIN" + '.md", Rule sets',
        "Source: " + "shared" + "/DOMAIN" + ".md",
        "from the " + "seeds" + "/ folder",
        "seed file " + "000_" + "717ae1d4fe10ece6.txt",
        "(" + "003_" + "… and " + "004_" + "…)",
        "../" + "shared" + "/data",
        "/w" + "ork/main/manage.py",
    ]
    text = "\n".join(["a shared place, random seeds, 3 sessions of 4 rounds", *examples])
    assert outside_references("x.py", text) == [
        f"x.py:{number}: {OUTSIDE.search(line).group(0)}" for number, line in enumerate(examples, start=2)
    ]
    own = (ROOT / "tests" / "project" / "test_docs.py").read_text(encoding="utf-8")
    assert "OUTSIDE = re.compile(" in own and outside_references("test_docs.py", own) == []
    assert "tests/project/test_docs.py" in tracked_files()


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
