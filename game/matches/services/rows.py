"""The input path's statements, written once by hand: the hottest writes of the site.

Every player input and server clock takes the same few statements (game.matches.services.inputs): read the
locked Match row with what the input needs to know beside it, store the event, store the Shot row, save the
changed columns. Through the ORM each of them cost about a millisecond of query building on the database
thread of a daphne process, and that thread shares the GIL with the event loop that relays every aim (7
statements took 15 ms of CPU per input, most of it Django compiling queries). Here the SQL is built once per
model and column list from the models' own metadata (table, column and field names stay in game.models, their
one home), values go through each field's own `get_db_prep_save` (JSON, dates and booleans stay Django's
business), and the read is one statement instead of three.

Works on PostgreSQL and SQLite alike (plain SQL; `FOR UPDATE` only where the database has it).

On PostgreSQL the writes of an input (a player's or a server clock's) that does not end the match go
out as one statement (`batched_writes`): the event, the row's columns and the Shot row are the parts of
one `WITH w0 AS (INSERT ...), w1 AS (UPDATE ...) INSERT ...` statement, one round trip, one execution,
one prepared plan. Under
the load benchmark the one database thread of a daphne process spent more of each input waiting on
round trips than running Python, and each statement's trip through psycopg and Django cost the thread
more again (docs/decisions/input-writes-in-one-statement.md). The statements are prepared (`_cursor`):
PostgreSQL parses and plans each once per pooled connection, not once per input.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, JSONField, Model

from game.common import json_text
from game.matches.selectors.match_state import AnyUser, fresh_since, seats_present
from game.models import Match, MatchConnection, Profile, Shot

__all__ = ["JsonText", "LockedInput", "batched_writes", "insert_row", "lock_for_input", "update_row"]


def _db() -> BaseDatabaseWrapper:
    """The default database's connection of this thread, looked up once per statement: `django.db.connection`
    is a proxy that finds it again (an asgiref Local lookup) at every attribute read, and the fields'
    `get_db_prep_save` and the cursor set-up read it dozens of times per input (about a twentieth of an
    input's CPU on the database thread in py-spy)."""
    return connections[DEFAULT_DB_ALIAS]


def _quote(name: str) -> str:
    return _db().ops.quote_name(name)


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field), f"{model.__name__}.{name} is not a concrete field"
    return _quote(field.column)


@functools.lru_cache(maxsize=64)
def _insert_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> str:
    columns = ", ".join(_column(model, name) for name in names)
    marks = ", ".join(["%s"] * len(names))
    return f"INSERT INTO {_quote(model._meta.db_table)} ({columns}) VALUES ({marks})"


@functools.lru_cache(maxsize=64)
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> str:
    sets = ", ".join(f"{_column(model, name)} = %s" for name in names)
    pk = _quote(model._meta.pk.column)
    return f"UPDATE {_quote(model._meta.db_table)} SET {sets} WHERE {pk} = %s"


class JsonText(str):
    """A JSON field's value already encoded (the text of a JSON value): stored as it is, where the
    field would encode its value again. An input's event is encoded once for its row and its broadcast
    (game.matches.services.base.store_event)."""

    __slots__ = ()


def _prepared(db: BaseDatabaseWrapper, model: type[Model], values: Mapping[str, Any]) -> list[Any]:
    """Each value as its field sends it (`get_db_prep_save`), but a JSON value (not None, which is SQL
    NULL) encoded by game.common.json_text: the same JSON, about a ninth of `json.dumps`'s time."""
    params = []
    for name, value in values.items():
        field = model._meta.get_field(name)
        if isinstance(value, JsonText):
            params.append(_json_param(db, value))
        elif value is not None and isinstance(field, JSONField):
            params.append(_json_param(db, JsonText(json_text.encode(value))))
        else:
            params.append(field.get_db_prep_save(value, db))  # type: ignore[union-attr]
    return params


def _json_param(db: BaseDatabaseWrapper, text: JsonText) -> Any:
    """The parameter of an encoded JSON value: on PostgreSQL psycopg's `Jsonb` with the text as its
    `dumps` result (what Django's JSONField sends, less the encoding); elsewhere (SQLite) the text,
    which is what the field stores there."""
    if db.vendor != "postgresql":
        return str(text)
    return _jsonb()(text, dumps=str)


@functools.cache
def _jsonb() -> type[Any]:
    """psycopg's `Jsonb` wrapper, imported once (psycopg is there only with PostgreSQL)."""
    from psycopg.types.json import Jsonb

    return Jsonb


