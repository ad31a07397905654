# Two commands do all set-up on a fresh machine with Python 3.11: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.kaiza-installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check lint migrate install bench clean messages

# uv (pinned, from PyPI into the venv) installs the project: the same versions pip resolves, with the
# bytecode compiled on every core, in 6 s where pip took 15-19 s of a fresh clone's `make test`.
UV_VERSION := 0.13.9
$(STAMP): pyproject.toml package-lock.json
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e '.[dev]'
	npm ci --no-audit --no-fund --silent
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python -m kaiza_site.serve -b $(HOST) -p $(PORT) kaiza_site.asgi:application

# `make test` runs the lint beside the suite (scripts/run_tests.py): a ruff or mypy failure is printed
# as soon as it is known and fails the run at its end.
test: install
	$(BIN)/python scripts/run_tests.py

# The inner loop, in under a minute (about 45 CPU-s: 46 s on this 2-core machine, timeit 38 ms): the lint
# beside the fast tests (the engine, the rules, the architecture and the unit tests that need no database,
# browser, service or server: scripts/run_tests.py's CHECK_PATHS, kept by tests/support/check.py), then the
# JavaScript unit tests. `make test` runs everything.
check: install
	$(BIN)/python scripts/run_tests.py --check

# ruff's rules, ruff's formatting, mypy, then tsc over the JS client (scripts/run_tests.py's LINT); the first
# failure stops it.
lint: install
	$(BIN)/python scripts/run_tests.py --lint

# Developers only (needs GNU gettext): re-extract the site's strings into game/locale/{fi,ru} and compile
# the .mo files, which are committed so `make run` and `make test` need no gettext (docs/i18n.md).
# Run from game/ so neither command walks .venv's own catalogues.
messages: install
	cd game && ../$(BIN)/python ../manage.py makemessages -l fi -l ru --no-location --no-wrap --no-obsolete -d django
	$(BIN)/python manage.py makemessages -d djangojs -l fi -l ru --no-location --no-wrap --no-obsolete -e js -i .venv -i node_modules -i tests
	cd game && ../$(BIN)/python ../manage.py compilemessages

bench: migrate
	$(BIN)/python manage.py bench_physics

clean:
	rm -rf $(VENV) node_modules db.sqlite3 test-artifacts
