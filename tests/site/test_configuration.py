"""The configuration (kaiza_site/config.py): the defaults with nothing set, each variable's value typed,
and a value it cannot accept refused in one line that names the variable and what it accepts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kaiza_site.config import DEVELOPMENT_SECRET_KEY, Config, ConfigError

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_set_gives_the_defaults() -> None:
    config = Config.from_environ({})
    assert config == Config()
    assert config.production.debug is True
    assert config.production.secret_key == DEVELOPMENT_SECRET_KEY
    assert config.tuning.db_threads == 1
    assert config.tuning.bot_workers is None
    assert config.testing.test_clock is False


def test_values_are_typed() -> None:
    config = Config.from_environ(
        {
            "DEBUG": "off",
            "SECRET_KEY": "s3cret",
            "ALLOWED_HOSTS": "kaiza.example, www.kaiza.example,",
            "KAIZA_DB_THREADS": "2",
            "KAIZA_BOT_PACE": "0",
            "KAIZA_CLUB_LANGUAGE": "RU",
            "KAIZA_GC_THRESHOLD": "700,10,10",
            "KAIZA_RATE_LIMITS": '{"guest_create": {"ip": [1000, 60]}}',
            "KAIZA_SOCKET_LIMITS": '{"process": {"ip": 100000}}',
            "KAIZA_MESSAGE_BUDGETS": '{"user:other": [12, 0.5]}',
            "KAIZA_TEST_CLOCK": "1",
            "KAIZA_ANIMATION_RATE": "48",
            "LOG_LEVEL": "warning",
        }
    )
    assert config.production.debug is False
    assert config.production.allowed_hosts == ("kaiza.example", "www.kaiza.example")
    assert config.production.club_language == "ru"
    assert (config.tuning.db_threads, config.tuning.bot_pace) == (2, 0.0)
    assert config.tuning.gc_threshold == (700, 10, 10)
    assert config.tuning.rate_limits == {"guest_create": {"ip": (1000, 60)}}
    assert config.tuning.socket_limits == {"process": {"ip": 100000}}
    assert config.tuning.message_budgets == {"user:other": (12.0, 0.5)}
    assert (config.testing.test_clock, config.testing.animation_rate) == (True, 48.0)
    assert config.diagnostics.log_level == "WARNING"


@pytest.mark.parametrize(
    ("name", "value", "accepted"),
    [
        ("DEBUG", "maybe", "1, true, yes, on; or 0, false, no, off"),
        ("KAIZA_DB_THREADS", "two", "a whole number >= 1"),
        ("KAIZA_DB_THREADS", "0", "a whole number >= 1"),
        ("KAIZA_BOT_WORKERS", "2.5", "a whole number >= 1"),
        ("KAIZA_BOT_PACE", "nan", "a number >= 0"),
        ("KAIZA_SWITCH_INTERVAL", "0", "a number of seconds > 0"),
        ("EMAIL_PORT", "70000", "a whole number from 1 to 65535"),
        ("KAIZA_CLUB_TIME_ZONE", "Europe/Atlantis", "an IANA time zone name"),
        ("KAIZA_CLUB_LANGUAGE", "sv", "one of en, fi, ru"),
        ("ACCOUNT_EMAIL_VERIFICATION", "always", "none, optional or mandatory"),
        ("KAIZA_CHANNEL_LAYER", "redis", "kaiza or pubsub"),
        ("KAIZA_GC_THRESHOLD", "700,10", "three whole numbers"),
        ("KAIZA_RATE_LIMITS", '{"guest_create": {"ip": 1000}}', "a JSON object"),
        ("KAIZA_RATE_LIMITS", "not json", "a JSON object"),
        ("KAIZA_SOCKET_LIMITS", '{"match": {"tab": 4}}', "a JSON object"),
        ("KAIZA_MESSAGE_BUDGETS", '{"user:chat": [1, 1]}', "a JSON object"),
        ("KAIZA_ANIMATION_RATE", "0.5", "a number >= 1"),
        ("LOG_LEVEL", "loud", "DEBUG, INFO, WARNING, ERROR or CRITICAL"),
    ],
)
def test_a_bad_value_is_refused_in_one_line(name: str, value: str, accepted: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Config.from_environ({name: value})
    message = str(refused.value)
    assert message.startswith(f"{name}={value!r} is not accepted: ")
    assert accepted in message
    assert "\n" not in message


def test_a_secret_is_not_repeated_in_the_refusal() -> None:
    with pytest.raises(ConfigError) as refused:
        Config.from_environ({"DATABASE_URL": "mysqlx://kaiza:hunter2@db/kaiza"})
    assert "hunter2" not in str(refused.value)
    assert str(refused.value).startswith("DATABASE_URL is not accepted: a database URL")


def test_production_needs_its_own_secret_key() -> None:
    with pytest.raises(ConfigError, match="SECRET_KEY"):
        Config.from_environ({"DEBUG": "0"})
    assert Config.from_environ({"DEBUG": "0", "SECRET_KEY": "s3cret"}).production.secret_key == "s3cret"


def test_the_process_stops_with_one_line_and_no_traceback() -> None:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "kaiza_site.settings", "KAIZA_DB_THREADS": "two"}
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "Kaiza cannot start: KAIZA_DB_THREADS='two' is not accepted: a whole number >= 1."
    ]
