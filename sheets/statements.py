"""The few statements every page and edit runs, built by Django once per database.

An edit reads its character by key (locked), writes it back and adds one revision. Django
builds each such statement afresh every time, and building it costs more than running it:
0.23 of the 0.26 ms a read by key took, about 0.09 of the 0.15 ms an update took. So the
statement Django builds is kept, per model, database and set of fields, and only run
again with the row's values, which each field still prepares the way `save()` does
(`get_db_prep_save`, `pre_save` for `auto_now`). The values are all a statement changes
with: one whose text depended on its values would not be kept (`_kept_statement`).

What `save()` does besides is not done here: no `pre_save`/`post_save` signals are sent
(nothing in Datapad listens for its models' signals; a receiver added one day for
Character or Revision must be connected to these writes too).
"""

from __future__ import annotations

from typing import TypeVar

from django.db import DatabaseError, connections, router
from django.db.models import Model
from django.db.models.sql import InsertQuery, UpdateQuery

M = TypeVar("M", bound=Model)


def row_by_key(model: type[M], key: object, *, for_update: bool = False) -> M | None:
    """The row of `model` with this primary key, or None; locked with `for_update` (inside
    a transaction). The ORM's own raw() makes the instance, field conversions included."""
    value = model._meta.pk.get_prep_value(key)
    alias = router.db_for_write(model) if for_update else router.db_for_read(model)
    connection = connections[alias]
    if isinstance(value, int):
        # A key past what the column holds names no row (SQLite would refuse to bind it).
        low, high = connection.ops.integer_field_range(model._meta.pk.get_internal_type())
        if not low <= value <= high:
            return None
    statement_key = ("select", model, alias, connection.vendor, for_update)
    statement = _STATEMENTS.get(statement_key)
    if statement is None:
        # Built where it is first run: Django builds a locking read only in a transaction.
        rows = model.objects.using(alias).filter(pk=0).order_by()
        if for_update:
            rows = rows.select_for_update()
        statement = _keep(statement_key, *rows.query.get_compiler(alias).as_sql(), values=1)
    found = list(model.objects.using(alias).raw(statement, [value]))
    return found[0] if found else None


def update_row(instance: Model, field_names: tuple[str, ...]) -> None:
    """Write these fields of a stored row, as `save(update_fields=...)` would."""
    model = type(instance)
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    fields = [model._meta.get_field(name) for name in field_names]
    values = [field.pre_save(instance, False) for field in fields]
    _plain(values)
    pairs = list(zip(fields, values, strict=True))
    key = ("update", model, alias, connection.vendor, field_names)
    statement = _STATEMENTS.get(key)
    if statement is None:
        query = model.objects.using(alias).filter(pk=0).order_by().query.chain(UpdateQuery)
        query.add_update_fields([(field, None, value) for field, value in pairs])
        statement = _keep(key, *query.get_compiler(alias).as_sql(), values=len(fields) + 1)
    params = [field.get_db_prep_save(value, connection) for field, value in pairs]
    params.append(model._meta.pk.get_db_prep_value(instance.pk, connection))
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        if cursor.rowcount != 1:
            raise DatabaseError(f"{model.__name__} {instance.pk} was not there to update.")


def insert_row(instance: M) -> M:
    """Store a new row, as `save()` of a new instance would, and give it its key."""
    model = type(instance)
    meta = model._meta
    alias = router.db_for_write(model, instance=instance)
    connection = connections[alias]
    if not connection.features.can_return_columns_from_insert or instance.pk is not None:
        instance.save(force_insert=True, using=alias)
        return instance
    fields = [field for field in meta.local_concrete_fields if field is not meta.auto_field]
    values = [field.pre_save(instance, True) for field in fields]
    _plain(values)
    key = ("insert", model, alias, connection.vendor)
    statement = _STATEMENTS.get(key)
    if statement is None:
        query = InsertQuery(model)
        query.insert_values(fields, [instance])
        compiler = query.get_compiler(alias)
        compiler.returning_fields = [meta.pk]
        ((built, params),) = compiler.as_sql()
        statement = _keep(key, built, params, values=len(fields))
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values, strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        (instance.pk,) = connection.ops.fetch_returned_insert_columns(cursor, ())
    instance._state.adding = False
    instance._state.db = alias
    return instance


def _plain(values: list) -> None:
    # An expression (F("version") + 1) writes SQL of its own, which a kept statement lacks.
    if any(hasattr(value, "resolve_expression") for value in values):
        raise TypeError("a kept statement writes plain values, not expressions")


# Statements built for a model, database and fields: a handful in all.
_STATEMENTS: dict[tuple, str] = {}


def _keep(key: tuple, statement: str, params: tuple | list, *, values: int) -> str:
    """Keep a statement built with plain values: one placeholder per value, in order. One
    whose values were expressions (F(), a subquery) is refused rather than kept."""
    if len(params) != values or statement.count("%s") != values:
        raise DatabaseError(f"not a statement to keep: {statement[:80]}")
    _STATEMENTS[key] = statement
    return statement
