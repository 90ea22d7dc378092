"""Settings for the Eleven Stars card lab, all read from the environment in this one place.

Local defaults need no server: SQLite in the project folder and no broker URL. Production
values (DEBUG off) must supply a SECRET_KEY; see .env.example for every variable.
"""

import ipaddress
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Return a boolean variable, refusing anything that is not clearly true or false."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no).")


def env_int(name: str, default: int) -> int:
    """Return an integer variable, refusing a value that is not one."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Return a comma-separated variable as a list of non-empty items."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_networks(name: str) -> list[str]:
    """Return a comma-separated list of IP addresses or networks, refusing anything else."""
    entries = env_list(name, [])
    for entry in entries:
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {entry!r} is not an IP address or network (e.g. 10.0.0.0/8)."
            ) from None
    return entries


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET_KEY = "dev-only-insecure-key-never-used-when-debug-is-off"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# Proxies (addresses or networks) whose X-Forwarded-For names the client, for the login and
# API throttles (cardsite/web/client_address.py). Empty: the peer address is the client.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "catalog",
    "decks",
    "play",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header (django-csp), in every mode so a page that breaks it
    # fails in development and tests too, not first in production.
    "csp.middleware.CSPMiddleware",
    "cardsite.web.request_edges.ApiErrorMiddleware",
    # A 503 while the database is down; outside the session and authentication middleware,
    # inside ApiErrorMiddleware so its 503 comes before that one's JSON 500.
    "cardsite.web.database_outage.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "cardsite.web.request_edges.RequestBoundsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost, so the 405 page it renders gets the CSRF cookie and messages like any page.
    "cardsite.web.error_pages.MethodNotAllowedPageMiddleware",
]

if not DEBUG:
    # Static files from STATIC_ROOT (collectstatic) in production; runserver serves them in DEBUG.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "cardsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "cardsite.wsgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # A file, not memory, so the Celery worker processes of the tests can open it too.
    # One file per test run (pid), so concurrent runs in one tree never share it.
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {
        "NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")
    }
    DATABASES["default"]["OPTIONS"] = {"timeout": 20}
elif env_bool("DATABASE_PREPARE", True):
    # PostgreSQL: parameters bound on the server, so psycopg prepares a statement the second
    # time a connection runs it and PostgreSQL skips parsing and planning from then on. An
    # uncached card search spent 2.4 ms of PostgreSQL CPU without it and 1.4 ms with it
    # (bench/search.py --cache off, docs/performance.md). Behind a pooler in transaction
    # mode that cannot keep prepared statements (PgBouncer before 1.21), set
    # DATABASE_PREPARE=0.
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 2}
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # An unreachable server (not a refused connection) answers 503 within seconds instead of
    # holding the request until the operating system gives up (cardsite/web/database_outage).
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env_int(
        "DATABASE_CONNECT_TIMEOUT", 5
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL", "")

# Cached search answers (catalog/cache.py): shared in Redis when there is one.
if REDIS_URL:
    CACHES = {
        "default": {
            # RedisCache that answers "not cached" while Redis is down, instead of a 500.
            "BACKEND": "cardsite.web.tolerant_cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "cardlab",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Every password login goes through the throttled backend (cardsite/accounts/backends.py); the
# plain ModelBackend stays listed for sessions that name it (sign-up logs in with it).
AUTHENTICATION_BACKENDS = [
    "cardsite.accounts.backends.ThrottledModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed logins (docs/limits.md): per account from one address, per address, and the number
# of addresses failing for one account before it is locked for addresses it never used.
LOGIN_FAILURE_LIMIT_ACCOUNT = env_int("LOGIN_FAILURE_LIMIT_ACCOUNT", 5)
LOGIN_FAILURE_LIMIT_ADDRESS = env_int("LOGIN_FAILURE_LIMIT_ADDRESS", 20)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 900)
LOGIN_ACCOUNT_ADDRESS_LIMIT = env_int("LOGIN_ACCOUNT_ADDRESS_LIMIT", 10)
LOGIN_ACCOUNT_WINDOW = env_int("LOGIN_ACCOUNT_WINDOW", 3600)
LOGIN_KNOWN_ADDRESS_DAYS = env_int("LOGIN_KNOWN_ADDRESS_DAYS", 30)
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "cardlab@localhost")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ja", _("Japanese"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Tokyo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# `collectstatic` writes here; with DEBUG off the app serves static files only from here
# (WhiteNoise), so `make serve` runs collectstatic before it starts (docs/deploy.md).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
NODE_MODULES = BASE_DIR / "node_modules"
# Front-end libraries come pinned from npm (package.json + lock) and are served from here.
STATICFILES_DIRS = [
    BASE_DIR / "static",
    ("vendor/htmx", NODE_MODULES / "htmx.org" / "dist"),
    ("vendor/chartjs", NODE_MODULES / "chart.js" / "dist"),
    ("vendor/pico", NODE_MODULES / "@picocss" / "pico" / "css"),
]
# Uploaded files (card scans) go through Django's storage API: the filesystem under MEDIA_ROOT
# by default, or an S3-compatible store (django-storages) with SCAN_STORAGE=s3.
MEDIA_URL = os.environ.get("MEDIA_URL", "/media/")
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
SCAN_STORAGE = os.environ.get("SCAN_STORAGE", "filesystem")
if SCAN_STORAGE == "s3":
    DEFAULT_STORAGE = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": os.environ.get("S3_BUCKET", ""),
            "endpoint_url": os.environ.get("S3_ENDPOINT_URL") or None,
            "access_key": os.environ.get("S3_ACCESS_KEY_ID") or None,
            "secret_key": os.environ.get("S3_SECRET_ACCESS_KEY") or None,
            "region_name": os.environ.get("S3_REGION") or None,
            "custom_domain": os.environ.get("S3_CUSTOM_DOMAIN") or None,
            "querystring_auth": env_bool("S3_QUERYSTRING_AUTH", False),
            "file_overwrite": False,
        },
    }
    if not DEFAULT_STORAGE["OPTIONS"]["bucket_name"]:
        raise ImproperlyConfigured("SCAN_STORAGE=s3 needs S3_BUCKET")
elif SCAN_STORAGE == "filesystem":
    DEFAULT_STORAGE = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
else:
    raise ImproperlyConfigured(f"SCAN_STORAGE must be filesystem or s3, not {SCAN_STORAGE!r}")
SERVE_MEDIA = env_bool("SERVE_MEDIA", DEBUG)
SCAN_MAX_BYTES = env_int("SCAN_MAX_BYTES", 8_000_000)
# 16 MP takes a 4032×3024 phone photo. Decoding plus the three renditions of a 3464×4618 image
# (catalog.scans, measured on the 2-core lab machine under load, best of 2): JPEG 0.48 s,
# PNG 0.41 s, WebP 0.95 s (random noise, the slowest WebP content, 10.6 MB), a 1-bit PNG 0.23 s.
# At the old 40 MP the same WebP took 1.9 s and a 40 MP PNG 0.8 s; keep this under 1 s.
SCAN_MAX_PIXELS = env_int("SCAN_MAX_PIXELS", 16_000_000)
# A scan is decoded and resized by the control worker (catalog.tasks.scan_process), never on
# the request thread. Past the soft limit the upload ends "failed" with a message; the hard limit
# ends the task itself. The control worker runs the solo pool, where Celery enforces no time
# limit: the task sets its own alarm for the soft limit (catalog.scans.scan_deadline).
SCAN_PROCESS_SOFT_SECONDS = env_int("SCAN_PROCESS_SOFT_SECONDS", 10)
SCAN_PROCESS_HARD_SECONDS = env_int("SCAN_PROCESS_HARD_SECONDS", 20)
# An upload still pending this long after it was sent is sent again by beat (catalog.scans.
# scans_requeue: a broker outage, a killed control worker); past the second, it ends failed.
SCAN_REQUEUE_SECONDS = env_int("SCAN_REQUEUE_SECONDS", 120)
# Reading photos and scans (issue #25, catalog.readings): the worker's time bound for one photo
# (a 9-card binder page takes well under 1 s of CPU, docs/performance.md), the hard limit of a
# prefork pool, the sweep's waits, and each user's limits (where the jobs are created).
READING_SOFT_SECONDS = env_int("READING_SOFT_SECONDS", 30)
READING_HARD_SECONDS = env_int("READING_HARD_SECONDS", 45)
READING_REQUEUE_SECONDS = env_int("READING_REQUEUE_SECONDS", 120)
READING_GIVE_UP_SECONDS = env_int("READING_GIVE_UP_SECONDS", 900)
READING_KEEP_DAYS = env_int("READING_KEEP_DAYS", 7)
READING_PENDING_MAX = env_int("READING_PENDING_MAX", 60)
READING_PER_DAY = env_int("READING_PER_DAY", 1000)
SCAN_GIVE_UP_SECONDS = env_int("SCAN_GIVE_UP_SECONDS", 3600)
# Scans are served by the app after a permission check (catalog.contributions.views.scan_image):
# the file itself, or, behind a web server, an empty answer carrying this header that tells the
# server to send the file: "X-Accel-Redirect" (nginx; the prefix is an `internal` location's
# URI) or "X-Sendfile" (Apache, lighttpd; the prefix is MEDIA_ROOT's path). docs/deploy.md.
SCAN_SENDFILE_HEADER = os.environ.get("SCAN_SENDFILE_HEADER", "")
if SCAN_SENDFILE_HEADER not in ("", "X-Accel-Redirect", "X-Sendfile"):
    raise ImproperlyConfigured(
        "SCAN_SENDFILE_HEADER must be empty, X-Accel-Redirect or X-Sendfile, "
        f"not {SCAN_SENDFILE_HEADER!r}"
    )
SCAN_SENDFILE_PREFIX = os.environ.get("SCAN_SENDFILE_PREFIX") or (
    str(MEDIA_ROOT) if SCAN_SENDFILE_HEADER == "X-Sendfile" else "/protected-media/"
)
# Card proposals a user may send or edit per day (a rolling 24 hours; an edit counts as one).
PROPOSALS_PER_DAY = env_int("PROPOSALS_PER_DAY", 20)
# Changesets (many cards of one set at once): rows a changeset, characters of pasted text, and
# changesets one user may send in 24 hours (catalog/contributions/changesets.py).
CHANGESET_MAX_ROWS = env_int("CHANGESET_MAX_ROWS", 300)
CHANGESET_MAX_BYTES = env_int("CHANGESET_MAX_BYTES", 300_000)
CHANGESETS_PER_DAY = env_int("CHANGESETS_PER_DAY", 10)
# A changeset from the set grid may carry one scan a row (issue #24): at most this many files,
# and this many bytes in all (each file also within SCAN_MAX_BYTES); past either, the whole
# changeset is refused. Django itself refuses more than DATA_UPLOAD_MAX_NUMBER_FILES (100).
CHANGESET_SCANS_MAX = env_int("CHANGESET_SCANS_MAX", 60)
CHANGESET_SCANS_MAX_BYTES = env_int("CHANGESET_SCANS_MAX_BYTES", 120_000_000)
# The licence the open-data export names (catalog/opendata.py): an SPDX id or a URL.
CATALOG_LICENCE = os.environ.get("CATALOG_LICENCE", "CC-BY-4.0").strip()[:200] or "CC-BY-4.0"
# Importing another instance's open-data export (catalog/opendata_import.py): cards in one
# import, and bytes one file (or a zip's files together) may hold.
OPEN_DATA_IMPORT_MAX_CARDS = env_int("OPEN_DATA_IMPORT_MAX_CARDS", 5000)
OPEN_DATA_IMPORT_MAX_BYTES = env_int("OPEN_DATA_IMPORT_MAX_BYTES", 10_000_000)

STORAGES = {
    "default": DEFAULT_STORAGE,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "cardsite.accounts.authentication.StrictTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # One bounded JSON reader (size, depth, numbers, NaN, NUL): cardsite/web/json_limits.py. Bodies
    # are JSON (nested entries have no form encoding); deck import also takes a file upload.
    "DEFAULT_PARSER_CLASSES": ["cardsite.web.json_limits.BoundedJSONParser"],
    "DEFAULT_PAGINATION_CLASS": "cardsite.web.api_errors.StrictPageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "cardsite.web.api_errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"writes": os.environ.get("API_WRITE_RATE", "120/minute")},
}
# DRF's browsable API (HTML pages for browsers): in development only. Its templates need style
# attributes, which its own pages allow (cardsite/web/browsable_api.py); with DEBUG off the API
# answers JSON alone and no page relaxes the Content-Security-Policy.
API_BROWSABLE = env_bool("API_BROWSABLE", DEBUG)
REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"] = ["rest_framework.renderers.JSONRenderer"] + (
    ["cardsite.web.browsable_api.CSPBrowsableAPIRenderer"] if API_BROWSABLE else []
)
# Request bounds (docs/limits.md): a JSON body, a form body, an uploaded file.
API_MAX_JSON_BYTES = env_int("API_MAX_JSON_BYTES", 1_000_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000

SPECTACULAR_SETTINGS = {
    "TITLE": "Eleven Stars card lab API",
    "DESCRIPTION": "Cards, sets, decks and simulations for the Eleven Stars TCG (sample data).",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI assets served by the app (drf-spectacular-sidecar), never from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "PolicyEnum": "play.simulations.core.POLICIES",
        "CollectionVisibilityEnum": "decks.models.Collection.Visibility",
        "DeckVisibilityEnum": "decks.models.Deck.Visibility",
        "CardKindEnum": "catalog.models.Card.Kind",
        "CardStatusEnum": ["sample", "real"],
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "cardsite.web.api_errors.add_error_responses",
    ],
}

# Content-Security-Policy (django-csp): scripts and styles only from our own static files or
# with the request's nonce (`{{ request.csp_nonce }}`); no inline handlers or style attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Production hardening: on whenever DEBUG is off, so `check --deploy` is clean.
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    if not SECURE_SSL_REDIRECT:
        # Turned off on purpose: the TLS proxy in front redirects http to https itself, or the
        # stack is tried out locally over plain http (docs/deploy.md).
        SILENCED_SYSTEM_CHECKS = ["security.W008"]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Celery: Redis when REDIS_URL is set, else the filesystem transport (no server needed).
BROKER_DIR = Path(os.environ.get("BROKER_DIR") or BASE_DIR / "var" / "broker")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
else:
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 3600)
# Ten priority levels, served lowest number first: fair sharing of workers between users
# (play.simulations.services.queue_chunks). Every Redis client of the app must use the same options.
REDIS_TRANSPORT_PRIORITIES = {
    "priority_steps": list(range(10)),
    "sep": ":",
    "queue_order_strategy": "priority",
}
# A worker's Redis transport looks for delivered, unacknowledged messages whose visibility
# timeout has passed (a dead worker's chunk) every interval × throttle seconds: 10 × 10 by
# kombu's default, so a chunk could wait 100 s past its timeout. One look every few seconds (a
# third of the timeout, at most 10 s; one ZRANGE of at most 10 entries each) redelivers it
# within seconds of its timeout.
CELERY_RESTORE_SWEEP_SECONDS = max(1, min(10, CELERY_VISIBILITY_TIMEOUT // 3))
if REDIS_URL:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        "unacked_restore_interval": CELERY_RESTORE_SWEEP_SECONDS,
        "unacked_restore_throttle": 1,
        **REDIS_TRANSPORT_PRIORITIES,
    }
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fix-up closes the database connections around every task unless this is set;
# a worker then reconnects for each chunk (5-15 ms). Kept for this many tasks instead (and at
# most CONN_MAX_AGE); play.tasks.usable_connection checks the kept one before each chunk.
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 100)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 300)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 360)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# Simulation batches (play/): limits, chunking and the reconciler.
SIMULATION_MAX_RUNS = env_int("SIMULATION_MAX_RUNS", 1_000_000)
# Cache card-search answers under the catalog version (catalog/cache.py); 0 turns it off.
SEARCH_CACHE = env_bool("SEARCH_CACHE", True)
SIMULATION_MAX_ACTIVE_PER_USER = env_int("SIMULATION_MAX_ACTIVE_PER_USER", 3)
SIMULATION_MAX_ATTEMPTS = env_int("SIMULATION_MAX_ATTEMPTS", 3)
SIMULATION_RETRY_BACKOFF = env_int("SIMULATION_RETRY_BACKOFF", 1)
SIMULATION_STALL_SECONDS = env_int("SIMULATION_STALL_SECONDS", 120)
# Database/broker errors retried without counting an attempt (backoff 1, 2, 4 … 30 s).
SIMULATION_MAX_TRANSIENT_RETRIES = env_int("SIMULATION_MAX_TRANSIENT_RETRIES", 40)
# Unfinished chunks of one batch published at a time: a finished chunk publishes the next, so a
# create request sends only this many messages and a cancel has only this many to remove.
SIMULATION_QUEUE_WINDOW = env_int("SIMULATION_QUEUE_WINDOW", 8)
# Fair sharing: every this many queued chunks of one owner lower their priority by one step.
SIMULATION_FAIR_STEP = env_int("SIMULATION_FAIR_STEP", 4)
# Runs per chunk; each batch kind (play/simulations/kinds/) names the one it uses.
SIMULATION_CHUNK_PK = env_int("SIMULATION_CHUNK_PK", 5000)
SIMULATION_CHUNK_MATCHES = env_int("SIMULATION_CHUNK_MATCHES", 500)
SIMULATION_CHUNK_GAMES = env_int("SIMULATION_CHUNK_GAMES", 1000)
SIMULATION_CHUNK_SIZE: dict[str, int] = {}  # per-kind overrides by kind key (tests use them)
# Swap suggestions (issue #29): the most decks a field may hold (every prebuilt deck plays).
SIMULATION_SWAPS_MAX_FIELD = env_int("SIMULATION_SWAPS_MAX_FIELD", 50)
# The most decks a matchup matrix plays (each pair: 16 decks are 120 pairs).
SIMULATION_MATRIX_MAX_DECKS = env_int("SIMULATION_MATRIX_MAX_DECKS", 16)
# Two queues: "chunks" for simulation work (the default), "control" for the reconciler, consumed
# by a worker of its own (runlab, runstack), so a backlog of chunks can never delay it.
CELERY_TASK_DEFAULT_QUEUE = "chunks"
CONTROL_QUEUE = "control"
CELERY_BEAT_SCHEDULE = {
    "reconcile-simulations": {
        "task": "play.tasks.simulation_reconcile",
        "schedule": float(env_int("SIMULATION_RECONCILE_EVERY", 30)),
        "options": {"queue": CONTROL_QUEUE, "expires": env_int("SIMULATION_RECONCILE_EVERY", 30)},
    },
    "requeue-scans": {
        "task": "catalog.tasks.scans_requeue",
        "schedule": 60.0,
        "options": {"queue": CONTROL_QUEUE, "expires": 60},
    },
    "sweep-readings": {
        "task": "catalog.tasks.readings_sweep",
        "schedule": 60.0,
        "options": {"queue": CONTROL_QUEUE, "expires": 60},
    },
}
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["simulations"] = os.environ.get(
    "SIMULATION_CREATE_RATE", "30/hour"
)
