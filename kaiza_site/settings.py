"""Kaiza's Django settings, made from the configuration (kaiza_site/config.py), which reads the
environment once; docs/configuration.md lists every variable.

With nothing set, the project runs on one machine with nothing installed but Python: a SQLite file
in the project folder and the in-memory channel layer. `DATABASE_URL` switches to PostgreSQL and
`REDIS_URL` to the Redis channel layer, which is what several daphne processes need to share matches.
"""

from __future__ import annotations

import dj_database_url
from csp.constants import NONCE

from kaiza_site import config

BASE_DIR = config.BASE_DIR
#: The typed configuration; the settings below are made from it, tests override the settings.
KAIZA_CONFIG = config.load()
_site, _tuning, _testing = KAIZA_CONFIG.production, KAIZA_CONFIG.tuning, KAIZA_CONFIG.testing

DEBUG = _site.debug
SECRET_KEY = _site.secret_key
ALLOWED_HOSTS = list(_site.allowed_hosts)
CSRF_TRUSTED_ORIGINS = list(_site.csrf_trusted_origins)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    # Before allauth: our templates (account/*, allauth/layouts/base.html) override its own.
    "game",
    "allauth",
    "allauth.account",
    "csp",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After sessions (it reads the language chosen there), before common (Django's documented order).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in player's profile language wins over a browser that has no choice stored yet.
    "game.accounts.language.ProfileLanguageMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # A club's pages and events speak the club's time zone (its view's URL names the club).
    "game.clubs.time_zone.ClubTimeZoneMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "game.common.ratelimit.RateLimitMiddleware",
]

ROOT_URLCONF = "kaiza_site.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "game.common.context_processors.animation_rate",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "kaiza_site.asgi.application"

DATABASE_URL = _site.database_url
# Connections to PostgreSQL come from a pool of each process (Django's own, on psycopg_pool): opening one
# forks a server process (about 10 ms), and under ASGI every HTTP request runs in a thread of its own,
# so a persistent connection (CONN_MAX_AGE) was never reused: each page opened and closed one. The
# sockets' database threads (game.common.db) take theirs from the same pool. KAIZA_DB_POOL is its largest size
# (0: no pool, persistent connections for CONN_MAX_AGE seconds instead). No health checks: they add a
# query per request.
KAIZA_DB_POOL = _tuning.db_pool
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=_site.conn_max_age)}
    if KAIZA_DB_POOL > 0 and DATABASES["default"]["ENGINE"].endswith("postgresql"):
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # Django's pool refuses persistent connections
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": KAIZA_DB_POOL,
            # A request or input waits this long for a free connection, then fails with an error.
            "timeout": 10,
            # psycopg_pool retries a lost connection at 1, 2, 4, 8... s, for 5 minutes by default: after
            # an outage of 30 s the site stayed down up to 30 s more, waiting for the next try. It gives
            # up after 5 s instead, and the next request that finds no connection opens one at once.
            "reconnect_timeout": 5,
        }
    if DATABASES["default"]["ENGINE"].endswith("postgresql"):
        # Prepared statements on: Django turns psycopg's off (None) for transaction poolers such as
        # PgBouncer, which this site does not use (its pool is each process's own, above). Only the
        # input path asks for them (game.matches.services.rows, `_cursor`); Django's cursors bind on
        # the client and never prepare, whatever this number.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _site.sqlite_path,
            # SQLite serialises writers; a generous timeout lets concurrent sockets wait their turn
            # instead of failing with "database is locked".
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }

# Threads for the database work of websockets and bots (game.common.db). One: each thread running an
# input's Python contends with the event loop, and with the other threads, for the GIL; one thread held
# the load better than two (docs/decisions/one-database-thread.md).
KAIZA_DB_THREADS = _tuning.db_threads
# Seconds a player may be away before he loses the match (K-9.3; both away or before the break:
# aborted). The server clocks fire it (game/matches/services/deadlines.py); tests of whole pages shorten it.
KAIZA_DISCONNECT_GRACE = _site.disconnect_grace
# Seconds a visit may take once the K-11 time is up, in a match created without a shot clock, so the
# extra visits and the shoot-out always end (game/matches/selectors/match_state.py); page tests that steer
# slowly through the shoot-out lengthen it.
KAIZA_TIME_UP_SHOT_CLOCK = _site.time_up_shot_clock
# The time zone a new club's pages, forms, files and logs speak (a club changes its own). The site's
# clock and database stay in UTC (TIME_ZONE below); a club's page shows its events in its zone.
KAIZA_CLUB_TIME_ZONE = _site.club_time_zone
# The language a new club's TV page and wall chart speak (a club changes its own): one of LANGUAGES.
KAIZA_CLUB_LANGUAGE = _site.club_language
# The engine pool (game.common.engine_pool), the computer player and the match analysis: None is the
# default that module derives (the machine's cores, the engine's sample and simulation counts).
KAIZA_BOT_WORKERS = _tuning.bot_workers
KAIZA_ASK_QUEUE = _tuning.ask_queue
KAIZA_BOT_PACE = _tuning.bot_pace
KAIZA_ANALYSIS_SAMPLES = _tuning.analysis_samples
KAIZA_ANALYSIS_SIMULATIONS = _tuning.analysis_simulations
KAIZA_ANALYSIS_USER_LIMIT = _tuning.analysis_user_limit
# The server process: its name in the connection rows, its clocks' poll, its start-up (kaiza_site.asgi).
KAIZA_PROCESS_NAME = _site.process_name
KAIZA_DEADLINE_POLL = _tuning.deadline_poll
KAIZA_SWITCH_INTERVAL = _tuning.switch_interval
KAIZA_GC_THRESHOLD = _tuning.gc_threshold
KAIZA_WRITE_THROUGH = _tuning.write_through

