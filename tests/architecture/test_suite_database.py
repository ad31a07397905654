"""The suite's own database backend on PostgreSQL (tests/support/pg_flush_by_delete): a transactional
test's database is emptied with DELETE, not TRUNCATE, and is empty all the same."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, connections

from game.models import Club
from tests.support.community_factories import make_club, make_player

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_transactional_tests_database_is_emptied_by_delete_on_postgresql() -> None:
    """Django's `flush` (what pytest-django runs after a `transaction=True` test) on the suite's backend:
    on PostgreSQL one DELETE a table, no TRUNCATE (270-320 ms a test on this machine), and the rows a
    test wrote, with foreign keys between them, are gone. On SQLite the flush is Django's own."""
    owner = make_player("Flush")
    make_club("Flush club", owner, members=(make_player("Member"),))
    assert Club.objects.exists()
    statements: list[str] = []

    def watch(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append(sql.split()[0].upper())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        # As TransactionTestCase._fixture_teardown calls it (its own sequences are left as they are).
        call_command(
            "flush",
            interactive=False,
            verbosity=0,
            reset_sequences=False,
            allow_cascade=False,
            inhibit_post_migrate=True,
        )
    assert not Club.objects.exists() and not type(owner).objects.exists()
    if connection.vendor == "postgresql":
        assert type(connections["default"]).__module__ == "tests.support.pg_flush_by_delete.base"
        assert "TRUNCATE" not in statements and statements.count("DELETE") >= 30, statements
