"""Kaiza settings, driven by environment variables with embedded defaults.

With nothing set, the project runs on one machine with nothing installed but Python: a SQLite file
in the project folder and the in-memory channel layer. `DATABASE_URL` switches to PostgreSQL and
`REDIS_URL` to the Redis channel layer, which is what several daphne processes need to share matches.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
# The development key only exists so `make run` works out of the box; production sets SECRET_KEY.
SECRET_KEY = os.environ.get("SECRET_KEY", "kaiza-development-only-key-change-me-in-production-0123456789")
if not DEBUG and SECRET_KEY.startswith("kaiza-development-only"):
    raise RuntimeError("Set SECRET_KEY when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list(
    "CSRF_TRUSTED_ORIGINS", ["http://127.0.0.1:8000", "http://localhost:8000"]
)

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "game",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "kaiza_site.asgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # Persistent connections: opening a PostgreSQL connection per query costs a server process fork
    # each time, which dominated the load benchmark. No health checks: they add a query per request.
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")))
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # SQLite serialises writers; a generous timeout lets concurrent sockets wait their turn
            # instead of failing with "database is locked".
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }

# Threads for the database work of websockets and bots (game.db). One by default, PostgreSQL too: every
# database thread that runs Python competes with the event loop for the GIL, and with 2 or 8 of them
# the load benchmark's loop stalled 40+ ms at a time (100 matches: aim relay p99 35-110 ms with 2,
# 21-27 ms with 1). Raise it for a database far enough away that round trips, not Python, dominate.
KAIZA_DB_THREADS = int(os.environ.get("KAIZA_DB_THREADS", "1"))

REDIS_URL = os.environ.get("REDIS_URL", "")
# Which Redis layer (docs/performance-load.md compares them): "kaiza" is channels_redis's
# RedisChannelLayer with one reader task per process and batched group sends (game.channel_layer);
# "pubsub" is channels_redis's RedisPubSubChannelLayer (at-most-once Redis pub/sub).
KAIZA_CHANNEL_LAYER = os.environ.get("KAIZA_CHANNEL_LAYER", "kaiza")
if REDIS_URL and KAIZA_CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [REDIS_URL]}}
    }
elif REDIS_URL:
    # channels_redis's RedisChannelLayer, except that one reader task per process reads from Redis:
    # stock, a closing socket's cancelled receive() could drop another socket's message (see the module).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "game.channel_layer.KaizaRedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "capacity": 1500, "expiry": 30},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator", "OPTIONS": {"min_length": 8}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
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
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
