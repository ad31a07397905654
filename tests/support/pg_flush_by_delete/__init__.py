"""Django's PostgreSQL backend for the test suite, with one difference: a test database is emptied with
`DELETE FROM` each table instead of one `TRUNCATE`.

pytest-django empties the database after every `transaction=True` test (Django's `flush`); on
PostgreSQL that is a `TRUNCATE` of all 36 tables, which gives each table and index new files and
waits for them on disk: 270-320 ms a test on this machine, while the few rows a test leaves take a
millisecond to delete. Django creates its foreign keys `DEFERRABLE INITIALLY DEFERRED` and runs the
flush in one transaction, so the order of the deletes does not matter. Where a flush must also restart
the sequences or cascade to tables outside its list, Django's own `TRUNCATE` runs as before.

A supported extension point (a backend subclassing a built-in one), used only by the tests
(tests/conftest.py `django_db_modify_db_settings`); the site and its test servers use Django's backend.
"""