REDIS_URL = _site.redis_url
# Which Redis layer (the load benchmark compares them, docs/benchmarks.md): "kaiza" is channels_redis's
# RedisChannelLayer with one reader task per process and batched group sends (game.realtime.channel_layer);
# "pubsub" is channels_redis's RedisPubSubChannelLayer (at-most-once Redis pub/sub).
KAIZA_CHANNEL_LAYER = _tuning.channel_layer
# The channel layer's key prefix in Redis (channels_redis's default "asgi"): sites, or test runs, that
# share one Redis keep their groups apart with prefixes of their own.
CHANNEL_PREFIX = _site.channel_prefix
if REDIS_URL and KAIZA_CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": CHANNEL_PREFIX},
        }
    }
elif REDIS_URL:
    # channels_redis's RedisChannelLayer, except that one reader task per process reads from Redis:
    # stock, a closing socket's cancelled receive() could drop another socket's message (see the module).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.realtime.channel_layer.KaizaRedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30, "prefix": CHANNEL_PREFIX},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/lobby/"
LOGOUT_REDIRECT_URL = "/"

# --- Accounts (django-allauth) -----------------------------------------------------------------------
# Guests (game.accounts.services.guest_create) are plain users logged in with the model backend; the
# adapter turns a guest into the new account when it signs up (game/accounts/allauth_adapter.py).
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
ACCOUNT_ADAPTER = "game.accounts.allauth_adapter.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "game.accounts.signup_form.SignupExtraForm"
ACCOUNT_FORMS = {"login": "game.accounts.allauth_adapter.LoginForm"}
#: "none" (default), "optional" or "mandatory": with anything but "none" an e-mail address is required
#: at sign-up, a confirmation link is mailed, and only verified accounts play rated results.
ACCOUNT_EMAIL_VERIFICATION = _site.account_email_verification
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = [
    "username*",
    "email" if ACCOUNT_EMAIL_VERIFICATION == "none" else "email*",
    "password1*",
    "password2*",
]
ACCOUNT_UNIQUE_EMAIL = True
# Guests are logged in: the login page must still let them log into an account they have.
ACCOUNT_AUTHENTICATED_LOGIN_REDIRECTS = False
ACCOUNT_SIGNUP_REDIRECT_URL = "/lobby/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Kaiza] "
# allauth counts these in the cache (CACHES below: Redis when REDIS_URL is set, so every process
# shares the counts). "n/period/per": per client address ("ip"), per user, or per "key" (the login
# name or e-mail address tried; for "login_failed" the name together with the address trying it,
# game/accounts/allauth_adapter.py, so a stranger's wrong passwords cannot lock the owner out).
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "5/10m/ip,20/d/ip",
    "reset_password": "10/m/ip,3/10m/key",
    "reset_password_from_key": "20/m/ip",
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "confirm_email": "1/3m/key",
}
#: Our own actions' limits (game/common/ratelimit.py): action -> {"user" | "ip": (count, seconds)}.
KAIZA_RATE_LIMITS = {
    "match_create": {"user": (10, 60), "ip": (30, 60)},
    "match_join": {"user": (20, 60), "ip": (60, 60)},
    "club_create": {"user": (3, 3600), "ip": (10, 3600)},
    "guest_create": {"ip": (10, 600)},
    # A tutorial try runs the engine (milliseconds of CPU) and stores nothing: generous, but bounded.
    "tutorial_try": {"ip": (60, 60)},
    # The practice table: every shot and every dropped ball is one request to the engine (nothing stored).
    "practice_try": {"ip": (120, 60)},
    # The analysis board: each question is seconds of the engine pool's time (answers are kept per position).
    "practice_ask": {"ip": (20, 60)},
    # A puzzle page's requests (a placement, the one answer): the engine, one row written per answer.
    "puzzle_answer": {"ip": (60, 60)},
    # An event's online registration (a guest registers by name): a club night's players from one
    # hall's wifi fit; a script filling an event with names does not.
    "event_register": {"user": (20, 600), "ip": (40, 600)},
}
# KAIZA_RATE_LIMITS='{"guest_create": {"ip": [1000, 60]}}' replaces an action's limits (a load test
# whose clients all come from one address needs that).
KAIZA_RATE_LIMITS.update({action: dict(limits) for action, limits in _tuning.rate_limits.items()})
#: Sockets open at once, counted in each server process (game/common/ratelimit.py `socket_slots`): what one
#: client may hold of a process's file descriptors, snapshot reads and connection rows (one
#: guest opened 500 sockets on one match). Past a cap the socket is accepted and closed at once with
#: 4429 and a reason in words (docs/protocol.md). "match": the sockets of one match of one user
#: ("user": logged in or a guest), or of one address for visitors without an account ("ip": everyone
#: behind it, a club hall's NAT, shares it). 4 tabs is more than a player needs (a second screen, a
#: reload whose old socket has not closed yet). "process": all sockets of every kind (match, lobby,
#: tournament, ping) from one address, whoever is logged in: 30 people of a club hall with a match and
#: the lobby open each are 60, and 100 is a tenth of a process's default 1024 file descriptors.
KAIZA_SOCKET_LIMITS = {
    "match": {"user": 4, "ip": 8},
    "process": {"ip": 100},
}
# KAIZA_SOCKET_LIMITS='{"process": {"ip": 100000}}' replaces a scope's caps (a load test from one address).
KAIZA_SOCKET_LIMITS.update({scope: dict(caps) for scope, caps in _tuning.socket_limits.items()})

