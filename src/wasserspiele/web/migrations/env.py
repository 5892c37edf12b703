"""Alembic environment: the app passes its connection in `config.attributes`."""

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the app always passes one
    raise RuntimeError("run migrations through wasserspiele.web.storage.migrate(engine)")
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
