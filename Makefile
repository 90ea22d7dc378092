# Two commands for a newcomer: `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast setup lint format check services clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: $(VENV)/.installed node_modules/.installed
	@if command -v msgfmt >/dev/null; then $(PY) manage.py compilemessages -v0 --ignore=.venv --ignore=node_modules; \
	else echo "msgfmt not found: the Japanese UI needs gettext (apt-get install gettext)"; fi

# Serve the app with a Celery worker beside it, on SQLite and the filesystem broker
# unless DATABASE_URL / REDIS_URL say otherwise.
run: setup
	$(PY) manage.py migrate --no-input -v1
	$(PY) manage.py load_catalog
	$(PY) manage.py runlab --host $(HOST) --port $(PORT)

# The whole suite on PostgreSQL and Redis when they answer (CI always), else SQLite.
test: setup
	@source .ci/services.sh && detect_services && \
	$(PY) -m pytest $(PYTEST_ARGS) && \
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

# The edit loop: no browser, no slow, no real-worker tests, on SQLite; `make test` stays whole.
test-fast: setup
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest -m "not browser and not slow and not workers" $(PYTEST_ARGS)

lint:
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check .

format:
	$(VENV)/bin/ruff check --fix . && $(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) node_modules staticfiles var db.sqlite3
