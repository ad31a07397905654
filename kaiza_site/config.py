"""Kaiza's configuration: every environment variable the product reads, typed, read once.

`kaiza_site/settings.py` calls :func:`load` once, at start; the rest of the product reads
`django.conf.settings` (so tests override a value with Django's `settings` fixture or
`override_settings`), never the environment. A value that cannot be accepted stops the start with one
line naming the variable and what it accepts: a typo in a deployment must not leave a server running
on a default nobody chose.

Each field names its variable, its default and what it is for; `docs/configuration.md` is made from
them (`python -m kaiza_site.config --markdown > docs/configuration.md`, checked by
tests/architecture/test_config.py). The groups keep apart what a deployment sets (production), what
only a measurement or an unusual host needs (tuning), what only test servers turn on (testing), and
what only helps find a fault (diagnostics).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import dj_database_url

T = TypeVar("T")

BASE_DIR = Path(__file__).resolve().parent.parent
#: The languages the site speaks (settings.LANGUAGES): a club's language is one of them.
LANGUAGES = (("en", "English"), ("fi", "Suomi"), ("ru", "Русский"))
#: The key `make run` works with out of the box; with DEBUG off it is refused.
DEVELOPMENT_SECRET_KEY = "kaiza-development-only-key-change-me-in-production-0123456789"
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


class ConfigError(ValueError):
    """A variable's value cannot be accepted; the message is the one line the start-up prints."""


@dataclass(frozen=True)
class Variable:
    """How one field is read: its variable, what it accepts (in words), how to parse it."""

    env: str
    doc: str
    accepts: str
    parse: Callable[[str], Any]
    #: The default as the documentation shows it, when the field's own default (None) means "derived".
    shown_default: str | None = None
    #: Never echo the value in an error (passwords, keys, URLs with credentials).
    secret: bool = False


def _setting(
    env: str,
    default: Any,
    doc: str,
    accepts: str,
    parse: Callable[[str], Any],
    *,
    shown_default: str | None = None,
    secret: bool = False,
) -> Any:
    variable = Variable(env, doc, accepts, parse, shown_default, secret)
    if isinstance(default, dict):
        return field(default_factory=lambda: dict(default), metadata={"variable": variable})
    return field(default=default, metadata={"variable": variable})


# --- Parsers: each returns the typed value or raises ValueError ---------------------------------------


def _text(raw: str) -> str:
    return raw.strip()


def _flag(raw: str) -> bool:
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(raw)


def _whole(minimum: int, maximum: int | None = None) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        number = int(raw.strip())
        if number < minimum or (maximum is not None and number > maximum):
            raise ValueError(raw)
        return number

    return parse


def _number(minimum: float, *, above: bool = False) -> Callable[[str], float]:
    def parse(raw: str) -> float:
        number = float(raw.strip())
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError(raw)
        if number < minimum or (above and number == minimum):
            raise ValueError(raw)
        return number

    return parse


def _choice(choices: tuple[str, ...], normalise: Callable[[str], str] = str.lower) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        word = normalise(raw.strip())
        if word not in choices:
            raise ValueError(raw)
        return word

    return parse


def _names(raw: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in raw.split(",") if item.strip())


def _time_zone(raw: str) -> str:
    name = raw.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(raw) from error
    return name


def _database_url(raw: str) -> str:
    url = raw.strip()
    if url:
        dj_database_url.parse(url)  # an unknown scheme raises
    return url


def _gc_thresholds(raw: str) -> tuple[int, int, int]:
    parts = tuple(int(part) for part in raw.split(","))
    if len(parts) != 3 or min(parts) < 0:
        raise ValueError(raw)
    return parts[0], parts[1], parts[2]


def _json_object(raw: str) -> dict[str, Any]:
    value = json.loads(raw)
    if not isinstance(value, dict):
        raise ValueError(raw)
    return value


