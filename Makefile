# Bruus Turnier. Quick start: `make run` (demo evening on http://127.0.0.1:8000) and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
HOST   ?= 127.0.0.1
export DEBUG ?= true

.PHONY: run serve organiser test test-quick screenshots lint bench messages translations migrate demo clean help wheels-check hub-stack hub-services draw-plans

help:
	@echo "make run   - set everything up, load the demo evening, serve on http://$(HOST):$(PORT)"
	@echo "make serve - serve for the hall's network with gunicorn (address printed for the tablets; SERVER=waitress)"
	@echo "make organiser - create an organiser login or set a new password (asks for name and password)"
	@echo "make test  - install what the tests need (incl. Chromium) and run every test, with coverage"
	@echo "make test-quick - while working: SQLite, in parallel, no browser tests, no coverage (PYTEST_ARGS=--lf, a file ...)"
	@echo "make lint  - the pre-commit checks over the tree (ruff, formatting, templates, migrations, mypy, file sizes), as the CI runs them"
	@echo "make wheels-check - every runtime dependency installs from a wheel on Windows, macOS and Linux"
	@echo "make hub-stack - the results site as on a server, on this machine: PostgreSQL, Redis, 2 app processes, nginx (HUB_STACK_PORT, default 8480)"
	@echo "make draw-plans - compute the stored evening plans of the first draw again (scripts/draw_plans.py; about a quarter of an hour on two cores)"
	@echo "make bench - time the documents, the draw, the pages, the season ranking, the room under load (SQLite and PostgreSQL), the round-change storm and the tablets during a restore"

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

# Compile the committed .po files (Babel: no system gettext needed).
translations: $(VENV)/.installed
	$(VENV)/bin/pybabel compile --domain django --directory locale --statistics

migrate: $(VENV)/.installed translations
	$(PY) manage.py migrate --noinput

# The demo evening alone, into the demo's own data folder (var/demo, as `make run` uses it; never var/).
demo: $(VENV)/.installed translations
	DATA_DIR=$(CURDIR)/var/demo DATABASE_URL=sqlite:///$(CURDIR)/var/demo/bruus.sqlite3 $(PY) manage.py migrate --noinput
	DATA_DIR=$(CURDIR)/var/demo DATABASE_URL=sqlite:///$(CURDIR)/var/demo/bruus.sqlite3 $(PY) manage.py load_demo

# The same code as the installed command `bruus-turnier run` / `serve` (bruus_tournament/cli.py):
# the demo evening once in its own data folder (var/demo; the club's data stays in var/), the addresses to click.
run: $(VENV)/.installed
	$(PY) -m bruus_tournament run --address $(HOST) --port $(PORT)

# Serve for the hall's network (gunicorn, or waitress with SERVER=waitress; DEBUG off); prints the
# address for the tablets. LISTEN_ADDRESS (default 0.0.0.0) and PORT choose where it listens.
serve: $(VENV)/.installed
	$(PY) -m bruus_tournament serve --port $(PORT)

# Create an organiser login (Turnierleitung) or give it a new password; asks interactively.
organiser: $(VENV)/.installed
	$(PY) -m bruus_tournament organiser

# Debian's Chromium for the browser tests, as its headless shell (package chromium-headless-shell:
# the same Chromium, without the desktop browser that the full one runs even when headless; what
# Playwright itself uses for headless runs; measured: the browser tests 199 s -> 137 s), and
# poppler-utils (pdftoppm) for the test that renders the printed documents.
chromium:
	@command -v chromium-headless-shell >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell poppler-utils >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell poppler-utils >/dev/null; fi; }

# Debian's Redis and nginx for the results site served as on a server (scripts/hub-stack.sh: its
# test in tests/hub_stack/ and bench/bench_hub.py); PostgreSQL comes with scripts/with-postgres.sh.
hub-services:
	@command -v redis-server >/dev/null 2>&1 && { command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server nginx >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server nginx >/dev/null; fi; }

# The results site (the hub) as on a server, on 127.0.0.1:$(HUB_STACK_PORT) until Ctrl+C: PostgreSQL,
# Redis, two gunicorn app processes and nginx in front (docs/hub-serving.md); all removed afterwards.
HUB_STACK_PORT ?= 8480
hub-stack: $(VENV)/.installed translations hub-services
	HUB_STACK_PORT=$(HUB_STACK_PORT) scripts/hub-stack.sh

# Every test on SQLite (the embedded default), with line coverage (pyproject.toml [tool.coverage]),
# failing below the floor (measured 97.0 % on 2026-11-25 with 1,204 tests: floor(measured) - 1;
# raise it when coverage rises). Then on a real PostgreSQL server every test that uses the database
# (marker `database`, set by tests/conftest.py from the test's fixtures) except the browser tests:
# those check the pages in Chromium, and run once like the tests that never reach the database.
# Both runs spread the tests over one process per core (pytest-xdist; TEST_WORKERS=1 for one) and
# say how long they took. Settings of the tests: tests/settings.py. tests/hub_stack/ serves the
# results site as on a server (scripts/hub-stack.sh: its own PostgreSQL, Redis from hub-services,
# two app processes, nginx) without the test database: once, in the SQLite run.
COVERAGE_FLOOR ?= 96
TEST_WORKERS ?= auto
PYTEST := $(PY) -m pytest --numprocesses $(TEST_WORKERS) --dist worksteal
# $(call timed,what,command): run command, then say how long it took; fails when it fails.
timed = @echo '$(2)'; started=$$(date +%s); $(2); status=$$?; echo "$(1) took $$(( $$(date +%s) - started )) s"; exit $$status
# axe-core (package.json, pinned in package-lock.json) for the accessibility check of the browser tests
# (tests/browser/helpers.py): npm ci
# installs exactly the locked version into node_modules/ (needs Node.js and npm).
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; fi; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