# --- E-mail: the console by default; SMTP when EMAIL_HOST is set ----------------------------------------
EMAIL_HOST = _site.email_host
EMAIL_BACKEND = _site.email_backend or (
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = _site.email_port
EMAIL_HOST_USER = _site.email_host_user
EMAIL_HOST_PASSWORD = _site.email_host_password
EMAIL_USE_TLS = _site.email_use_tls
EMAIL_USE_SSL = _site.email_use_ssl
DEFAULT_FROM_EMAIL = _site.default_from_email
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Cache: rate-limit counts. Per process without Redis; with REDIS_URL every process shares them ----
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "kaiza"}
    )
}
CACHES["default"]["KEY_PREFIX"] = _site.cache_key_prefix

# --- Websocket and chat message budgets per user (game/common/budgets.py): in Redis when REDIS_URL is set, so
# a user's sockets on every process share one budget; in each process's memory otherwise -------------
# Test servers only: mounts /test/clock/advance, which moves the game clock (game/common/clock.py).
KAIZA_TEST_CLOCK = _testing.test_clock
# Test servers only: shots roll this many times faster on the match page (its shot timeline only, and
# the shot clock that starts when they stop; the replay of the last shot, the replay page and the
# computer player's wait keep real time). 1 elsewhere.
KAIZA_ANIMATION_RATE = _testing.animation_rate if KAIZA_TEST_CLOCK else 1.0
# A fresh install shows life: the shipped starter puzzles are loaded when a server starts on a site that
# has none, and the Watch page starts a computer exhibition when nobody plays (game/puzzles/services.py,
# game/matches/services/exhibition.py). Test servers and the test process turn it off.
KAIZA_SHOWCASE = _site.showcase
KAIZA_BUDGET_REDIS_URL = REDIS_URL if _site.budget_redis_url is None else _site.budget_redis_url
KAIZA_BUDGET_PREFIX = CACHES["default"]["KEY_PREFIX"]
# KAIZA_MESSAGE_BUDGETS='{"user:other": [12, 0.5]}' replaces entries of game.common.ratelimit.MESSAGE_BUDGETS.
KAIZA_MESSAGE_BUDGETS = _tuning.message_budgets

# --- HTTPS and headers behind a TLS proxy (docs/deployment.md); each variable is named as its setting ----
SECURE_HSTS_SECONDS = _site.secure_hsts_seconds
SECURE_HSTS_INCLUDE_SUBDOMAINS = _site.secure_hsts_include_subdomains
SECURE_HSTS_PRELOAD = _site.secure_hsts_preload
SECURE_SSL_REDIRECT = _site.secure_ssl_redirect
# The load balancer's health probe may speak plain HTTP to a process.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = _site.session_cookie_secure
CSRF_COOKIE_SECURE = _site.csrf_cookie_secure
#: true: the proxy in front says the original scheme in X-Forwarded-Proto (and strips it from clients).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if _site.secure_proxy_ssl_header else None
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): our own origin only, no inline script or style. A template that
# needs an inline script gives it nonce="{{ CSP_NONCE }}" (the nonce is sent only when used).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Languages (docs/i18n.md): the same URLs in every language; Accept-Language decides a first visit,
# the header's switcher (Django's set_language, /i18n/setlang/) a later one, stored in the cookie and on
# a signed-in player's profile (game/accounts/language.py). Catalogues: game/locale/<lang>/LC_MESSAGES/.
LANGUAGE_CODE = "en"
LANGUAGES = list(config.LANGUAGES)
LOCALE_PATHS = [BASE_DIR / "game" / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Served by whitenoise from the finder in development (no collectstatic step for `make run`).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A database failure is logged in a line, without its traceback (game.common.db.OutageLogFilter).
    "filters": {"outage": {"()": "game.common.db.OutageLogFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["outage"]}},
    "root": {"handlers": ["console"], "level": KAIZA_CONFIG.diagnostics.log_level},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