def _count(value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(value)
    return value


def _rate_limits(raw: str) -> dict[str, dict[str, tuple[int, int]]]:
    limits: dict[str, dict[str, tuple[int, int]]] = {}
    for action, per_limits in _json_object(raw).items():
        if not isinstance(per_limits, dict) or not set(per_limits) <= {"user", "ip"}:
            raise ValueError(raw)
        limits[action] = {}
        for per, pair in per_limits.items():
            if not isinstance(pair, list) or len(pair) != 2:
                raise ValueError(raw)
            limits[action][per] = (_count(pair[0]), _count(pair[1], minimum=1))
    return limits


def _socket_limits(raw: str) -> dict[str, dict[str, int]]:
    caps: dict[str, dict[str, int]] = {}
    for scope, per_caps in _json_object(raw).items():
        if scope not in {"match", "process"} or not isinstance(per_caps, dict) or not set(per_caps) <= {"user", "ip"}:
            raise ValueError(raw)
        caps[scope] = {per: _count(count) for per, count in per_caps.items()}
    return caps


def _message_budgets(raw: str) -> dict[str, tuple[float, float]]:
    budgets: dict[str, tuple[float, float]] = {}
    for entry, pair in _json_object(raw).items():
        per, _, kind = entry.partition(":")
        if per not in {"user", "ip"} or kind not in {"aim", "other"} or not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(raw)
        if not all(isinstance(part, int | float) and not isinstance(part, bool) and part > 0 for part in pair):
            raise ValueError(raw)
        budgets[entry] = (float(pair[0]), float(pair[1]))
    return budgets


FLAG = "1, true, yes, on; or 0, false, no, off"
NAMES = "names separated by commas"


def _whole_words(minimum: int, maximum: int | None = None) -> str:
    return f"a whole number from {minimum} to {maximum}" if maximum is not None else f"a whole number >= {minimum}"


# --- The groups -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Production:
    """What a deployment sets: its secrets, its hosts, its database and Redis, its mail, HTTPS."""

    debug: bool = _setting(
        "DEBUG", True, "Django's debug pages and template reloading; off in production.", FLAG, _flag
    )
    secret_key: str = _setting(
        "SECRET_KEY",
        DEVELOPMENT_SECRET_KEY,
        "Signs sessions and CSRF tokens; must be set when DEBUG is off.",
        "text",
        lambda raw: raw,
        shown_default="a development-only key",
        secret=True,
    )
    allowed_hosts: tuple[str, ...] = _setting(
        "ALLOWED_HOSTS",
        ("127.0.0.1", "localhost", "[::1]", "testserver"),
        "The host names the site answers to (Django's ALLOWED_HOSTS).",
        NAMES,
        _names,
    )
    csrf_trusted_origins: tuple[str, ...] = _setting(
        "CSRF_TRUSTED_ORIGINS",
        ("http://127.0.0.1:8000", "http://localhost:8000"),
        "Origins (scheme://host:port) trusted for forms and websockets besides the site's own.",
        NAMES,
        _names,
    )
    database_url: str = _setting(
        "DATABASE_URL",
        "",
        "The PostgreSQL database; empty: the SQLite file SQLITE_PATH.",
        "a database URL such as postgres://user:password@host:5432/name",
        _database_url,
        secret=True,
    )
    sqlite_path: str = _setting(
        "SQLITE_PATH",
        str(BASE_DIR / "db.sqlite3"),
        "The SQLite file used when DATABASE_URL is empty.",
        "a file path",
        _text,
        shown_default="db.sqlite3 in the project folder",
    )
    conn_max_age: int = _setting(
        "CONN_MAX_AGE",
        60,
        "Seconds a database connection is kept when KAIZA_DB_POOL is 0 (no pool).",
        _whole_words(0),
        _whole(0),
    )
    redis_url: str = _setting(
        "REDIS_URL",
        "",
        "Redis for the channel layer, the cache and the message budgets; what several processes share.",
        "a Redis URL such as redis://127.0.0.1:6379/0, or empty (one process, in memory)",
        _text,
        secret=True,
    )
    channel_prefix: str = _setting(
        "KAIZA_CHANNEL_PREFIX",
        "asgi",
        "The channel layer's key prefix in Redis: sites or test runs sharing one Redis use their own.",
        "text",
        _text,
    )
    cache_key_prefix: str = _setting(
        "CACHE_KEY_PREFIX", "kaiza", "The cache's key prefix (rate-limit counts, message budgets).", "text", _text
    )
    budget_redis_url: str | None = _setting(
        "KAIZA_BUDGET_REDIS_URL",
        None,
        "Where the per-user message budgets live; empty: each process's memory.",
        "a Redis URL, or empty",
        _text,
        shown_default="REDIS_URL",
        secret=True,
    )
    process_name: str = _setting(
        "KAIZA_PROCESS_NAME",
        "",
        "This process's name in the connection rows; restarted under it, it removes its predecessor's rows.",
        "text (its first 200 characters are kept)",
        lambda raw: raw.strip()[:200],
        shown_default="host:port of its first socket",
    )
    club_time_zone: str = _setting(
        "KAIZA_CLUB_TIME_ZONE",
        "Europe/Helsinki",
        "The time zone a new club's pages, forms and files speak (a club changes its own).",
        "an IANA time zone name such as Europe/Helsinki",
        _time_zone,
    )
    club_language: str = _setting(
        "KAIZA_CLUB_LANGUAGE",
        "fi",
        "The language a new club's TV page and wall chart speak (a club changes its own).",
        "one of " + ", ".join(code for code, _name in LANGUAGES),
        _choice(tuple(code for code, _name in LANGUAGES)),
    )
    disconnect_grace: float = _setting(
        "KAIZA_DISCONNECT_GRACE",
        60.0,
        "Seconds a player may be away before he loses the match (K-9.3).",
        "a number of seconds >= 0",
        _number(0.0),
    )
    time_up_shot_clock: int = _setting(
        "KAIZA_TIME_UP_SHOT_CLOCK",
        60,
        "Seconds a visit may take once the K-11 time is up in a match without a shot clock.",
        _whole_words(1),
        _whole(1),
    )
    showcase: bool = _setting(
        "KAIZA_SHOWCASE",
        True,
        "A fresh site loads the starter puzzles and plays a computer exhibition when nobody plays.",
        FLAG,
        _flag,
    )
    account_email_verification: str = _setting(
        "ACCOUNT_EMAIL_VERIFICATION",
        "none",
        "Whether sign-up asks for an e-mail address and confirms it; only verified accounts play rated.",
        "none, optional or mandatory",
        _choice(("none", "optional", "mandatory")),
    )
    email_host: str = _setting(
        "EMAIL_HOST", "", "The SMTP server; empty: mail is printed on the console.", "a host name, or empty", _text
    )
    email_backend: str | None = _setting(
        "EMAIL_BACKEND",
        None,
        "Django's e-mail backend, when neither SMTP nor the console will do.",
        "a dotted Python path",
        _text,
        shown_default="SMTP when EMAIL_HOST is set, else the console",
    )
    email_port: int = _setting("EMAIL_PORT", 587, "The SMTP server's port.", _whole_words(1, 65535), _whole(1, 65535))
    email_host_user: str = _setting("EMAIL_HOST_USER", "", "The SMTP user name.", "text", _text)
    email_host_password: str = _setting(
        "EMAIL_HOST_PASSWORD", "", "The SMTP password.", "text", lambda raw: raw, secret=True
    )
    email_use_tls: bool = _setting("EMAIL_USE_TLS", True, "SMTP with STARTTLS.", FLAG, _flag)
    email_use_ssl: bool = _setting("EMAIL_USE_SSL", False, "SMTP over TLS from the start (port 465).", FLAG, _flag)
    default_from_email: str = _setting(
        "DEFAULT_FROM_EMAIL",
        "Kaiza <noreply@kaiza.invalid>",
        "The sender of the site's mail.",
        "an address, optionally with a name",
        _text,
    )
    secure_hsts_seconds: int = _setting(
        "SECURE_HSTS_SECONDS", 0, "Strict-Transport-Security's max-age; 0 sends none.", _whole_words(0), _whole(0)
    )
    secure_hsts_include_subdomains: bool = _setting(
        "SECURE_HSTS_INCLUDE_SUBDOMAINS", False, "Strict-Transport-Security covers the subdomains.", FLAG, _flag
    )
    secure_hsts_preload: bool = _setting(
        "SECURE_HSTS_PRELOAD", False, "Strict-Transport-Security asks for the browsers' preload list.", FLAG, _flag
    )
    secure_ssl_redirect: bool = _setting(
        "SECURE_SSL_REDIRECT", False, "Plain HTTP is redirected to HTTPS (the health probe excepted).", FLAG, _flag
    )
    session_cookie_secure: bool = _setting(
        "SESSION_COOKIE_SECURE", False, "The session cookie is sent over HTTPS only.", FLAG, _flag
    )
    csrf_cookie_secure: bool = _setting(
        "CSRF_COOKIE_SECURE", False, "The CSRF cookie is sent over HTTPS only.", FLAG, _flag
    )
    secure_proxy_ssl_header: bool = _setting(
        "SECURE_PROXY_SSL_HEADER",
        False,
        "The proxy in front says the original scheme in X-Forwarded-Proto (and strips it from clients).",
        FLAG,
        _flag,
    )


@dataclass(frozen=True)
class Tuning:
    """What a measurement, a load test or an unusual host changes; the defaults suit a deployment."""

    db_pool: int = _setting(
        "KAIZA_DB_POOL",
        16,
        "Largest PostgreSQL connection pool of each process (mind max_connections); 0: no pool.",
        _whole_words(0),
        _whole(0),
    )
    db_threads: int = _setting(
        "KAIZA_DB_THREADS",
        1,
        "Threads for the database work of websockets and bots (game.common.db).",
        _whole_words(1),
        _whole(1),
    )
    bot_workers: int | None = _setting(
        "KAIZA_BOT_WORKERS",
        None,
        "Worker processes of the engine pool (computer player, analysis, engine questions).",
        _whole_words(1),
        _whole(1),
        shown_default="the cores this process may run on",
    )
    ask_queue: int | None = _setting(
        "KAIZA_ASK_QUEUE",
        None,
        "Engine questions that may wait beyond those being answered; one more is refused at once.",
        _whole_words(0),
        _whole(0),
        shown_default="one per worker questions may use",
    )
    bot_pace: float = _setting(
        "KAIZA_BOT_PACE",
        1.0,
        "The computer player's pace: 1 waits and aims like a person, 0 plays at once.",
        "a number >= 0",
        _number(0.0),
    )
    analysis_samples: int | None = _setting(
        "KAIZA_ANALYSIS_SAMPLES",
        None,
        "Noisy strikes per shot valued by a match's analysis.",
        _whole_words(1),
        _whole(1),
        shown_default="the engine's (24)",
    )
    analysis_simulations: int | None = _setting(
        "KAIZA_ANALYSIS_SIMULATIONS",
        None,
        "The analysis's best-shot search budget, in simulations.",
        _whole_words(1),
        _whole(1),
        shown_default="the engine's (240)",
    )
    analysis_user_limit: int = _setting(
        "KAIZA_ANALYSIS_USER_LIMIT",
        2,
        "Analyses one user may have waiting at once (each holds a worker for up to a minute).",
        _whole_words(1),
        _whole(1),
    )
    channel_layer: str = _setting(
        "KAIZA_CHANNEL_LAYER",
        "kaiza",
        "With REDIS_URL: kaiza (one reader task per process, batched group sends) or pubsub (Redis pub/sub).",
        "kaiza or pubsub",
        _choice(("kaiza", "pubsub")),
    )
    rate_limits: Mapping[str, Mapping[str, tuple[int, int]]] = _setting(
        "KAIZA_RATE_LIMITS",
        {},
        "Replaces actions' limits (a load test from one address needs that).",
        'a JSON object: action -> {"user" or "ip": [count, seconds]}',
        _rate_limits,
        shown_default="none replaced",
    )
    socket_limits: Mapping[str, Mapping[str, int]] = _setting(
        "KAIZA_SOCKET_LIMITS",
        {},
        "Replaces the caps on sockets open at once per user or address.",
        'a JSON object: "match" or "process" -> {"user" or "ip": count}',
        _socket_limits,
        shown_default="none replaced",
    )
    message_budgets: Mapping[str, tuple[float, float]] = _setting(
        "KAIZA_MESSAGE_BUDGETS",
        {},
        "Replaces the websocket message budgets (burst, refill per second).",
        'a JSON object: "user" or "ip" + ":aim" or ":other" -> [burst, rate]',
        _message_budgets,
        shown_default="none replaced",
    )
    deadline_poll: float = _setting(
        "KAIZA_DEADLINE_POLL",
        1.0,
        "Seconds between two polls of the server clocks; 0 turns them off in this process.",
        "a number of seconds >= 0",
        _number(0.0),
    )
    switch_interval: float = _setting(
        "KAIZA_SWITCH_INTERVAL",
        0.001,
        "The GIL's switch interval: how long the event loop may wait for a database thread's Python.",
        "a number of seconds > 0",
        _number(0.0, above=True),
    )
    gc_threshold: tuple[int, int, int] | None = _setting(
        "KAIZA_GC_THRESHOLD",
        None,
        "The cyclic garbage collector's gen0,gen1,gen2 thresholds in a server process.",
        "three whole numbers >= 0 separated by commas",
        _gc_thresholds,
        shown_default="10000,5,1000 (game.common.gctune)",
    )
    write_through: bool = _setting(
        "KAIZA_WRITE_THROUGH",
        True,
        "A socket's frame is sent at once when nothing is queued; off: Twisted's queue-then-write.",
        FLAG,
        _flag,
    )


@dataclass(frozen=True)
class Testing:
    """Switches only test servers turn on."""

    test_clock: bool = _setting(
        "KAIZA_TEST_CLOCK",
        False,
        "Mounts /test/clock/advance, which moves the game clock; never in production.",
        FLAG,
        _flag,
    )
    animation_rate: float = _setting(
        "KAIZA_ANIMATION_RATE",
        1.0,
        "With KAIZA_TEST_CLOCK: shots roll this many times faster on the match page.",
        "a number >= 1",
        _number(1.0),
    )


@dataclass(frozen=True)
class Diagnostics:
    """What helps find a fault; nothing here changes what the site does."""

    log_level: str = _setting(
        "LOG_LEVEL",
        "INFO",
        "The lowest level of the messages logged on the console.",
        "DEBUG, INFO, WARNING, ERROR or CRITICAL",
        _choice(("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"), str.upper),
    )


GROUPS: tuple[tuple[str, type[Any]], ...] = (
    ("production", Production),
    ("tuning", Tuning),
    ("testing", Testing),
    ("diagnostics", Diagnostics),
)


def _read_group(group: type[T], env: Mapping[str, str]) -> T:
    values: dict[str, Any] = {}
    for item in dataclasses.fields(group):  # type: ignore[arg-type]
        variable: Variable = item.metadata["variable"]
        raw = env.get(variable.env)
        if raw is None:
            continue
        try:
            values[item.name] = variable.parse(raw)
        except (ValueError, TypeError) as error:
            shown = "" if variable.secret else f"={raw!r}"
            raise ConfigError(f"{variable.env}{shown} is not accepted: {variable.accepts}.") from error
    return group(**values)


@dataclass(frozen=True)
class Config:
    """The whole configuration, one group per kind of reader."""

    production: Production = field(default_factory=Production)
    tuning: Tuning = field(default_factory=Tuning)
    testing: Testing = field(default_factory=Testing)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> Config:
        """The configuration `env` gives; :class:`ConfigError` (one line) for a value it cannot accept."""
        config = cls(**{name: _read_group(group, env) for name, group in GROUPS})
        site = config.production
        if not site.debug and site.secret_key == DEVELOPMENT_SECRET_KEY:
            raise ConfigError("SECRET_KEY is not set: it must be, when DEBUG is off.")
        return config


def load(env: Mapping[str, str] | None = None) -> Config:
    """The configuration of this process, from its environment; a bad value ends the process with its
    one line on stderr (exit status 2), no traceback."""
    try:
        return Config.from_environ(os.environ if env is None else env)
    except ConfigError as error:
        print(f"Kaiza cannot start: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def use_kaiza_settings() -> None:
    """Point Django at kaiza_site.settings unless the process names other settings (the entry points')."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiza_site.settings")


# --- The documentation ------------------------------------------------------------------------------------


def _shown(variable: Variable, default: Any) -> str:
    if variable.shown_default is not None:
        return variable.shown_default
    if isinstance(default, bool):
        return "on" if default else "off"
    if isinstance(default, tuple):
        return ", ".join(str(part) for part in default)
    if default == "":
        return "empty"
    return str(default)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    """docs/configuration.md: every variable by group, with what it accepts, its default and its use."""
    lines = [
        "# Configuration",
        "",
        "Kaiza reads its configuration from environment variables, once, when a process starts",
        "(`kaiza_site/config.py`). A value it cannot accept stops the start with one line naming the",
        "variable and what it accepts. With nothing set, `make run` serves a SQLite file and the in-memory",
        "channel layer on one machine; `DATABASE_URL` and `REDIS_URL` make several processes share matches.",
        "",
        "This page is generated: `python -m kaiza_site.config --markdown > docs/configuration.md`.",
    ]
    for name, group in GROUPS:
        lines += ["", f"## {name.capitalize()}", "", (group.__doc__ or "").strip(), ""]
        lines += ["| Variable | Accepts | Default | What it is for |", "|---|---|---|---|"]
        defaults = group()
        for item in dataclasses.fields(group):
            variable: Variable = item.metadata["variable"]
            shown = _shown(variable, getattr(defaults, item.name))
            lines.append(f"| `{variable.env}` | {_cell(variable.accepts)} | {_cell(shown)} | {_cell(variable.doc)} |")
    return "\n".join(lines) + "\n"


def variables() -> list[Variable]:
    """Every variable the product reads, in the documentation's order."""
    return [item.metadata["variable"] for _name, group in GROUPS for item in dataclasses.fields(group)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--markdown", action="store_true", help="print docs/configuration.md")
    arguments = parser.parse_args(argv)
    if arguments.markdown:
        sys.stdout.write(markdown())
    else:
        print(load())


if __name__ == "__main__":
    main()
