# Two commands for a newcomer: `make run` and `make test` (see README.md).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve install build migrate start backup restore secret test test-fast setup engine lint format check services clean

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
	@if ! command -v tesseract >/dev/null; then echo "tesseract not found: scan reading is off (apt-get install tesseract-ocr tesseract-ocr-jpn)"; \
	elif ! tesseract --list-langs 2>/dev/null | grep -qx jpn; then echo "tesseract has no Japanese data: scan reading is off (apt-get install tesseract-ocr-jpn)"; fi

# The compiled engine (play/engine/compiled.py): Cython builds the engine's hot modules with this
# machine's C compiler when the sources changed; without a compiler it says so in one line and the
# engine runs as plain Python. ENGINE_PLAIN=1 skips the build and forces the plain path.
# `make run` builds it beside the app instead (runlab), so a first start serves at once.
engine: $(VENV)/.installed
	@$(PY) -m play.engine build

# Serve the app with a Celery worker beside it, on SQLite and the filesystem broker
# unless DATABASE_URL / REDIS_URL say otherwise.
run: setup
	$(PY) manage.py migrate --no-input -v1
	$(PY) manage.py load_catalog
	$(PY) manage.py runlab --host $(HOST) --port $(PORT)

# The production-like stack (docs/deploy.md): DEBUG off, PostgreSQL, Redis, collected static files,
# gunicorn + a Celery worker + Celery beat. A SECRET_KEY is made once into var/secret_key unless
# the environment has one. SECURE_SSL_REDIRECT=0 serves plain http here; set it to 1 (or let
# the TLS proxy in front redirect) on a public host.
SERVE_DATABASE_URL ?= postgresql://postgres@127.0.0.1:5432/cardlab
SERVE_REDIS_URL ?= redis://127.0.0.1:6379/0
# The production environment of the steps below: DEBUG off, the secret key, the database and
# the broker (the environment's, else these defaults). ENV_FILE=/etc/cardlab/cardlab.env reads
# the variables of the systemd units' environment file first (docs/deploy.md).
PROD_ENV = $(if $(ENV_FILE),set -a && . "$(abspath $(ENV_FILE))" && set +a;) export DEBUG=0 SECRET_KEY="$${SECRET_KEY:-$$(cat var/secret_key)}" \
	  DATABASE_URL="$${DATABASE_URL:-$(SERVE_DATABASE_URL)}" REDIS_URL="$${REDIS_URL:-$(SERVE_REDIS_URL)}" \
	  SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-0}" SERVE_MEDIA="$${SERVE_MEDIA:-1}"

# A SECRET_KEY: the environment's (or ENV_FILE's), or one made once into var/secret_key (mode 600).
secret:
	@mkdir -p var && if [ -z "$$SECRET_KEY$(ENV_FILE)" ] && [ ! -s var/secret_key ]; then \
	  (umask 077 && $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > var/secret_key); fi

# Deployment in separate steps (docs/deploy.md): `install` needs the package registries,
# `build` and `migrate` need none, and `start` (a restart) installs, builds and migrates nothing.
install: setup
build: $(VENV)/.installed engine secret
	@set -e; $(PROD_ENV); $(PY) manage.py collectstatic --no-input -v0
migrate: $(VENV)/.installed secret
	@set -e; $(PROD_ENV); $(PY) manage.py migrate --no-input -v1; $(PY) manage.py load_catalog
start: secret
	@set -e; $(PROD_ENV); echo "make start: database $$DATABASE_URL, broker $$REDIS_URL"; \
	$(PY) manage.py check --deploy --fail-level WARNING; \
	exec $(PY) manage.py runstack --host $(HOST) --port $(PORT) $(ROLES)

# The database and MEDIA_ROOT in one archive in BACKUP_DIR, and back (docs/deploy.md,
# "Backup and restore"); restore asks for YES=1 when the database holds data.
BACKUP_DIR ?= var/backups
backup: secret
	@set -e; $(PROD_ENV); mkdir -p "$(BACKUP_DIR)"; $(PY) manage.py backup "$(BACKUP_DIR)"
restore: secret
	@test -n "$(ARCHIVE)" || { echo "make restore ARCHIVE=path/to/cardlab-….tar.gz [YES=1]"; exit 2; }
	@set -e; $(PROD_ENV); $(PY) manage.py restore "$(ARCHIVE)" $(if $(YES),--yes)

# All four steps in one command: the first start of a host.
serve: install build migrate start

# Test processes (pytest-xdist), one per CPU core by default; TEST_WORKERS=0 runs in one process.
# Each has its own test database, Redis database and Chromium (tests/conftest.py).
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
XDIST = -n $(TEST_WORKERS) --dist loadgroup

# The whole suite on PostgreSQL and Redis when they answer (CI always), else SQLite.
test: setup engine
	@source .ci/services.sh && detect_services && \
	echo "make test: $(TEST_WORKERS) test processes (TEST_WORKERS)" && \
	$(PY) -m pytest $(XDIST) $(PYTEST_ARGS) && \
	echo "make test: the golden logs and the shuffle again on the plain-Python engine path (ENGINE_PLAIN=1)" && \
	ENGINE_PLAIN=1 $(PY) -m pytest $(XDIST) -q tests/play/engine/test_golden.py \
	  tests/play/engine/test_compiled.py tests/play/engine/test_chance.py && \
	$(MAKE) --no-print-directory lint

# The edit loop: no browser, no slow, no real-worker tests, on SQLite; `make test` stays whole.
test-fast: setup engine
	env -u DATABASE_URL -u REDIS_URL $(PY) -m pytest $(XDIST) \
	  -m "not browser and not slow and not workers" $(PYTEST_ARGS)

# Style, the import rules of the architecture (.importlinter: rooms, engines, no cycles), and
# models that need no migration beyond those in the tree.
lint:
	$(VENV)/bin/ruff check . && $(VENV)/bin/ruff format --check . && $(VENV)/bin/lint-imports --no-cache
	DATABASE_URL=sqlite://:memory: $(PY) manage.py makemigrations --check --dry-run -v0

format:
	$(VENV)/bin/ruff check --fix . && $(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) node_modules staticfiles var db.sqlite3
