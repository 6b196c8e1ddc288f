# Datapad: `make run` serves the app, `make test` runs every test; both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8000
# Debian packages. The app needs Pango and HarfBuzz subsetting to print PDFs (WeasyPrint);
# the tests also need Chromium for the browser tests and poppler-utils for pdftoppm.
PDF_PACKAGES := libharfbuzz-subset0 libpango-1.0-0 libpangoft2-1.0-0
TEST_PACKAGES := chromium poppler-utils
SYSTEM_PACKAGES := $(PDF_PACKAGES) $(TEST_PACKAGES)

.PHONY: run test bench load lint format demo system-deps pdf-deps setup clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
	touch $(INSTALLED)

# Install whichever of PACKAGES is missing, and say which; nothing when all are there.
system-deps: PACKAGES = $(SYSTEM_PACKAGES)
system-deps: PURPOSE = the tests
pdf-deps: PACKAGES = $(PDF_PACKAGES)
pdf-deps: PURPOSE = printing PDFs
system-deps pdf-deps:
	@missing=""; for pkg in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing missing Debian packages for $(PURPOSE):$$missing"; \
	  sudo=""; [ "$$(id -u)" -ne 0 ] && sudo="sudo"; \
	  $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	fi

setup: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput

# The web server and, beside it, one task worker (it builds the table's PDF). The worker
# runs in a session of its own so that it, and the child its code reloader starts, stop
# together when the server stops, however it stops.
run: pdf-deps setup
	@echo "Datapad on http://127.0.0.1:$(PORT) (demo characters: make demo), with a task worker"
	@setsid $(BIN)/python manage.py db_worker & worker=$$!; \
	trap 'kill -TERM -$$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT; \
	trap 'exit 130' INT TERM; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

demo: setup
	$(BIN)/python manage.py load_demo

test: $(INSTALLED) system-deps
	$(BIN)/python -m pytest

bench: pdf-deps setup
	$(BIN)/python manage.py bench

# 50 players, one edit every 2 s each, against gunicorn on PostgreSQL, beside the same load
# on the logged-in home page and a text typed anew each time; then all with no pause. Not part of `make test`. Options:
# make load LOAD_ARGS="--seconds 60 --workers 5"; another database: LOAD_DATABASE_URL=...
LOAD_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/datapad_load
load: pdf-deps $(INSTALLED)
	DATABASE_URL=$(LOAD_DATABASE_URL) $(BIN)/python manage.py loadtest $(LOAD_ARGS)

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .hypothesis
