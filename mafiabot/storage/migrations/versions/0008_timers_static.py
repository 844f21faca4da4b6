"""A running game's clock in two parts: the few values that move each step, and the rest (issue 18).

Revision ID: 0008_timers_static
Revises: 0007_bot_state
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision: str = "0008_timers_static"
down_revision: str | None = "0007_bot_state"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A game stored before keeps its whole clock in ``timers``: read as it is (the static part empty).
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("timers_static", sa.JSON(), server_default=sa.text("'{}'"), nullable=False)
        )


def downgrade() -> None:
    # The static part goes back into ``timers`` (what the clock there does not say itself), then away.
    games = sa.table(
        "games", sa.column("id"), sa.column("timers", sa.JSON()), sa.column("timers_static", sa.JSON())
    )
    connection = op.get_bind()
    rows = connection.execute(sa.select(games.c.id, games.c.timers, games.c.timers_static)).all()
    for game_id, timers, static in rows:
        if static:
            merged = {**static, **(timers or {})}
            connection.execute(sa.update(games).where(games.c.id == game_id).values(timers=merged))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("timers_static")
