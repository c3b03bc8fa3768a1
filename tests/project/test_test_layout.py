"""The tests stay where a maintainer looks for them (docs/architecture.md, "Tests"):

- a module of ``scoring/domain``, ``scoring/services`` or ``scoring/selectors`` with logic of its
  own has a test file of its name in the folder of the same name (``scoring/selectors/history.py``
  -> ``tests/selectors/test_history.py``; a module of a package such as ``scoring/domain/draw/``
  may share the package's files, ``tests/domain/test_draw*.py``), or is listed in
  :data:`TESTED_ELSEWHERE` with the file that tests it;
- the tests of ``tests/domain``, ``tests/services`` and ``tests/selectors`` call the code, never a
  page: the tests that go through the test client (or a browser) live in ``tests/views`` (and
  ``tests/browser``, ``tests/hall``, ``tests/web``, ...).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "services", "selectors")

#: Modules without a test file of their name, and the test file that tests them (it must exist).
#: Give a module its own file when its tests grow, and take it off this list (the test says so).
TESTED_ELSEWHERE = {
    "scoring/domain/errors.py": "tests/transfer/test_player_files.py: DomainError's message, no logic of its own",
    "scoring/domain/evening.py": "tests/evenings/test_evening_end.py: when an evening is over",
    "scoring/domain/numbers.py": "tests/views/test_untrusted_input.py: superscript and other non-ASCII digits",
    "scoring/domain/player_import.py": "tests/transfer/test_player_files.py: the rows of a player list",
    "scoring/services/accounts.py": "tests/hall/test_logins.py: logins, roles, passwords",
    "scoring/services/base.py": "tests/web/test_evening_version.py: evening_changed for every service",
    "scoring/services/confirmation.py": "tests/views/test_table_entry.py: finish, confirm, send back",
    "scoring/services/evenings.py": "tests/services/test_draw_wishes.py: stand-ins, wishes, locks",
    "scoring/services/housekeeping.py": "tests/views/test_housekeeping.py: rename, archive, delete",
    "scoring/services/projector.py": "tests/views/test_projector.py: the projector's mode",
    "scoring/services/round_events.py": "tests/services/test_clock.py: the clock's and the rounds' events",
    "scoring/services/session_changes.py": "tests/services/test_draw_wishes.py: swap and replacement",
    "scoring/selectors/check_in.py": "tests/views/test_check_in.py: late arrivals, the undo, the last evening",
    "scoring/selectors/clock.py": "tests/services/test_clock.py: the clock as the screens show it",
    "scoring/selectors/duplicates.py": "tests/domain/test_duplicates.py: the rule; the selector reads the register",
    "scoring/selectors/evenings.py": "tests/services/test_draw_wishes.py: sessions, players, wishes",
    "scoring/selectors/fairness.py": "tests/views/test_draw_wishes.py: the fairness report",
    "scoring/selectors/history.py": "tests/selectors/test_seats.py: every player's seat in every round",
    "scoring/selectors/player_merge.py": "tests/services/test_player_merge.py: the merge preview",
    "scoring/selectors/players.py": "tests/views/test_order_and_numbers.py: the German order, names shown",
    "scoring/selectors/projector.py": "tests/views/test_projector.py: the next round's seating",
    "scoring/selectors/ranking.py": "tests/evenings/test_who_is_ranked.py: who is ranked, totals",
    "scoring/selectors/room.py": "tests/selectors/test_seats.py: where a player sits",
    "scoring/selectors/season.py": "tests/services/test_seasons.py: the season ranking",
    "scoring/selectors/tablets.py": "tests/hall/test_tablets.py: evenings being played, table codes",
}

#: What only a page test uses: the test client and its fixtures, URLs, a browser.
PAGE_NAMES = {"client", "organiser_client", "Client", "reverse", "live_server", "page", "browser"}


def modules_with_logic(layer: str) -> list[Path]:
    """The modules of ``scoring/<layer>`` that define a function or method (not ``__init__``)."""
    modules = []
    for path in sorted((ROOT / "scoring" / layer).rglob("*.py")):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) for node in ast.walk(tree)):
            modules.append(path)
    return modules


def has_test_file(module: Path, layer: str) -> bool:
    folder = ROOT / "tests" / layer
    if (folder / f"test_{module.stem}.py").is_file():
        return True
    package = module.parent
    return package.name != layer and any(folder.glob(f"test_{package.name}*.py"))


def test_every_module_with_logic_has_a_test_file_of_its_name_or_says_where_it_is_tested():
    missing, listed_but_own = [], []
    for layer in LAYERS:
        for module in modules_with_logic(layer):
            name = module.relative_to(ROOT).as_posix()
            if has_test_file(module, layer):
                if name in TESTED_ELSEWHERE:
                    listed_but_own.append(name)
            elif name not in TESTED_ELSEWHERE:
                missing.append(name)
    assert not missing, f"no tests/<layer>/test_<module>.py and not in TESTED_ELSEWHERE: {missing}"
    assert not listed_but_own, f"have a test file of their name now, take them off TESTED_ELSEWHERE: {listed_but_own}"


def test_the_list_of_modules_tested_elsewhere_is_true():
    for module, where in TESTED_ELSEWHERE.items():
        assert (ROOT / module).is_file(), f"{module} is gone: take it off TESTED_ELSEWHERE"
        test_file = where.split(":")[0]
        assert (ROOT / test_file).is_file(), f"{module}: {test_file} does not exist"


def test_the_tests_of_the_domain_services_and_selectors_open_no_page():
    """A test there that asks for the test client, a URL or a browser belongs in tests/views."""
    offenders = []
    for layer in LAYERS:
        for path in sorted((ROOT / "tests" / layer).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                used = (
                    {arg.arg for arg in node.args.args}
                    if isinstance(node, ast.FunctionDef)
                    else {node.id}
                    if isinstance(node, ast.Name)
                    else set()
                )
                if used & PAGE_NAMES:
                    offenders.append(
                        f"{path.relative_to(ROOT).as_posix()}:{node.lineno} ({', '.join(used & PAGE_NAMES)})"
                    )
    assert not offenders, f"page tests outside tests/views: {offenders}"
