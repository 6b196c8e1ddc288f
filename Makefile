# Datapad: `make run` serves the app, `make test` runs every test; both set up what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
PORT ?= 8000
# Debian packages. The app needs Pango and HarfBuzz subsetting to print PDFs (WeasyPrint);
# the tests also need Chromium for the browser tests and poppler-utils for pdftoppm.
PDF_PACKAGES := libharfbuzz-subset0 libpango-1.0-0 libpangoft2-1.0-0
TEST_PACKAGES := chromium poppler-utils
SYSTEM_PACKAGES := $(PDF_PACKAGES) $(TEST_PACKAGES)

.PHONY: run test bench load lint format demo system-deps pdf-deps setup clean lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Everything, runtime and dev, comes from requirements.lock: exact versions, each file
# checked against its hash, so two installs a month apart are the same program. The project
# itself is installed editable on top, adding nothing (the lock pins its build backend too).
$(INSTALLED): requirements.lock pyproject.toml | $(BIN)/python
	$(PIP) install --require-hashes -r requirements.lock
	$(PIP) install --no-deps --no-build-isolation -e .
	$(BIN)/python -c "$$LOCK_MEETS_PYPROJECT"
	touch $(INSTALLED)

# A requirement added to pyproject.toml without `make lock` is named here, at install,
# rather than met later as an ImportError.
define LOCK_MEETS_PYPROJECT
import importlib.metadata as md, sys
from packaging.requirements import Requirement
unmet = []
for line in md.requires("datapad"):
    req = Requirement(line)
    if req.marker and not req.marker.evaluate({"extra": "dev"}):
        continue
    try:
        version = md.version(req.name)
    except md.PackageNotFoundError:
        unmet.append(f"{req.name}{req.specifier} (not in the lock)")
        continue
    if not req.specifier.contains(version, prereleases=True):
        unmet.append(f"{req.name}{req.specifier} (the lock has {version})")
if unmet:
    sys.exit("requirements.lock does not meet pyproject.toml: " + "; ".join(unmet) + ". Run make lock.")
endef
export LOCK_MEETS_PYPROJECT

# Resolves requirements.lock anew from pyproject.toml (runtime, the dev extra and the build
# backend), keeping every pin that still fits. One package to its newest release:
# make lock LOCK_ARGS="--upgrade-package weasyprint"; everything: LOCK_ARGS=--upgrade.
lock: | $(BIN)/python
	$(PIP) install --require-hashes -r requirements.lock
	CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --extra dev --all-build-deps \
	  --allow-unsafe --generate-hashes --strip-extras --no-emit-index-url --no-emit-find-links \
	  --no-emit-trusted-host $(LOCK_ARGS) -o requirements.lock pyproject.toml

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
# together when the server stops, however it stops. The server is ASGI (uvicorn, reloading
# on a changed .py file): a page's live stream waits on its event loop, never holding a
# worker thread (sheets/live; README, Serving).
run: pdf-deps setup
	@echo "Datapad on http://127.0.0.1:$(PORT) (demo characters: make demo), with a task worker"
	@setsid $(BIN)/python manage.py db_worker & worker=$$!; \
	trap 'kill -TERM -$$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT; \
	trap 'exit 130' INT TERM; \
	DATAPAD_NO_WARM_UP=1 $(BIN)/uvicorn sheets.asgi:application --host 127.0.0.1 --port $(PORT) \
	  --reload --reload-dir sheets --reload-dir rulesets

demo: setup
	$(BIN)/python manage.py load_demo

# On every core: pytest-xdist's workers each get their own test database (..._gw0, ..._gw1),
# live server and browser. TEST_WORKERS=0 runs all in one process; PYTEST_ARGS adds options.
TEST_WORKERS ?= auto
test: $(INSTALLED) system-deps
	$(BIN)/python -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

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
	$(BIN)/lint-imports

format: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .hypothesis
