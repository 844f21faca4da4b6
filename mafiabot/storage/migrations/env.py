"""Alembic environment: runs on the connection that `mafiabot.storage.migrate` hands over."""

from alembic import context
from sqlalchemy import Connection
from sqlmodel import SQLModel

import mafiabot.storage.models  # noqa: F401  (registers the tables on SQLModel.metadata)

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run migrations through mafiabot.storage.migrate (upgrade/downgrade/revision)")

context.configure(
    connection=connection,
    target_metadata=SQLModel.metadata,
    compare_type=True,
    # SQLite cannot ALTER most things in place; batch mode copies the table.
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