test: $(VENV)/.installed-dev translations chromium hub-services node_modules/.installed
	$(call timed,The tests on SQLite,$(PYTEST) --cov --cov-report=term-missing:skip-covered --cov-fail-under=$(COVERAGE_FLOOR))
	$(call timed,The tests on PostgreSQL,scripts/with-postgres.sh $(PYTEST) -p no:cacheprovider -m "database and not browser")

# While working: the tests on SQLite in parallel, without the browser tests and without coverage.
# PYTEST_ARGS adds to it, e.g. PYTEST_ARGS=--lf (what failed last time) or a file.
test-quick: $(VENV)/.installed-dev translations
	$(call timed,The quick tests,$(PYTEST) -m "not browser" $(PYTEST_ARGS))

# The browser tests with a screenshot of every page they check, for a person to look at before a
# screen is called done: test-results/layout/ (every page of every role, size and language),
# projector/, clock/, desk/, tablet/, rulesets/, sixhanded/. `make test` keeps only the screenshots of
# a page with a layout finding.
screenshots: $(VENV)/.installed-dev translations chromium node_modules/.installed
	$(call timed,The browser tests with screenshots,SCREENSHOTS=1 $(PYTEST) -m browser $(PYTEST_ARGS))

# The hooks of .pre-commit-config.yaml over every file git knows (a new file counts once added):
# lint (ruff check), formatting (ruff format --check, djhtml --check on templates/: run
# `.venv/bin/ruff format .` and `.venv/bin/djhtml templates` to apply), a migration for every model
# change (makemigrations --check), no file over 500 kB, and types (mypy, django-stubs) of
# scoring/ and bruus_tournament/ (pyproject.toml). Local hooks with the tools of .venv: needs no
# GitHub, no network and no installed git hook (`.venv/bin/pre-commit install` for one).
lint: $(VENV)/.installed-dev
	$(VENV)/bin/pre-commit run --all-files

# How long the printed documents take to build (200 and 1,000 players) against bare reportlab,
# the draw, the busiest pages, table-side entry under load, and a busy hall (tablets,
# live-overview pollers, public screens) for 26, 300 and 1,000 players on SQLite and PostgreSQL, and
# 300 players through waitress (the pure-Python server of Windows), and the results site served as
# on a server (scripts/hub-stack.sh: 50 clubs publishing, 5,000 viewers, one app process killed):
# about 15 minutes on a 2-core laptop; BENCH_QUICK=1 leaves out the 1,000-player field (5 minutes).
bench: $(VENV)/.installed-dev translations hub-services
	$(PY) bench/bench_documents.py
	BENCH_DRAW_EVENINGS=$${BENCH_DRAW_EVENINGS:-20} $(PY) bench/bench_draw.py
	$(PY) bench/bench_pages.py
	$(PY) bench/bench_load.py
	$(PY) bench/bench_season.py
	$(PY) bench/bench_publishing.py
	$(PY) bench/bench_load.py --scenario
	$(PY) bench/bench_load.py --scenario --fields 300 --server waitress
	$(PY) bench/bench_restore.py
	$(PY) bench/bench_load.py --scenario --storm
	scripts/with-postgres.sh $(PY) bench/bench_load.py --scenario --database postgres
	$(PY) bench/bench_hub.py

# Every runtime dependency (requirements.txt) as a wheel for Windows, macOS (Intel, Apple) and Linux,
# for the oldest and the newest Python the README promises: pip refuses a source-only package
# (--only-binary). Needs the package index.
# (Linux: glibc 2.17 or 2.28 wheels, both accepted as pip on such a system accepts them)
WHEEL_PLATFORMS := win_amd64 macosx_11_0_arm64 macosx_10_15_x86_64 manylinux2014_x86_64+manylinux_2_28_x86_64
WHEEL_PYTHONS := 3.11 3.15
wheels-check: $(VENV)/.installed
	@for python in $(WHEEL_PYTHONS); do for platform in $(WHEEL_PLATFORMS); do \
	  dir=$$(mktemp -d); \
	  $(PY) -m pip download --only-binary=:all: --python-version $$python $$(echo "+$$platform" | sed 's/+/ --platform /g') \
	    --dest $$dir -r requirements.txt > $$dir.log 2>&1 || { grep -v "^WARNING: Location" $$dir.log; exit 1; }; \
	  echo "Python $$python, $$platform: $$(ls $$dir | wc -l) wheels, no source package"; rm -rf $$dir $$dir.log; \
	done; done

# Developers only: the stored evening plans of the first draw (scoring/domain/draw/stored_plans.json),
# a long search per field size; a size's plan is replaced only by a better one.
draw-plans: $(VENV)/.installed
	$(PY) scripts/draw_plans.py

# Developers only: refresh the .po files from the code (needs GNU gettext).
messages: $(VENV)/.installed
	$(PY) manage.py makemessages --locale de --locale da --locale sv --ignore ".venv/*" --no-obsolete

clean:
	rm -rf $(VENV) var