def _cursor(connection: BaseDatabaseWrapper) -> Any:
    """Django's cursor (its error classes, its query log); on PostgreSQL over a psycopg cursor that binds
    its parameters on the server and prepares each statement on its connection the first time it runs
    there, so the input path's statements are parsed and planned once per pooled connection instead of
    on every input. Django's own cursors bind on the client and cannot prepare; its
    `server_side_binding` option would change every query of the site, and these few are ours."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    connection.ensure_connection()
    preparing, timezone_of = _preparing()
    raw = preparing(connection.connection)
    if timezone_of(raw) != connection.timezone:
        # The connection's time zone moved since it opened (Django then gives its cursors a loader
        # of their own): leave that case to Django's cursor.
        raw.close()
        return connection.cursor()
    return connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)


@functools.cache
def _preparing() -> tuple[type[Any], Callable[[Any], Any]]:
    """The preparing cursor class, and how to read the time zone its `timestamptz` values load in."""
    import psycopg

    timestamptz = psycopg.postgres.types["timestamptz"].oid

    class PreparingCursor(psycopg.Cursor[Any]):
        """Server-side binding with every statement prepared (`prepare=True`): Django turns psycopg's
        own preparing after five runs off (`prepare_threshold` None, for poolers such as PgBouncer in
        transaction mode, which this site does not use)."""

        def execute(
            self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
        ) -> Any:
            return super().execute(query, params, prepare=True if prepare is None else prepare, binary=binary)

    def timezone_of(cursor: Any) -> Any:
        return getattr(cursor.adapters.get_loader(timestamptz, psycopg.pq.Format.TEXT), "timezone", None)

    return PreparingCursor, timezone_of


#: The writes `batched_writes` holds back until its block ends: each as its SQL and its parameters.
_HELD: ContextVar[list[tuple[str, list[Any]]] | None] = ContextVar("kaiza_held_writes", default=None)


def insert_row(model: type[Model], values: Mapping[str, Any]) -> None:
    """INSERT one row of `model`: `values` by field name (a foreign key by its field name, with the
    related row's primary key as the value)."""
    db = _db()
    _write(db, _insert_sql(model, tuple(values), db.vendor), _prepared(db, model, values))


def update_row(model: type[Model], pk: Any, values: Mapping[str, Any]) -> None:
    """UPDATE the named fields of one row of `model`."""
    db = _db()
    _write(db, _update_sql(model, tuple(values), db.vendor), [*_prepared(db, model, values), pk])


def _write(db: BaseDatabaseWrapper, sql: str, params: list[Any]) -> None:
    held = _HELD.get()
    if held is not None:
        held.append((sql, params))
        return
    with _cursor(db) as cursor:
        cursor.execute(sql, params)


@contextmanager
def batched_writes() -> Iterator[None]:
    """On PostgreSQL, hold the writes made inside (`insert_row`, `update_row`) and send them at the end
    of the block as one statement (`_merged_sql`); elsewhere (SQLite, which has no writes inside `WITH`)
    they run one by one as always.

    Only for writes whose results nobody reads inside, and only these two. Any other statement inside
    runs at once, before the held writes, so it must not read what they write (the input path reads
    only the connection rows and a tournament's teams in it, neither of which it writes) and must not
    write what a later held write reads back. A failure (a unique clash: `duplicate`) surfaces at the
    end of the block, as Django's own error class; a block left by an exception sends nothing."""
    db = _db()
    if db.vendor != "postgresql" or _HELD.get() is not None:
        yield
        return
    held: list[tuple[str, list[Any]]] = []
    token = _HELD.set(held)
    try:
        yield
    finally:
        _HELD.reset(token)
    if not held:
        return
    with _cursor(db) as cursor:
        cursor.execute(_merged_sql(tuple(sql for sql, _ in held)), [param for _, params in held for param in params])


@functools.lru_cache(maxsize=64)
def _merged_sql(statements: tuple[str, ...]) -> str:
    """Writes as one PostgreSQL statement: all but the last as data-modifying `WITH` parts, the last as
    the statement itself. PostgreSQL runs every part exactly once, whether or not anything reads it, all
    on the same snapshot; these parts write distinct rows, so their order does not matter. Unique and
    foreign-key checks are those of the separate statements. Its parameters are the parts' in the same
    order; the few shapes an input takes (one event, or a few notices beside it) are each prepared once."""
    if len(statements) == 1:
        return statements[0]
    parts = ", ".join(f"w{index} AS ({sql})" for index, sql in enumerate(statements[:-1]))
    return f"WITH {parts} {statements[-1]}"


@functools.lru_cache(maxsize=4)
def _match_plan(vendor: str) -> tuple[tuple[str, ...], tuple[tuple[Any, tuple[Any, ...]], ...]]:
    """The Match columns in order (attribute names) and, per column, the converters Django applies to
    what the database returns (JSON text to objects, SQLite's integers to booleans and dates): the
    same lists the ORM's compiler would build for the row, built once instead of for every read."""
    attnames, plan = [], []
    connection = _db()
    for field in Match._meta.concrete_fields:
        column = field.get_col("m")
        converters = tuple(connection.ops.get_db_converters(column) + column.get_db_converters(connection))
        if isinstance(field, JSONField) and connection.vendor == "postgresql":
            # The snapshot, read on every input: its JSON text (Django's loader for jsonb) decoded by
            # game.common.json_text, the same value as the field's `json.loads` in about 40% of its time.
            converters = (_json_value,)
        attnames.append(field.attname)
        plan.append((column, converters))
    return tuple(attnames), tuple(plan)


def _json_value(value: Any, expression: Any, connection: Any) -> Any:
    return None if value is None else json_text.decode(value)


@functools.lru_cache(maxsize=4)
def _lock_sql(vendor: str, for_update: bool) -> str:
    def table(model: type[Model]) -> str:
        return _quote(model._meta.db_table)

    col = _column

    shot, conn, profile = table(Shot), table(MatchConnection), table(Profile)
    match_pk = f"m.{col(Match, 'id')}"
    columns = ", ".join(f"m.{_quote(field.column)}" for field in Match._meta.concrete_fields)

    def live(seat: int) -> str:
        return (
            f"EXISTS (SELECT 1 FROM {conn} c WHERE c.{col(MatchConnection, 'match')} = {match_pk}"
            f" AND c.{col(MatchConnection, 'seat')} = {seat} AND c.{col(MatchConnection, 'seen_at')} >= %s)"
        )

    def bot(player: str) -> str:
        return (
            f"EXISTS (SELECT 1 FROM {profile} p WHERE p.{col(Profile, 'user')} = m.{col(Match, player)}"
            f" AND p.{col(Profile, 'is_bot')})"
        )

    return (
        f"SELECT {columns},"
        f" (SELECT MAX(s.{col(Shot, 'seq')}) FROM {shot} s WHERE s.{col(Shot, 'match')} = {match_pk}),"
        f" (SELECT MAX(s.{col(Shot, 'version')}) FROM {shot} s WHERE s.{col(Shot, 'match')} = {match_pk}"
        f" AND s.{col(Shot, 'player')} = %s AND s.{col(Shot, 'ack')} = %s),"
        f" {live(0)}, {live(1)}, {bot('player1')}, {bot('player2')}"
        f" FROM {table(Match)} m WHERE {match_pk} = %s" + (" FOR UPDATE" if for_update else "")
    )


class LockedInput:
    """The locked Match row and what an input needs beside it, read in one statement: the next input's
    seq, the version of an input this player already sent with the same ack, and the seats that are
    there (a live socket in any process, or a bot)."""

    __slots__ = ("connected", "match", "next_seq", "stored_version")

    def __init__(self, match: Match, next_seq: int, stored_version: int | None, connected: set[int]) -> None:
        self.match = match
        self.next_seq = next_seq
        self.stored_version = stored_version
        self.connected = connected


def lock_for_input(match_id: str, user: AnyUser | None, ack: int | None) -> LockedInput | None:
    """The Match row locked until the transaction ends (as `base.lock`), with the input's context;
    None when there is no such match."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    fresh = fresh_since()
    connection = _db()
    vendor = connection.vendor
    sql = _lock_sql(vendor, bool(connection.features.has_select_for_update))
    with _cursor(connection) as cursor:
        cursor.execute(sql, [user_id, ack, fresh, fresh, match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    attnames, plan = _match_plan(vendor)
    values = []
    for value, (column, converters) in zip(row, plan, strict=False):
        for converter in converters:
            value = converter(value, column, connection)
        values.append(value)
    match = Match.from_db(connection.alias, attnames, values)
    top, stored, live_0, live_1, bot_0, bot_1 = row[len(plan) :]
    connected = seats_present(
        (seat for seat, live in enumerate((live_0, live_1)) if live),
        (seat for seat, bot in enumerate((bot_0, bot_1)) if bot),
    )
    return LockedInput(match, (top or 0) + 1, None if ack is None else stored, connected)
